-- API test (libtide only): a suspended coroutine's stack belongs to a
-- major cycle's snapshot (thread_touch.c). Each coroutine holds an old
-- table only on its stack; a cycle begins; the coroutine then runs, puts
-- the table into a new one and drops it from its stack. Nothing the marker
-- visits leads to it any more: only the scan of the stack before it
-- changed (thread_touch) keeps it. Without that scan the cycle frees it
-- (TIDE_GC_DEBUG=verify-marks reports it unmarked; poison makes the
-- checks below fail).
local cycle = require("thread_touch")
local N = 300
local cos, keep = {}, {}
for i = 1, N do
    cos[i] = coroutine.create(function()
        local x = { "payload", i }
        coroutine.yield()
        keep[i] = { x } -- a table made during the cycle: live, never traversed
        x = nil
        coroutine.yield()
    end)
    coroutine.resume(cos[i])
end
collectgarbage()
collectgarbage() -- every x is old, and only a stack refers to it

local phase = cycle.begin()
print(phase == "marking" or phase)        -- expect: true
for i = 1, N do coroutine.resume(cos[i]) end
print(cycle.finish())                     -- expect: idle
-- tables like x, kept until promoted: they would take x's slots if the
-- cycle had freed them
local junk = {}
for i = 1, 20 * N do junk[i] = { "junk", -i } end
collectgarbage("step", 0)

local ok = 0
for i = 1, N do
    local x = keep[i][1]
    if x[1] == "payload" and x[2] == i then ok = ok + 1 end
end
print(ok)                                 -- expect: 300
collectgarbage()
for i = 1, N do coroutine.resume(cos[i]) end
print(#keep)                              -- expect: 300

-- The same through lua_xmove, which takes a value off a thread without
-- any other API call on it: each thread holds an old table only on its
-- stack; once a cycle has begun the value is moved to the main thread
-- (scanned at the initial pause) and put into a table made during the
-- cycle. Only the snapshot lua_xmove takes of its source keeps it.
local holders = {}
for i = 1, N do holders[i] = cycle.hold({ "held", i }) end
collectgarbage()
collectgarbage()
local taken = {}
phase = cycle.begin()
print(phase == "marking" or phase)        -- expect: true
for i = 1, N do taken[i] = { cycle.take(holders[i]) } end
print(cycle.finish())                     -- expect: idle
for i = 1, 20 * N do junk[i] = { "junk", i } end
collectgarbage("step", 0)
ok = 0
for i = 1, N do
    local x = taken[i][1]
    if x[1] == "held" and x[2] == i then ok = ok + 1 end
end
print(ok)                                 -- expect: 300
