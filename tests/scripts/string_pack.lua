-- lua: 5.4
-- string.pack, string.packsize and string.unpack (manual §6.4.2): every
-- format option, byte order, alignment with '!' and 'X', and every error.
-- Packed bytes are shown in hexadecimal. Sizes are those of the x86-64 and
-- AArch64 Linux ABIs the reference runs on (int 4, long 8, size_t 8).

local function try(f, ...)
    local r = table.pack(pcall(f, ...))
    if r[1] then return table.unpack(r, 2, r.n) end
    return "error: " .. tostring(r[2])
end
local pack, unpack, packsize = string.pack, string.unpack, string.packsize
local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
-- pack, shown in hex (or the error)
local function P(...)
    local ok, r = pcall(pack, ...)
    if ok then return hex(r) end
    return "error: " .. r
end
-- Packs with fmt and unpacks again.
local function roundtrip(fmt, ...)
    return unpack(fmt, pack(fmt, ...))
end

-- Integers of every size, both byte orders
print(P("b", 1), P("b", -1), P("B", 255), P("h", 1), P("H", 65535), P("i", 1), P("I", 1))  -- expect: 01	ff	ff	0100	ffff	01000000	01000000
print(P("l", -2), P("L", 2), P("j", -1), P("J", 1), P("T", 5))  -- expect: feffffffffffffff	0200000000000000	ffffffffffffffff	0100000000000000	0500000000000000
print(P("<i4", 0x01020304), P(">i4", 0x01020304), P("=i4", 0x01020304))  -- expect: 04030201	01020304	04030201
print(P("<i2 >i2 =i2", 1, 2, 3), P(">j", math.mininteger), P("<J", math.maxinteger))  -- expect: 010000020300	8000000000000000	ffffffffffffff7f
print(P("i1", 127), P("i1", -128), P("i3", -1), P(">i3", 0x123456), P("I3", 0xffffff))  -- expect: 7f	80	ffffff	123456	ffffff
print(P("i5", -2), P("I7", 2 ^ 55), P(">I6", 1))              -- expect: feffffffff	00000000000080	000000000001
print(P("i9", -2), P("I9", 1), P(">i16", 3), P("i16", -2), P("I16", -2))  -- expect: feffffffffffffffff	010000000000000000	00000000000000000000000000000003	feffffffffffffffffffffffffffffff	feffffffffffffff0000000000000000
print(P("i", "10"), P("i", 3.0), P("I2", "0x10"))             -- expect: 0a000000	03000000	1000
print(P("i1", 128))                                           -- expect: error: bad argument #2 to 'string.pack' (integer overflow)
print(P("i1", -129))                                          -- expect: error: bad argument #2 to 'string.pack' (integer overflow)
print(P("I1", 256))                                           -- expect: error: bad argument #2 to 'string.pack' (unsigned overflow)
print(P("I1", -1))                                            -- expect: error: bad argument #2 to 'string.pack' (unsigned overflow)
print(P("i2", 32768), P("i2", -32768), P("I2", 65536))        -- expect: error: bad argument #2 to 'string.pack' (integer overflow)	0080	error: bad argument #2 to 'string.pack' (unsigned overflow)
print(P("I4", 2 ^ 32))                                        -- expect: error: bad argument #2 to 'string.pack' (unsigned overflow)
print(P("i4", -2 ^ 31), P("i4", 2 ^ 31))                      -- expect: 00000080	error: bad argument #2 to 'string.pack' (integer overflow)
print(P("j", 1.5))                                            -- expect: error: bad argument #2 to 'string.pack' (number has no integer representation)
print(P("j", "x"))                                            -- expect: error: bad argument #2 to 'string.pack' (number expected, got string)
print(P("j", 2 ^ 63))                                         -- expect: error: bad argument #2 to 'string.pack' (number has no integer representation)
print(P("i"))                                                 -- expect: error: bad argument #2 to 'string.pack' (number expected, got nil)
print(P("i2 i", 1))                                           -- expect: error: bad argument #3 to 'string.pack' (number expected, got nil)

-- Integer sizes in the format
print(P("i17", 1))                                            -- expect: error: integral size (17) out of limits [1,16]
print(P("i0", 1))                                             -- expect: error: integral size (0) out of limits [1,16]
print(P("I17", 1))                                            -- expect: error: integral size (17) out of limits [1,16]
print(P("s17", "x"))                                          -- expect: error: integral size (17) out of limits [1,16]
print(P("s0", "x"))                                           -- expect: error: integral size (0) out of limits [1,16]
print(P("!17", 1))                                            -- expect: error: integral size (17) out of limits [1,16]
print(P("!0", 1))                                             -- expect: error: integral size (0) out of limits [1,16]
print(P("i99999999999999999999", 1))                          -- expect: error: integral size (999999999) out of limits [1,16]

-- Floats
print(P("f", 1.5), P(">f", 1.5), P("d", 1.5), P(">d", -2), P("n", 0.1))  -- expect: 0000c03f	3fc00000	000000000000f83f	c000000000000000	9a9999999999b93f
print(P("f", 1), P("d", "0.5"), P("n", 1 / 0), P(">n", -1 / 0))  -- expect: 0000803f	000000000000e03f	000000000000f07f	fff0000000000000
print(roundtrip("f", 0.1) ~= 0.1, roundtrip("f", 0.5), roundtrip("d", 0.1) == 0.1, roundtrip("n", -0.0))  -- expect: true	0.5	true	-0.0	9
print(roundtrip("<f >d =n", 1.25, -3.5, 1e300))               -- expect: 1.25	-3.5	1e+300	21
print(math.type(roundtrip("f", 1)), math.type(roundtrip("d", 2)), roundtrip("d", 1 / 0), roundtrip("n", 2 ^ 63))  -- expect: float	float	inf	9.2233720368548e+18	9
local nan = roundtrip("d", 0 / 0)
print(nan ~= nan, roundtrip("f", 1e300), roundtrip("f", -1e300))  -- expect: true	inf	-inf	5
print(P("f", "x"))                                            -- expect: error: bad argument #2 to 'string.pack' (number expected, got string)
print(P("d", {}))                                             -- expect: error: bad argument #2 to 'string.pack' (number expected, got table)
print(P("n"))                                                 -- expect: error: bad argument #2 to 'string.pack' (number expected, got nil)

-- Strings: fixed size, with a length, zero-terminated
print(P("c3", "ab"), P("c2", "ab"), P("c0", ""), P("c5", "a\0b"), P("c1", 7))  -- expect: 616200	6162		6100620000	37
print(P("z", "ab"), P("z", ""), P("z", 12), P("s", "ab"), P("s1", "abc"), P(">s2", "abc"))  -- expect: 616200	00	313200	02000000000000006162	03616263	0003616263
print(P("s4", ""), P("s3", "xy"), P(">s9", "x"))              -- expect: 00000000	0200007879	00000000000000000178
print(#pack("s1", string.rep("x", 255)), #pack("s2", string.rep("x", 300)))  -- expect: 256	302
print(P("c", "a"))                                            -- expect: error: missing size for format option 'c'
print(P("c1", "ab"))                                          -- expect: error: bad argument #2 to 'string.pack' (string longer than given size)
print(P("c2", {}))                                            -- expect: error: bad argument #2 to 'string.pack' (string expected, got table)
print(P("z", "a\0b"))                                         -- expect: error: bad argument #2 to 'string.pack' (string contains zeros)
print(P("z", {}))                                             -- expect: error: bad argument #2 to 'string.pack' (string expected, got table)
print(P("s1", string.rep("x", 256)))                          -- expect: error: bad argument #2 to 'string.pack' (string length does not fit in given size)
print(P("s", nil))                                            -- expect: error: bad argument #2 to 'string.pack' (string expected, got nil)
-- A count stops at the first digit that takes it past (INT_MAX - 9) / 10 =
-- 214748363, and what follows is the next option. The item before it is
-- packed first: here 214748364 bytes (c99999999999999999999 packed a
-- billion, 15 s on the sanitizer build, for the same check).
print(P("c2147483640", "x"))                                  -- expect: error: invalid format option '0'

-- Padding, spaces, settings
print(P("x"), P("xx"), P("bxb", 1, 2), P(" b  b ", 1, 2), "[" .. P("") .. P("<>=") .. P("! ! !4") .. "]")  -- expect: 00	0000	010002	0102	[]

-- Alignment: '!' sets the maximum; each item aligns to its own size
print(P("!4 b i4", 1, 2), P("!8 b d", 1, 2), P("!2 b i8", 1, 2), P("!b i8", 1, 2))  -- expect: 0100000002000000	01000000000000000000000000000040	01000200000000000000	01000000000000000200000000000000
print(P("b i4", 1, 2), P("!16 b j", 1, 2), P("!4 b h b i3", 1, 2, 3, 4))  -- expect: 0102000000	01000000000000000200000000000000	error: bad argument #1 to 'string.pack' (format asks for alignment not power of 2)
print(P("!4 i3 b", 1, 2), P("!4 b c3 b", 1, "xyz", 2), P("!8 b z b", 1, "ab", 2))  -- expect: error: bad argument #1 to 'string.pack' (format asks for alignment not power of 2)	0178797a02	0161620002
print(P("!8 b s4", 1, "ab"), P("!8 b s", 1, "ab"), P("!8 b f", 1, 1))  -- expect: 01000000020000006162	010000000000000002000000000000006162	010000000000803f
print(P("!bXi4", 1), P("!bXi8", 1), P("!4bXi8", 1), P("!bXh", 1), P("bXi4", 1), P("!bXs", 1))  -- expect: 01000000	0100000000000000	01000000	0100	01	0100000000000000
print(P("!8 b X b", 1, 2))                                    -- expect: error: bad argument #1 to 'string.pack' (invalid next option for option 'X')
print(P("!3 i3", 1))                                          -- expect: error: bad argument #1 to 'string.pack' (format asks for alignment not power of 2)
print(P("!4 i3", 1))                                          -- expect: error: bad argument #1 to 'string.pack' (format asks for alignment not power of 2)
print(P("!2 i3", 1), P("i3", 1), P("!3 b", 1))                -- expect: 010000	010000	01
print(P("!6 b i8", 1, 2))                                     -- expect: error: bad argument #1 to 'string.pack' (format asks for alignment not power of 2)
print(P("X"))                                                 -- expect: error: bad argument #1 to 'string.pack' (invalid next option for option 'X')
print(P("Xc1"))                                               -- expect: error: bad argument #1 to 'string.pack' (invalid next option for option 'X')
print(P("Xz"))                                                -- expect: error: bad argument #1 to 'string.pack' (invalid next option for option 'X')
print(P("X<"))                                                -- expect: error: bad argument #1 to 'string.pack' (invalid next option for option 'X')
print(P("X!4"))                                               -- expect: error: bad argument #1 to 'string.pack' (invalid next option for option 'X')
print(P("X "))                                                -- expect: error: bad argument #1 to 'string.pack' (invalid next option for option 'X')

-- Unknown options
print(P("y", 1))                                              -- expect: error: invalid format option 'y'
print(P("i4 q", 1))                                           -- expect: error: invalid format option 'q'
print(P("%"))                                                 -- expect: error: invalid format option '%'
print("[" .. P("\0i", 1) .. "]")                              -- expect: []

-- packsize
print(packsize(""), packsize("i4"), packsize("b h i l j T f d n"), packsize("c10 x"))  -- expect: 0	4	51	11
print(packsize("!8 b d"), packsize("!8 b Xd"), packsize("!8 b Xd x"), packsize("i16 I3 x"))  -- expect: 16	8	9	20
print(packsize("!4 i2 b"), packsize("<>= !"), packsize("c0"), packsize("!4 b Xi8"))  -- expect: 3	0	0	4
print(packsize(string.rep("c200000000", 10)), packsize(string.rep("c200000000", 10) .. "c147483647"))  -- expect: 2000000000	2147483647
print(try(packsize, string.rep("c200000000", 10) .. "c147483648"))  -- expect: error: bad argument #1 to 'string.packsize' (format result too large)
print(try(packsize, string.rep("c200000000", 11)))            -- expect: error: bad argument #1 to 'string.packsize' (format result too large)
print(try(packsize, "s"))                                     -- expect: error: bad argument #1 to 'string.packsize' (variable-length format)
print(try(packsize, "z"))                                     -- expect: error: bad argument #1 to 'string.packsize' (variable-length format)
print(try(packsize, "i4 s1"))                                 -- expect: error: bad argument #1 to 'string.packsize' (variable-length format)
print(try(packsize, "!3 i3"))                                 -- expect: error: bad argument #1 to 'string.packsize' (format asks for alignment not power of 2)
print(try(packsize, "X"))                                     -- expect: error: bad argument #1 to 'string.packsize' (invalid next option for option 'X')
print(try(packsize, "i0"))                                    -- expect: error: integral size (0) out of limits [1,16]
print(try(packsize, "w"))                                     -- expect: error: invalid format option 'w'
print(try(packsize, "c"))                                     -- expect: error: missing size for format option 'c'
print(try(packsize))                                          -- expect: error: bad argument #1 to 'string.packsize' (string expected, got no value)
print(try(packsize, {}))                                      -- expect: error: bad argument #1 to 'string.packsize' (string expected, got table)

-- unpack: values, then the position after them
print(unpack("i4", "\1\0\0\0"), unpack(">i4", "\0\0\0\1"), unpack("<I4", "\1\2\3\4"))  -- expect: 1	1	67305985	5
print(unpack("b B h H", "\255\255\254\255\254\255"))          -- expect: -1	255	-2	65534	7
print(unpack("i3", "\255\255\255"), unpack("I3", "\255\255\255"), unpack(">i3", "\255\255\254"))  -- expect: -1	16777215	-2	4
print(unpack("<i8", "\255\255\255\255\255\255\255\127"), unpack("<I8", "\255\255\255\255\255\255\255\255"))  -- expect: 9223372036854775807	-1	9
print(unpack("<i4", "\0\0\0\128"), unpack("<I4", "\0\0\0\128"), unpack("<I5", "\0\0\0\0\128"))  -- expect: -2147483648	2147483648	549755813888	6
print(unpack("i9", string.rep("\255", 9)), unpack("i9", "\1" .. string.rep("\0", 8)))  -- expect: -1	1	10
print(unpack("i16", string.rep("\0", 7) .. "\128" .. string.rep("\255", 8)))  -- expect: -9223372036854775808	17
print(unpack(">I16", string.rep("\0", 8) .. "\127" .. string.rep("\255", 7)))  -- expect: 9223372036854775807	17
print(try(unpack, "i9", string.rep("\255", 8) .. "\0"))       -- expect: error: 9-byte integer does not fit into Lua Integer
print(try(unpack, "I9", string.rep("\255", 9)))               -- expect: error: 9-byte integer does not fit into Lua Integer
print(try(unpack, "i16", string.rep("\0", 7) .. "\128" .. string.rep("\0", 8)))  -- expect: error: 16-byte integer does not fit into Lua Integer
print(try(unpack, ">i9", "\1" .. string.rep("\0", 8)))        -- expect: error: 9-byte integer does not fit into Lua Integer
print(unpack("j J T l L", pack("j J T l L", math.mininteger, -1, 12345, -5, 5)))  -- expect: -9223372036854775808	-1	12345	-5	5	41
print(unpack("f d n", pack("f d n", 0.5, 0.25, -1 / 0)))      -- expect: 0.5	0.25	-inf	21
print(unpack("z", "abc\0def"), unpack("z z", "a\0b\0"), unpack("z", "\0"))  -- expect: abc	a		2
print(unpack("s1", "\3abc"), unpack(">s2", "\0\2xyz"), unpack("s", pack("s", "hello")))  -- expect: abc	xy	hello	14
print(unpack("c2", "abc"), unpack("c0", ""), unpack("c3", "a\0b") == "a\0b")  -- expect: ab		true
print(unpack("!4 b i4", pack("!4 b i4", 7, 9)), unpack("!b Xi4 b", "\1\2\3\4\5"))  -- expect: 7	1	5	6
print(unpack("x b x", "\0\7\0"), unpack("", "abc"), unpack("  <>=! ", "abc"))  -- expect: 7	1	1
print(unpack("Xi4", ""), unpack("!Xi4", ""), unpack("!4 b Xi4", "\1\0\0\0"))  -- expect: 1	1	1	5

-- unpack's init position
print(unpack("b", "\1\2\3", 2), unpack("b", "\1\2\3", -1), unpack("b", "\1\2\3", -3))  -- expect: 2	3	1	2
print(unpack("b", "\1\2\3", 0), unpack("b", "\1\2\3", -10), unpack("", "abc", 4))  -- expect: 1	1	4
print(unpack("b", "\1\2\3", 3.0), unpack("b", "\1\2\3", "2"))  -- expect: 3	2	3
print(try(unpack, "", "abc", 5))                              -- expect: error: bad argument #3 to 'string.unpack' (initial position out of string)
print(try(unpack, "b", "abc", 4))                             -- expect: error: bad argument #2 to 'string.unpack' (data string too short)
print(try(unpack, "b", "abc", 1.5))                           -- expect: error: bad argument #3 to 'string.unpack' (number has no integer representation)
print(try(unpack, "b", "abc", math.maxinteger))               -- expect: error: bad argument #3 to 'string.unpack' (initial position out of string)

-- unpack's errors
print(try(unpack, "i4", "\1\0\0"))                            -- expect: error: bad argument #2 to 'string.unpack' (data string too short)
print(try(unpack, "x", ""))                                   -- expect: error: bad argument #2 to 'string.unpack' (data string too short)
print(try(unpack, "c4", "abc"))                               -- expect: error: bad argument #2 to 'string.unpack' (data string too short)
print(try(unpack, "z", "abc"))                                -- expect: error: bad argument #2 to 'string.unpack' (unfinished string for format 'z')
print(try(unpack, "s1", "\5abc"))                             -- expect: error: bad argument #2 to 'string.unpack' (data string too short)
print(try(unpack, "s2", "\255\255"))                          -- expect: error: bad argument #2 to 'string.unpack' (data string too short)
print(try(unpack, "s1", ""))                                  -- expect: error: bad argument #2 to 'string.unpack' (data string too short)
print(try(unpack, "!4 b i4", "\1\0\0\0\0\0\0"))               -- expect: error: bad argument #2 to 'string.unpack' (data string too short)
print(try(unpack, "i0", "x"))                                 -- expect: error: integral size (0) out of limits [1,16]
print(try(unpack, "q", "x"))                                  -- expect: error: invalid format option 'q'
print(try(unpack, "i2"))                                      -- expect: error: bad argument #2 to 'string.unpack' (string expected, got no value)
print(try(unpack, {}, ""))                                    -- expect: error: bad argument #1 to 'string.unpack' (string expected, got table)
print(try(unpack))                                            -- expect: error: bad argument #1 to 'string.unpack' (string expected, got no value)

-- Round trips of mixed formats
local fmt = "<!4 b h i j f d z s2 c4 x B"
local data = pack(fmt, -1, 300, -70000, math.maxinteger, 0.5, 1 / 3, "zs", "sz", "four", 200)
print(#data, packsize("<!4 b h i j f d") <= #data)            -- expect: 42	true
print(unpack(fmt, data))                                      -- expect: -1	300	-70000	9223372036854775807	0.5	0.33333333333333	zs	sz	four	200	43
local values = {}
for i = 1, 200 do values[i] = i * 1000 - 7 end
local many = pack(string.rep("j", 200), table.unpack(values))
print(#many, select("#", unpack(string.rep("j", 200), many)), select(200, unpack(string.rep("j", 200), many)))  -- expect: 1600	201	199993	1601
