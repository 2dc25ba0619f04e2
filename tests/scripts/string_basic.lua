-- lua: 5.4
-- The string library's simple functions (manual §6.4): len, sub, byte,
-- char, rep, reverse, lower, upper, dump; the library table itself; the
-- string metatable's __index and its arithmetic metamethods (§3.4.3).

-- Calls f and gives its results, or "error: <message>" (a position in this
-- file shows as "line N:", whatever path the file was run by).
local function try(f, ...)
    local r = table.pack(pcall(f, ...))
    if r[1] then return table.unpack(r, 2, r.n) end
    return "error: " .. tostring(r[2]):gsub("^[^:]*string_basic%.lua:(%d+):", "line %1:")
end
-- Prints how many values came back, then the values.
local function count(...) return select("#", ...), ... end

-- The library table and the metatable
local names = {}
for k in pairs(string) do names[#names + 1] = k end
table.sort(names)
print(table.concat(names, " "))                               -- expect: byte char dump find format gmatch gsub len lower match pack packsize rep reverse sub unpack upper
local mt = getmetatable("")
local keys = {}
for k in pairs(mt) do keys[#keys + 1] = k end
table.sort(keys)
print(table.concat(keys, " "))                                -- expect: __add __div __idiv __index __mod __mul __pow __sub __unm
print(mt.__index == string, getmetatable("x") == getmetatable("yz"))  -- expect: true	true
print(("abc"):upper(), ("%d"):format(7), ("x"):rep(3))        -- expect: ABC	7	xxx
local s = "hello"
print(s:len(), #s, s:sub(2, 3), s:byte(1))                    -- expect: 5	5	el	104

-- string.len
print(string.len(""), string.len("abc"), string.len("a\0b\0"))  -- expect: 0	3	4
print(string.len(123), string.len(1.5))                       -- expect: 3	3
print(try(string.len))                                        -- expect: error: bad argument #1 to 'string.len' (string expected, got no value)
print(try(string.len, {}))                                    -- expect: error: bad argument #1 to 'string.len' (string expected, got table)

-- string.sub: negative positions count from the end, out-of-range ones clamp
print(string.sub("hello", 2), string.sub("hello", 2, 4), string.sub("hello", -3))  -- expect: ello	ell	llo
print(string.sub("hello", -3, -2), string.sub("hello", 0), string.sub("hello", -100, 2))  -- expect: ll	hello	he
print("[" .. string.sub("hello", 4, 2) .. "]", "[" .. string.sub("hello", 6) .. "]")  -- expect: []	[]
print("[" .. string.sub("hello", 10, 20) .. "]", "[" .. string.sub("hello", 0, 0) .. "]")  -- expect: []	[]
print(string.sub("hello", math.mininteger, math.maxinteger), string.sub("hello", 5, 5))  -- expect: hello	o
print(string.sub("hello", 2.0, "3"), string.sub(12345, 2, -2))  -- expect: el	234
print("[" .. string.sub("", 1, 1) .. "]", "[" .. string.sub("hello", -1, -5) .. "]")  -- expect: []	[]
print(try(string.sub, "hello"))                               -- expect: error: bad argument #2 to 'string.sub' (number expected, got no value)
print(try(string.sub, "hello", 1.5))                          -- expect: error: bad argument #2 to 'string.sub' (number has no integer representation)
print(try(string.sub, "hello", "x"))                          -- expect: error: bad argument #2 to 'string.sub' (number expected, got string)
print(try(string.sub, "hello", 1, {}))                        -- expect: error: bad argument #3 to 'string.sub' (number expected, got table)
print(#string.sub("a\0b\0c", 2, 4), string.sub("a\0b\0c", 3, 3))  -- expect: 3	b

-- string.byte: i defaults to 1, j to i as given
print(string.byte("ABC"), string.byte("ABC", 2), string.byte("ABC", -1))  -- expect: 65	66	67
print(string.byte("ABC", 1, -1))                              -- expect: 65	66	67
print(string.byte("ABC", 2, 10))                              -- expect: 66	67
print(count(string.byte("ABC", 0)))                           -- expect: 0
print(count(string.byte("ABC", -10)))                         -- expect: 0
print(string.byte("ABC", -10, 2))                             -- expect: 65	66
print(count(string.byte("ABC", 3, 2)))                        -- expect: 0
print(count(string.byte("")))                                 -- expect: 0
print(count(string.byte("ABC", 4)))                           -- expect: 0
print(string.byte("\0\255\128"), string.byte("\0\255\128", 2), string.byte("\0\255\128", 3))  -- expect: 0	255	128
print(try(string.byte, "abc", 1.5))                           -- expect: error: bad argument #2 to 'string.byte' (number has no integer representation)
print(try(string.byte, "abc", 1, "x"))                        -- expect: error: bad argument #3 to 'string.byte' (number expected, got string)
print(select("#", string.byte(string.rep("x", 1000), 1, -1)))  -- expect: 1000

-- string.char
print(string.char(72, 105, 33), "[" .. string.char() .. "]")  -- expect: Hi!	[]
print(#string.char(0, 255), string.byte(string.char(0, 255), 1, 2))  -- expect: 2	0	255
print(string.char("65", 66.0))                                -- expect: AB
print(try(string.char, 256))                                  -- expect: error: bad argument #1 to 'string.char' (value out of range)
print(try(string.char, -1))                                   -- expect: error: bad argument #1 to 'string.char' (value out of range)
print(try(string.char, 65, 66, 1000))                         -- expect: error: bad argument #3 to 'string.char' (value out of range)
print(try(string.char, 65.5))                                 -- expect: error: bad argument #1 to 'string.char' (number has no integer representation)
print(try(string.char, "x"))                                  -- expect: error: bad argument #1 to 'string.char' (number expected, got string)
print(try(string.char, nil))                                  -- expect: error: bad argument #1 to 'string.char' (number expected, got nil)

-- string.rep
print(string.rep("ab", 3), "[" .. string.rep("ab", 0) .. "]", "[" .. string.rep("ab", -5) .. "]")  -- expect: ababab	[]	[]
print(string.rep("ab", 3, ","), string.rep("x", 1, ","), "[" .. string.rep("", 5) .. "]")  -- expect: ab,ab,ab	x	[]
print(string.rep("", 3, "-"), string.rep("a", 4, ""), string.rep(1, 3, 0))  -- expect: --	aaaa	10101
print(#string.rep("abc", 1000), #string.rep("abc", 1000, "--"))  -- expect: 3000	4998
print(string.rep("a\0", 2) == "a\0a\0", string.rep("x", 3, "\0") == "x\0x\0x")  -- expect: true	true
print(try(string.rep, "x", 2 ^ 31))                           -- expect: error: resulting string too large
print(try(string.rep, "ab", 2 ^ 30))                          -- expect: error: resulting string too large
print(try(string.rep, "", 2 ^ 62, "x"))                       -- expect: error: resulting string too large
print(try(string.rep, "x", math.maxinteger, "y"))             -- expect: error: resulting string too large
print(try(string.rep, "x", 1e100))                            -- expect: error: bad argument #2 to 'string.rep' (number has no integer representation)
print(try(string.rep, "x", 2.5))                              -- expect: error: bad argument #2 to 'string.rep' (number has no integer representation)
print(try(string.rep))                                        -- expect: error: bad argument #1 to 'string.rep' (string expected, got no value)
print(try(string.rep, "x"))                                   -- expect: error: bad argument #2 to 'string.rep' (number expected, got no value)
print(try(string.rep, {}, 1))                                 -- expect: error: bad argument #1 to 'string.rep' (string expected, got table)
print(try(string.rep, "x", 2, {}))                            -- expect: error: bad argument #3 to 'string.rep' (string expected, got table)

-- string.reverse, lower, upper
print(string.reverse("hello"), "[" .. string.reverse("") .. "]", string.reverse(123))  -- expect: olleh	[]	321
print(string.reverse("a\0b") == "b\0a", string.reverse("x"))  -- expect: true	x
print(string.lower("HeLLo 123 ÀB"), string.upper("HeLLo 123 àb"))  -- expect: hello 123 Àb	HELLO 123 àB
print(string.lower(""), string.upper("a\0b") == "A\0B", string.upper(1e15))  -- expect: 	true	1E+15
print(try(string.lower))                                      -- expect: error: bad argument #1 to 'string.lower' (string expected, got no value)
print(try(string.upper, true))                                -- expect: error: bad argument #1 to 'string.upper' (string expected, got boolean)
print(try(string.reverse, nil))                               -- expect: error: bad argument #1 to 'string.reverse' (string expected, got nil)

-- string.dump: the chunk loads back, with or without debug information
local function add(a, b) return a + b end
local chunk = string.dump(add)
print(type(chunk), #chunk > 0, chunk:sub(1, 4) == "\27Lua")   -- expect: string	true	true
print(load(chunk)(2, 3), load(string.dump(add, true))(4, 5))  -- expect: 5	9
local stripped = load(string.dump(function() error("boom") end, true))
print(select(2, pcall(stripped)))                             -- expect: boom
local kept = load(string.dump(function() error("boom") end))
print((select(2, pcall(kept)):gsub("^.-:(%d+):", "line %1:")))  -- expect: line 110: boom
local up = 10
local withup = load(string.dump(function() return up end))
print(withup() == _ENV)                                       -- expect: true
print(try(string.dump, string.len))                           -- expect: error: unable to dump given function
print(try(string.dump, 1))                                    -- expect: error: bad argument #1 to 'string.dump' (function expected, got number)
print(try(string.dump))                                       -- expect: error: bad argument #1 to 'string.dump' (function expected, got no value)
print(try(string.dump, {}))                                   -- expect: error: bad argument #1 to 'string.dump' (function expected, got table)

-- Arithmetic on strings goes through the string metatable (§3.4.3)
print("10" + 1, "10" - 1, "10" * 2, "10" / 4, "10" // 3, "10" % 3, "2" ^ 10, -"2")  -- expect: 11	9	20	2.5	3	1	1024.0	-2
print("10.0" + 1, "0x10" + 0, " 5 " * 2, "1e2" + 0, 1 + "2", "3" + "4")  -- expect: 11.0	16	10	100.0	3	7
print(math.type("10" + 1), math.type("10.0" + 1), math.type("1" // "1"), math.type("2" ^ "2"))  -- expect: integer	float	integer	float
print("7" // "2", "7.0" // "2", "-7" // "2", "-7" % "3", "7" % "-3", "5.5" % "2")  -- expect: 3	3.0	-4	2	-2	1.5
print(try(function() return "7" % "0" end))                   -- expect: error: attempt to perform 'n%0'
print(try(function() return "7" // "0" end))                  -- expect: error: attempt to divide by zero
print("1" / "0", "-1" / "0", "0x7fffffffffffffff" + 1 == math.mininteger)  -- expect: inf	-inf	true
print(try(function() return "abc" + 1 end))                   -- expect: error: line 128: attempt to add a 'string' with a 'number'
print(try(function() return 1 + "abc" end))                   -- expect: error: line 129: attempt to add a 'number' with a 'string'
print(try(function() return "1" + {} end))                    -- expect: error: line 130: attempt to add a 'string' with a 'table'
print(try(function() return {} + "1" end))                    -- expect: error: line 131: attempt to add a 'table' with a 'string'
print(try(function() return "x" * "2" end))                   -- expect: error: line 132: attempt to mul a 'string' with a 'string'
print(try(function() return -"x" end))                        -- expect: error: line 133: attempt to unm a 'string' with a 'string'
print(try(function() return "1\0" + 1 end))                   -- expect: error: line 134: attempt to add a 'string' with a 'number'
print(try(function() return "" + 1 end))                      -- expect: error: line 135: attempt to add a 'string' with a 'number'
print(try(function() return "1" + nil end))                   -- expect: error: line 136: attempt to add a 'string' with a 'nil'
-- the other operand's metamethod is tried when the string one cannot convert
local V = setmetatable({}, { __add = function(a, b) return "V.add" end,
                            __unm = function() return "V.unm" end })
print("1" + V, V + "1", "x" + V)                              -- expect: V.add	V.add	V.add
print(try(function() return "1" .. 2 end))                    -- expect: 12
-- calling the metamethods directly
print(mt.__add("1", "2"), mt.__sub(5, "2"), mt.__mul("3", 3), mt.__unm("4"))  -- expect: 3	3	9	-4
print(mt.__div("1", 2), mt.__mod("5", 3), mt.__pow(2, "3"), mt.__idiv("9", "2"))  -- expect: 0.5	2	8.0	4
print(try(mt.__add, "1", nil))                                -- expect: error: attempt to add a 'string' with a 'nil'
print(try(mt.__add, "a", {}))                                 -- expect: error: attempt to add a 'string' with a 'table'
print(try(mt.__add, {}, {}))                                  -- expect: error: attempt to add a 'table' with a 'table'
print(try(mt.__unm, "x"))                                     -- expect: error: attempt to unm a 'string' with a 'nil'
print(try(mt.__unm, "x", "x"))                                -- expect: error: attempt to unm a 'string' with a 'string'
print(try(mt.__pow, "a", "b"))                                -- expect: error: attempt to pow a 'string' with a 'string'
print(mt.__add(1, 2), mt.__idiv(7, 2))                        -- expect: 3	3
-- strings keep comparing as strings, and bitwise operators do not convert
print("10" < "9", "10" == 10, "abc" < "abd")                  -- expect: true	false	true
print(try(function() return "1" | 2 end))                     -- expect: error: line 154: attempt to perform bitwise operation on a string value (constant '1')
