-- API test (libtide only, white-box): in a frame of a game that gives the
-- collector idle time, the lazy sweep's steps and the giving back of
-- retired large blocks wait for idle time, unless they are behind; in a
-- frame with no idle time before it they run in the frame (cycle.c,
-- sweep_step; sweep.c, gc_checkpoint_step). Samples/world made two sweep
-- steps in nearly every frame of a sweep that idle time had taken 3,000
-- blocks ahead of its pacing. Under the runner's debug columns (a
-- collection every thousand allocations, which ends sweeps) only the
-- survival of what the frames keep is checked.
local si = require("sweep_idle")
local frame = require("nursery_budget").measure -- fn() inside one frame
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil
local checked = not debug_modes
local TOO_SHORT = 1 -- ns of idle time: idle time was given, and did nothing

-- An old heap of which nine objects in ten are garbage: a sweep of about
-- 2,000 blocks (a tenth of it under the debug columns).
local N = debug_modes and 30000 or 300000
local olds
do
    local all = {}
    for i = 1, N do all[i] = { i, -i } end
    collectgarbage()
    collectgarbage()
    olds = {}
    for i = 10, N, 10 do olds[#olds + 1] = all[i] end
end

-- A frame's work: 2.5 MB added to the old generation as large strings,
-- kept (ten sweep steps' worth of growth), which leaves the blocks to
-- sweep alone.
local store = {}
local function grow()
    for i = 1, 40 do store[#store + 1] = string.rep(string.char(65 + i % 26), 65536) end
end

-- (the building's large blocks, its arrays' old parts, given back)
si.to_sweep()
si.finish()
si.idle(10 * 1000 * 1000 * 1000)

-- 1. Idle time came before the frame, and the sweep is on its pacing (it
-- has only begun): no sweep step in the frame.
local blocks = si.to_sweep()
print(not checked or blocks > 1000) -- expect: true
si.idle(TOO_SHORT)
frame(grow)
local left, phase = si.unswept()
print(not checked or si.steps() == 0 and phase == "sweeping" and left > blocks - 32) -- expect: true

-- 2. No idle time before the frame: the frame's safe points sweep.
si.count_steps()
frame(grow)
left, phase = si.unswept()
print(not checked or si.steps() > 0) -- expect: true

-- 3. Idle time that does nothing, frame after frame: the sweep falls
-- behind its pacing, and the frames' steps catch up and end it.
local frames, stepping = 0, 0
si.count_steps()
repeat
    si.idle(TOO_SHORT)
    local before = si.steps()
    frame(grow)
    frames = frames + 1
    if si.steps() > before then stepping = stepping + 1 end
    left, phase = si.unswept()
until phase ~= "sweeping" or frames == 200
print(not checked or phase ~= "sweeping" and stepping > 0) -- expect: true
si.finish()

-- 4. Idle time with room sweeps, and ends the sweep.
si.to_sweep()
si.idle(10 * 1000 * 1000 * 1000)
left, phase = si.unswept()
print(not checked or phase ~= "sweeping" and left == 0) -- expect: true

-- 5. Retired large blocks (the strings, dropped: 20 MB) are given back a
-- slice at a time at the frame's allocation checkpoints, but in a frame
-- after idle time only while they are more than idle time may leave
-- (8 MB); then they wait for it.
local kept = {}
local function churn()
    for i = 1, 20000 do kept[i % 500 + 1] = { i } end
end
-- (the strings are dropped, not their table: a word the C stack still
-- holds may keep an object it points to, conservatively, and with the
-- table every string; a string alone at most)
local total = #store
for i = 1, total do store[i] = false end
si.to_sweep() -- (the strings retire as the sweep begins)
si.finish()
local retired = si.retired()
print(not checked or retired >= (total - 2) * 65536) -- expect: true
local frames_down, before = 0, nil
repeat
    si.idle(TOO_SHORT)
    before = si.retired()
    frame(churn)
    frames_down = frames_down + 1
until si.retired() == before or frames_down == 100
before = si.retired()
print(not checked or si.retired() > 0 and si.retired() <= 8 * 1024 * 1024) -- expect: true
si.idle(TOO_SHORT)
frame(churn)
print(not checked or si.retired() >= before) -- expect: true
-- without idle time before the frame, they go back in it
frame(churn)
print(not checked or si.retired() < before) -- expect: true
si.idle(10 * 1000 * 1000 * 1000)
print(not checked or si.retired() == 0) -- expect: true
si.finish()

-- 6. A retired block of several MB (a big table's array) has its pages
-- given back by the worker thread, off the game's thread, and goes back
-- to the allocator once they are gone.
do
    local big = {}
    for i = 1, 400000 do big[i] = i end
    big = nil
end
si.to_sweep()
si.finish()
local chunks_before, worker = si.released()
print(not checked or si.retired() > 4 * 1024 * 1024) -- expect: true
local frames_released = 0
repeat
    frame(churn)
    frames_released = frames_released + 1
until si.retired() == 0 or frames_released == 1000
local chunks_after = si.released()
print(not checked or si.retired() == 0 and (not worker or chunks_after > chunks_before)) -- expect: true

for i = 1, #olds do assert(olds[i][1] == -olds[i][2]) end
for i = 1, #kept do assert(kept[i][1] % 500 + 1 == i) end
