-- lua: 5.4
-- table.move (overlaps in both directions, another table, limits,
-- metamethods), table.pack and table.unpack (ranges, limits).

local function dump(t, a, b) local out = {} for i = a or 1, b or #t do out[#out + 1] = tostring(t[i]) end return table.concat(out, ",") end

local t = { 1, 2, 3, 4, 5 }
print(table.move(t, 1, 3, 3) == t, dump(t)) -- expect: true	1,2,1,2,3
t = { 1, 2, 3, 4, 5 }
table.move(t, 3, 5, 1)
print(dump(t))                             -- expect: 3,4,5,4,5
t = { 1, 2, 3, 4, 5 }
table.move(t, 1, 5, 2)
print(dump(t, 1, 6))                       -- expect: 1,1,2,3,4,5
t = { 1, 2, 3, 4, 5 }
table.move(t, 2, 5, 1)
print(dump(t))                             -- expect: 2,3,4,5,5
t = { 1, 2, 3 }
table.move(t, 1, 3, 1)
print(dump(t))                             -- expect: 1,2,3
t = { 1, 2, 3 }
table.move(t, 1, 0, 2)                     -- empty range: nothing moves
print(dump(t))                             -- expect: 1,2,3
-- into another table
local src, dst = { "a", "b", "c" }, { "x", "y", "z", "w" }
print(table.move(src, 1, 3, 2, dst) == dst, dump(dst), dump(src)) -- expect: true	x,a,b,c	a,b,c
print(dump(table.move({ 1, 2 }, 1, 2, 1, {}))) -- expect: 1,2
print(dump(table.move({ 1, 2, 3 }, 1, 3, 3, nil), 1, 5)) -- expect: 1,2,1,2,3
-- negative and zero indices
local neg = table.move({ 1, 2, 3 }, 1, 3, -1)
print(neg[-1], neg[0], neg[1], neg[2], neg[3]) -- expect: 1	2	3	2	3
-- limits
print(pcall(table.move, {}, 0, math.maxinteger, 1)) -- expect: false	bad argument #3 to 'table.move' (too many elements to move)
print(pcall(table.move, {}, -1, math.maxinteger - 1, 1)) -- expect: false	bad argument #3 to 'table.move' (too many elements to move)
print(pcall(table.move, {}, 1, math.maxinteger, 2)) -- expect: false	bad argument #4 to 'table.move' (destination wrap around)
print(pcall(table.move, {}, math.maxinteger - 1, math.maxinteger, math.maxinteger)) -- expect: false	bad argument #4 to 'table.move' (destination wrap around)
print(table.move({ [math.maxinteger] = "m" }, math.maxinteger, math.maxinteger, 1)[1]) -- expect: m
print(table.move({ [math.mininteger] = "n" }, math.mininteger, math.mininteger, 1)[1]) -- expect: n
print(pcall(table.move, {}, 1, 2))         -- expect: false	bad argument #4 to 'table.move' (number expected, got no value)
print(pcall(table.move, {}, 1, 2, 3, 4))   -- expect: false	bad argument #5 to 'table.move' (table expected, got number)
print(pcall(table.move, 1, 1, 2, 3))       -- expect: false	bad argument #1 to 'table.move' (table expected, got number)
print(pcall(table.move, {}, "a", 2, 3))    -- expect: false	bad argument #2 to 'table.move' (number expected, got string)
-- metamethods on both sides, and the same table through __eq-free identity
local log = {}
local from = setmetatable({}, { __index = function(_, i) log[#log + 1] = "r" .. i return i * 10 end })
local to = setmetatable({}, { __newindex = function(_, i, v) log[#log + 1] = "w" .. i .. "=" .. v end })
table.move(from, 1, 3, 5, to)
print(table.concat(log, " "))              -- expect: r1 w5=10 r2 w6=20 r3 w7=30
log = {}
local both = setmetatable({}, {
    __index = function(_, i) log[#log + 1] = "r" .. i return i end,
    __newindex = function(_, i, v) log[#log + 1] = "w" .. i end,
})
table.move(both, 1, 3, 2)
print(table.concat(log, " "))              -- expect: r3 w4 r2 w3 r1 w2
log = {}
-- two different tables that compare equal through __eq are treated as one
local eq = { __eq = function() return true end, __index = function(_, i) log[#log + 1] = "r" .. i return i end,
             __newindex = function(_, i) log[#log + 1] = "w" .. i end }
local a1, a2 = setmetatable({}, eq), setmetatable({}, eq)
table.move(a1, 1, 3, 2, a2)
print(table.concat(log, " "))              -- expect: r3 w4 r2 w3 r1 w2

-- pack
local p = table.pack()
print(p.n, #p)                             -- expect: 0	0
p = table.pack(1, nil, 3, nil)
print(p.n, p[1], p[2], p[3], p[4])         -- expect: 4	1	nil	3	nil
p = table.pack(table.unpack({}, 1, 300))
print(p.n)                                 -- expect: 300

-- unpack
print(table.unpack({ 1, 2, 3 }))           -- expect: 1	2	3
print(table.unpack({ 1, 2, 3 }, 2))        -- expect: 2	3
print(table.unpack({ 1, 2, 3 }, 2, 5))     -- expect: 2	3	nil	nil
print(table.unpack({ 1, 2, 3 }, -1, 1))    -- expect: nil	nil	1
print(select("#", table.unpack({ 1, 2, 3 }, 3, 2))) -- expect: 0
print(select("#", table.unpack({}, 1, 0))) -- expect: 0
print(table.unpack({ 1, 2, 3 }, nil, 2))   -- expect: 1	2
print(table.unpack({ [math.maxinteger] = "max" }, math.maxinteger)) -- expect: 
print(table.unpack({ [math.mininteger] = "min" }, math.mininteger, math.mininteger)) -- expect: min
print(select("#", table.unpack({}, math.maxinteger - 2, math.maxinteger))) -- expect: 3
print(pcall(table.unpack, {}, 1, 1e7))     -- expect: false	too many results to unpack
print(pcall(table.unpack, {}, math.mininteger, math.maxinteger)) -- expect: false	too many results to unpack
print(pcall(table.unpack, {}, 0, math.maxinteger)) -- expect: false	too many results to unpack
print(pcall(table.unpack, {}, 1, 2^31))    -- expect: false	too many results to unpack
print(pcall(table.unpack))                 -- expect: false	attempt to get length of a nil value
print(pcall(table.unpack, {}, "x"))        -- expect: false	bad argument #2 to 'table.unpack' (number expected, got string)
print(pcall(table.unpack, {}, 1, 1.5))     -- expect: false	bad argument #3 to 'table.unpack' (number has no integer representation)
print(pcall(table.unpack, 1))              -- expect: false	attempt to get length of a number value
print(table.unpack("abc", 1, 0))           -- expect: 
-- unpack goes through __index and __len
print(table.unpack(setmetatable({}, { __index = function(_, i) return "i" .. i end, __len = function() return 3 end }))) -- expect: i1	i2	i3
print(pcall(table.unpack, setmetatable({}, { __len = function() return "many" end }))) -- expect: false	object length is not an integer
