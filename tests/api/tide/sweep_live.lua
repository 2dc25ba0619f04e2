-- API test (libtide only): a cycle's live size is what its mark kept, not
-- the heap its lazy sweep ended with, and the sweep keeps pace with
-- allocation (gc/collect.c, gc_set_thresholds; gc/cycle.c, sweep_step).
-- Garbage made while a sweep runs is in the heap when the sweep ends:
-- short-lived coroutines are born old, and records in a ring outlive a
-- nursery collection or two and die old. Taking that heap for the live
-- size made each cycle's threshold twice the last one's heap: 300,000
-- such coroutines grew the heap to 120 MB around 0.5 MB of live data.
-- And dead large objects must go back as fast as a program makes new ones
-- (gc/alloc.c, gc_alloc_old). The cycles mark on the program's thread
-- (sweep_live.c): with the worker, what a cycle finds live includes all
-- that was made while it marked, and how long that is depends on the
-- processor time the worker gets.
local gp = require("gc_pacing")
local sl = require("sweep_live")
sl.no_worker()
-- (TIDE_GC_DEBUG's modes collect every few allocations or run cycles back
-- to back: no pacing to see, and a thirtieth of the work)
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil
local scale = debug_modes and 30 or 1

local function live_now()
    collectgarbage()
    return collectgarbage("count") * 1024
end

-- The most live bytes the cycles reported and the largest old generation
-- while [churn] ran; and how many cycles ended their mark.
local function watch_cycles(churn, n, every)
    local worst_live, peak = 0, 0
    local first = sl.cycles()
    local live_before = gp.pacing().live
    for i = 1, n do
        churn(i)
        if i % every == 0 then
            local p = gp.pacing()
            if p.old > peak then peak = p.old end
            if p.live ~= live_before and p.live > worst_live then worst_live = p.live end
        end
    end
    return sl.cycles() - first, worst_live, peak
end

local keep = {}
for i = 1, 20000 do keep[i] = { i, i + 1 } end

-- 1. coroutines that live for two resumes (born old, each with a stack)
local made = 0
local live1 = live_now()
local cycles1, live_seen1, peak1 = watch_cycles(function(i)
    local co = coroutine.create(function(a) return coroutine.yield(a) + 1 end)
    local _, a = coroutine.resume(co, i)
    local _, b = coroutine.resume(co, a)
    made = made + b - i
end, 150000 // scale, 64)

-- 2. records promoted, then dropped from a ring
local ring = {}
for i = 1, 30000 do ring[i] = { i, "r" } end
local live2 = live_now()
local cycles2, live_seen2, peak2 = watch_cycles(function(i)
    ring[i % 30000 + 1] = { i, "r" }
end, 1500000 // scale, 256)

-- 3. large strings made one after another (each ~42 KB, born in the
-- large-object space), dead at once. (Little else lives from here on: a
-- mark of the ring took 10 ms in a Debug build, and everything made
-- meanwhile is live for it.)
ring, keep = nil, nil
local parts = {}
for i = 1, 400 do parts[i] = string.rep("x", 100) .. i end
local live3 = live_now()
local length = 0
local cycles3, _, peak3 = watch_cycles(function()
    local s = table.concat(parts, "\n")
    length = length + #s:gsub("x", "y", 10)
end, 20000 // scale, 16)

-- (a failed check prints what it saw)
local function check(ok, ...)
    if ok then print(true) else print(false, ...) end
end

check(made == 150000 // scale)                                  -- expect: true
check(length == 20000 // scale * 41491)                         -- expect: true
check(debug_modes or (cycles1 >= 3 and cycles2 >= 3 and cycles3 >= 3), cycles1, cycles2, cycles3) -- expect: true
-- The live size each cycle found: what the program keeps, and what was
-- made while the cycle marked (1.4-1.8x here). Before: 15x in part 1 (44
-- MB against 2.8), 10x in part 2.
check(debug_modes or live_seen1 < 3 * live1 + (4 << 20), live_seen1, live1) -- expect: true
check(debug_modes or live_seen2 < 3 * live2 + (4 << 20), live_seen2, live2) -- expect: true
-- The old generation stays within a few times that (2.4x and 3.3x here;
-- before: 67 MB in part 1, 75-94 MB in part 2).
check(debug_modes or peak1 < 4 * live1 + (8 << 20), peak1, live1) -- expect: true
check(debug_modes or peak2 < 4 * live2 + (8 << 20), peak2, live2) -- expect: true
-- Dead large blocks go back as fast as new ones come (1.9 MB here; before:
-- 1.66 GB of them waited, on 0.7 MB live; with the cycle's steps paced by
-- growth, which the blocks given back kept near 0, 490 MB).
check(debug_modes or peak3 < 4 * live3 + (16 << 20), peak3, live3) -- expect: true
