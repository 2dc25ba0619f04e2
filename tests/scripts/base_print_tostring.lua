-- lua: 5.4
-- print, tostring, type and _VERSION: the textual forms of every kind of
-- value, __tostring and __name, and the argument errors.

print()                                    -- expect: 
print(nil, true, false)                    -- expect: nil	true	false
print(1, -0, 2^53, 1.5, -0.0, 1e100)       -- expect: 1	0	9.007199254741e+15	1.5	-0.0	1e+100
print(3 // 1, 3 / 1, 7 // 2.0, 1e15, 1e16) -- expect: 3	3.0	3.0	1e+15	1e+16
print(math.maxinteger, math.mininteger)    -- expect: 9223372036854775807	-9223372036854775808
print(1/0, -1/0)                           -- expect: inf	-inf
print("a\0b" == "a\0b", #"a\0b")           -- expect: true	3
print("tab", "separated", "")              -- expect: tab	separated	
print(_VERSION)                            -- expect: Lua 5.4

-- tostring of plain values
print(tostring(nil), tostring(true), tostring(12), tostring(12.0)) -- expect: nil	true	12	12.0
print(tostring("str"), tostring(-7.25))    -- expect: str	-7.25
print(math.type(tonumber(tostring(42)))) -- expect: integer

-- tables, functions, threads and userdata print a kind and an identity
local function kind(v) return (tostring(v):match("^(.-): ")) end
print(kind({}), kind(print), kind(function() end), kind(coroutine.create(print))) -- expect: table	function	function	thread
print(tostring({}) == tostring({}))        -- expect: false
local t = {}
print(tostring(t) == tostring(t))          -- expect: true

-- __tostring wins, and may return a number
local obj = setmetatable({}, { __tostring = function(self) return "<obj>" end })
print(obj, tostring(obj))                  -- expect: <obj>	<obj>
print(setmetatable({}, { __tostring = function() return 42 end })) -- expect: 42
print(pcall(tostring, setmetatable({}, { __tostring = function() return {} end }))) -- expect: false	'__tostring' must return a string
print(pcall(print, setmetatable({}, { __tostring = function() return nil end }))) -- expect: false	'__tostring' must return a string
print(pcall(tostring, setmetatable({}, { __tostring = function() error("inner") end }))) -- expect: false	tests/scripts/base_print_tostring.lua:33: inner

-- __name names the kind; a non-string __name is ignored
print(kind(setmetatable({}, { __name = "Vector" })))  -- expect: Vector
print(kind(setmetatable({}, { __name = 12 })))        -- expect: table
print(setmetatable({}, { __name = "N", __tostring = function() return "T" end })) -- expect: T

-- print calls __tostring for every argument and separates them with tabs
local calls = 0
local counted = setmetatable({}, { __tostring = function() calls = calls + 1 return "c" .. calls end })
print(counted, counted, 1, counted)        -- expect: c1	c2	1	c3

-- print uses the __tostring of the metatable, not a global tostring
local saved = tostring
tostring = function() return "replaced" end
print(1, obj)                              -- expect: 1	<obj>
tostring = saved

-- type
print(type(nil), type(true), type(0), type(""), type({}), type(print)) -- expect: nil	boolean	number	string	table	function
print(type(coroutine.create(print)), type(io.stdout), type(type)) -- expect: thread	userdata	function
print(pcall(type))                         -- expect: false	bad argument #1 to 'type' (value expected)
print(pcall(tostring))                     -- expect: false	bad argument #1 to 'tostring' (value expected)
print(select("#", tostring(nil)))          -- expect: 1
