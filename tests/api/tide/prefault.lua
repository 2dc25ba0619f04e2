-- API test (libtide only, white-box): the worker faults in the pages the
-- major heap queues for it (gc_worker_prefault, gc/worker.c), so that a
-- nursery collection promoting into the reserve takes no page fault.
-- Three things must hold, each on fresh memory of the test's own:
--   1. queued pages become resident without the mutator touching them;
--   2. what the mutator writes into queued pages meanwhile survives (the
--      worker faults a page in without storing a value into it);
--   3. a cancelled range is not touched afterwards (the heap cancels an
--      arena's range before giving it back);
--   4. while the mutator holds the prefaulting (around its allocator's
--      calls, which may remap what the worker would fault in), no page is
--      faulted in, and afterwards the worker goes on;
--   5. the worker serves the queue from the middle of a long traversal (a
--      table of millions of entries), not only between objects.
-- Without a worker (TIDE_GC_DEBUG=no-worker) nothing is queued: the heap
-- writes the reserve itself.
local pf = require("prefault")

-- Wait, up to [seconds], for [region] to have [pages] resident pages; the
-- count seen last.
local function wait_resident(region, pages, seconds)
    local n = region:resident()
    for _ = 1, seconds * 200 do
        if n >= pages then break end
        pf.sleep(5)
        n = region:resident()
    end
    return n
end

-- Wait, up to 10 s, for the worker to pass everything queued.
local function drain()
    for _ = 1, 2000 do
        if pf.pending() == 0 then return end
        pf.sleep(5)
    end
    error("the worker did not get through its queue in 10 s")
end

if not pf.start() then
    local r = pf.region(64)
    assert(r:post() == 0, "no worker: nothing may be queued")
    return
end

-- 1. 1 MiB: 64 blocks of 16 KiB, 256 pages, none resident until the
-- worker gets to them.
do
    local r = pf.region(256)
    assert(r:resident() == 0, "fresh memory is not resident")
    local queued = r:post()
    assert(queued == 64, "64 blocks queued, got " .. queued)
    local n = wait_resident(r, 256, 10)
    assert(n == 256, "the worker faulted in " .. n .. " of 256 pages")
end

-- 2. 16 MiB queued, then written by the mutator at once, racing the
-- worker along the same pages: every word written is still there.
-- A worker that stored zeros to fault pages in would wipe the pages it
-- reaches after the mutator.
for round = 1, 3 do
    local r = pf.region(4096)
    local queued = r:post()
    r:fill(round)
    local n = wait_resident(r, 4096, 10)
    assert(n == 4096, "round " .. round .. ": " .. n .. " of 4096 pages resident")
    local bad = r:check(round)
    assert(bad == 0, "round " .. round .. ": " .. bad .. " pages lost what the mutator wrote (" .. queued .. " blocks queued)")
end

-- 3. A cancelled range is left alone. 48 MiB are queued, then 8 MiB
-- behind them, which are cancelled at once, while the worker is still on
-- the first range; once the worker has passed its whole queue, the second
-- range must still have the pages it had at the cancel. (A round in which
-- the worker reached the second range before the cancel proves less: up
-- to five rounds, until one cancels it untouched. A block the worker's
-- lock kept out of the queue is the caller's to write: the counts below
-- need not be whole.)
local untouched = false
for round = 1, 5 do
    drain() -- (what is left of the last case)
    local first, second = pf.region(12288), pf.region(2048)
    local queued_first, queued_second = first:post(), second:post()
    assert(queued_first > 0 and queued_second > 0, "both ranges queued")
    second:cancel()
    local at_cancel = second:resident()
    drain()
    local later = second:resident()
    assert(later == at_cancel, "round " .. round .. ": pages faulted in after the cancel: " .. at_cancel .. " then "
        .. later .. " (" .. queued_second .. " blocks queued)")
    if at_cancel == 0 then
        untouched = true
        break
    end
end
assert(untouched, "in five rounds the worker always reached the second range before its cancel")

-- 4. Held: 48 MiB queued, the worker under way, then held: the resident
-- count does not move until the release, and the whole range faults in
-- after it.
do
    drain()
    local r = pf.region(12288)
    assert(r:post_whole(), "queued")
    assert(pf.hold(), "held while the worker has pages queued")
    local at_hold = r:resident()
    pf.sleep(50)
    local later = r:resident()
    pf.release()
    assert(later == at_hold, "pages faulted in while held: " .. at_hold .. " then " .. later)
    drain()
    assert(later < 12288, "held before the worker was through (" .. later .. " pages resident)")
    assert(r:resident() == 12288, "the worker goes on after the release")
end

-- 5. A table of 4M entries is one object to the worker, traversed for
-- milliseconds. Held, 64 blocks are queued; the cycle begins and the
-- worker goes into the table; released, the worker must fault the pages
-- in from inside the table's traversal (a worker that served its queue
-- only between objects left them to wait for the whole table). A round in
-- which the worker is through the table before the release proves
-- nothing: up to five rounds, until one shows it.
do
    drain()
    local shared, big = {}, {}
    for i = 1, 1 << 22 do big[i] = shared end
    collectgarbage()
    collectgarbage() -- old: the worker's to traverse
    local shown = false
    for round = 1, 5 do
        local r = pf.region(256)
        assert(r:post() == 64, "64 blocks queued")
        local held = pf.hold()
        local before = pf.served_traversing()
        assert(pf.begin_cycle(), "the worker marks the cycle")
        pf.sleep(1) -- (into the table)
        if held then pf.release() end
        assert(wait_resident(r, 256, 10) == 256, "round " .. round .. ": the queued pages fault in")
        pf.end_cycle()
        if held and pf.served_traversing() > before then
            shown = true
            break
        end
    end
    assert(shown, "in five rounds the worker never served its queue from inside the table")
    assert(#big == 1 << 22 and big[1 << 22] == shared)
end

-- The worker still works after a cancel and a hold.
do
    local r = pf.region(64)
    assert(r:post() == 16)
    assert(wait_resident(r, 64, 10) == 64, "queued pages after a cancel fault in")
end
