-- API test (libtide only, white-box): idle time traverses grey objects
-- beside the worker instead of sleeping until it is done (worker.c,
-- gc_worker_help): the game's thread takes a share of the worker's grey
-- stack (or of its own marks not yet handed over), traverses it until its
-- budget is spent, and gives back what it has not reached. The heap is
-- 200,000 old tables in 4,000 lists, and the program swaps lists between
-- idle slices while the two mark; every cycle's mark is checked against a
-- stop-the-world mark (verify-marks), and the lists are checked whole
-- after the sweep. Under the runner's debug columns (marking without the
-- worker, collections every few allocations) only the survival is checked.
local ia = require("idle_assist")
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil

-- (a tenth of the heap under the debug columns, which collect and verify
-- every few allocations while it is built)
local LISTS, LENGTH = debug_modes and 400 or 4000, 50
local roots = {}
for i = 1, LISTS do
    local list = nil
    for j = 1, LENGTH do list = { next = list, owner = i, j = j } end
    roots[i] = list
end
collectgarbage()
collectgarbage() -- old
ia.verify_marks(true)

local function slices(budget_us)
    local n = 0
    while ia.marking() and n < 1000000 do
        ia.idle(budget_us)
        n = n + 1
        -- a frame's mutation between two idle times: two lists change places
        local a, b = n * 7919 % LISTS + 1, n * 104729 % LISTS + 1
        roots[a], roots[b] = roots[b], roots[a]
    end
    return n
end

local function intact()
    local seen = {}
    for i = 1, LISTS do
        local node, length, owner = roots[i], 0, roots[i].owner
        while node do
            if node.owner ~= owner or node.j ~= LENGTH - length then return false end
            length = length + 1
            node = node.next
        end
        if length ~= LENGTH or seen[owner] then return false end
        seen[owner] = true
    end
    return true
end

-- 1. Idle slices of 200 us: the game's thread marks a part of the heap,
-- the worker the rest, and every list is reached by one of them.
local worker = ia.begin_cycle()
local unchecked = debug_modes or not worker
local n = slices(200)
ia.finish()
local on_worker, in_idle = ia.traversed()
print(unchecked or in_idle > 0)                             -- expect: true
print(unchecked or on_worker + in_idle >= LISTS * LENGTH)   -- expect: true
print(n > 0 and intact())                                   -- expect: true

-- 2. Slices far shorter than a share's traversal: what the game's thread
-- took and did not reach goes back to the worker, and nothing is lost.
ia.begin_cycle()
slices(1)
ia.finish()
print(intact())                                             -- expect: true

-- 3. A whole cycle in one idle time: the mark ends there.
ia.begin_cycle()
ia.idle(10000000)
print(unchecked or not ia.marking())                        -- expect: true
ia.finish()
print(intact())                                             -- expect: true
ia.verify_marks(false)
