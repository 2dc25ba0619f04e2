-- bench/gc/binary_trees.lua — the binary-trees benchmark of the Benchmarks
-- Game one size up from bench/core/binary_trees.lua (depth 16 instead of
-- 15, about twice the work): many short-lived complete binary trees built
-- and walked next to one long-lived tree of depth 16 (~65,000 nodes).
-- Almost every object dies young; the long-lived tree is what a
-- non-generational collector traces again and again. Prints nothing;
-- asserts the node counts.

local function bottom_up(depth)
    if depth == 0 then return {} end
    depth = depth - 1
    return { bottom_up(depth), bottom_up(depth) }
end

local function check(tree)
    if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
    return 1
end

local MAX_DEPTH = 16
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
local got = table.concat(results, " ")
assert(got == "262143 2031616 2080768 2093056 2096128 2096896 2097088 2097136 131071", got)
