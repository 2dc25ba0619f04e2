-- API test (libtide only): a dead key never takes another key of its
-- table for its own (dead_keys.c). The keys are long strings of one size
-- class (1200 bytes: 1328-byte slots, twelve to a block) that nothing else
-- here uses, all in one chain of one table: X1, then C1, X2, C2, ... in
-- that order, so that most X come before most C in the chain. Each X lies
-- among live fillers, each C among junk. The X are removed and die: their
-- entries keep dead keys, their slots are free in blocks that are
-- otherwise full. Then the junk dies: the blocks of the C are sparse, and
-- the next collection copies the C into the free slots it has, the slots
-- of the X. A dead key that named its object by address would now name a
-- C that comes after it in the chain; `next` given that C would go back
-- to the dead entry's place (a traversal that never ends, or one that
-- skips keys). The script checks that the situation was built, then
-- traverses.
local dk = require("dead_keys")
-- (the places are made by promotion: no object is born old here)
require("pretenure").set(false)

local LEN = 1200
local PAD = string.rep("-", LEN - 8)
local function str(tag, i) return string.format("%s%07d", tag, i) .. PAD end

local K = 16 -- X and C each
local T = dk.table(64)
local xs_i, cs_i
do
    local ref = str("r", 0)
    xs_i = dk.colliding(T, ref, "x", K)
    cs_i = dk.colliding(T, ref, "c", K)
end

-- The strings, in the order the collections promote them: each X in the
-- middle of 24 fillers, each C in the middle of 24 junk strings, so that
-- whatever the first block's offset, an X shares its block with fillers
-- only and a C with junk only.
local mix, xpos, cpos = {}, {}, {}
local function run_around(tag, make_middle, positions, j)
    for n = 1, 24 do
        if n == 12 then
            mix[#mix + 1] = make_middle
            positions[j] = #mix
        else
            mix[#mix + 1] = str(tag, #mix + 1)
        end
    end
end
collectgarbage()
collectgarbage()
for j = 1, K do
    run_around("f", str("x", xs_i[j]), xpos, j)
    run_around("j", str("c", cs_i[j]), cpos, j)
end
for j = 1, K do
    T[mix[xpos[j]]] = "x" .. j
    T[mix[cpos[j]]] = "c" .. j
end
-- all old; strays of the class are compacted now, not later
for _ = 1, 6 do collectgarbage() end

-- where each key is in the chain, and where each X is
local place, x_address = {}, {}
local function survey()
    for i, k in ipairs(dk.chain(T, mix[xpos[1]])) do
        if k then place[T[k]] = i end
    end
    for j = 1, K do x_address[j] = dk.address(mix[xpos[j]]) end
end
survey()
local in_chain = 0
for _ in pairs(place) do in_chain = in_chain + 1 end
print("one chain", in_chain == 2 * K)                          -- expect: one chain	true

-- the X die; their entries keep dead keys
local function drop_xs()
    for j = 1, K do
        T[mix[xpos[j]]] = nil
        mix[xpos[j]] = nil
    end
end
drop_xs()
collectgarbage()
collectgarbage()
local dead = 0
for _, k in ipairs(dk.chain(T, mix[cpos[1]])) do
    if not k then dead = dead + 1 end
end
print("dead keys", dead == K)                                  -- expect: dead keys	true

-- the junk dies; the C move into the free slots of the class
local c_address = {}
local function drop_junk()
    for j = 1, K do c_address[j] = dk.address(mix[cpos[j]]) end
    for i = 1, #mix do
        if mix[i] ~= nil and mix[i]:sub(1, 1) == "j" then mix[i] = nil end
    end
end
drop_junk()
collectgarbage()
collectgarbage()
local moved, hazards = 0, 0
for i = 1, K do
    local a = dk.address(mix[cpos[i]])
    if a ~= c_address[i] then moved = moved + 1 end
    for j = 1, K do
        if a == x_address[j] and place["x" .. j] < place["c" .. i] then hazards = hazards + 1 end
    end
end
print("most moved", moved > K // 2)                             -- expect: most moved	true
-- (if this fails, the size classes or the allocator changed: rebuild the
-- situation, or the traversal below proves nothing)
print("a moved key sits where a dead key before it had its object", hazards > 0)
-- expect: a moved key sits where a dead key before it had its object	true

-- every C once, in a traversal that ends
local seen, visits = {}, 0
for _, v in pairs(T) do
    visits = visits + 1
    if visits > 2 * K then break end
    seen[v] = (seen[v] or 0) + 1
end
local once = 0
for i = 1, K do if seen["c" .. i] == 1 then once = once + 1 end end
print("traversal", visits == K, once == K)                     -- expect: traversal	true	true
