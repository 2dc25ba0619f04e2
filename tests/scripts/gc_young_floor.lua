-- lua: 5.4
-- A nursery collection scans a running stack from its young floor up: the
-- lowest slot the frame running at the last collection could write
-- (state.h, young_floor). Returning into a frame below must lower the
-- floor first, or the next collection misses the young objects that frame
-- then stores into its own slots: they are freed or moved without the slot
-- following them. Every case below stores fresh objects into the slots of
-- frames that were below the floor at the last collection, then makes
-- enough garbage for more collections, then checks the objects. Under the
-- test runner's debug columns (collect-every with verify; tiny-nursery)
-- the verifier reports a young object under the floor at once, and
-- poisoned memory breaks the checks. On stock Lua the same output is
-- expected.

-- garbage: 256 tables of 2 fields and a string each, about 24 KB. Under
-- the debug columns, which collect every thousand allocations anyway
-- and verify the heap each time, a third of that: 3,700 verified
-- collections instead of 9,500, most of them with the deep stacks below.
local CHURN_SHARE = os.getenv("TIDE_GC_DEBUG") and 3 or 1
local function churn(n)
    local keep
    for i = 1, (n or 256) // CHURN_SHARE do keep = { i, tostring(i) } end
    return keep
end

-- 1. returns: the deepest frame collects, then every frame on the way up
-- stores a fresh table into its local and churns
local function climb(n)
    if n == 0 then
        for _ = 1, 200 do churn() end -- collections with 400 frames below
        return 0
    end
    local mine = { n = n }
    local sum = climb(n - 1)
    mine = { n = n, s = "frame " .. n } -- into this frame's slot, after the return
    churn(64)
    assert(mine.s == "frame " .. mine.n and mine.n == n, "a frame's fresh local was lost")
    return sum + n
end
print("returns", climb(400) == 400 * 401 // 2) -- expect: returns	true

-- 2. vararg frames: their varargs lie below their function slot; a tail
-- call and a return move values down into them
local function tail_target(n, t, ...)
    churn(64)
    assert(t.n == n and select("#", ...) == 3, "a tail call's argument was lost")
    return t, ...
end
local function varframe(n, ...)
    local inner
    if n > 0 then
        inner = { varframe(n - 1, { n }, "s" .. n, ...) } -- results land in this frame
    else
        for _ = 1, 100 do churn() end
        inner = {}
    end
    churn(32)
    assert(#inner == 0 or inner[1].n == n - 1, "a vararg frame's result was lost")
    return tail_target(n, { n = n }, { n }, "t" .. n, select("#", ...))
end
local r = { varframe(150) }
print("varargs", r[1].n, r[2][1], r[3], r[4]) -- expect: varargs	150	150	t150	0

-- 3. errors caught below the floor: the error value and what the catching
-- frame stores after it land in slots a collection with the deep stack
-- left unscanned
local function fail_deep(n)
    if n == 0 then
        for _ = 1, 100 do churn() end
        error({ msg = "deep " .. tostring(n) })
    end
    local pad = { n }
    fail_deep(n - 1)
    return pad
end
local caught = 0
for round = 1, 20 do
    local ok, err = pcall(fail_deep, 200)
    local after = { round = round, s = "after " .. round }
    churn(128)
    assert(not ok and err.msg == "deep 0", "an error value was lost")
    assert(after.s == "after " .. after.round, "a local stored after an error was lost")
    caught = caught + 1
end
print("errors", caught) -- expect: errors	20

-- 4. coroutines yielding from deep frames: the resumer's frames, and the
-- coroutine's own frames once it unwinds, get fresh values after
-- collections that saw them deep
local function dig(n)
    if n == 0 then
        coroutine.yield(churn())
        for _ = 1, 50 do churn() end
        coroutine.yield()
        coroutine.yield(churn())
        return 0
    end
    local mine = { n }
    local sum = dig(n - 1)
    mine = { n, "dug " .. n }
    churn(16)
    assert(mine[2] == "dug " .. mine[1], "a coroutine frame's fresh local was lost")
    return sum + mine[1]
end
local cos = {}
for c = 1, 30 do
    cos[c] = coroutine.create(dig)
    assert(coroutine.resume(cos[c], 100))
end
local totals = 0
for step = 1, 3 do
    for c = 1, 30 do
        local fresh = { c, step }
        local ok, v = coroutine.resume(cos[c])
        assert(ok, v)
        churn(32)
        assert(fresh[1] == c and fresh[2] == step, "the resumer's fresh local was lost")
        if step == 3 then totals = totals + v end
    end
end
print("coroutines", totals == 30 * 100 * 101 // 2) -- expect: coroutines	true

-- 5. debug.setlocal into a frame below the running one, after the
-- running frame collected
local function setter(level)
    for _ = 1, 100 do churn() end
    debug.setlocal(level, 1, { "set from above" }) -- the caller's first local
    churn(256)
end
local function holder()
    local target = false
    setter(2)
    churn(256)
    return target[1]
end
print("setlocal", holder()) -- expect: setlocal	set from above

-- 6. a vararg frame's tail call moves the callee down into the frame's
-- extra arguments, below its function slot. Between collections the floor
-- rises over slots found to hold nothing old (the allocation slow path,
-- gc/alloc.c) and stops at the first young one, here the last extra
-- argument; the tail call's fresh argument lands below it.
local old_args = {}
for i = 1, 10 do old_args[i] = { i } end
collectgarbage()
local function callee(t)
    for _ = 1, 40 do -- about 1 MB: collections now, and the memory reused
        churn()
        assert(t.s == "tail " .. t.i, "a tail call's fresh argument was lost")
    end
    return t.i
end
local function spender(n)
    churn(n) -- the slow path raises the floor every 64 KB (and collections
             -- come at different points for different n)
end
local function vararg_caller(i, ...)
    spender(i * 97)
    return callee({ i = i, s = "tail " .. i })
end
local tails = 0
for i = 1, 60 do
    local u = table.unpack
    tails = tails + vararg_caller(i, u(old_args, 1, 10), { "young" })
end
print("tail calls", tails) -- expect: tail calls	1830

-- 7. a young open upvalue low on the stack, thousands of old values above
-- it: the slow path steps over the upvalue's slot (the collection relinks
-- the thread's open upvalues from its floor up, and must meet this one)
local olds = {}
for i = 1, 3000 do olds[i] = { i } end
collectgarbage()
local function hold_many(...)
    for _ = 1, 30 do churn() end -- about 700 KB while the old values wait below
    return select("#", ...)
end
local upvalues_ok = 0
for round = 1, 10 do
    local captured = round -- not an object: only the upvalue below is young
    local function get() return captured end -- a fresh closure: its open upvalue is young
    local n = hold_many(table.unpack(olds))
    captured = round * 10 -- through the slot the upvalue names
    churn(256)
    if n == 3000 and get() == round * 10 then upvalues_ok = upvalues_ok + 1 end
end
print("open upvalues", upvalues_ok) -- expect: open upvalues	10
