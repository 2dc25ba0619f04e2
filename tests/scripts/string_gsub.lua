-- lua: 5.4
-- string.gsub (manual §6.4): string, table and function replacements,
-- %0-%9 and %% in replacement strings, the maximum count, the count it
-- returns, anchors, empty matches, and its errors.

local function try(f, ...)
    local r = table.pack(pcall(f, ...))
    if r[1] then return table.unpack(r, 2, r.n) end
    return "error: " .. tostring(r[2]):gsub("^[^:]*string_gsub%.lua:(%d+):", "line %1:")
end
local gsub = string.gsub

-- String replacements
print(gsub("hello world", "o", "0"))                          -- expect: hell0 w0rld	2
print(gsub("hello world", "(o)", "[%1]"))                     -- expect: hell[o] w[o]rld	2
print(gsub("hello world", "%w+", "<%0>"))                     -- expect: <hello> <world>	2
print(gsub("hello world", "(%w+) (%w+)", "%2 %1"))            -- expect: world hello	1
print(gsub("abc", "%w", "%0%0"), gsub("abc", "%w", "%%"), gsub("abc", "b", "%%%0%%"))  -- expect: aabbcc	%%%	a%b%c	1
print(gsub("abc", "b", "%1"), gsub("abc", "(b)", "%0-%1"), gsub("abc", "b", ""))  -- expect: abc	ab-bc	ac	1
print(gsub("abc", "()", "%1"), gsub("abc", "b()", "[%1]"), gsub("abc", "(b)()", "%2%1"))  -- expect: 1a2b3c4	a[3]c	a3bc	1
print(gsub("hello", "", "-"), gsub("", "", "x"), gsub("", "a", "x"))  -- expect: -h-e-l-l-o-	x		0
print(gsub("abc", "b*", "-"), gsub("abc", "x*", "-"), gsub("aaa", "a-", "-"))  -- expect: -a-c-	-a-b-c-	-a-a-a-	4
print(gsub("abc", ".", { a = 1, b = false }), gsub("abc", "b", 5), gsub("abc", "b", 2.5))  -- expect: 1bc	a5c	a2.5c	1
print(gsub(12345, 3, 0), gsub(1.5, "%.", ","))                -- expect: 12045	1,5	1
print(gsub("a\0b\0c", "\0", "."), gsub("abc", "b", "\0") == "a\0c")  -- expect: a.b.c	true
print(gsub("x = $x, y = $y", "%$(%w+)", "%%%1"))              -- expect: x = %x, y = %y	2

-- Anchors
print(gsub("hello hello", "^hello", "bye"))                   -- expect: bye hello	1
print(gsub("hello", "^", ">"), gsub("hello", "$", "<"), gsub("", "^$", "empty"))  -- expect: >hello	hello<	empty	1
print(gsub("aaa", "^a", "b"), gsub("aaa", "^a*", "b"), gsub("xaa", "^a", "b"))  -- expect: baa	b	xaa	0
print(gsub("a$b", "$b", "!"), gsub("a^b", "a^", "!"))         -- expect: a!	!b	1

-- The maximum number of replacements
print(gsub("aaaa", "a", "b", 2), gsub("aaaa", "a", "b", 0), gsub("aaaa", "a", "b", -1))  -- expect: bbaa	aaaa	aaaa	0
print(gsub("aaaa", "a", "b", 10), gsub("aaaa", "a", "b", 2.0), gsub("aaaa", "a", "b", "3"))  -- expect: bbbb	bbaa	bbba	3
print(gsub("abc", "", "-", 2), gsub("abc", "%w", "%0%0", math.maxinteger))  -- expect: -a-bc	aabbcc	3
print(try(gsub, "abc", "%w", "x", 1.5))                       -- expect: error: bad argument #4 to 'string.gsub' (number has no integer representation)
print(try(gsub, "abc", "%w", "x", "many"))                    -- expect: error: bad argument #4 to 'string.gsub' (number expected, got string)

-- Table replacements: the first capture (or the whole match) is the key;
-- false and nil keep the match
local t = { hello = "HI", world = false, n = 42, f = 1.5 }
print(gsub("hello world n f x", "%w+", t))                    -- expect: HI world 42 1.5 x	5
print(gsub("$name is $age", "%$(%w+)", { name = "Ann", age = 30 }))  -- expect: Ann is 30	2
print(gsub("abc", "(%w)(%w)", { a = "1", b = "2" }))          -- expect: 1c	1
print(gsub("abc", "()", { [1] = "one", [3] = "three" }))      -- expect: oneabthreec	4
local lookups = {}
local proxy = setmetatable({}, { __index = function(_, k) lookups[#lookups + 1] = k return k:upper() end })
print(gsub("a-b-c", "%a", proxy), table.concat(lookups, ","))  -- expect: A-B-C	a,b,c
print(try(gsub, "abc", "b", { b = {} }))                      -- expect: error: invalid replacement value (a table)
print(try(gsub, "abc", "b", { b = print }))                   -- expect: error: invalid replacement value (a function)
print(try(gsub, "abc", "b", { b = true }))                    -- expect: error: invalid replacement value (a boolean)

-- Function replacements: called with the captures (or the whole match)
print(gsub("hello world", "%w+", string.upper))               -- expect: HELLO WORLD	2
print(gsub("a=1, b=2", "(%w+)=(%w+)", function(k, v) return v .. "=" .. k end))  -- expect: 1=a, 2=b	2
print(gsub("abc", "%w", function(c) if c == "b" then return nil end return c:byte() end))  -- expect: 97b99	3
print(gsub("abc", "%w", function() return false end))         -- expect: abc	3
print(gsub("abc", "%w", function() end))                      -- expect: abc	3
print(gsub("abc", "()(%w)()", function(a, c, b) return a .. c .. b end))  -- expect: 1a22b33c4	3
print(gsub("x", "x", function(...) return select("#", ...) end))  -- expect: 1	1
print(gsub("abc", "(a)(b)(c)", function(...) return select("#", ...) end))  -- expect: 3	1
local seen = {}
print(gsub("one two three", "%a+", function(w) seen[#seen + 1] = #w end), table.concat(seen, ","))  -- expect: one two three	3,3,5
print(gsub("abc", ".", function(c) return c .. c end, 2))     -- expect: aabbc	2
-- a replacement may call gsub again
print(gsub("a(b)c", "%b()", function(s) return (gsub(s, "%a", string.upper)) end))  -- expect: a(B)c	1
print(try(gsub, "abc", "b", function() return {} end))        -- expect: error: invalid replacement value (a table)
print(try(gsub, "abc", "b", function() return true end))      -- expect: error: invalid replacement value (a boolean)
print(try(gsub, "abc", "b", function() error("from repl") end))  -- expect: error: line 71: from repl
print(try(gsub, "abc", "b", function() error({ code = 1 }) end) ~= nil)  -- expect: true

-- Errors in the replacement string and the arguments
print(try(gsub, "abc", "b", "%"))                             -- expect: error: invalid use of '%' in replacement string
print(try(gsub, "abc", "b", "%x"))                            -- expect: error: invalid use of '%' in replacement string
print(try(gsub, "abc", "b", "50% off"))                       -- expect: error: invalid use of '%' in replacement string
print(try(gsub, "abc", "b", "%2"))                            -- expect: error: invalid capture index %2
print(try(gsub, "abc", "(b)", "%2"))                          -- expect: error: invalid capture index %2
print(try(gsub, "abc", "(b)(c)", "%3"))                       -- expect: error: invalid capture index %3
print(try(gsub, "abc", "x", "%9"))                            -- expect: abc	0
print(try(gsub, "abc", "b"))                                  -- expect: error: bad argument #3 to 'string.gsub' (string/function/table expected, got no value)
print(try(gsub, "abc", "b", true))                            -- expect: error: bad argument #3 to 'string.gsub' (string/function/table expected, got boolean)
print(try(gsub, "abc", "b", nil))                             -- expect: error: bad argument #3 to 'string.gsub' (string/function/table expected, got nil)
print(try(gsub, "abc", "b", nil, "x"))                        -- expect: error: bad argument #4 to 'string.gsub' (number expected, got string)
print(try(gsub, "abc"))                                       -- expect: error: bad argument #2 to 'string.gsub' (string expected, got no value)
print(try(gsub, nil, "b", "x"))                               -- expect: error: bad argument #1 to 'string.gsub' (string expected, got nil)
print(try(gsub, "abc", {}, "x"))                              -- expect: error: bad argument #2 to 'string.gsub' (string expected, got table)
print(try(gsub, "abc", "(", "x"))                             -- expect: xaxbxcx	4
print(try(gsub, "abc", "[", "x"))                             -- expect: error: malformed pattern (missing ']')
print(try(gsub, "abc", "(()", "x"))                           -- expect: xaxbxcx	4
print(try(gsub, "abc", "%f", "x"))                            -- expect: error: missing '[' after '%f' in pattern
print(try(gsub, string.rep("a", 300), string.rep("a?", 300), "x"))  -- expect: error: pattern too complex
-- errors only where the matcher gets to
print(gsub("xyz", "a[", "b"), gsub("xyz", "b", "%"))          -- expect: xyz	xyz	0
print(gsub("abc", "[", "x", 0), gsub("abc", "%", "x", -1), gsub("", "(", "x"))  -- expect: abc	abc	x	1
print(try(gsub, "abc", "[", "x", 1))                          -- expect: error: malformed pattern (missing ']')
print(try(gsub, "", "[%", "x"))                               -- expect: error: malformed pattern (missing ']')

-- Longer subjects
local words = {}
for i = 1, 1000 do words[i] = "w" .. i end
local text = table.concat(words, " ")
local out, n = gsub(text, "w(%d+)", "<%1>")
print(#out, n, out:sub(1, 24), out:sub(-12))                  -- expect: 5892	1000	<1> <2> <3> <4> <5> <6> 	<999> <1000>
print(select(2, gsub(text, "%d", "")), select(2, gsub(text, " ", " ")))  -- expect: 2893	999
print((gsub(string.rep("ab", 10000), "b", "")) == string.rep("a", 10000))  -- expect: true
print((gsub(string.rep("x", 10000), "", "-")):sub(1, 9), select(2, gsub(string.rep("x", 10000), "", "-")))  -- expect: -x-x-x-x-	10001
