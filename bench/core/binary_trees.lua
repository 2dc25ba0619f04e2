-- bench/core/binary_trees.lua — the binary-trees benchmark of the
-- Benchmarks Game: allocate and walk many short-lived complete binary
-- trees next to one long-lived tree. Allocation and collector heavy.
-- Prints nothing; asserts the node counts.

local function bottom_up(depth)
    if depth == 0 then return {} end
    depth = depth - 1
    return { bottom_up(depth), bottom_up(depth) }
end

local function check(tree)
    if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
    return 1
end

local MAX_DEPTH = 15
local MIN_DEPTH = 4

local results = {}
results[#results + 1] = check(bottom_up(MAX_DEPTH + 1))
local long_lived = bottom_up(MAX_DEPTH)
for depth = MIN_DEPTH, MAX_DEPTH, 2 do
    local iterations = 1 << (MAX_DEPTH - depth + MIN_DEPTH)
    local sum = 0
    for _ = 1, iterations do sum = sum + check(bottom_up(depth)) end
    results[#results + 1] = sum
end
results[#results + 1] = check(long_lived)
assert(table.concat(results, " ") == "131071 1015808 1040384 1046528 1048064 1048448 1048544 65535", table.concat(results, " "))
