-- tests/stress/mutate_during_mark.lua [ROUNDS [NODES]] — a program that mutates a
-- large heap as hard as it can while major cycles mark it: a graph of
-- nodes rewired at random, lists moved from the heap onto the stack and
-- back, coroutines that swap objects with the heap between resumes, a weak
-- cache read and refilled, tables grown and shrunk, a hash table whose
-- object keys (held by nothing else) are moved between nodes by colliding
-- inserts. Every object carries
-- a check value; the program verifies the whole graph at the end of every
-- round and fails loudly on the first damaged or missing object. Run by
-- tools/stress_cycles.lua under TIDE_GC_DEBUG=cycles,verify-marks (each
-- cycle's marks checked against a stop-the-world mark).
local rounds = tonumber(arg and arg[1]) or 200
local N = tonumber(arg and arg[2]) or 4000
local seed = 42
local function rand(m)
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % m + 1
end
local function node(i)
    local n = { id = i, check = i * 7 + 3, edges = {} }
    for e = 1, 4 do n.edges[e] = n end
    return n
end
local function ok(n) return type(n) == "table" and n.check == n.id * 7 + 3 end

local graph = {}
for i = 1, N do graph[i] = node(i) end
for i = 1, N do for e = 1, 4 do graph[i].edges[e] = graph[rand(N)] end end
local cache = setmetatable({}, { __mode = "v" })
-- object keys held only by the table: a colliding insert moves an old
-- occupant to a free node, which a marker part-way through the table must
-- not miss
local index, indexed = {}, 0
local function add_key()
    local k = { check = rand(1000000) }
    index[k] = { check = k.check }
    indexed = indexed + 1
end
for _ = 1, N // 8 do add_key() end

-- moves [k] nodes onto the stack (recursion), clears their slots in the
-- graph while they are there, and puts them back
local function through_stack(k)
    if k == 0 then return end
    local i = rand(N)
    local n = graph[i]
    if not n then return through_stack(k - 1) end -- taken by a frame below
    graph[i] = false
    through_stack(k - 1)
    assert(ok(n), "a node held only by the stack was damaged")
    graph[i] = n
end

local workers = {}
for w = 1, 50 do
    workers[w] = coroutine.wrap(function()
        local held = {}
        while true do
            for j = 1, 20 do
                local i = rand(N)
                if graph[i] then held[j], graph[i] = graph[i], node(i) end
            end
            coroutine.yield()
            for j = 1, 20 do
                local n = held[j]
                if n then
                    assert(ok(n), "a node held by a coroutine was damaged")
                    graph[n.id] = n
                    held[j] = nil
                end
            end
        end
    end)
end

for round = 1, rounds do
    for _ = 1, 2000 do
        local a, b = graph[rand(N)], graph[rand(N)]
        if a and b then a.edges[rand(4)] = b end
    end
    through_stack(200)
    for w = 1, #workers do workers[w]() end
    for _ = 1, 200 do
        local i = rand(N)
        local c = cache[i]
        if c == nil then cache[i] = graph[i] elseif c then assert(ok(c), "a cached node was damaged") end
    end
    local dropped = 0
    for k in pairs(index) do
        if rand(8) == 1 then index[k] = nil; dropped = dropped + 1 end
    end
    indexed = indexed - dropped
    for _ = 1, dropped do add_key() end
    local big = {}
    for i = 1, 3000 do big[i] = { i } end
    for i = 3000, 1, -2 do big[i] = nil end
    for i = 1, N do
        local n = graph[i]
        if n then
            assert(ok(n), "node " .. i .. " was damaged")
            for e = 1, 4 do assert(ok(n.edges[e]), "an edge of node " .. i .. " was damaged") end
        end
    end
    local seen = 0
    for k, v in pairs(index) do
        assert(type(k) == "table" and v.check == k.check, "an index key or value was damaged")
        seen = seen + 1
    end
    assert(seen == indexed, "the index lost entries")
end
print("rounds", rounds)
