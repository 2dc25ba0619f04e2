-- API test: building strings in C (text_buffer.c).
-- Run by tide-api-tests (tests/api/main.c); every "expect" line was proven
-- on stock Lua 5.4.
local text = require("text_buffer")

-- luaL_addvalue and luaL_addlstring
print(text.join({ "a", 1, 2.5, "b" }, ", "))  -- expect: a, 1, 2.5, b
print(text.join({}), text.join({ "only" }, "-"))  -- expect: 	only
print(pcall(text.join, { "a", {} }))  -- expect: false	invalid value (a table) at index 2 in table for 'join'

-- luaL_buffinitsize and luaL_pushresultsize
print(text.rep("ab", 3), text.rep("x", 0), #text.rep("0123456789", 1000))  -- expect: ababab		10000

-- luaL_prepbuffsize and luaL_addsize; luaL_checkoption with a default
print(text.hex("Tide\0\255"), text.hex("\171", "upper"))  -- expect: 5469646500ff	AB

-- luaL_gsub and luaL_addgsub
print(text.escape("a < b && c > d"))  -- expect: a &lt; b &amp;&amp; c &gt; d

-- luaL_buffsub, luaL_bufflen, luaL_buffaddr
print(text.chop("hello, world", 7))  -- expect: hello	12	true

-- luaL_tolstring: numbers, booleans, nil, __tostring, __name
local named = setmetatable({}, { __name = "Thing" })
local shown = setmetatable({}, { __tostring = function() return "shown!" end })
print(text.describe(1, 2.0, -0.0, true, nil, "s", shown))  -- expect: 1,2.0,-0.0,true,nil,s,shown!
print((text.describe(named):gsub("0x%x+", "ADDRESS"):gsub(": [%x]+$", ": ADDRESS")))  -- expect: Thing: ADDRESS
print(text.describe(setmetatable({}, { __tostring = function() return 42 end })))  -- expect: 42
print(pcall(text.describe, setmetatable({}, { __tostring = function() return {} end })))  -- expect: false	'__tostring' must return a string

-- lua_pushfstring's conversions, and lua_pushvfstring
print(text.formats())  -- expect: -42|str|1.5|-9223372036854775808|A|€|%|end	2+2=4	true

-- lua_concat: numbers converted, __concat honoured, nothing gives ""
local cat = setmetatable({}, { __concat = function(a, b)
    return (type(a) == "table" and "T" or a) .. (type(b) == "table" and "T" or b)
end })
print(text.concat("a", 1, 2.5), text.concat(cat, "x"), text.concat() == "")  -- expect: a12.5	Tx	true

-- lua_stringtonumber
print(text.tonumber("  0x10  "))  -- expect: 16	9
print(text.tonumber("1e2"))  -- expect: 100.0	4
print(text.tonumber("1.5x"))  -- expect: nil
print(math.type((text.tonumber("7"))), math.type((text.tonumber("7.0"))))  -- expect: integer	float

-- lua_tolstring converts a number in its stack slot, and nothing else
print(text.inplace(12))  -- expect: number	string	12
print(text.inplace(1.5))  -- expect: number	string	1.5
print(text.inplace(true))  -- expect: boolean	boolean	(null)

-- a buffer far beyond its inline space, with collections while it grows
print(text.big(300000))  -- expect: 300000	true
print(text.big(0))  -- expect: 0	true

-- lua_dump into a buffer, lua_load back from a reader in 3-byte pieces
local function adder(x) return function(y) return x + y end end
local chunk = text.dump(adder)
print(type(chunk), chunk:sub(1, 4) == "\27Lua")  -- expect: string	true
print(text.load(chunk, "=adder")(40)(2))  -- expect: 42
print(text.load(text.dump(adder, true))(1)(2))  -- expect: 3
print(text.load("return 6 * 7")())  -- expect: 42
print(text.load("return +", "=bad"))  -- expect: nil	bad:1: unexpected symbol near '+'	3
print(text.load(chunk, "=bin", "t"))  -- expect: nil	attempt to load a binary chunk (mode is 't')	3
print(text.load("return 1", "=txt", "b"))  -- expect: nil	attempt to load a text chunk (mode is 'b')	3

-- luaL_loadbufferx's status codes
print(text.loadbuffer("return 1", "t"), text.loadbuffer("return +", "bt"), text.loadbuffer(chunk, "b"))  -- expect: 0	3	0

-- luaL_where: level 1 is the Lua code that called the C function
local function where_line(level) return (text.where(level):match(":(%d+): $")) end
print(where_line(1), text.where(0))  -- expect: 70	
