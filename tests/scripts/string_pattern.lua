-- lua: 5.4
-- Patterns (manual §6.4.1) through string.find, string.match and
-- string.gmatch: classes, sets, quantifiers, anchors, captures, %b, %f,
-- back-references, init positions, plain find, and every pattern error.

local function try(f, ...)
    local r = table.pack(pcall(f, ...))
    if r[1] then return table.unpack(r, 2, r.n) end
    return "error: " .. tostring(r[2]):gsub("^[^:]*string_pattern%.lua:(%d+):", "line %1:")
end
local find, match, gmatch = string.find, string.match, string.gmatch
-- All matches of gmatch, captures joined by ",", matches by " ".
local function all(s, p, init)
    local out = {}
    for a, b, c in gmatch(s, p, init) do
        local caps = { a, b, c }
        for i = 1, #caps do caps[i] = tostring(caps[i]) end
        out[#out + 1] = table.concat(caps, ",")
    end
    return "[" .. table.concat(out, " ") .. "]"
end
-- Which of the bytes 0..255 the one-character pattern p matches, as
-- ranges ("48-57 65-70").
local function members(p)
    local out, first = {}, nil
    for c = 0, 256 do
        local hit = c < 256 and match(string.char(c), "^" .. p .. "$") ~= nil
        if hit and not first then first = c end
        if not hit and first then
            out[#out + 1] = first == c - 1 and tostring(first) or first .. "-" .. (c - 1)
            first = nil
        end
    end
    return table.concat(out, " ")
end

-- Character classes and their complements (C locale)
print(members("%a"))                                          -- expect: 65-90 97-122
print(members("%c"))                                          -- expect: 0-31 127
print(members("%d"))                                          -- expect: 48-57
print(members("%g"))                                          -- expect: 33-126
print(members("%l"))                                          -- expect: 97-122
print(members("%p"))                                          -- expect: 33-47 58-64 91-96 123-126
print(members("%s"))                                          -- expect: 9-13 32
print(members("%u"))                                          -- expect: 65-90
print(members("%w"))                                          -- expect: 48-57 65-90 97-122
print(members("%x"))                                          -- expect: 48-57 65-70 97-102
print(members("%A"))                                          -- expect: 0-64 91-96 123-255
print(members("%D"))                                          -- expect: 0-47 58-255
print(members("%S"))                                          -- expect: 0-8 14-31 33-255
print(members("%W"))                                          -- expect: 0-47 58-64 91-96 123-255
print(members("%z"), members("%Z") == members("[^%z]"))       -- expect: 0	true
print(members("."))                                           -- expect: 0-255
-- '%' before a non-alphanumeric character is that character
print(members("%."), members("%%"), members("%["), members("%-"), members("%^"))  -- expect: 46	37	91	45	94
print(members("%e"), members("%y"), try(members, "%1a"))      -- expect: 101	121	error: line 27: invalid capture index %1

-- Sets
print(members("[abc]"), members("[a-c]"), members("[^\1-\254]"))  -- expect: 97-99	97-99	0 255
print(members("[%d_]"), members("[%a%d]") == members("%w"), members("[^%w]") == members("%W"))  -- expect: 48-57 95	true	true
print(members("[]]"), members("[^]]") == members("[^%]]"), members("[a-]"), members("[-a]"))  -- expect: 93	true	45 97	45 97
print(members("[%]]"), members("[%-]"), members("[a%-z]"), members("[z-a]"))  -- expect: 93	45	45 97 122	
print(members("[^^]") == members("[^%^]"), members("[a^]"), members("[.]"), members("[%.]"))  -- expect: true	94 97	46	46
print(members("[\0-\31]") == members("%c") .. "", members("[\128-\255]"))  -- expect: false	128-255
print(members("[%w-]"), members("[a-%d]"))                    -- expect: 45 48-57 65-90 97-122	100
print(members("[a-c-e]"), members("[]-a]"))                   -- expect: 45 97-99 101	93-97

-- Single items and quantifiers
print(find("hello", "l"), find("hello", "l+"), find("hello", "l*"), find("hello", "xl*"))  -- expect: 3	3	1	nil
print(find("hello", "el?"), find("hello", "ex?l"), find("hello", "l-o"), find("hello", "h.-l"))  -- expect: 2	2	3	1	3
print(match("aaab", "a*"), match("aaab", "a-b"), match("aaab", "a+b"), match("b", "a*b"))  -- expect: aaa	aaab	aaab	b
print(match("<<a>><<b>>", "<<.*>>"), match("<<a>><<b>>", "<<.->>"))  -- expect: <<a>><<b>>	<<a>>
print(match("  x  ", "^%s*(.-)%s*$") .. "|", match("key = val", "(%w+)%s*=%s*(%w+)"))  -- expect: x|	key	val
print(match("abc", "a?b?c?d?"), match("abc", ".-$"), match("", ".*"), match("", ".+"))  -- expect: abc	abc		nil
print(match("x+y", "x%+y"), match("3.14", "%d+%.%d+"), match("a.b", "a.b"), match("axb", "a%.b"))  -- expect: x+y	3.14	a.b	nil
print(match("[test]", "%[(.*)%]"), match("(x)", "%((%a)%)"), match("50%", "%d+%%"))  -- expect: test	x	50%

-- Anchors: ^ only at the start, $ only at the end
print(find("hello", "^h"), find("hello", "^e"), find("hello", "o$"), find("hello", "l$"))  -- expect: 1	nil	5	nil
print(find("a^b", "a^b"), find("a$b", "a$b"), find("^a", "^^a"), find("a$", "a$$"))  -- expect: 1	1	1	1	2
print(find("hello", "^hello$"), find("", "^$"), find("x", "^$"), find("ab", "^"))  -- expect: 1	1	nil	1	0
print(match("aaa", "^a-$"), match("hello", "^(h)(.-)$"))      -- expect: aaa	h	ello

-- find and match: init, negative init, init past the end
print(find("abcabc", "b", 3), find("abcabc", "b", -2), find("abcabc", "b", -100))  -- expect: 5	5	2	2
print(find("abc", "", 4), find("abc", "", 5), find("abc", "", 0), find("abc", "", -1))  -- expect: 4	nil	1	3	2
print(find("abc", "^b", 2), find("abc", "^a", 2), match("abc", "^(.)", 3), match("abc", ".", 10))  -- expect: 2	nil	c	nil
print(find("abc", "c", 3.0), find("abc", "c", "3"))           -- expect: 3	3	3
print(try(find, "abc", "c", 1.5))                             -- expect: error: bad argument #3 to 'string.find' (number has no integer representation)
print(try(find, "abc", "c", "x"))                             -- expect: error: bad argument #3 to 'string.find' (number expected, got string)
print(try(find, "abc"))                                       -- expect: error: bad argument #2 to 'string.find' (string expected, got no value)
print(try(find, nil, "x"))                                    -- expect: error: bad argument #1 to 'string.find' (string expected, got nil)
print(try(match, "abc", {}))                                  -- expect: error: bad argument #2 to 'string.match' (string expected, got table)
print(find(12345, 3), match(12345, "(%d)(%d)"), find(1.5, ".", 1, true))  -- expect: 3	1	2	2

-- Plain find: no pattern meaning at all
print(find("a.b", ".", 1, true), find("a+b", "+", 1, true), find("a%b", "%", 1, true))  -- expect: 2	2	2	2
print(find("abc", "[a", 1, true), find("a(b", "(", 1, true), find("x^y", "^y", 1, true))  -- expect: nil	2	2	3
print(find("hello", "", 1, true), find("hello", "", 10, true), find("", "", 1, true))  -- expect: 1	nil	1	0
print(find("hello", "lo", -2, true), find("hello", "lo", -1, true), find("hello", "hello!", 1, true))  -- expect: 4	nil	nil
print(find("a\0b\0c", "\0c", 1, true), find("a\0b", "b", 1, 1), find("aab", "ab", 1, nil))  -- expect: 4	3	2	3
-- without specials a pattern is searched plainly: ')' and ']' are not specials
print(find("a)b", "a)"), find("a]b", "]"), find("abc", ")"), find("a\0b", "\0b"))  -- expect: 1	2	nil	2	3

-- Captures
print(match("hello world", "(h)(e)(l)(l)(o)"))                -- expect: h	e	l	l	o
print(match("hello", "((h)(e))"), match("hello", "(h(e(l)))"))  -- expect: he	hel	el	l
print(find("hello", "(l)(l)"), find("hello", "()ll()"))       -- expect: 3	3	4	3	5
print(match("hello", "()"), match("hello", "()", 3), match("hello", "h()"), match("", "()"))  -- expect: 1	3	2	1
print(match("hello", "(h)()(e)"), math.type(match("x", "()")))  -- expect: h	integer
print(match("date: 2024-01-31", "(%d+)-(%d+)-(%d+)"))         -- expect: 2024	01	31
print(match("abc", "(a)(z?)(b)"), #match("abc", "a(z*)b"))    -- expect: a	0
print(select("#", match("abc", string.rep("()", 32))), select("#", find("abc", "(a)(b)(c)")))  -- expect: 32	5

-- Back-references
print(match("hello", "(l)%1"), match("abab", "(ab)%1"), match("aXbXc", "(X).%1"))  -- expect: l	ab	X
print(match([[say "hi" and 'yo']], "([\"'])(.-)%1"), match("abba", "(a)(b)%2%1"))  -- expect: "	a	b
print(find("xyyx", "(.)%1"), match("aa", "(a*)%1"), match("aaa", "^(a*)%1$"))  -- expect: 2	a	nil
print(match("xx", "()%1"), match("x()x", "(x)()%1"))          -- expect: nil	nil

-- %b
print(match("f(a(b)c)d", "%b()"), match("x{a{b}}", "%b{}"), match("[[x]]", "%b[]"))  -- expect: (a(b)c)	{a{b}}	[[x]]
print(match("(unclosed", "%b()"), match(")(", "%b()"), match('say "x" y', '%b""'))  -- expect: nil	nil	"x"
print(find("a(b)c(d)", "%b()", 3), match("((a)(b))", "^%b()$"), match("aXbYc", "%bXY"))  -- expect: 6	((a)(b))	XbY
print(match("if (a and (b or c)) then", "if (%b()) then"), match("(", "%b()"))  -- expect: (a and (b or c))	nil

-- %f frontiers
print(find("THE (quick) fox", "%f[%a]%a+"), match("THE (quick) fox", "%f[%a](%a+)%f[%A]", 5))  -- expect: 1	quick
print(all("THE (quick) brown fox", "%f[%a]%a+"))              -- expect: [THE quick brown fox]
print(all("hello world", "%f[%w]()"), all("hello world", "()%f[%W]"))  -- expect: [1 7]	[6 12]
print(find("abc", "%f[%l]"), find("abc", "%f[%L]"), find("", "%f[%z]"), find("x", "%f[%Z]"))  -- expect: 1	4	nil	1	0
print(all("a1b22c333", "%f[%d]%d+"), match("aaa", "%f[a]a+%f[^a]"))  -- expect: [1 22 333]	aaa

-- gmatch, with and without captures, init, and empty matches
print(all("one two  three", "%a+"), all("k1=v1, k2=v2", "(%w+)=(%w+)"))  -- expect: [one two three]	[k1,v1 k2,v2]
print(all("abc", ""), all("abc", "", 2), all("abc", "", 4), all("abc", "", 5), all("abc", ".", -1))  -- expect: [   ]	[  ]	[]	[]	[c]
print(all("abc", "b*"), all("aaa", "a-"), all("abc", "()"), all("abc", "x*"))  -- expect: [ b ]	[   ]	[1 2 3 4]	[   ]
print(all("^a^a", "^a"), all("hello", "l+"), all("abc", ".", 10), all("abc", "()", 0))  -- expect: [^a ^a]	[ll]	[]	[1 2 3 4]
print(all("", ""), all("", "x"), all("a,b,,c", "([^,]*)"), all(123, "%d"))  -- expect: []	[]	[a b  c]	[1 2 3]
print(all("abcd", "(%a)(%a)"), all("a b c", "%a", -3), all("xyz", "()(.)()"))  -- expect: [a,b c,d]	[b c]	[1,x,2 2,y,3 3,z,4]
do
    local it = gmatch("a1b2", "%a(%d)")
    print(it(), it(), it(), it())                             -- expect: 1	2	nil
    local it2 = gmatch("abc", ".")
    local _ = it2()
    print(it2(), it2(), it2(), it2())                         -- expect: b	c	nil
end
print(try(gmatch, nil, "x"))                                  -- expect: error: bad argument #1 to 'string.gmatch' (string expected, got nil)
print(try(gmatch, "x"))                                       -- expect: error: bad argument #2 to 'string.gmatch' (string expected, got no value)
print(try(gmatch, "x", "x", "y"))                             -- expect: error: bad argument #3 to 'string.gmatch' (number expected, got string)
print(try(function() for _ in gmatch("abc", "(") do end end))  -- expect: error: line 151: unfinished capture
print(try(function() for _ in gmatch("abc", "%") do end end))  -- expect: error: line 152: malformed pattern (ends with '%')
-- an iterator that starts past the end tries nothing, so finds no error
print(select("#", gmatch("abc", "[", 5)()), select("#", gmatch("abc", "%", 10)()))  -- expect: 0	0
print(try(gmatch("abc", "[", 4)))                             -- expect: error: malformed pattern (missing ']')
print(try(find, "abc", "[", 5), try(find, "abc", "[", 4))     -- expect: nil	error: malformed pattern (missing ']')

-- Errors in patterns
print(try(find, "abc", "%"))                                  -- expect: error: malformed pattern (ends with '%')
print(try(match, "abc", "a%"))                                -- expect: error: malformed pattern (ends with '%')
print(try(find, "abc", "[a"))                                 -- expect: error: malformed pattern (missing ']')
print(try(find, "abc", "[]"))                                 -- expect: error: malformed pattern (missing ']')
print(try(find, "abc", "[^]"))                                -- expect: error: malformed pattern (missing ']')
print(try(find, "abc", "[a-"))                                -- expect: error: malformed pattern (missing ']')
print(try(find, "abc", "[a%"))                                -- expect: error: malformed pattern (missing ']')
print(try(find, "abc", "[%a"))                                -- expect: error: malformed pattern (missing ']')
print(try(find, "abc", "%f"))                                 -- expect: error: missing '[' after '%f' in pattern
print(try(find, "abc", "%fa"))                                -- expect: error: missing '[' after '%f' in pattern
print(try(find, "abc", "%f[a"))                               -- expect: error: malformed pattern (missing ']')
print(try(find, "abc", "%1"))                                 -- expect: error: invalid capture index %1
print(try(find, "abc", "%0"))                                 -- expect: error: invalid capture index %0
print(try(find, "abc", "(a)%2"))                              -- expect: error: invalid capture index %2
print(try(find, "abc", "(a%1)"))                              -- expect: error: invalid capture index %1
print(try(find, "abc", "(a)%0"))                              -- expect: error: invalid capture index %0
print(try(match, "abc", "(a"))                                -- expect: error: unfinished capture
print(try(match, "abc", "(()"))                               -- expect: error: unfinished capture
print(try(find, "abc", "(a"))                                 -- expect: error: unfinished capture
print(try(match, "abc", ")"))                                 -- expect: error: invalid pattern capture
print(try(match, "abc", "a)"))                                -- expect: error: invalid pattern capture
print(try(match, "abc", "(a))"))                              -- expect: error: invalid pattern capture
print(try(find, "abc", "%b"))                                 -- expect: error: malformed pattern (missing arguments to '%b')
print(try(find, "abc", "%ba"))                                -- expect: error: malformed pattern (missing arguments to '%b')
print(try(find, "abc", "%b()%"))                              -- expect: nil
print(try(find, "abc", string.rep("(", 33) .. string.rep(")", 33)))  -- expect: error: too many captures
print(try(find, "abc", string.rep("()", 33)))                 -- expect: error: too many captures
print(try(find, "x", string.rep("(", 32) .. "x" .. string.rep(")", 32)))  -- expect: 1	1	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x	x
-- errors only where the matcher gets to: a failing prefix hides them
print(try(find, "xyz", "a["), try(find, "xyz", "a%"), try(find, "xyz", "a(%1)"))  -- expect: nil	nil	nil

-- Recursion depth: at most 200 nested matcher calls
print(#match(string.rep("a", 199), string.rep("a?", 199)))    -- expect: 199
print(try(match, string.rep("a", 200), string.rep("a?", 200)))  -- expect: error: pattern too complex
print(try(match, string.rep("a", 300), string.rep("a?", 300)))  -- expect: error: pattern too complex
print(#match(string.rep("a", 300), string.rep("a?", 150)), try(match, string.rep("a", 200), string.rep("a?", 200) .. "b"))  -- expect: 150	error: pattern too complex
print(try(find, string.rep("x", 250), string.rep("x?", 250)))  -- expect: error: pattern too complex
print(#match(string.rep("a", 199), string.rep("a-", 198) .. "$"))  -- expect: 199
print(try(match, string.rep("a", 200), string.rep("a-", 200) .. "$"))  -- expect: error: pattern too complex
print(#match(string.rep("a", 100000), ".-$"), #match(string.rep("a", 100000), "a*"))  -- expect: 100000	100000
print(#match(string.rep("ab", 50000), "(.-)$"), find(string.rep("a", 50000) .. "b", "a-b"))  -- expect: 100000	1	50001

-- Bytes beyond ASCII and zeros in subjects and patterns
print(find("a\0b", "%z"), find("a\0b", "[\0]"), find("a\0b", "\0"), match("a\0\0b", "\0+") == "\0\0")  -- expect: 2	2	2	true
print(find("\200\201", "[\200-\255]+"), find("x\255", "\255$"), match("a\0b", ".%z.") == "a\0b")  -- expect: 1	2	true
print(match("a\0b", "(.)\0(.)"), find("a.\0.b", ".\0.", 1, true))  -- expect: a	2	4
