-- lua: 5.4
-- table.insert and table.remove: positions, bounds, argument errors, and
-- tables that are proxies (__index/__newindex/__len).

local function dump(t, n) local out = {} for i = 1, n or #t do out[i] = tostring(t[i]) end return "{" .. table.concat(out, ",") .. "}" end

local t = {}
table.insert(t, "a")
table.insert(t, "b")
table.insert(t, 1, "c")
table.insert(t, 2, "d")
table.insert(t, #t + 1, "e")
print(dump(t))                             -- expect: {c,d,a,b,e}
print(select("#", table.insert(t, "f")))   -- expect: 0
table.insert(t, 3, nil)
print(dump(t, 7))                          -- expect: {c,d,nil,a,b,e,f}

-- bounds: 1 <= pos <= #t + 1
print(pcall(table.insert, { 1, 2 }, 0, "x")) -- expect: false	bad argument #2 to 'table.insert' (position out of bounds)
print(pcall(table.insert, { 1, 2 }, 4, "x")) -- expect: false	bad argument #2 to 'table.insert' (position out of bounds)
print(pcall(table.insert, { 1, 2 }, -1, "x")) -- expect: false	bad argument #2 to 'table.insert' (position out of bounds)
print(pcall(table.insert, {}, 1, "x"))     -- expect: true
print(pcall(table.insert, { 1 }, 1.5, "x")) -- expect: false	bad argument #2 to 'table.insert' (number has no integer representation)
print(pcall(table.insert, { 1 }, "2", "x")) -- expect: true
print(pcall(table.insert, { 1 }, "a", "x")) -- expect: false	bad argument #2 to 'table.insert' (number expected, got string)
print(pcall(table.insert, { 1 }, math.mininteger, "x")) -- expect: false	bad argument #2 to 'table.insert' (position out of bounds)
-- argument counts
print(pcall(table.insert, {}))             -- expect: false	wrong number of arguments to 'insert'
print(pcall(table.insert, {}, 1, 2, 3))    -- expect: false	wrong number of arguments to 'insert'
print(pcall(table.insert))                 -- expect: false	bad argument #1 to 'table.insert' (table expected, got no value)
print(pcall(table.insert, 1, 2))           -- expect: false	bad argument #1 to 'table.insert' (table expected, got number)
print(pcall(table.insert, "s", 2))         -- expect: false	bad argument #1 to 'table.insert' (table expected, got string)

-- remove
t = { "a", "b", "c", "d" }
print(table.remove(t), dump(t))            -- expect: d	{a,b,c}
print(table.remove(t, 1), dump(t))         -- expect: a	{b,c}
print(table.remove(t, 2), dump(t))         -- expect: c	{b}
print(table.remove(t, #t + 1), dump(t))    -- expect: nil	{b}
print(table.remove(t), dump(t))            -- expect: b	{}
print(table.remove(t), dump(t))            -- expect: nil	{}
print(select("#", table.remove({})))       -- expect: 1
print(table.remove({}, 0), table.remove({}, 1)) -- expect: nil	nil
local holes = { [0] = "zero" }
print(table.remove(holes, 0), holes[0])    -- expect: zero	nil
print(pcall(table.remove, {}, 2))          -- expect: false	bad argument #1 to 'table.remove' (position out of bounds)
print(pcall(table.remove, {}, -1))         -- expect: false	bad argument #1 to 'table.remove' (position out of bounds)
print(pcall(table.remove, { 1, 2, 3 }, 5)) -- expect: false	bad argument #1 to 'table.remove' (position out of bounds)
print(pcall(table.remove, { 1, 2, 3 }, 0)) -- expect: false	bad argument #1 to 'table.remove' (position out of bounds)
print(pcall(table.remove, { 1, 2, 3 }, "x")) -- expect: false	bad argument #2 to 'table.remove' (number expected, got string)
print(pcall(table.remove, nil))            -- expect: false	bad argument #1 to 'table.remove' (table expected, got nil)
-- #t is what counts: a table with a border past a nil
local border = { 1, 2, 3 }
border[5] = 5
print(#border == 3 or #border == 5)        -- expect: true

-- proxies: every access goes through the metamethods
local log = {}
local function proxy(backing)
    return setmetatable({}, {
        __index = function(_, k) log[#log + 1] = "r" .. k return backing[k] end,
        __newindex = function(_, k, v) log[#log + 1] = "w" .. k .. "=" .. tostring(v) backing[k] = v end,
        __len = function() log[#log + 1] = "#" return #backing end,
    })
end
local backing = { "x", "y", "z" }
local p = proxy(backing)
table.insert(p, "w")
print(table.concat(log, " "), dump(backing)) -- expect: # w4=w	{x,y,z,w}
log = {}
table.insert(p, 2, "v")
print(table.concat(log, " "), dump(backing)) -- expect: # r4 w5=w r3 w4=z r2 w3=y w2=v	{x,v,y,z,w}
log = {}
print(table.remove(p, 1), table.concat(log, " "), dump(backing)) -- expect: x	# r1 r2 w1=v r3 w2=y r4 w3=z r5 w4=w w5=nil	{v,y,z,w}
log = {}
print(table.remove(p), table.concat(log, " "), dump(backing)) -- expect: w	# r4 w4=nil	{v,y,z}
log = {}
print(table.remove(p, #backing + 1), table.concat(log, " ")) -- expect: nil	# r4 w4=nil

-- a value that is not a table needs __index, __newindex and __len
local store = {}
debug.setmetatable(0, { __index = store, __newindex = store, __len = function() return #store end })
table.insert(7, "via a number")
table.insert(7, 1, "first")
print(table.remove(7), table.remove(7), #store) -- expect: via a number	first	0
debug.setmetatable(0, { __index = store, __len = function() return 0 end })
print(pcall(table.insert, 7, "x"))         -- expect: false	bad argument #1 to 'table.insert' (table expected, got number)
debug.setmetatable(0, { __index = store, __newindex = store })
print(pcall(table.insert, 7, "x"))         -- expect: false	bad argument #1 to 'table.insert' (table expected, got number)
debug.setmetatable(0, nil)
print(pcall(table.insert, 7, "x"))         -- expect: false	bad argument #1 to 'table.insert' (table expected, got number)
print(pcall(table.insert, io.stdout, 1))   -- expect: false	bad argument #1 to 'table.insert' (table expected, got FILE*)
-- __len must return an integer
print(pcall(table.insert, setmetatable({}, { __len = function() return "x" end }), 1)) -- expect: false	object length is not an integer
print(pcall(table.insert, setmetatable({}, { __len = function() return 2^53 end }), 1)) -- expect: true

-- a large table: insert at the front and remove from the front
local big = {}
for i = 1, 1000 do table.insert(big, 1, i) end
print(#big, big[1], big[1000])             -- expect: 1000	1000	1
local sum = 0
while #big > 0 do sum = sum + table.remove(big, 1) end
print(sum)                                 -- expect: 500500
