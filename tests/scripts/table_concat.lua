-- lua: 5.4
-- table.concat: separators, ranges, numbers, invalid values, long results,
-- proxies.

print(table.concat({}))                    -- expect: 
print(table.concat({ "a", "b", "c" }))     -- expect: abc
print(table.concat({ "a", "b", "c" }, ", ")) -- expect: a, b, c
print(table.concat({ "a", "b", "c" }, ", ", 2)) -- expect: b, c
print(table.concat({ "a", "b", "c" }, ", ", 2, 2)) -- expect: b
print(table.concat({ "a", "b", "c" }, ", ", 3, 2) == "") -- expect: true
print(table.concat({ "a", "b", "c" }, ", ", 1, 0) == "") -- expect: true
print(table.concat({ 1, 2.5, -0.0, 2^63, math.mininteger, 1e100 }, " ")) -- expect: 1 2.5 -0.0 9.2233720368548e+18 -9223372036854775808 1e+100
print(table.concat({ "x\0y", "z" }, "\0") == "x\0y\0z") -- expect: true
print(table.concat({ "a", "b" }, 3))       -- expect: a3b
print(table.concat({ [0] = "zero", "one" }, "-", 0)) -- expect: zero-one
print(table.concat({ [-2] = "a", [-1] = "b", [0] = "c" }, "", -2, 0)) -- expect: abc
print(table.concat({ "a", "b", "c" }, nil, nil, 2)) -- expect: ab

-- invalid values and ranges
print(pcall(table.concat, { 1, {}, 3 }))   -- expect: false	invalid value (table) at index 2 in table for 'concat'
print(pcall(table.concat, { 1, 2 }, "", 1, 3)) -- expect: false	invalid value (nil) at index 3 in table for 'concat'
print(pcall(table.concat, { true }))       -- expect: false	invalid value (boolean) at index 1 in table for 'concat'
print(pcall(table.concat, { setmetatable({}, { __tostring = function() return "no" end }) })) -- expect: false	invalid value (table) at index 1 in table for 'concat'
print(pcall(table.concat, { "a" }, {}))    -- expect: false	bad argument #2 to 'table.concat' (string expected, got table)
print(pcall(table.concat, { "a" }, "", "x")) -- expect: false	bad argument #3 to 'table.concat' (number expected, got string)
print(pcall(table.concat, { "a" }, "", 1, 1.5)) -- expect: false	bad argument #4 to 'table.concat' (number has no integer representation)
print(pcall(table.concat))                 -- expect: false	bad argument #1 to 'table.concat' (table expected, got no value)
print(pcall(table.concat, "abc"))          -- expect: false	bad argument #1 to 'table.concat' (table expected, got string)
print(pcall(table.concat, {}, "", math.maxinteger - 1, math.maxinteger)) -- expect: false	invalid value (nil) at index 9223372036854775806 in table for 'concat'
print(table.concat({}, "", math.maxinteger, math.maxinteger - 1) == "") -- expect: true
print(table.concat({ [math.maxinteger] = "last" }, "", math.maxinteger, math.maxinteger)) -- expect: last
print(table.concat({ [math.mininteger] = "first" }, "", math.mininteger, math.mininteger)) -- expect: first

-- long results grow the buffer many times
local parts = {}
for i = 1, 5000 do parts[i] = string.format("%04d", i % 10000) end
local joined = table.concat(parts, ",")
print(#joined, joined:sub(1, 14), joined:sub(-9)) -- expect: 24999	0001,0002,0003	4999,5000
local big = { string.rep("x", 100000), string.rep("y", 200000) }
local s = table.concat(big, string.rep("-", 50000))
print(#s, s:sub(99999, 100002), s:sub(150000, 150002)) -- expect: 350000	xx--	-yy
print(#table.concat({ string.rep("a", 1023) }, "", 1, 1), #table.concat({ "a", string.rep("b", 1024) })) -- expect: 1023	1025
-- numbers converted in the middle of a long result
local mixed = {}
for i = 1, 1000 do mixed[i] = (i % 2 == 0) and i or (i + 0.5) end
local m = table.concat(mixed, "|")
print(#m, m:sub(1, 20))                    -- expect: 4892	1.5|2|3.5|4|5.5|6|7.

-- proxies: __index and __len
local reads = {}
local proxy = setmetatable({}, {
    __index = function(_, i) reads[#reads + 1] = i return "v" .. i end,
    __len = function() return 3 end,
})
print(table.concat(proxy, "+"), table.concat(reads, ",")) -- expect: v1+v2+v3	1,2,3
print(table.concat(setmetatable({}, { __index = function(_, i) return i * 2 end }), ",", 1, 4)) -- expect: 2,4,6,8
debug.setmetatable(0, { __index = function(n, i) return n + i end, __len = function() return 3 end })
print(table.concat(10, " "))               -- expect: 11 12 13
debug.setmetatable(0, { __index = function(n, i) return n + i end })
print(pcall(table.concat, 10, " "))        -- expect: false	bad argument #1 to 'table.concat' (table expected, got number)
debug.setmetatable(0, nil)

-- an error while a long result is being built (the buffer is abandoned)
local with_bad = {}
for i = 1, 5000 do with_bad[i] = "abcdef" end
with_bad[4000] = {}
print(pcall(table.concat, with_bad, "--"))  -- expect: false	invalid value (table) at index 4000 in table for 'concat'
collectgarbage()
print(#table.concat(with_bad, "", 1, 3999)) -- expect: 23994
