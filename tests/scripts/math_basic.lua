-- lua: 5.4
-- The math library's functions and constants, with the integer/float
-- distinctions of Lua 5.4, and the 5.3 compatibility functions that
-- Debian's Lua 5.4 keeps.

local function show(...)
    local t = table.pack(...)
    for i = 1, t.n do
        local v = t[i]
        t[i] = math.type(v) and (math.type(v):sub(1, 1) .. ":" .. tostring(v)) or tostring(v)
    end
    return table.concat(t, " ")
end
local function near(x) return string.format("%.10g", x) end

-- constants
print(near(math.pi), math.type(math.pi))   -- expect: 3.141592654	float
print(math.huge, -math.huge, math.type(math.huge)) -- expect: inf	-inf	float
print(math.maxinteger, math.mininteger)    -- expect: 9223372036854775807	-9223372036854775808
print(math.maxinteger + 1 == math.mininteger, math.mininteger - 1 == math.maxinteger) -- expect: true	true

-- floor and ceil: integers stay, floats become integers when they fit
print(show(math.floor(3), math.floor(3.7), math.floor(-3.2), math.floor(-0.0), math.floor(2^62))) -- expect: i:3 i:3 i:-4 i:0 i:4611686018427387904
print(show(math.ceil(3), math.ceil(3.2), math.ceil(-3.7), math.ceil(-0.5), math.ceil(1e300))) -- expect: i:3 i:4 i:-3 i:0 f:1e+300
print(show(math.floor(2^63), math.floor(-2^63), math.ceil(-2^63 - 1025), math.floor(math.huge))) -- expect: f:9.2233720368548e+18 i:-9223372036854775808 f:-9.2233720368548e+18 f:inf
print(show(math.floor("3.7"), math.ceil("4"), math.floor(math.mininteger))) -- expect: i:3 i:4 i:-9223372036854775808
print(math.floor(0/0) ~= math.floor(0/0), math.type(math.ceil(0/0))) -- expect: true	float
print(pcall(math.floor, "x"))              -- expect: false	bad argument #1 to 'math.floor' (number expected, got string)
print(pcall(math.ceil))                    -- expect: false	bad argument #1 to 'math.ceil' (number expected, got no value)

-- abs
print(show(math.abs(-3), math.abs(3), math.abs(-3.5), math.abs(-0.0), math.abs(math.mininteger))) -- expect: i:3 i:3 f:3.5 f:0.0 i:-9223372036854775808
print(show(math.abs("-2"), math.abs(-math.huge)))  -- expect: f:2.0 f:inf
print(pcall(math.abs, {}))                 -- expect: false	bad argument #1 to 'math.abs' (number expected, got table)

-- fmod: integers with C's sign rule, floats with fmod
print(show(math.fmod(7, 3), math.fmod(-7, 3), math.fmod(7, -3), math.fmod(-7, -3))) -- expect: i:1 i:-1 i:1 i:-1
print(show(math.fmod(7.5, 2), math.fmod(-7.5, 2), math.fmod(7, 2.0)), math.fmod(1, 0.0) ~= math.fmod(1, 0.0)) -- expect: f:1.5 f:-1.5 f:1.0	true
print(show(math.fmod(math.mininteger, -1), math.fmod(5, -1), math.fmod(math.mininteger, math.maxinteger))) -- expect: i:0 i:0 i:-1
print(show(math.fmod(3, math.huge), math.fmod("7", "3")), math.fmod(math.huge, 1) ~= math.fmod(math.huge, 1)) -- expect: f:3.0 f:1.0	true
print(pcall(math.fmod, 1, 0))              -- expect: false	bad argument #2 to 'math.fmod' (zero)
print(pcall(math.fmod, 1))                 -- expect: false	bad argument #2 to 'math.fmod' (number expected, got no value)
print(pcall(math.fmod, 1.5, "x"))          -- expect: false	bad argument #2 to 'math.fmod' (number expected, got string)

-- modf: integral part (an integer when it fits) and fraction (a float)
print(show(math.modf(3.7)))                -- expect: i:3 f:0.7
print(show(math.modf(-3.7)))               -- expect: i:-3 f:-0.7
print(show(math.modf(5)))                  -- expect: i:5 f:0.0
print(show(math.modf(-0.0)))               -- expect: i:0 f:0.0
print(show(math.modf(1e100)))              -- expect: f:1e+100 f:0.0
print(show(math.modf(math.huge)))          -- expect: f:inf f:0.0
print(show(math.modf(-math.huge)))         -- expect: f:-inf f:0.0
print(show(math.modf("2.5")))              -- expect: i:2 f:0.5
local whole, frac = math.modf(0/0)
print(whole ~= whole, frac ~= frac)        -- expect: true	true

-- tointeger
print(show(math.tointeger(3), math.tointeger(3.0), math.tointeger(3.5), math.tointeger(-0.0))) -- expect: i:3 i:3 nil i:0
print(show(math.tointeger(2^63), math.tointeger(-2^63), math.tointeger(math.huge), math.tointeger(0/0))) -- expect: nil i:-9223372036854775808 nil nil
print(show(math.tointeger("8"), math.tointeger("8.0"), math.tointeger("x"), math.tointeger({}))) -- expect: i:8 i:8 nil nil
print(pcall(math.tointeger))               -- expect: false	bad argument #1 to 'math.tointeger' (value expected)

-- type and ult
print(math.type(1), math.type(1.0), math.type("1"), math.type(nil), math.type({})) -- expect: integer	float	nil	nil	nil
print(pcall(math.type))                    -- expect: false	bad argument #1 to 'math.type' (value expected)
print(math.ult(1, 2), math.ult(-1, 2), math.ult(2, -1), math.ult(math.maxinteger, math.mininteger)) -- expect: true	false	true	true
print(math.ult(3, 3), math.ult(0, -1))     -- expect: false	true
print(pcall(math.ult, 1.5, 2))             -- expect: false	bad argument #1 to 'math.ult' (number has no integer representation)
print(pcall(math.ult, 1))                  -- expect: false	bad argument #2 to 'math.ult' (number expected, got no value)

-- max and min keep the winning argument as it is
print(show(math.max(1, 2.5, -3), math.min(1, 2.5, -3), math.max(3), math.min(3.0))) -- expect: f:2.5 i:-3 i:3 f:3.0
print(show(math.max(1, 1.0), math.max(1.0, 1), math.min(0.0, -0.0), math.max(2^53, 2^53 + 1))) -- expect: i:1 f:1.0 f:0.0 f:9.007199254741e+15
print(show(math.max(math.mininteger, -math.huge), math.min(math.maxinteger, math.huge))) -- expect: i:-9223372036854775808 i:9223372036854775807
print(math.max("10", "9"), math.min("b", "a", "c")) -- expect: 9	a
print(pcall(math.max))                     -- expect: false	bad argument #1 to 'math.max' (value expected)
print(pcall(math.min))                     -- expect: false	bad argument #1 to 'math.min' (value expected)
print(pcall(math.max, 1, "x"))             -- expect: false	attempt to compare number with string
print(pcall(math.min, 1, {}))              -- expect: false	attempt to compare table with number

-- sqrt, exp, log
print(show(math.sqrt(16), math.sqrt(2), math.sqrt(-1) ~= math.sqrt(-1), math.sqrt(math.huge))) -- expect: f:4.0 f:1.4142135623731 true f:inf
print(show(math.exp(0), near(math.exp(1)), math.exp(-math.huge))) -- expect: f:1.0 2.718281828 f:0.0
print(show(math.log(1), near(math.log(10)), math.log(0), math.log(8, 2), math.log(1000, 10))) -- expect: f:0.0 2.302585093 f:-inf f:3.0 f:3.0
print(show(math.log(2^60, 2), math.log(1e15, 10), near(math.log(27, 3)), near(math.log(100, 100)))) -- expect: f:60.0 f:15.0 3 1
print(show(math.log(8, 2.0), math.log(-1) ~= math.log(-1), math.log(0, 10), math.log(5, 1))) -- expect: f:3.0 true f:-inf f:inf
print(pcall(math.log))                     -- expect: false	bad argument #1 to 'math.log' (number expected, got no value)
print(pcall(math.log, 1, "x"))             -- expect: false	bad argument #2 to 'math.log' (number expected, got string)

-- trigonometry and angles
print(show(math.sin(0), math.cos(0), math.tan(0), near(math.sin(math.pi / 2)))) -- expect: f:0.0 f:1.0 f:0.0 1
print(near(math.cos(math.pi)), near(math.tan(math.pi / 4))) -- expect: -1	1
print(show(math.asin(1) == math.pi / 2, math.acos(1), near(math.acos(-1)))) -- expect: true f:0.0 3.141592654
print(show(near(math.atan(1)), near(math.atan(1, -1)), math.atan(0, 1), near(math.atan(-1, 0)))) -- expect: 0.7853981634 2.35619449 f:0.0 -1.570796327
print(show(math.atan(0, -1) == math.pi, math.atan(-0.0, -1) == -math.pi, math.atan(1, math.huge))) -- expect: true true f:0.0
print(show(math.deg(math.pi), math.rad(180) == math.pi, math.deg(0), math.rad(90) == math.pi / 2)) -- expect: f:180.0 true f:0.0 true
print(show(math.sin(3), math.deg(1))) -- expect: f:0.14112000805987 f:57.295779513082
print(pcall(math.sin, "x"))                -- expect: false	bad argument #1 to 'math.sin' (number expected, got string)
print(pcall(function() return math.atan(1, {}) end)) -- expect: false	tests/scripts/math_basic.lua:99: bad argument #2 to 'atan' (number expected, got table)

-- Lua 5.3 compatibility functions
print(show(math.pow(2, 10), math.pow(2, 0.5) == math.sqrt(2), math.pow(-8, 1 / 3) ~= math.pow(-8, 1 / 3))) -- expect: f:1024.0 true true
print(show(math.frexp(8)))                 -- expect: f:0.5 i:4
print(show(math.frexp(-3)))                -- expect: f:-0.75 i:2
print(show(math.frexp(0)))                 -- expect: f:0.0 i:0
print(show(math.frexp(0.1)))               -- expect: f:0.8 i:-3
print(show(math.ldexp(1, 10), math.ldexp(0.75, -2), math.ldexp(3, 2.0))) -- expect: f:1024.0 f:0.1875 f:12.0
print(pcall(math.ldexp, 1, 1.5))           -- expect: false	bad argument #2 to 'math.ldexp' (number has no integer representation)
print(show(math.log10(1000), math.cosh(0), math.sinh(0), math.tanh(0))) -- expect: f:3.0 f:1.0 f:0.0 f:0.0
print(near(math.cosh(1)), near(math.sinh(1)), near(math.tanh(1))) -- expect: 1.543080635	1.175201194	0.761594156
print(show(math.atan2(1, 1) == math.atan(1, 1), math.atan2(0, -1) == math.pi)) -- expect: true true

-- integer/float in arithmetic done by the library's callers
print(show(3 // 2, 3.0 // 2, 3 % -2, -3 % 2, 3.5 % -2, 1 // 0.0, -1 // 0.0)) -- expect: i:1 f:1.0 i:-1 i:1 f:-0.5 f:inf f:-inf
print(pcall(function() return 1 // 0 end)) -- expect: false	tests/scripts/math_basic.lua:115: attempt to divide by zero
