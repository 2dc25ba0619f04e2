-- lua: 5.4
-- utf8.char, charpattern, codepoint, len, offset, codes: valid text,
-- positions, strict vs lax (surrogates, beyond U+10FFFF, up to 2^31-1),
-- invalid and overlong sequences, errors.

local function bytes(s) return (s:gsub(".", function(c) return string.format("%02X", c:byte()) end)) end
local function show(...) local t = table.pack(...) for i = 1, t.n do t[i] = tostring(t[i]) end return table.concat(t, " ") end

-- char
print(bytes(utf8.char(0x41)), bytes(utf8.char(0xE9)), bytes(utf8.char(0x20AC))) -- expect: 41	C3A9	E282AC
print(bytes(utf8.char(0x10FFFF)), bytes(utf8.char(0x110000)), bytes(utf8.char(0xD800))) -- expect: F48FBFBF	F4908080	EDA080
print(bytes(utf8.char(0x7FF)), bytes(utf8.char(0x800)), bytes(utf8.char(0xFFFF)), bytes(utf8.char(0x10000))) -- expect: DFBF	E0A080	EFBFBF	F0908080
print(bytes(utf8.char(0x1FFFFF)), bytes(utf8.char(0x200000)), bytes(utf8.char(0x3FFFFFF))) -- expect: F7BFBFBF	F888808080	FBBFBFBFBF
print(bytes(utf8.char(0x4000000)), bytes(utf8.char(0x7FFFFFFF))) -- expect: FC8480808080	FDBFBFBFBFBF
print(bytes(utf8.char(0)), #utf8.char(0), utf8.char() == "") -- expect: 00	1	true
print(utf8.char(72, 0xE9, 108, 108, 0xF6), #utf8.char(72, 0xE9, 108, 108, 0xF6)) -- expect: Héllö	7
print(utf8.char("65", 66.0))               -- expect: AB
print(pcall(utf8.char, 0x80000000))        -- expect: false	bad argument #1 to 'utf8.char' (value out of range)
print(pcall(utf8.char, -1))                -- expect: false	bad argument #1 to 'utf8.char' (value out of range)
print(pcall(utf8.char, 65, -1))            -- expect: false	bad argument #2 to 'utf8.char' (value out of range)
print(pcall(utf8.char, 1.5))               -- expect: false	bad argument #1 to 'utf8.char' (number has no integer representation)
print(pcall(utf8.char, "x"))               -- expect: false	bad argument #1 to 'utf8.char' (number expected, got string)
local many = {}
for i = 1, 3000 do many[i] = 0x4E00 + i end
local long = utf8.char(table.unpack(many))
print(#long, utf8.len(long))               -- expect: 9000	3000

-- charpattern matches one encoded character
print(bytes(utf8.charpattern))             -- expect: 5B002D7FC22DFD5D5B802DBF5D2A
local parts = {}
for c in ("aé€😀"):gmatch(utf8.charpattern) do parts[#parts + 1] = bytes(c) end
print(table.concat(parts, " "))            -- expect: 61 C3A9 E282AC F09F9880

-- codepoint
local s = "aé€😀"
print(utf8.codepoint(s))                   -- expect: 97
print(utf8.codepoint(s, 1, -1))            -- expect: 97	233	8364	128512
print(utf8.codepoint(s, 2), utf8.codepoint(s, 4), utf8.codepoint(s, -4)) -- expect: 233	8364	128512
print(select("#", utf8.codepoint(s, 3, 2)), select("#", utf8.codepoint("", 1, 0))) -- expect: 0	0
print(utf8.codepoint("\u{D800}", 1, 1, true), utf8.codepoint("\u{7FFFFFFF}", 1, 1, true)) -- expect: 55296	2147483647
print(pcall(utf8.codepoint, "\u{D800}"))   -- expect: false	invalid UTF-8 code
print(pcall(utf8.codepoint, "\u{110000}")) -- expect: false	invalid UTF-8 code
print(pcall(utf8.codepoint, s, 3))         -- expect: false	invalid UTF-8 code
print(pcall(utf8.codepoint, "\xC3"))       -- expect: false	invalid UTF-8 code
print(pcall(utf8.codepoint, "\xC0\x80"))   -- expect: false	invalid UTF-8 code
print(pcall(utf8.codepoint, "\xE0\x80\x80", 1, 1, true)) -- expect: false	invalid UTF-8 code
print(pcall(utf8.codepoint, "\xFE"))       -- expect: false	invalid UTF-8 code
print(pcall(utf8.codepoint, "\xFF", 1, 1, true)) -- expect: false	invalid UTF-8 code
print(pcall(utf8.codepoint, "abc", 0))     -- expect: false	bad argument #2 to 'utf8.codepoint' (out of bounds)
print(pcall(utf8.codepoint, "abc", 1, 4))  -- expect: false	bad argument #3 to 'utf8.codepoint' (out of bounds)
print(pcall(utf8.codepoint, "abc", -5))    -- expect: false	bad argument #2 to 'utf8.codepoint' (out of bounds)
print(pcall(utf8.codepoint))               -- expect: false	bad argument #1 to 'utf8.codepoint' (string expected, got no value)
print(utf8.codepoint(123, 2))              -- expect: 50

-- len
print(utf8.len(s), utf8.len(""), utf8.len("abc"), utf8.len(s, 2), utf8.len(s, -4)) -- expect: 4	0	3	3	1
print(utf8.len(s, 1, 1), utf8.len(s, 1, 2), utf8.len(s, 1, 3), utf8.len(s, 4, 3)) -- expect: 1	2	2	0
print(utf8.len("abc", 4), utf8.len("abc", 3, 2), utf8.len("", 1, 0)) -- expect: 0	0	0
print(utf8.len("ab\x80cd"))                -- expect: nil	3
print(utf8.len("ab\xC3"))                  -- expect: nil	3
print(utf8.len("\u{D7FF}\u{D800}"))        -- expect: nil	4
print(utf8.len("\u{D7FF}\u{D800}", 1, -1, true)) -- expect: 2
print(utf8.len("\u{10FFFF}\u{110000}"), utf8.len("\u{10FFFF}\u{110000}", 1, -1, true)) -- expect: nil	2
print(utf8.len("\xF0\x80\x80\x80", 1, -1, true)) -- expect: nil	1
print(utf8.len(s, 3))                      -- expect: nil	3
print(pcall(utf8.len, "abc", 5))           -- expect: false	bad argument #2 to 'utf8.len' (initial position out of bounds)
print(pcall(utf8.len, "abc", 0))           -- expect: false	bad argument #2 to 'utf8.len' (initial position out of bounds)
print(pcall(utf8.len, "abc", 1, 4))        -- expect: false	bad argument #3 to 'utf8.len' (final position out of bounds)
print(utf8.len("abc", -10 + 8))            -- expect: 2
print(pcall(utf8.len, "abc", -10))         -- expect: false	bad argument #2 to 'utf8.len' (initial position out of bounds)
print(pcall(utf8.len, {}))                 -- expect: false	bad argument #1 to 'utf8.len' (string expected, got table)

-- offset
print(utf8.offset(s, 1), utf8.offset(s, 2), utf8.offset(s, 3), utf8.offset(s, 4), utf8.offset(s, 5)) -- expect: 1	2	4	7	11
print(utf8.offset(s, 6), utf8.offset(s, -1), utf8.offset(s, -2), utf8.offset(s, -4), utf8.offset(s, -5)) -- expect: nil	7	4	1	nil
print(utf8.offset(s, 0, 3), utf8.offset(s, 0, 5), utf8.offset(s, 0, 8), utf8.offset(s, 0, 11)) -- expect: 2	4	7	11
print(utf8.offset(s, 2, 2), utf8.offset(s, -1, 4), utf8.offset(s, 1, 11), utf8.offset(s, 0)) -- expect: 4	2	11	1
print(utf8.offset("", 1), utf8.offset("", 0), utf8.offset("", -1), utf8.offset("abc", 1, -1)) -- expect: 1	1	nil	3
print(pcall(utf8.offset, s, 1, 3))         -- expect: false	initial position is a continuation byte
print(pcall(utf8.offset, s, -1, 3))        -- expect: false	initial position is a continuation byte
print(pcall(utf8.offset, "abc", 1, 5))     -- expect: false	bad argument #3 to 'utf8.offset' (position out of bounds)
print(pcall(utf8.offset, "abc", 1, 0))     -- expect: false	bad argument #3 to 'utf8.offset' (position out of bounds)
print(pcall(utf8.offset, "abc"))           -- expect: false	bad argument #2 to 'utf8.offset' (number expected, got no value)
print(pcall(utf8.offset, "abc", 1.5))      -- expect: false	bad argument #2 to 'utf8.offset' (number has no integer representation)

-- codes
local out = {}
for p, c in utf8.codes(s) do out[#out + 1] = p .. ":" .. c end
print(table.concat(out, " "))              -- expect: 1:97 2:233 4:8364 7:128512
local function codes(str, lax)
    local r = {}
    local ok, err = pcall(function()
        for p, c in utf8.codes(str, lax) do r[#r + 1] = p .. ":" .. c end
    end)
    return table.concat(r, " ") .. (ok and "" or (" ! " .. err:gsub("^.-:%d+: ", "")))
end
print(codes(""))                           -- expect: 
print(codes("\x80abc"))                    -- expect: 2:97 3:98 4:99
print(codes("a\x80\x80b"))                 -- expect: 1:97 4:98
print(codes("ab\xC3"))                     -- expect: 1:97 2:98 ! invalid UTF-8 code
print(codes("a\xC3b"))                     -- expect: 1:97 ! invalid UTF-8 code
print(codes("\u{D800}x"))                  -- expect:  ! invalid UTF-8 code
print(codes("\u{D800}x", true))            -- expect: 1:55296 4:120
print(codes("\u{7FFFFFFF}", true))         -- expect: 1:2147483647
print(codes("\u{110000}"))                 -- expect:  ! invalid UTF-8 code
print(codes("\xC1\x81"))                   -- expect:  ! invalid UTF-8 code
print(codes("\xC1\x81", true))             -- expect:  ! invalid UTF-8 code
print(codes("\xF8\x88\x80\x80\x80", true)) -- expect: 1:2097152
print(codes("\xFC\x84\x80\x80\x80\x80", true)) -- expect: 1:67108864
print(codes("\xFE\x80\x80\x80\x80\x80\x80", true)) -- expect:  ! invalid UTF-8 code
print(codes("a\0b"))                       -- expect: 1:97 2:0 3:98
local f, state, start = utf8.codes("xy")
print(type(f), state, start)               -- expect: function	xy	0
print(f("xy", 0), f("xy", 1), f("xy", 2))  -- expect: 1	2
print(f("xy", -5))                         -- expect: 
print(pcall(utf8.codes))                   -- expect: false	bad argument #1 to 'utf8.codes' (string expected, got no value)
print(pcall(utf8.codes, {}))               -- expect: false	bad argument #1 to 'utf8.codes' (string expected, got table)
print(select(2, utf8.codes(12)))           -- expect: 12	0
