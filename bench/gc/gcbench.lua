-- bench/gc/gcbench.lua — GCBench (Hans Boehm, after John Ellis and Pete
-- Kovac) in Lua: a long-lived binary tree of depth 18 (~524,000 nodes)
-- and an array of 500,000 floats are built first and kept to the end;
-- then, for depths 4, 6, ..., 16, the same number of nodes each time is
-- spent on complete trees built top-down (allocate a node, then fill in
-- its children: old-to-young stores) and bottom-up (children first), each
-- dropped as soon as it is built. A temporary tree of depth 18 stretches
-- the heap first. Measures throughput with a large live heap that a
-- non-generational collector traces at every cycle. Prints nothing;
-- asserts the node counts and that the long-lived data survived intact.

local STRETCH_DEPTH = 18
local LONG_LIVED_DEPTH = 18
local ARRAY_SIZE = 500000
local MIN_DEPTH, MAX_DEPTH = 4, 16
-- Nodes built per depth (top-down and bottom-up each): ~2^18, so the
-- iterations of depth d are about 2^18 / 2^(d+1).
local NODES_PER_DEPTH = 1 << 18

local function node(left, right)
    return { left = left, right = right, i = 0, j = 0 }
end

local function tree_size(depth)
    return (1 << (depth + 1)) - 1
end

-- Top-down: each node is made before its children are stored into it.
local function populate(depth, n)
    if depth <= 0 then return end
    depth = depth - 1
    n.left = node(nil, nil)
    n.right = node(nil, nil)
    populate(depth, n.left)
    populate(depth, n.right)
end

-- Bottom-up: children first.
local function make_tree(depth)
    if depth <= 0 then return node(nil, nil) end
    return node(make_tree(depth - 1), make_tree(depth - 1))
end

local function count(n)
    if n == nil then return 0 end
    return 1 + count(n.left) + count(n.right)
end

local results = {}

-- Stretch the heap with a temporary tree.
results[#results + 1] = count(make_tree(STRETCH_DEPTH))

-- The long-lived data.
local long_lived = node(nil, nil)
populate(LONG_LIVED_DEPTH, long_lived)
local array = {}
for i = 1, ARRAY_SIZE do array[i] = 1.0 / i end

for depth = MIN_DEPTH, MAX_DEPTH, 2 do
    local iterations = NODES_PER_DEPTH // tree_size(depth) + 1
    local built = 0
    for _ = 1, iterations do
        local t = node(nil, nil)
        populate(depth, t)
        built = built + count(t)
        t = nil
        t = make_tree(depth)
        built = built + count(t)
    end
    results[#results + 1] = built
end

results[#results + 1] = count(long_lived)
assert(array[1000] == 1.0 / 1000 and array[ARRAY_SIZE] == 1.0 / ARRAY_SIZE, "the array was damaged")
local got = table.concat(results, " ")
assert(got == "524287 524334 524510 525308 528126 540606 589806 786426 524287", got)
