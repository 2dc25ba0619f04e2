-- lua: 5.4
-- §3.1 lexical conventions: escapes in short strings, long strings and
-- long comments with levels, numerals (decimal, hexadecimal, exponents,
-- integer overflow), names and keywords. Strings are printed through
-- string.byte or %q so that no control character reaches the output.

local function bytes(s) return table.concat({ s:byte(1, -1) }, ",") end

-- escapes
print(bytes("\a\b\f\n\r\t\v\\\"\'")) -- expect: 7,8,12,10,13,9,11,92,34,39
print(bytes("\x41\x7a\x00\xff"), #"\x00\x00") -- expect: 65,122,0,255	2
print(bytes("\65\066\0067\255\0"), bytes("\1234")) -- expect: 65,66,6,55,255,0	123,52
print(bytes("\u{41}\u{7FF}\u{FFFF}"), bytes("\u{10FFFF}"), #"\u{7FFFFFFF}") -- expect: 65,223,191,239,191,191	244,143,191,191	6
local z1 = "a\z
       b"
local escaped_newline = "x\
y"
print(z1, "c\z  d", bytes(escaped_newline)) -- expect: ab	cd	120,10,121
print('single "quotes"', "double 'quotes'") -- expect: single "quotes"	double 'quotes'
print(#"", #"\0", #"abc\0def") -- expect: 0	1	7
-- invalid escapes are compile errors
print(load([[return "\q"]])) -- expect: nil	[string "return "\q""]:1: invalid escape sequence near '"\q'
print(load([[return "\x4"]])) -- expect: nil	[string "return "\x4""]:1: hexadecimal digit expected near '"\x4"'
print(load([[return "\256"]])) -- expect: nil	[string "return "\256""]:1: decimal escape too large near '"\256"'
print(load([[return "\u{110000000}"]])) -- expect: nil	[string "return "\u{110000000}""]:1: UTF-8 value too large near '"\u{110000000'
print(load("return 'unfinished")) -- expect: nil	[string "return 'unfinished"]:1: unfinished string near <eof>
print(load("return 'line\nbreak'")) -- expect: nil	[string "return 'line..."]:1: unfinished string near ''line'

-- long strings: no escapes, a first newline is skipped, levels nest
local long = [[
first line
  "quotes" and \n stay]]
print(bytes(long:sub(1, 5)), #long, long:find("\\n", 1, true)) -- expect: 102,105,114,115,116	33	27	28
local two_newlines = [[

]]
print([==[a]]b]=]c]==], [[]], #two_newlines) -- expect: a]]b]=]c		1
print([[\x41]], [=[[[nested]]]=]) -- expect: \x41	[[nested]]
local crlf = load("return [[\r\nx]]")()
print(bytes(crlf)) -- expect: 120
local mixed = load("return [[a\r\nb\n\rc\r\rd]]")()
print(bytes(mixed)) -- expect: 97,10,98,10,99,10,10,100

--[[ a long comment
print("not printed") ]]
--[==[ another
]] still a comment ]==]
print("after comments") --[[ inline ]] -- and a short one -- expect: after comments

-- numerals
print(3, 345, 0xff, 0xBEBADA, 0x0, 00012) -- expect: 3	345	255	12499674	0	12
print(3.0, 3.1416, 314.16e-2, 0.31416E1, 34e1, .5, 5., 1e-2) -- expect: 3.0	3.1416	3.1416	3.1416	340.0	0.5	5.0	0.01
print(0x0.1E, 0xA23p-4, 0X1.921FB54442D18P+1, 0x.8p1, 0x1p-1074 > 0) -- expect: 0.1171875	162.1875	3.1415926535898	1.0	true
print(math.type(0x10), math.type(1e2), math.type(0x1p4), math.type(3.)) -- expect: integer	float	float	float
print(9223372036854775807, 9223372036854775808, -9223372036854775808) -- expect: 9223372036854775807	9.2233720368548e+18	-9.2233720368548e+18
print(math.type(9223372036854775807), math.type(9223372036854775808)) -- expect: integer	float
print(0x7fffffffffffffff, 0xffffffffffffffff, 0x10000000000000001) -- expect: 9223372036854775807	-1	1
print(1e308 * 10, -1e308 * 10, 2^1024, 5e-324 > 0, 1e-400) -- expect: inf	-inf	inf	true	0.0
print(load("return 3..2"), load("return 0x"), load("return 1e+"), load("return 08") ~= nil) -- expect: nil	nil	nil	true
print(load("return 3 .. 2")()) -- expect: 32
print(0xA, 0Xa, 1E2, 1e+2, 1e-0) -- expect: 10	10	100.0	100.0	1.0

-- names: case-sensitive, underscores, keywords are reserved
local And, _x, x_1, _ = 1, 2, 3, 4
print(And, _x, x_1, _) -- expect: 1	2	3	4
print(load("local and = 1")) -- expect: nil	[string "local and = 1"]:1: <name> expected near 'and'
print(load("local goto = 1")) -- expect: nil	[string "local goto = 1"]:1: <name> expected near 'goto'
print(load("local _ENV2 = 1") ~= nil, load("local _G = 1") ~= nil) -- expect: true	true

-- tokens: whitespace and comments separate, adjacent operators
print(1--[[comment]]+--[[comment]]2) -- expect: 3
print(2^-2, - -2, not not true, 1 - -1, 8 // 3, 7 ~= 8, ~5) -- expect: 0.25	2	true	2	2	true	-6
print(#"a" .. "b", ("x"):rep(2) .. 1) -- expect: 1b	xx1
print(1 ==1, 1<=1, "a".."b", 1>>1, 1<<1) -- expect: true	true	ab	0	2

-- a first line starting with '#' is skipped by loadfile and the
-- stand-alone interpreter, not by load
print(load("#!/usr/bin/lua\nreturn 1")) -- expect: nil	[string "#!/usr/bin/lua..."]:1: unexpected symbol near '#'
