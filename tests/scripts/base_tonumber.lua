-- lua: 5.4
-- tonumber: numerals as the language reads them (no base), integers in
-- bases 2..36, whitespace rules, failures and argument errors.

local function show(...)
    local t = table.pack(...)
    for i = 1, t.n do
        local v = t[i]
        t[i] = math.type(v) and (math.type(v) .. ":" .. tostring(v)) or tostring(v)
    end
    return table.concat(t, " ")
end

-- numbers come back as they are
print(show(tonumber(10), tonumber(10.5), tonumber(-0.0))) -- expect: integer:10 float:10.5 float:-0.0

-- decimal and hexadecimal numerals, integers and floats
print(show(tonumber("10"), tonumber("10.0"), tonumber("1e2"), tonumber(".5"), tonumber("5."))) -- expect: integer:10 float:10.0 float:100.0 float:0.5 float:5.0
print(show(tonumber("0x10"), tonumber("0X1f"), tonumber("0x.8"), tonumber("0x1p4"), tonumber("-0x10"))) -- expect: integer:16 integer:31 float:0.5 float:16.0 integer:-16
print(show(tonumber("  12  "), tonumber("\t\n12\v\f\r"), tonumber("- 1"), tonumber("+5"))) -- expect: integer:12 integer:12 nil integer:5
print(show(tonumber("9223372036854775807"), tonumber("9223372036854775808"))) -- expect: integer:9223372036854775807 float:9.2233720368548e+18
print(show(tonumber("-9223372036854775808"), tonumber("0xffffffffffffffff"))) -- expect: integer:-9223372036854775808 integer:-1
print(show(tonumber("1e500"), tonumber("-1e500"), tonumber("inf"), tonumber("nan"))) -- expect: float:inf float:-inf nil nil

-- not numerals
print(show(tonumber(""), tonumber(" "), tonumber("abc"), tonumber("1a"), tonumber("1 2"))) -- expect: nil nil nil nil nil
print(show(tonumber("0x"), tonumber("1e"), tonumber("."), tonumber("1..2"), tonumber("12\0"))) -- expect: nil nil nil nil nil
print(show(tonumber(nil), tonumber(true), tonumber({}), tonumber(print))) -- expect: nil nil nil nil

-- with a base: integers only, letters for digits above 9, either case
print(show(tonumber("10", 2), tonumber("ff", 16), tonumber("FF", 16), tonumber("zz", 36))) -- expect: integer:2 integer:255 integer:255 integer:1295
print(show(tonumber("777", 8), tonumber("-101", 2), tonumber("  +11  ", 3), tonumber("7fffffffffffffff", 16))) -- expect: integer:511 integer:-5 integer:4 integer:9223372036854775807
print(show(tonumber("8", 8), tonumber("1.5", 10), tonumber("0x10", 16), tonumber("", 10))) -- expect: nil nil nil nil
print(show(tonumber("1 0", 10), tonumber("-", 10), tonumber("10\0", 10), tonumber("z", 35))) -- expect: nil nil nil nil
-- overflow wraps around, as in the language's integer arithmetic
print(show(tonumber("ffffffffffffffff", 16), tonumber("10000000000000000", 16))) -- expect: integer:-1 integer:0
print(show(tonumber("1e1", 16), tonumber("1E1", 15)))  -- expect: integer:481 integer:436

-- argument errors
print(pcall(tonumber))                     -- expect: false	bad argument #1 to 'tonumber' (value expected)
print(pcall(tonumber, "10", 1))            -- expect: false	bad argument #2 to 'tonumber' (base out of range)
print(pcall(tonumber, "10", 37))           -- expect: false	bad argument #2 to 'tonumber' (base out of range)
print(pcall(tonumber, 10, 16))             -- expect: false	bad argument #1 to 'tonumber' (string expected, got number)
print(pcall(tonumber, "10", "x"))          -- expect: false	bad argument #2 to 'tonumber' (number expected, got string)
print(pcall(tonumber, "10", 2.5))          -- expect: false	bad argument #2 to 'tonumber' (number has no integer representation)
print(show(tonumber("10", "16"), tonumber("10", 16.0), tonumber("10", nil))) -- expect: integer:16 integer:16 integer:10
print(select("#", tonumber("x")), select("#", tonumber("x", 16))) -- expect: 1	1
