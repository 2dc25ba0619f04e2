-- API test: a full-userdata type written in C (userdata_vec.c).
-- Run by tide-api-tests (tests/api/main.c); every "expect" line was proven
-- on stock Lua 5.4.
local vec = require("userdata_vec")

-- construction, __len, __index on integers, __newindex
local a = vec.new(3)
print(#a, a[1], a[3], a[4])  -- expect: 3	0.0	0.0	nil
a[1] = 1
a[2] = 2.5
a[3] = -3
print(a[1], a[2], a[3])  -- expect: 1.0	2.5	-3.0
print(vec.is(a), vec.is({}), vec.is(nil))  -- expect: true	false	false

-- methods through __index's closure, luaL_checkoption with a default
print(a:sum())  -- expect: 0.5
print(a:norm(), a:norm("l1"), a:norm("max"))  -- expect: 4.0311288741493	6.5	3.0

-- __tostring through luaL_Buffer; the label is a user value
print(tostring(a))  -- expect: vec(1.0, 2.5, -3.0)
print(a:label())  -- expect: nil
print(a:label("pos") == a, a:label())  -- expect: true	pos
print(tostring(a))  -- expect: pos(1.0, 2.5, -3.0)

-- luaL_opt: scale by 2 unless told otherwise
print(tostring(a:scale()), tostring(vec.from({1, 2}):scale(0.5)))  -- expect: pos(2.0, 5.0, -6.0)	vec(0.5, 1.0)

-- vec.from walks the table with lua_next: keys outside 1..#t are ignored
local b = vec.from({ 10, 20, 30, x = "ignored", [0] = "ignored too" })
print(tostring(b), #b)  -- expect: vec(10.0, 20.0, 30.0)	3

-- __eq, __add with a vector or a number on either side
print(vec.from({1, 2}) == vec.from({1, 2}), vec.from({1, 2}) == vec.from({2, 1}))  -- expect: true	false
print(tostring(vec.from({1, 2}) + vec.from({10, 20})))  -- expect: vec(11.0, 22.0)
print(tostring(vec.from({1, 2}) + 1), tostring(1 + vec.from({1, 2})))  -- expect: vec(2.0, 3.0)	vec(2.0, 3.0)

-- the block: lua_rawlen gives its size, lua_topointer gives its address
print(b:bytes())  -- expect: 32
print(b:same_block())  -- expect: true

-- argument errors, as luaL_argerror, luaL_typeerror and luaL_checkoption word
-- them; luaL_error prefixes the position of the Lua code that called the C
-- function (the chunk's path is dropped here, so any working directory will do)
local function try(f, ...)
    local ok, err = pcall(f, ...)
    print(ok, (tostring(err):gsub("^[^:]*:(%d+): ", "line %1: ")))
end
try(function() return a:norm("l3") end)  -- expect: false	line 48: bad argument #1 to 'norm' (invalid option 'l3')
try(function() a[7] = 1 end)  -- expect: false	line 49: bad argument #2 to 'newindex' (index out of range)
try(function() return a:label(42) end)  -- expect: false	line 50: bad argument #1 to 'label' (string expected, got number)
try(function() return vec.from({1, "two"}) end)  -- expect: false	line 51: element 2 is not a number (a string)
try(function() return vec.new(-1) end)  -- expect: false	line 52: bad argument #1 to 'new' (size out of range)
try(function() return a.sum(42) end)  -- expect: false	line 53: bad argument #1 to 'sum' (tide.api.vec expected, got number)
try(function() return vec.from({1, 2}) + vec.from({1}) end)  -- expect: false	line 54: bad argument #2 to 'add' (vectors differ in length)

-- lua_arith and lua_compare follow Lua's rules, metamethods included
print(vec.calc(7, "idiv", 2), vec.calc(7, "div", 2), vec.calc(7, "mod", -3))  -- expect: 3	3.5	-2
print(vec.calc(6, "band", 3), vec.calc(1, "shl", 4), vec.calc(5, "unm"), vec.calc(0, "bnot"))  -- expect: 2	16	-5	-1
print(vec.calc("10", "add", 1), math.type(vec.calc(2, "pow", 2)))  -- expect: 11	float
print(tostring(vec.calc(vec.from({1}), "add", 1)))  -- expect: vec(2.0)
print(vec.cmp(1, 2), vec.cmp(2, 2.0), vec.cmp("b", "a"), vec.cmp(0/0, 1))  -- expect: <	==	>	?
try(function() return vec.calc({}, "add", 1) end)  -- expect: false	attempt to perform arithmetic on a table value

-- __close runs when a to-be-closed variable goes out of scope
do
    local scoped <close> = vec.new(1)
    scoped[1] = 1
end
print(vec.stats().closed)  -- expect: 1

-- __gc runs for every unreachable vector by the end of two full collections
local before = vec.stats()
for _ = 1, 100 do vec.new(8) end
collectgarbage()
collectgarbage()
local after = vec.stats()
print(after.created - before.created, after.freed - before.freed >= 100)  -- expect: 100	true
print(tostring(a), tostring(b))  -- expect: pos(2.0, 5.0, -6.0)	vec(10.0, 20.0, 30.0)
