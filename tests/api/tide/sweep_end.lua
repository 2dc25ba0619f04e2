-- API test (libtide only, white-box): no collection runs inside the end of
-- a lazy sweep, where stacks are shrunk (sweep.c, sweep_end). 20,000
-- coroutines whose stacks grew deep and now hold a few frames; a cycle is
-- marked and its sweep stepped to the end with the heap past its
-- threshold in low-latency mode, so that every stack's reallocation would
-- step the cycle. Before the fix each step ended the sweep again from
-- inside it: a recursion as deep as the stacks, and a C stack overflow
-- (SIGSEGV) here. The coroutines still run afterwards.
local se = require("sweep_end")
require("evacuation").low_latency(true)
local create, resume, yield, status = coroutine.create, coroutine.resume, coroutine.yield, coroutine.status

local function deep(n)
    if n == 0 then return 0 end
    return 1 + deep(n - 1)
end
local function body()
    local total = 0
    while true do
        total = total + deep(200) -- grows the stack, then returns to one frame
        yield(total)
    end
end
-- (a fifth of them under the debug columns, which verify the heap at every
-- collection: the default column is the one that overflowed)
local N = os.getenv("TIDE_GC_DEBUG") and 4000 or 20000
local cos = {}
for i = 1, N do
    cos[i] = create(body)
    assert(resume(cos[i]))
end

local phase = se.to_sweep()
assert(phase == "sweeping", "the lazy sweep began: " .. phase)
-- all but a few blocks swept, so that the next step's first piece ends
-- the sweep (a step that swept pieces before the last has moved the
-- sweep's pacing point past the heap, and nested steps would wait)
assert(se.leave(4) <= 4)
-- the stacks grown again just before the sweep ends, so that its end
-- has them to shrink
for i = 1, N do assert(resume(cos[i])) end
se.overdue()
local steps = 0
repeat
    steps = steps + 1
    local phase = se.step()
until phase ~= "sweeping" or steps > 100000
assert(steps <= 100000, "the sweep ended")

-- every coroutine still works, its stack shrunk or not
for i = 1, N do
    local ok, total = resume(cos[i])
    assert(ok and total == 600, "coroutine " .. i .. " resumed: " .. tostring(total))
    assert(status(cos[i]) == "suspended")
end
