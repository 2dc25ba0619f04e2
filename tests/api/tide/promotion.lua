-- API test (libtide only): the nursery collection's promotion front
-- (promotion.c).
local promotion = require("promotion")
local storage = require("storage") -- (its begin_cycle and end_cycle)

-- (TIDE_GC_DEBUG's modes verify the heap every few allocations: fewer,
-- smaller batches there)
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil
local ROUNDS, PER_BATCH = 30, 1500
-- (a batch then fits in the nursery: promotion.minor makes the copies, not
-- collections that the budget, which follows the machine's speed, brings)
promotion.whole_nursery()
if debug_modes then ROUNDS, PER_BATCH = 6, 400 end

-- A batch of [n] live objects of many sizes (strings of 1-300 bytes,
-- arrays of 0-40 slots, small hash parts): each nursery collection then
-- copies into dozens of size classes, and fills blocks of the busier ones.
local function batch(seed, n)
    local b = {}
    for i = 1, n do
        local k = seed * 100003 + i
        b[#b + 1] = string.rep("s", i % 300) .. k
        local a = {}
        for j = 1, i % 41 do a[j] = k + j end
        b[#b + 1] = a
        b[#b + 1] = { key = k, other = -k, [i % 17 + 1] = k }
    end
    return b
end

local function check(seed, b)
    for i = 1, #b / 3 do
        local k = seed * 100003 + i
        assert(b[3 * i - 2] == string.rep("s", i % 300) .. k, "a promoted string changed")
        local a = b[3 * i - 1]
        assert(#a == i % 41, "a promoted array changed length")
        for j = 1, #a do assert(a[j] == k + j, "a promoted array changed") end
        local h = b[3 * i]
        assert(h.key == k and h.other == -k and h[i % 17 + 1] == k, "a promoted table changed")
    end
end

-- Every collection's copies are counted as old bytes exactly as the major
-- heap counts their slots (sweeping on the way changes both alike).
local batches, total = {}, 0
for seed = 1, ROUNDS do
    batches[seed] = batch(seed, PER_BATCH)
    local promoted, old_delta, slot_delta = promotion.minor()
    assert(old_delta == slot_delta,
        ("old bytes grew by %d, the major heap's slots by %d"):format(old_delta, slot_delta))
    assert(promoted <= old_delta, "promoted more than the old bytes grew")
    total = total + promoted
end
-- (collect-every's collections promote most of it in between)
assert(total > (debug_modes and 64 or 512) * 1024, "too little was promoted to test anything: " .. total)
for seed = 1, ROUNDS do check(seed, batches[seed]) end
print("accounting", true)                                                   -- expect: accounting	true

-- Copies made while a cycle marks are born marked: its sweep keeps them.
-- Afterwards, more copies of the same sizes would land in any slot the
-- sweep freed.
collectgarbage()
assert(storage.begin_cycle(), "no cycle began")
do
    local during = {}
    for seed = 31, 30 + ROUNDS // 3 do
        during[seed] = batch(seed, PER_BATCH)
        promotion.minor()
    end
    storage.end_cycle()
    local after = {}
    for seed = 41, 40 + ROUNDS // 3 do
        after[seed] = batch(seed, PER_BATCH)
        promotion.minor()
    end
    for seed = 31, 30 + ROUNDS // 3 do check(seed, during[seed]) end
    for seed = 41, 40 + ROUNDS // 3 do check(seed, after[seed]) end
    print("black", true)                                                    -- expect: black	true
end
