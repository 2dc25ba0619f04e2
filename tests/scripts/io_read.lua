-- lua: 5.4
-- file:read and io.read: every format ("n", "a", "l", "L", counts, 0),
-- the 5.3 "*" spellings, failure part-way, errors, and reading numerals
-- exactly as far as the manual's "n" rules go.

local name = os.tmpname()

local function put(text)
    local f = assert(io.open(name, "wb"))
    f:write(text)
    f:close()
end

-- %q, with newlines as \n so that each result stays on one line
local function quote(v)
    return (string.format("%q", v):gsub("\\\n", "\\n"))
end

-- Reads [text] with the formats; prints the values with their types and
-- what is left in the file.
local function show(text, ...)
    put(text)
    local f = assert(io.open(name, "rb"))
    local results = table.pack(f:read(...))
    local rest = f:read("a")
    f:close()
    local out = {}
    for i = 1, results.n do
        local v = results[i]
        out[#out + 1] = (math.type(v) or type(v)) .. ":" .. quote(v)
    end
    print(table.concat(out, " "), "rest=" .. quote(rest))
end

-- numerals
show("  12  ", "n") -- expect: integer:12	rest="  "
show("\n\t\v\f\r 7", "n") -- expect: integer:7	rest=""
show("-12x", "n") -- expect: integer:-12	rest="x"
show("+3", "n") -- expect: integer:3	rest=""
show("0x10", "n") -- expect: integer:16	rest=""
show("-0X1f", "n") -- expect: integer:-31	rest=""
show("0x1p4 ", "n") -- expect: float:0x1p+4	rest=" "
show("0x1P-2", "n") -- expect: float:0x1p-2	rest=""
show("0X1.8", "n") -- expect: float:0x1.8p+0	rest=""
show("0x.8", "n") -- expect: float:0x1p-1	rest=""
show("0x1e+5", "n") -- expect: integer:30	rest="+5"
show("1e2", "n") -- expect: float:0x1.9p+6	rest=""
show("1E+2", "n") -- expect: float:0x1.9p+6	rest=""
show("2.5e-1;", "n") -- expect: float:0x1p-2	rest=";"
show("1e+5x", "n") -- expect: float:0x1.86ap+16	rest="x"
show(".5", "n") -- expect: float:0x1p-1	rest=""
show("5.", "n") -- expect: float:0x1.4p+2	rest=""
show("1.2.3", "n") -- expect: float:0x1.3333333333333p+0	rest=".3"
show("1p5", "n") -- expect: integer:1	rest="p5"
show("007", "n") -- expect: integer:7	rest=""
show("9223372036854775807", "n") -- expect: integer:9223372036854775807	rest=""
show("9223372036854775808", "n") -- expect: float:0x1p+63	rest=""
show("-9223372036854775808", "n") -- expect: integer:0x8000000000000000	rest=""
-- what is not a numeral gives fail, having read only what could be one
show("", "n") -- expect: nil:nil	rest=""
show("   ", "n") -- expect: nil:nil	rest=""
show("abc", "n") -- expect: nil:nil	rest="abc"
show("1e", "n") -- expect: nil:nil	rest=""
show("1e+", "n") -- expect: nil:nil	rest=""
show("1e+x", "n") -- expect: nil:nil	rest="x"
show(".", "n") -- expect: nil:nil	rest=""
show(".e1", "n") -- expect: nil:nil	rest="e1"
show("- 1", "n") -- expect: nil:nil	rest=" 1"
show("--1", "n") -- expect: nil:nil	rest="-1"
show("0x", "n") -- expect: nil:nil	rest=""
show("0xg", "n") -- expect: nil:nil	rest="g"
show("0x.p1", "n") -- expect: nil:nil	rest="p1"
show("inf", "n") -- expect: nil:nil	rest="inf"
show("nan", "n") -- expect: nil:nil	rest="nan"
-- at most 200 characters of a numeral
show(string.rep("1", 200) .. " x", "n") -- expect: float:0x1.29487dc4dacc2p+661	rest=" x"
show(string.rep("1", 201), "n") -- expect: nil:nil	rest="1"
show("0x" .. string.rep("0", 197) .. "1", "n") -- expect: integer:1	rest=""
show("0x" .. string.rep("0", 198) .. "1", "n") -- expect: nil:nil	rest="1"
-- several numbers; reading stops at the first failure
show("12 34 abc 5", "n", "n", "n", "n") -- expect: integer:12 integer:34 nil:nil	rest="abc 5"
show("1\n2\n", "n", "l", "n") -- expect: integer:1 string:"" integer:2	rest="\n"

-- lines
show("a\nb\n", "l", "L", "l") -- expect: string:"a" string:"b\n" nil:nil	rest=""
show("no newline", "L") -- expect: string:"no newline"	rest=""
show("\n", "l", "l") -- expect: string:"" nil:nil	rest=""
show("\n", "L", "L") -- expect: string:"\n" nil:nil	rest=""
show("a\0b\nc", "l", "l") -- expect: string:"a\0b" string:"c"	rest=""
show("x\r\ny", "l") -- expect: string:"x\13"	rest="y"
show("first\nsecond") -- expect: string:"first"	rest="second"
show("", "l") -- expect: nil:nil	rest=""
put(string.rep("long", 3000) .. "\nnext")
do
    local f = io.open(name, "rb")
    local first, second = f:read("L", "l")
    print(#first, first == string.rep("long", 3000) .. "\n", second) -- expect: 12001	true	next
    f:close()
end

-- all
show("", "a") -- expect: string:""	rest=""
show("abc", "a", "a") -- expect: string:"abc" string:""	rest=""
put(string.rep("x", 70000))
do
    local f = io.open(name, "rb")
    local empty, all, again, eof = f:read(0, "a", "a", 0)
    print(empty, #all, all == string.rep("x", 70000), again, eof) -- expect: 	70000	true		nil
    f:close()
end

-- counts
show("abc", 5) -- expect: string:"abc"	rest=""
show("abcdef", 2, 3) -- expect: string:"ab" string:"cde"	rest="f"
show("", 5) -- expect: nil:nil	rest=""
show("abc", 0, 1, 0, 2, 0) -- expect: string:"" string:"a" string:"" string:"bc" nil:nil	rest=""
show("x", 0) -- expect: string:""	rest="x"
show("", 0) -- expect: nil:nil	rest=""
show("abc", 1.0, 2.0) -- expect: string:"a" string:"bc"	rest=""

-- many formats at once
do
    local numbers, formats = {}, {}
    for i = 1, 300 do numbers[i] = i; formats[i] = "n" end
    put(table.concat(numbers, " "))
    local f = io.open(name)
    local got = table.pack(f:read(table.unpack(formats)))
    f:close()
    print(got.n, got[1], got[150], got[300]) -- expect: 300	1	150	300
    io.input(name)
    got = table.pack(io.read(table.unpack(formats, 1, 40)))
    io.input():close()
    io.input(io.stdin)
    print(got.n, got[40]) -- expect: 40	40
    local sum = 0
    for a, b, c, d, e, f6, g, h, i, j in io.lines(name, "n", "n", "n", "n", "n", "n", "n", "n", "n", "n") do
        sum = sum + a + j
    end
    print(sum) -- expect: 9030
end

-- Lua 5.3's spellings
show("line1\nline2\n3", "*l", "*L", "*n") -- expect: string:"line1" string:"line2\n" integer:3	rest=""
show("rest of it", "*a") -- expect: string:"rest of it"	rest=""

-- only the first letter of a format counts
show("a\nb", "line", "all") -- expect: string:"a" string:"b"	rest=""

-- errors
put("data")
local f = io.open(name, "rb")
print(pcall(f.read, f, "x")) -- expect: false	bad argument #2 to '?' (invalid format)
print(pcall(f.read, f, "*x")) -- expect: false	bad argument #2 to '?' (invalid format)
print(pcall(f.read, f, "")) -- expect: false	bad argument #2 to '?' (invalid format)
print(f:read(0), pcall(f.read, f, "l", {})) -- expect: 	false	bad argument #3 to '?' (string expected, got table)
print(pcall(f.read, f, 1.5)) -- expect: false	bad argument #2 to '?' (number has no integer representation)
print(pcall(f.read, f, "2")) -- expect: false	bad argument #2 to '?' (invalid format)
print(f:read("a"), f:read(0)) -- expect: 	nil
f:seek("set")
print(f:read("a")) -- expect: data
f:close()

-- reading a file opened for writing fails with the system's message
f = io.open(name, "w")
print(f:read("l")) -- expect: nil	Bad file descriptor	9
print(f:read("a")) -- expect: nil	Bad file descriptor	9
print(f:read("n")) -- expect: nil	Bad file descriptor	9
print(f:read(0)) -- expect: nil	Bad file descriptor	9
print(f:read(3)) -- expect: nil	Bad file descriptor	9
f:close()

-- io.read reads the default input
put("10 20\nthird line\nlast")
io.input(name)
print(io.read("n", "n")) -- expect: 10	20
print(quote(io.read())) -- expect: ""
print(quote(io.read("L"))) -- expect: "third line\n"
print(io.read(2), io.read("a")) -- expect: la	st
print(io.read("l"), io.read(0), #io.read("a")) -- expect: nil	nil	0
print(pcall(io.read, "q")) -- expect: false	bad argument #1 to 'io.read' (invalid format)
print(pcall(io.read, false)) -- expect: false	bad argument #1 to 'io.read' (string expected, got boolean)
print(io.read("l", false)) -- expect: nil
io.input():close()
print(pcall(io.read)) -- expect: false	default input file is closed
io.input(io.stdin)

-- reading numbers follows the decimal point of the C locale
put("3.25")
f = io.open(name)
print(f:read("n")) -- expect: 3.25
f:close()

print(os.remove(name)) -- expect: true
