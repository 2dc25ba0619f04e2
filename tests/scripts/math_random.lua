-- lua: 5.4
-- math.random and math.randomseed: xoshiro256** seeded as Lua 5.4 seeds
-- it, so a seeded sequence is the same number for number; argument rules
-- and ranges. Unseeded numbers are only checked, never printed.

-- seeded sequences
print(math.randomseed(42))                 -- expect: 42	0
print(math.random(1, 100), math.random(1, 100), math.random(1, 100)) -- expect: 50	76	86
print(string.format("%.17g", math.random())) -- expect: 0.61731763595847267
print(math.random(0))                      -- expect: 177101407732369983
print(math.random(10), math.random(-5, 5), math.random(1000000)) -- expect: 7	-4	251033
print(math.randomseed(42, 7))              -- expect: 42	7
print(math.random(1, 1000), math.random(1, 1000)) -- expect: 561	452
print(math.randomseed(-1))                 -- expect: -1	0
print(math.random(math.mininteger, math.maxinteger)) -- expect: 2691159215327871793
print(math.random(0), math.random(0))      -- expect: -1196536760348545977	-2650849461319115649
print(math.randomseed(0, 0))               -- expect: 0	0
print(math.random(3), math.random(7), math.random(1 << 40)) -- expect: 2	1	440994756524
print(math.randomseed(3.0))                -- expect: 3	0
print(math.random(1, 6), math.random(1, 6), math.random(1, 6), math.random(1, 6)) -- expect: 2	2	4	4
print(math.randomseed("12", "34"))         -- expect: 12	34
print(math.random(100))                    -- expect: 52

-- the same seed gives the same sequence
local function sequence(seed)
    math.randomseed(seed)
    local out = {}
    for i = 1, 20 do out[i] = math.random(1, 1000) end
    return table.concat(out, ",")
end
print(sequence(123) == sequence(123), sequence(123) == sequence(124)) -- expect: true	false

-- ranges and types
math.randomseed(2024)
local ok = true
for _ = 1, 10000 do
    local f = math.random()
    if math.type(f) ~= "float" or f < 0 or f >= 1 then ok = false end
    local i = math.random(5)
    if math.type(i) ~= "integer" or i < 1 or i > 5 then ok = false end
    local j = math.random(-3, 3)
    if j < -3 or j > 3 then ok = false end
    local k = math.random(math.maxinteger - 1, math.maxinteger)
    if k < math.maxinteger - 1 then ok = false end
end
print(ok)                                  -- expect: true
print(math.random(7, 7), math.random(math.mininteger, math.mininteger)) -- expect: 7	-9223372036854775808
-- every value of a small range comes up
local seen, distinct = {}, 0
for _ = 1, 1000 do
    local v = math.random(1, 10)
    if not seen[v] then seen[v] = true distinct = distinct + 1 end
end
print(distinct)                            -- expect: 10

-- unseeded: randomseed() returns two integers and the numbers are in range
local a, b = math.randomseed()
print(math.type(a), math.type(b))          -- expect: integer	integer
local x = math.random(1, 10)
print(x >= 1 and x <= 10)                  -- expect: true

-- argument errors
print(pcall(math.random, 2, 1))            -- expect: false	bad argument #1 to 'math.random' (interval is empty)
print(pcall(math.random, 0, -1))           -- expect: false	bad argument #1 to 'math.random' (interval is empty)
print(pcall(math.random, -1))              -- expect: false	bad argument #1 to 'math.random' (interval is empty)
print(pcall(math.random, 1, 2, 3))         -- expect: false	wrong number of arguments
print(pcall(math.random, 1.5))             -- expect: false	bad argument #1 to 'math.random' (number has no integer representation)
print(pcall(math.random, "x"))             -- expect: false	bad argument #1 to 'math.random' (number expected, got string)
print(pcall(math.random, 1, {}))           -- expect: false	bad argument #2 to 'math.random' (number expected, got table)
print(pcall(math.random, math.maxinteger, math.mininteger)) -- expect: false	bad argument #1 to 'math.random' (interval is empty)
print(pcall(math.randomseed, 1.5))         -- expect: false	bad argument #1 to 'math.randomseed' (number has no integer representation)
print(pcall(math.randomseed, {}))          -- expect: false	bad argument #1 to 'math.randomseed' (number expected, got table)
print(pcall(math.randomseed, 1, "x"))      -- expect: false	bad argument #2 to 'math.randomseed' (number expected, got string)
print(pcall(math.randomseed, nil))         -- expect: false	bad argument #1 to 'math.randomseed' (number expected, got nil)
