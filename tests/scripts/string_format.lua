-- lua: 5.4
-- string.format (manual §6.4): every conversion, its flags, width and
-- precision, %q's literals, %s through __tostring, and every error.

local function try(f, ...)
    local r = table.pack(pcall(f, ...))
    if r[1] then return table.unpack(r, 2, r.n) end
    return "error: " .. tostring(r[2])
end
local F = string.format
local function fmt(...) return try(F, ...) end

-- Plain text, %% and embedded zeros
print(F("hello"), F(""), F("100%%"), F("%%d"), F("a%%b%%"))   -- expect: hello		100%	%d	a%b%
print(F("a\0b%dc\0", 1) == "a\0b1c\0", #F("\0\0\0"))          -- expect: true	3
print(F(12), F(1.5))                                          -- expect: 12	1.5
print(select("#", F("")))                                     -- expect: 1

-- %d and %i
print(F("%d %i", 42, -42), F("%d", 0), F("%d", math.maxinteger), F("%d", math.mininteger))  -- expect: 42 -42	0	9223372036854775807	-9223372036854775808
print(F("[%5d][%-5d][%05d][%+d][% d][%+5d]", 42, 42, 42, 42, 42, -42))  -- expect: [   42][42   ][00042][+42][ 42][  -42]
print(F("[%.3d][%5.3d][%-5.3d][%.0d][%0.5d][%00005d]", 7, 7, 7, 0, 1, 1))  -- expect: [007][  007][007  ][][00001][00001]
print(F("[% 05d][%+05d][%- 5d][%-+5d]", 3, 3, 3, 3))          -- expect: [ 0003][+0003][ 3   ][+3   ]
print(F("%d", 3.0), F("%d", "10"), F("%d", " 0x10 "), F("%i", -0.0), F("%d", 2 ^ 53))  -- expect: 3	10	16	0	9007199254740992
print(fmt("%d", 1.5))                                         -- expect: error: bad argument #2 to 'string.format' (number has no integer representation)
print(fmt("%d", 2 ^ 63))                                      -- expect: error: bad argument #2 to 'string.format' (number has no integer representation)
print(fmt("%d", "1.5"))                                       -- expect: error: bad argument #2 to 'string.format' (number has no integer representation)
print(fmt("%d", "x"))                                         -- expect: error: bad argument #2 to 'string.format' (number expected, got string)
print(fmt("%d", {}))                                          -- expect: error: bad argument #2 to 'string.format' (number expected, got table)
print(fmt("%d"))                                              -- expect: error: bad argument #2 to 'string.format' (no value)
print(fmt("%d %d", 1))                                        -- expect: error: bad argument #3 to 'string.format' (no value)
print(fmt("%#d", 1))                                          -- expect: error: invalid conversion specification: '%#d'
print(fmt("%#i", {}))                                         -- expect: error: bad argument #2 to 'string.format' (number expected, got table)
print(fmt("%99d", 1) == string.rep(" ", 98) .. "1", #F("%-99d|", 1))  -- expect: true	100
print(fmt("%100d", 1))                                        -- expect: error: invalid conversion specification: '%100d'
print(fmt("%.99d", 1) == string.rep("0", 98) .. "1")          -- expect: true
print(fmt("%.100d", 1))                                       -- expect: error: invalid conversion specification: '%.100d'
print(fmt("%1.2.3d", 1))                                      -- expect: error: invalid conversion specification: '%1.2.3d'
print(fmt("%5-d", 1))                                         -- expect: error: invalid conversion specification: '%5-d'
print(fmt("%.-5d", 1))                                        -- expect: error: invalid conversion specification: '%.-5d'

-- %u, %o, %x, %X
print(F("%u", 42), F("%u", -1), F("[%5u][%-5u][%05u][%.3u]", 1, 2, 3, 4))  -- expect: 42	18446744073709551615	[    1][2    ][00003][004]
print(F("%o %x %X", 8, 255, 255), F("%x", -1), F("%X", math.mininteger))  -- expect: 10 ff FF	ffffffffffffffff	8000000000000000
print(F("[%#o][%#x][%#X][%#5x][%-#8x][%08x][%.4x][%#.0x]", 8, 255, 255, 1, 1, 255, 1, 0))  -- expect: [010][0xff][0XFF][  0x1][0x1     ][000000ff][0001][]
print(F("%x", 3.0), F("%o", "8"), F("[%.0x]", 0), F("[%5.x]", 0))  -- expect: 3	10	[]	[     ]
print(fmt("%+u", 1))                                          -- expect: error: invalid conversion specification: '%+u'
print(fmt("% u", 1))                                          -- expect: error: invalid conversion specification: '% u'
print(fmt("%#u", 1))                                          -- expect: error: invalid conversion specification: '%#u'
print(fmt("%+x", 1))                                          -- expect: error: invalid conversion specification: '%+x'
print(fmt("% o", 1))                                          -- expect: error: invalid conversion specification: '% o'
print(fmt("%x", 0.5))                                         -- expect: error: bad argument #2 to 'string.format' (number has no integer representation)
print(fmt("%X", "ff"))                                        -- expect: error: bad argument #2 to 'string.format' (number expected, got string)

-- %c
print(F("%c%c%c", 76, 117, 97), F("[%5c][%-5c]", 65, 66))     -- expect: Lua	[    A][B    ]
print(F("%c", 0) == "\0", F("%3c", 0) == "  \0", F("%c", 256 + 65), F("%c", "66"))  -- expect: true	true	A	B
print(fmt("%05c", 65))                                        -- expect: error: invalid conversion specification: '%05c'
print(fmt("%.3c", 65))                                        -- expect: error: invalid conversion specification: '%.3c'
print(fmt("%#c", 65))                                         -- expect: error: invalid conversion specification: '%#c'
print(fmt("%+c", {}))                                         -- expect: error: invalid conversion specification: '%+c'
print(fmt("%c", 65.5))                                        -- expect: error: bad argument #2 to 'string.format' (number has no integer representation)
print(fmt("%c", "x"))                                         -- expect: error: bad argument #2 to 'string.format' (number expected, got string)
print(fmt("%c"))                                              -- expect: error: bad argument #2 to 'string.format' (no value)

-- %e, %E, %f, %g, %G
print(F("%f %e %E %g %G", 3.14159, 314.159, 314.159, 0.0001, 1e-10))  -- expect: 3.141590 3.141590e+02 3.141590E+02 0.0001 1E-10
print(F("[%.2f][%10.3f][%-10.1f][%+.1f][% .1f][%010.2f]", 2 / 3, 2 / 3, 2 / 3, 2 / 3, 2 / 3, -2 / 3))  -- expect: [0.67][     0.667][0.7       ][+0.7][ 0.7][-000000.67]
print(F("[%.0f][%.0f][%.0f][%#.0f][%.0e][%#.0e]", 0.5, 1.5, 2.5, 1, 1, 1))  -- expect: [0][2][2][1.][1e+00][1.e+00]
print(F("[%g][%g][%g][%g][%#g][%.3g][%.10g]", 100000, 1000000, 1e-4, 1e-5, 1, math.pi, math.pi))  -- expect: [100000][1e+06][0.0001][1e-05][1.00000][3.14][3.141592654]
print(F("[%G][%E][%.3E][%+e][% e]", 1e-20, 12345.678, 12345.678, 1, 1))  -- expect: [1E-20][1.234568E+04][1.235E+04][+1.000000e+00][ 1.000000e+00]
print(F("%f", 1), F("%f", "1e1"), F("%.1f", 2 ^ 63), F("%g", math.maxinteger))  -- expect: 1.000000	10.000000	9223372036854775808.0	9.22337e+18
print(F("%.14g", 0.1), F("%.17g", 0.1), F("%.3f", -0.0), F("%g", -0.0))  -- expect: 0.1	0.10000000000000001	-0.000	-0
print(F("%f %f %f", 1 / 0, -1 / 0, 0 / 0 ~= 0 / 0 and 1 / 0 or 0), F("%e %g", 1 / 0, -1 / 0))  -- expect: inf -inf inf	inf -inf
print(F("%5.1f|%-8.3e|%08.3f", -1 / 0, 1 / 0, 1 / 0))         -- expect:  -inf|inf     |     inf
print(#F("%.99f", 1e308), F("%.99f", 1e308):sub(1, 20), F("%99.99f", 1):sub(1, 10))  -- expect: 409	10000000000000000109	1.00000000
print(F("%.3f", 1e15), F("%5.2f", 1234567.891), F("%e", 0), F("%g", 0))  -- expect: 1000000000000000.000	1234567.89	0.000000e+00	0
print(fmt("%f", "x"))                                         -- expect: error: bad argument #2 to 'string.format' (number expected, got string)
print(fmt("%f", nil))                                         -- expect: error: bad argument #2 to 'string.format' (number expected, got nil)
print(fmt("%g"))                                              -- expect: error: bad argument #2 to 'string.format' (no value)
print(fmt("%5.5.f", 1))                                       -- expect: error: invalid conversion specification: '%5.5.f'
print(fmt("%.100f", 1))                                       -- expect: error: invalid conversion specification: '%.100f'
print(fmt("%100f", 1))                                        -- expect: error: invalid conversion specification: '%100f'
print(fmt("%F", 1))                                           -- expect: error: invalid conversion '%F' to 'format'

-- %a and %A
print(F("%a %A", 1, 1), F("%a", 0.5), F("%a", -2), F("%A", 255.5))  -- expect: 0x1p+0 0X1P+0	0x1p-1	-0x1p+1	0X1.FFP+7
print(F("[%.3a][%.0a][%#a][%+a][% a][%20a][%-20a]", 1, 1, 1, 1, 1, 1, 1))  -- expect: [0x1.000p+0][0x1p+0][0x1.p+0][+0x1p+0][ 0x1p+0][              0x1p+0][0x1p+0              ]
print(F("%a", 0.1), F("%a", 1e300), F("%a", 0), F("%a", -0.0), F("%a", 1 / 0))  -- expect: 0x1.999999999999ap-4	0x1.7e43c8800759cp+996	0x0p+0	-0x0p+0	inf
print(fmt("%a", "x"))                                         -- expect: error: bad argument #2 to 'string.format' (number expected, got string)
print(fmt("%5.5.a", {}))                                      -- expect: error: invalid conversion specification: '%5.5.a'
print(fmt("%.100a", 1))                                       -- expect: error: invalid conversion specification: '%.100a'

-- %s
print(F("%s %s %s %s", "a", 1, 2.5, true), F("%s", nil), F("[%s]", ""))  -- expect: a 1 2.5 true	nil	[]
print(F("[%5s][%-5s][%.2s][%5.1s][%-5.3s][%.0s][%.s]", "abc", "abc", "abc", "abc", "abcdef", "abc", "abc"))  -- expect: [  abc][abc  ][ab][    a][abc  ][][]
print(F("[%10s]", 12), F("[%-6s]", 1.5), F("[%.3s]", true), F("[%5s]", nil))  -- expect: [        12]	[1.5   ]	[tru]	[  nil]
print(F("%s", "a\0b") == "a\0b", F("%s %s", "x\0", "y") == "x\0 y")  -- expect: true	true
print(#F("%s", string.rep("x", 1000)), #F("%5s", string.rep("x", 150)), #F("%.5s", string.rep("x", 150)))  -- expect: 1000	150	5
print(#F("%99s", "x"), #F("%-99s", string.rep("y", 99)), #F("%.99s", string.rep("z", 200)))  -- expect: 99	99	99
local T = setmetatable({}, { __tostring = function() return "T!" end })
local N = setmetatable({}, { __tostring = function() return 42 end })
local B = setmetatable({}, { __tostring = function() return {} end })
print(F("%s|%5s|%-4s|%.1s", T, T, T, T), F("%s", N))          -- expect: T!|   T!|T!  |T	42
print(fmt("%s", B))                                           -- expect: error: '__tostring' must return a string
local named = setmetatable({}, { __name = "MyType" })
print((F("%s", named):gsub(": .*$", ": ADDR")))               -- expect: MyType: ADDR
print((F("%s", {}):match("^table:")), (F("%s", print):match("^%a+:")))  -- expect: table:	function:
print(fmt("%5s", "a\0b"))                                     -- expect: error: bad argument #2 to 'string.format' (string contains zeros)
print(fmt("%.1s", "a\0b"))                                    -- expect: error: bad argument #2 to 'string.format' (string contains zeros)
print(fmt("%05s", "a\0"))                                     -- expect: error: bad argument #2 to 'string.format' (string contains zeros)
print(fmt("%05s", "a"))                                       -- expect: error: invalid conversion specification: '%05s'
print(fmt("%+s", "a"))                                        -- expect: error: invalid conversion specification: '%+s'
print(fmt("%#s", "a"))                                        -- expect: error: invalid conversion specification: '%#s'
print(fmt("%.200s", "x"))                                     -- expect: error: invalid conversion specification: '%.200s'
print(fmt("%5.5.s", {}))                                      -- expect: error: invalid conversion specification: '%5.5.s'
print(fmt("%s"))                                              -- expect: error: bad argument #2 to 'string.format' (no value)

-- %p: NULL for values that are not objects; equal for the same object
print(F("%p", nil), F("%p", 1), F("%p", true), F("[%10p]", nil), F("[%-8p]", 2.5))  -- expect: (null)	(null)	(null)	[    (null)]	[(null)  ]
local t1, t2 = {}, {}
print(F("%p", t1) == F("%p", t1), F("%p", t1) ~= F("%p", t2), F("%p", t1) ~= "(null)")  -- expect: true	true	true
print(F("%p", print) ~= "(null)", F("%p", coroutine.create(print)) ~= "(null)")  -- expect: true	true
print(#F("%30p", t1) == 30, F("%-30p|", t1):sub(-1))          -- expect: true	|
print(fmt("%.3p", {}))                                        -- expect: error: invalid conversion specification: '%.3p'
print(fmt("%0p", nil))                                        -- expect: error: invalid conversion specification: '%0p'
print(fmt("%#p", nil))                                        -- expect: error: invalid conversion specification: '%#p'

-- %q: literals that read back
print(F("%q", "hello"), F("%q", ""), F("%q", 'say "hi"\\'))   -- expect: "hello"	""	"say \"hi\"\\"
print(F("%q", "a\nb") == '"a\\\nb"', F("%q", "\r\t\0\1\127"))  -- expect: true	"\13\9\0\1\127"
print(F("%q", "\0001\0a\0019\31 \0319"))                      -- expect: "\0001\0a\0019\31 \0319"
print(F("%q", "\200\255\u{e9}") == '"\200\255\u{e9}"', F("%q", "\27[0m"))  -- expect: true	"\27[0m"
print(F("%q", 42), F("%q", -7), F("%q", 0), F("%q", math.maxinteger), F("%q", math.mininteger))  -- expect: 42	-7	0	9223372036854775807	0x8000000000000000
print(F("%q", 1.5), F("%q", 0.1), F("%q", -0.0), F("%q", 1.0), F("%q", 2 ^ 63), F("%q", 1e100))  -- expect: 0x1.8p+0	0x1.999999999999ap-4	-0x0p+0	0x1p+0	0x1p+63	0x1.249ad2594c37dp+332
print(F("%q", 1 / 0), F("%q", -1 / 0), F("%q", 0 / 0), F("%q", math.huge))  -- expect: 1e9999	-1e9999	(0/0)	1e9999
print(F("%q", nil), F("%q", true), F("%q", false))            -- expect: nil	true	false
local samples = { "a\0b\n\"\\\r\1\0019", 3.25, -0.1, math.mininteger, 1e308, 2 ^ -1074, "\255" }
local all = true
for _, v in ipairs(samples) do
    local back = load("return " .. F("%q", v))()
    if back ~= v or math.type(back) ~= math.type(v) then all = false end
end
print(all, load("return " .. F("%q", 0 / 0))() ~= load("return " .. F("%q", 0 / 0))())  -- expect: true	true
print(fmt("%q", {}))                                          -- expect: error: bad argument #2 to 'string.format' (value has no literal form)
print(fmt("%q", print))                                       -- expect: error: bad argument #2 to 'string.format' (value has no literal form)
print(fmt("%q", coroutine.create(print)))                     -- expect: error: bad argument #2 to 'string.format' (value has no literal form)
print(fmt("%5q", "a"))                                        -- expect: error: specifier '%q' cannot have modifiers
print(fmt("%-q", "a"))                                        -- expect: error: specifier '%q' cannot have modifiers
print(fmt("%.1q", "a"))                                       -- expect: error: specifier '%q' cannot have modifiers
print(fmt("%q"))                                              -- expect: error: bad argument #2 to 'string.format' (no value)

-- Invalid conversions and the length limit
print(fmt("%z", 1))                                           -- expect: error: invalid conversion '%z' to 'format'
print(fmt("%y"))                                              -- expect: error: bad argument #2 to 'string.format' (no value)
print(fmt("%", 1))                                            -- expect: error: invalid conversion '%' to 'format'
print(fmt("%5", 1))                                           -- expect: error: invalid conversion '%5' to 'format'
print(fmt("%-", 1))                                           -- expect: error: invalid conversion '%-' to 'format'
print(fmt("%.", 1))                                           -- expect: error: invalid conversion '%.' to 'format'
print(fmt("%5.", 1))                                          -- expect: error: invalid conversion '%5.' to 'format'
print(fmt("%ld", 1))                                          -- expect: error: invalid conversion '%l' to 'format'
print(fmt("%lld", 1))                                         -- expect: error: invalid conversion '%l' to 'format'
print(fmt("%hd", 1))                                          -- expect: error: invalid conversion '%h' to 'format'
print(fmt("%1$d", 1))                                         -- expect: error: invalid conversion '%1$' to 'format'
print(fmt("%*d", 5, 1))                                       -- expect: error: invalid conversion '%*' to 'format'
print(fmt("%n", 1))                                           -- expect: error: invalid conversion '%n' to 'format'
print(fmt("%b", 1))                                           -- expect: error: invalid conversion '%b' to 'format'
print(fmt("%5%", 1))                                          -- expect: error: invalid conversion '%5%' to 'format'
print(fmt("%5%"))                                             -- expect: error: bad argument #2 to 'string.format' (no value)
print(fmt("%\0d", 1))                                         -- expect: error: invalid conversion '%' to 'format'
print((fmt("%-5\n", 1):gsub("\n", "<LF>")))                   -- expect: error: invalid conversion '%-5<LF>' to 'format'
print(fmt("%" .. string.rep("-", 20) .. "d|", 1))             -- expect: 1|
print(fmt("%" .. string.rep("-", 21) .. "d", 1))              -- expect: error: invalid format (too long)
print(fmt("%" .. string.rep("-", 20) .. "z", 1))              -- expect: error: invalid conversion '%--------------------z' to 'format'
print(fmt("%" .. string.rep("-", 21) .. "z", 1))              -- expect: error: invalid format (too long)
print(fmt("%" .. string.rep("0", 17) .. "10.5f|", 1))         -- expect: error: invalid format (too long)
print(fmt("%" .. string.rep("0", 16) .. "10.5f|", 1))         -- expect: 0001.00000|
print(fmt("%5.2.1.2.4.5.6.7.8.9.0.1.2d", 1))                  -- expect: error: invalid format (too long)
print(fmt("%-+ #0d", 1))                                      -- expect: error: invalid conversion specification: '%-+ #0d'

-- Argument checks
print(fmt())                                                  -- expect: error: bad argument #1 to 'string.format' (string expected, got no value)
print(fmt(nil))                                               -- expect: error: bad argument #1 to 'string.format' (string expected, got nil)
print(fmt({}))                                                -- expect: error: bad argument #1 to 'string.format' (string expected, got table)
print(fmt("%d %s", 1))                                        -- expect: error: bad argument #3 to 'string.format' (no value)
print(fmt("%s %d", "a", "b"))                                 -- expect: error: bad argument #3 to 'string.format' (number expected, got string)
print(F("%s %s %s", 1, 2, 3, 4, 5))                           -- expect: 1 2 3

-- Mixed and long results
print(F("%-10s|%5.1f|%03d|%x|%q", "name", 3.14159, 7, 255, "q"))  -- expect: name      |  3.1|007|ff|"q"
print(F("%s=%d;", "a", 1):rep(3, " "))                        -- expect: a=1; a=1; a=1;
local parts = {}
for i = 1, 200 do parts[i] = F("%03d:%5.2f:%s;", i, i / 7, ("x"):rep(i % 5)) end
local long = table.concat(parts)
print(#long, long:sub(1, 40), long:sub(-20))                  -- expect: 2600	001: 0.14:x;002: 0.29:xx;003: 0.43:xxx;0	.43:xxxx;200:28.57:;
table.move(parts, 1, 100, 201)
print(#F(string.rep("%s", 300), table.unpack(parts, 1, 300)) == #long + #table.concat(parts, "", 1, 100))  -- expect: true
