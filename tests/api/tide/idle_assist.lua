-- API test (libtide only, white-box): the frame's safe points leave what
-- the worker hands back to idle time while the heap is short of its
-- threshold, and take their share again past it (cycle.c, gc_cycle_step).
-- Two thousand suspended coroutines are the work handed back: the worker
-- gives every thread to the game's thread, which scans its stack. Under
-- the runner's debug columns (collections every few allocations, marking
-- without the worker) only the survival of what the frames keep is
-- checked.
local ia = require("idle_assist")
local frame = require("nursery_budget").measure -- fn() inside one frame
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil

local world = {}
-- a few MB: the threshold is far (a tenth under the debug columns, which
-- verify the heap at every collection and check only the survival)
for i = 1, debug_modes and 10000 or 100000 do world[i] = { i } end
local cos = {}
for i = 1, 2000 do
    cos[i] = coroutine.wrap(function()
        local mine = { i }
        while true do coroutine.yield(mine[1]) end
    end)
    cos[i]()
end
collectgarbage()
collectgarbage() -- old

-- A frame's allocation, all kept: the old generation grows by about a
-- megabyte through promotion, past many of the safe points' step marks.
local kept = {}
local function grow()
    for i = 1, 20000 do kept[#kept + 1] = { i, i } end
end

-- (without a worker, TIDE_GC_DEBUG=no-worker, the mutator marks: nothing
-- is handed back, and only the survival is checked)
local worker = ia.begin_cycle()
local unchecked = debug_modes or not worker

-- 1. Short of the threshold: no mark step in the frames, and the mark
-- waits for the stacks.
frame(grow)
frame(grow)
print(unchecked or ia.steps() == 0 and ia.marking()) -- expect: true

-- 2. Idle time does the rest: the mark ends there.
for _ = 1, 200 do
    if not ia.marking() then break end
    ia.idle(5000)
end
print(unchecked or ia.steps() == 0 and not ia.marking()) -- expect: true
ia.finish()

-- 3. Past the threshold (in low-latency mode, where the heap may grow on
-- rather than the mark end in one pause), the frame's safe points share
-- the work out.
ia.low_latency(true)
ia.begin_cycle()
ia.behind()
frame(grow)
print(unchecked or ia.steps() > 0) -- expect: true
ia.finish()
ia.low_latency(false)

for i = 1, #cos do assert(cos[i]() == i) end
for i = 1, #kept, 997 do assert(kept[i][1] == kept[i][2]) end
