-- lua: 5.4
-- §3.4 expressions: integer and float arithmetic, floor division and
-- modulo signs, exponentiation, bitwise operators, coercions, comparisons
-- across subtypes, concatenation, the length operator and borders,
-- precedence, and the logical operators.

local maxi, mini = math.maxinteger, math.mininteger
local function mt(v) return math.type(v) end

-- arithmetic: integers stay integers except / and ^
print(3 + 4, 3 - 4, 3 * 4, 3 / 4, 3 // 4, 3 % 4, 3 ^ 2) -- expect: 7	-1	12	0.75	0	3	9.0
print(mt(3 + 4), mt(3 / 1), mt(4 ^ 0.5), mt(3 + 4.0), mt(6 // 2.0), mt(6 % 4.0)) -- expect: integer	float	float	float	float	float
print(7 / 2, 7.0 // 2, -7 // 2, 7 // -2, -7 // -2, -7.0 // 2) -- expect: 3.5	3.0	-4	-4	3	-4.0
print(7 % 3, -7 % 3, 7 % -3, -7 % -3, 7.5 % 2, -7.5 % 2, 7.5 % -2) -- expect: 1	2	-2	-1	1.5	0.5	-0.5
print(5.25 % 1, -0.0 % 1, 3 % math.huge, -3 % math.huge, 3 % -math.huge) -- expect: 0.25	-0.0	3.0	inf	-inf
print(1 / 0, -1 / 0, 1 // 0.0, -1 // 0.0, 0.0 / 1, -0.0 / 1) -- expect: inf	-inf	inf	-inf	0.0	-0.0
local nan = 0 / 0
print(nan ~= nan, nan == nan, 1 % 0.0 ~= 1 % 0.0, math.huge - math.huge ~= 0) -- expect: true	false	true	true
print(pcall(function() return 1 // 0 end)) -- expect: false	tests/scripts/lang_expressions.lua:19: attempt to divide by zero
print(pcall(function() return 1 % 0 end)) -- expect: false	tests/scripts/lang_expressions.lua:20: attempt to perform 'n%0'
-- integer overflow wraps around
print(maxi + 1 == mini, mini - 1 == maxi, maxi * 2, mini * -1 == mini, -mini == mini) -- expect: true	true	-2	true	true
print(mini // -1 == mini, mini % -1, maxi // -1) -- expect: true	0	-9223372036854775807
-- exponentiation is always float
print(2 ^ 10, 2 ^ -1, (-8) ^ (1 / 3) ~= (-8) ^ (1 / 3), 0 ^ 0, 2 ^ 0.5 == math.sqrt(2)) -- expect: 1024.0	0.5	true	1.0	true
print(-2 ^ 2, (-2) ^ 2, 2 ^ 3 ^ 2) -- expect: -4.0	4.0	512.0
-- unary minus
print(-(3), -(-3), -(3.0), mt(-3), -mini == mini, -(0.0)) -- expect: -3	3	-3.0	integer	true	-0.0

-- bitwise: on integers, and on floats with exact integer values
print(0xF0 & 0x3C, 0xF0 | 0x0F, 0xF0 ~ 0xFF, ~0, ~0xF) -- expect: 48	255	15	-1	-16
print(1 << 62, 1 << 63, 1 << 64, 1 << -1, 2 >> 1, -1 >> 1, -1 >> 63, -1 >> 64) -- expect: 4611686018427387904	-9223372036854775808	0	0	1	9223372036854775807	1	0
print(1 << 63 == mini, 3 << 0, 5 >> -1, 5 << 100, mini >> 63) -- expect: true	3	10	0	1
print(3.0 & 1, 2.0 ^ 53 | 0, "--", pcall(function() return 1.5 | 0 end)) -- expect: 1	9007199254740992	--	false	tests/scripts/lang_expressions.lua:34: number has no integer representation
print(pcall(function() return 2 ^ 64 | 0 end)) -- expect: false	tests/scripts/lang_expressions.lua:35: number has no integer representation
print(mt(3.0 | 0), 0xFF ~ 0xF0 & 0x3C) -- expect: integer	207

-- coercions: strings to numbers in arithmetic, numbers to strings in concat
print("10" + 1, "10" * "2", "3.5" + 0, " 0x10 " + 0, "1e2" + 0, mt("10" + 1), mt("10" + 1.0)) -- expect: 11	20	3.5	16	100.0	integer	float
print(10 .. 20, 1.5 .. "", -0.0 .. "", 1e100 .. "", 2^63 .. "", maxi .. "", mini .. "") -- expect: 1020	1.5	-0.0	1e+100	9.2233720368548e+18	9223372036854775807	-9223372036854775808
print(pcall(function() return "abc" + 1 end)) -- expect: false	tests/scripts/lang_expressions.lua:41: attempt to add a 'string' with a 'number'
print(pcall(function() return {} .. "" end)) -- expect: false	tests/scripts/lang_expressions.lua:42: attempt to concatenate a table value
print(math.tointeger(3.0), math.tointeger(3.5), math.tointeger("8"), math.tointeger(2^63)) -- expect: 3	nil	8	nil
print(3 == 3.0, "3" == 3, 1 < 1.5, "10" < "9", "a" < "b", "" < "a", "Z" < "a") -- expect: true	false	true	true	true	true	true
print(pcall(function() return 1 < "2" end)) -- expect: false	tests/scripts/lang_expressions.lua:45: attempt to compare number with string

-- comparisons between integers and floats are exact
print(maxi + 0.0 == maxi, maxi + 0.0 == 2^63, maxi < 2^63, maxi + 0.0 > maxi) -- expect: false	true	true	true
print(2^53 == 2^53 + 1, (1 << 53) + 1 == 2^53, (1 << 53) + 1 > 2^53, (1 << 53) == 2^53) -- expect: true	false	true	true
print(mini == -2^63, mini < -2^63, mini <= -2^63, 1 < math.huge, mini > -math.huge) -- expect: true	false	true	true	true
print(1 == 1.0000000000000002, 0.1 + 0.2 == 0.3, 0.5 + 0.25 == 0.75) -- expect: false	false	true
print(nan < 1, nan > 1, nan <= nan, 1 < nan, maxi < nan) -- expect: false	false	false	false	false
-- equality never converts
print(1 == "1", "abc" == "abc", {} == {}, nil == false) -- expect: false	true	false	false

-- concatenation is right-associative; numbers format like tostring
print("a" .. "b" .. "c" .. 1 .. 2, 1 .. 2 == "12", 12.0 .. "") -- expect: abc12	true	12.0
local parts = {}
for v = 1, 5 do parts[#parts + 1] = v .. "" end
print(table.concat(parts, "|")) -- expect: 1|2|3|4|5

-- length: strings in bytes, tables give a border
print(#"", #"abc", #"\0\0", #"é") -- expect: 0	3	2	2
print(#{}, #{ 1, 2, 3 }, #{ n = 1 }, #{ 1, 2, nil }, #{ nil }) -- expect: 0	3	0	2	0
local seq = {}
for v = 1, 100 do seq[v] = v end
print(#seq) -- expect: 100
seq[#seq] = nil
print(#seq) -- expect: 99
local border = { 1, 2, 3, nil, 5 }
local len = #border
print(len == 3 or len == 5) -- expect: true
local holes = { [1] = 1, [2] = 2, [4] = 4 }
local hlen = #holes
print(hlen == 2 or hlen == 4) -- expect: true

-- precedence (low to high): or, and, comparisons, |, ~, &, shifts, ..,
-- + -, * / // %, unary, ^
print(1 + 2 * 3, (1 + 2) * 3, 2 * 3 ^ 2, -3 ^ 2, not 1 == 2, not (1 == 2)) -- expect: 7	9	18.0	-9.0	false	true
print(1 .. 2 + 3, "x" .. 2 ^ 2, 1 + 2 .. "") -- expect: 15	x4.0	3
print(1 | 2 ~ 3 & 4, 1 << 2 + 1, 1 + 1 << 1, 5 & 3 == 1, 2 < 3 == true) -- expect: 3	8	4	true	true
print(1 < 2 and 2 < 3, nil or false and 1, false or nil, 1 and nil or "d") -- expect: true	false	nil	d
print(2 ^ -1, - - 2, #"abc" + 1, -2 ^ -2, ~1 + 1) -- expect: 0.5	2	4	-0.25	-1

-- logical operators return an operand and short-circuit
print(nil and 1, false and error("x"), 1 and 2, 1 or error("x"), nil or "default", false or false) -- expect: nil	false	2	1	default	false
print(0 and "zero is true", "" or "empty is true", nil and nil or "x") -- expect: zero is true		x
local calls = 0
local function touch(v) calls = calls + 1 return v end
local _ = touch(false) and touch(1)
local _ = touch(1) or touch(2)
print(calls) -- expect: 2

-- parentheses truncate to one value
local function three() return 1, 2, 3 end
print((three())) -- expect: 1
print(select("#", (three())), select("#", three())) -- expect: 1	3
