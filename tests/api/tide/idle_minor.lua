-- API test (libtide only, white-box): idle time collects the nursery when
-- it is at least half full (frames.c, idle_minor), so that the next frame
-- begins with an empty one; it leaves a nursery less than half full alone,
-- unless another frame like the last would not fit in what is left of it
-- (but would in an empty one), and makes no collection that does not fit
-- in the idle budget. Under the
-- runner's debug columns, which collect every few allocations, only the
-- survival of what the frames keep is checked.
local im = require("idle_minor")
local frame = require("nursery_budget").measure -- fn() inside one frame
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil

local kept = {}
local n = 0
local function allocate()
    n = n + 1
    local t = { n, n + 1, n + 2 }
    if n % 64 == 0 then kept[#kept + 1] = t end
end
-- Allocate in the current frame until the nursery has been collected and
-- then holds [share] of its budget; some of it is kept.
-- (Bounded: in the debug columns collections come every few allocations,
-- and the nursery may never get that full.)
local function fill(share)
    local cap = debug_modes and 3000 or im.budget() // 4 -- (verification at every collection is slow)
    local last, limit = im.used(), cap
    repeat
        allocate()
        local used = im.used()
        local collected = used < last
        last = used
        limit = limit - 1
    until collected or limit == 0
    local target = im.budget() * share
    limit = cap
    while im.used() < target and limit > 0 do
        allocate()
        limit = limit - 1
    end
end

-- Allocate about [share] of the budget in the current frame, by calls of
-- [make] (allocate, if nil).
local function allocate_share(share, make)
    make = make or allocate
    local want, start = im.budget() * share, im.allocated()
    local limit = debug_modes and 3000 or math.huge
    while im.allocated() - start < want and limit > 0 do
        make()
        limit = limit - 1
    end
end

-- frames that collect in the ordinary way first: the cost per byte is known
for _ = 1, debug_modes and 2 or 20 do frame(function() fill(0.9); fill(0.9) end) end

-- 1. At 60% of the budget, a 4 ms idle time collects the nursery.
frame(function() fill(0.6) end)
local minors = im.idle(4000)
print(debug_modes or minors == 1) -- expect: true
print(debug_modes or im.used() == 0) -- expect: true

-- 2. At 20%, after a frame that allocated 20% (another like it fits), it
-- does not.
frame(function() allocate_share(0.2) end)
minors = im.idle(4000)
print(debug_modes or minors == 0) -- expect: true
print(debug_modes or im.used() > 0) -- expect: true

-- 3. Over half full, but a 1-microsecond idle time is too short for it.
frame(function() fill(0.7) end)
minors = im.idle(1)
print(debug_modes or minors == 0) -- expect: true

-- 4. Under half full, but after a frame that allocated most of a budget
-- and collected in its middle (it began where case 3 left the nursery):
-- a frame like it would collect in its middle again, and every frame
-- after it; idle time collects now, and the next frame begins empty.
frame(function() fill(0.45) end)
local used, last, budget = im.used(), im.last_frame(), im.budget()
print(debug_modes or (used < budget / 2 and last <= budget and used + last > budget)) -- expect: true
minors = im.idle(4000)
print(debug_modes or minors == 1) -- expect: true

-- 5. Frames that allocate a little more than the budget (a tenth) make no
-- collection in their middle once the last one told how much they take:
-- the budget stretches for them (gc_nursery_stretch), and each one's
-- collection comes in the idle time after it.
-- (Each collection adapts the budget to the cost per byte it measured,
-- which the next frame's share follows. On a busy machine, or under
-- AddressSanitizer, that cost moves from frame to frame, and a frame whose
-- budget moved by more than the stretch allows still collects inside. So:
-- at least three of forty frames with no collection inside. Without the
-- stretch every one of them collects.)
im.idle(8000)
local quiet = 0
for _ = 1, 40 do
    local before = im.minors()
    frame(function() allocate_share(1.1) end)
    if im.minors() == before then quiet = quiet + 1 end
    im.idle(8000)
    if quiet == 3 then break end
end
print(debug_modes or quiet == 3) -- expect: true

-- 6. After a frame that promoted three budgets, idle time writes room
-- for promotion ahead (sweep.c, idle_reserve_blocks): for a frame like it
-- and a quarter more (8 MiB at most), with the next collection's room on top, which the
-- allocation checkpoints keep in hand all along — so that a frame like it
-- takes none of their steps (sweep-step pauses).
local chain
frame(function() allocate_share(3, function() chain = { next = chain } end) end)
im.idle(50000)
local room, promoted = im.reserve()
print(debug_modes or promoted > 2 * im.budget()) -- expect: true
-- (at most 8 MiB ahead for the frame: PROMOTION_RESERVE_MAX)
print(debug_modes or room >= math.min(promoted + promoted // 4, 8 * 1024 * 1024) + im.budget()) -- expect: true
local length = 0
while chain do length, chain = length + 1, chain.next end
print(length > 0) -- expect: true

-- What the frames kept survived the collections.
local ok = true
for i, t in ipairs(kept) do
    if t[2] ~= t[1] + 1 or t[3] ~= t[1] + 2 then ok = false end
end
print(ok and #kept > 0) -- expect: true
