-- API test (libtide only): a stack left far larger than its live slots is
-- shrunk before the next collection (stack_shrink.c). A call of 200,000
-- values returns just before the nursery's budget is spent, past the last
-- checkpoint, and after the stack's own growth (select of the 200,000
-- values) has taken the heap past a major cycle's trigger.
-- The next collection — the nursery collection when the budget runs out,
-- or the cycle's initial pause at the next safe point — would clear the
-- 200,000 slots above the live ones in its pause (990,000 took 1.4 ms;
-- bench/gc/giants.lua stack) if the stack were not shrunk first.
local ss = require("stack_shrink")
-- (TIDE_GC_DEBUG's modes collect every few allocations: there is no budget
-- to run out)
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil

local N = 200000
local values = {}
for i = 1, N do values[i] = i end

local function minors() return (select(2, ss.probe())) end

local function hold(...)
    -- an old generation that a major cycle is due for (a cycle's sweep
    -- shrinks every stack too, sweep.c: none ends in what follows)
    collectgarbage()
    -- a nursery collection while the values are on the stack: the stack
    -- has been written up to its depth since the last one
    local before = minors()
    while minors() == before do local _ = {} end
    -- then the budget nearly spent, with no checkpoint left before its end
    local _, _, left = ss.probe()
    while left > 2048 do
        local _ = {}
        _, _, left = ss.probe()
    end
    ss.skip_checkpoints()
    return (select("#", ...))
end

-- (nothing between the return and the probes allocates)
local n, big, at_return = 0, N + 1, 0
if not debug_modes then
    n = hold(table.unpack(values, 1, N))
    big, at_return = ss.probe()
end

-- allocate until the next nursery collection: the stack must be small by
-- then
local shrunk_at
for _ = 1, debug_modes and 0 or 1000000 do
    if minors() ~= at_return then break end
    local _ = {}
    local slots, now = ss.probe()
    if slots < N // 4 and shrunk_at == nil then shrunk_at = now end
end
if shrunk_at == nil and ss.probe() < N // 4 then shrunk_at = minors() end
print(debug_modes or n == N)                                    -- expect: true
print(debug_modes or big > N)                                   -- expect: true
print(debug_modes or shrunk_at == at_return)                    -- expect: true
