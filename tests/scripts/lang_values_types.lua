-- lua: 5.4
-- §2.1 values and types: the eight types, integer and float subtypes,
-- truthiness, and how values are compared and converted by the basic
-- functions.

print(type(nil), type(true), type(0), type(0.5), type("s")) -- expect: nil	boolean	number	number	string
print(type({}), type(print), type(function() end), type(coroutine.create(print))) -- expect: table	function	function	thread
print(type(io.stdout)) -- expect: userdata
print(math.type(1), math.type(1.0), math.type("1"), math.type(nil)) -- expect: integer	float	nil	nil
print(math.type(2^53), math.type(1 // 1), math.type(1.0 // 1), math.type(7 % 2.0)) -- expect: float	integer	float	float
print(math.type(0x10), math.type(0x10p0), math.type(1e2), math.type(100000000000000000000)) -- expect: integer	float	float	float
print(1 == 1.0, math.type(1) == math.type(1.0), 0.0 == -0.0) -- expect: true	false	true

-- only nil and false are false
local function truth(v) if v then return "T" else return "F" end end
print(truth(nil), truth(false), truth(0), truth(""), truth(0.0), truth({}), truth("false")) -- expect: F	F	T	T	T	T	T
print(not nil, not false, not 0, not not nil) -- expect: true	true	false	false

-- nil and NaN cannot be table keys; float keys with integer values are
-- normalised to integers
local t = {}
print(pcall(function() t[nil] = 1 end)) -- expect: false	tests/scripts/lang_values_types.lua:22: table index is nil
print(pcall(function() t[0/0] = 1 end)) -- expect: false	tests/scripts/lang_values_types.lua:23: table index is NaN
print(t[nil], t[0/0]) -- expect: nil	nil
t[1.0] = "one"; t[2] = "two"; t[2^53] = "big"
print(t[1], t[2.0], t[2^53 | 0], math.type(next({[3.0] = true}))) -- expect: one	two	big	integer
t = { [1] = "a", [1.5] = "b", ["1"] = "c" }
print(t[1], t[1.5], t["1"], t[1.0]) -- expect: a	b	c	a

-- strings are values: equal contents are equal, whatever their origin
local a, b = "ab" .. "c", ("xabcx"):sub(2, 4)
print(a == b, #a, rawequal(a, b)) -- expect: true	3	true
local long1, long2 = string.rep("x", 100) .. "y", string.rep("x", 100) .. "y"
print(long1 == long2, rawequal(long1, long2)) -- expect: true	true
local keys = {}
keys[long1] = 1
print(keys[long2]) -- expect: 1

-- tables, functions, threads are references: equal only to themselves
local t1, t2 = {}, {}
print(t1 == t2, t1 == t1, rawequal(t1, t1)) -- expect: false	true	true
local f1 = function() end
local f2 = function() end
print(f1 == f2, f1 == f1) -- expect: false	true
local alias = t1
alias.x = 10
print(t1.x) -- expect: 10

-- functions are first-class values
local ops = { add = function(x, y) return x + y end, [print] = "print as a key" }
print(ops.add(2, 3), ops[print]) -- expect: 5	print as a key

-- tostring / tonumber round trips
print(tostring(nil), tostring(true), tostring(12), tostring(-12.5), tostring(1e15), tostring(1e16)) -- expect: nil	true	12	-12.5	1e+15	1e+16
print(tostring(2^63), tostring(-2^63), tostring(math.maxinteger), tostring(math.mininteger)) -- expect: 9.2233720368548e+18	-9.2233720368548e+18	9223372036854775807	-9223372036854775808
print(tostring(1/0), tostring(-1/0), tostring(3.0), tostring(-0.0), tostring(1e-7)) -- expect: inf	-inf	3.0	-0.0	1e-07
print(tonumber("0x1F"), tonumber("  12  "), tonumber("1e1"), tonumber("1e"), tonumber(""), tonumber("0x")) -- expect: 31	12	10.0	nil	nil	nil
print(tonumber("10", 2), tonumber("ff", 16), tonumber("zz", 36), tonumber("8", 8), tonumber("7fffffffffffffff", 16)) -- expect: 2	255	1295	nil	9223372036854775807
print(tonumber(" -0x10 "), tonumber("- 1"), tonumber("1 2"), tonumber("inf"), tonumber("nan")) -- expect: -16	nil	nil	nil	nil
print(math.type(tonumber("9223372036854775807")), math.type(tonumber("9223372036854775808"))) -- expect: integer	float
print(tonumber("0x7fffffffffffffff"), tonumber("0xffffffffffffffff"), tonumber("0x10000000000000000")) -- expect: 9223372036854775807	-1	0

-- select and the number of values
print(select("#"), select("#", nil), select("#", nil, nil), select("#", table.unpack({1, nil, 3}, 1, 3))) -- expect: 0	1	2	3
