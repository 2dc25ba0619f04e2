-- API test (libtide only): a major cycle that begins while the running
-- stack is deep scans only the running frame (and its varargs) in its
-- initial pause, and the frames below later (gc/cycle.c, gc_floor). Control
-- returning into a frame below scans down to it first: here every frame's
-- object is moved into a table made during the cycle (which the cycle
-- never traverses) and its slot overwritten as soon as control is back in
-- the frame, before any safe point could scan it. Without the scan on
-- return the cycle frees the objects (TIDE_GC_DEBUG=verify-marks reports
-- one unmarked; poison and reuse break the checks below). Uses the cycle
-- helpers of thread_touch.c.
local cycle = require("thread_touch")
local DEPTH = 3000

-- objects held only by the frames of a deep recursion
local pool = {}
for i = 1, DEPTH do pool[i] = { i, "frame " .. i } end
collectgarbage()
collectgarbage() -- old: in the snapshot, freed if the cycle does not mark them
local function deep(n)
    local mine = pool[n]
    pool[n] = nil -- only this frame holds it
    if n == 1 then
        local phase = cycle.begin() -- the initial pause: 3000 frames below
        local moved = { mine }
        mine = nil
        return moved, phase
    end
    local moved, phase = deep(n - 1)
    moved[n] = mine -- into a table made during the cycle
    mine = nil      -- and the frame's slot overwritten
    return moved, phase
end
local moved, phase = deep(DEPTH)
print(phase == "marking" or phase)  -- expect: true
print(cycle.finish())               -- expect: idle

-- varargs below the running frame, copied out by the frame that owns them
local items = {}
for i = 1, 20000 do items[i] = { i } end
collectgarbage()
collectgarbage()
local function hold(...)
    items = nil
    local p = cycle.begin() -- the running frame is begin's; the varargs lie below
    return { ... }, p       -- copied into a new table, then overwritten by the return
end
local held, phase2 = hold(table.unpack(items))
print(phase2 == "marking" or phase2) -- expect: true
print(cycle.finish())                -- expect: idle

-- tables like the lost ones would take their slots
local junk = {}
for i = 1, 40000 do junk[i] = { -i, "junk" } end
collectgarbage("step", 0)

local ok = 0
for i = 1, DEPTH do
    local m = moved[i]
    if m[1] == i and m[2] == "frame " .. i then ok = ok + 1 end
end
print(ok)                            -- expect: 3000
local sum = 0
for i = 1, #held do sum = sum + held[i][1] end
print(#held, sum)                    -- expect: 20000	200010000
