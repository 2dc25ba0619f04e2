-- lua: 5.4
-- io.lines and file:lines: formats, the four values io.lines returns for
-- the generic for (its file closed when the loop ends, however it ends),
-- the default input, errors while iterating and the limit on formats.

local name = os.tmpname()
local function put(text)
    local f = assert(io.open(name, "wb"))
    f:write(text)
    f:close()
end

put("alpha\nbeta\n\ngamma")

-- plain lines
local seen = {}
for line in io.lines(name) do seen[#seen + 1] = "[" .. line .. "]" end
print(table.concat(seen, " ")) -- expect: [alpha] [beta] [] [gamma]

-- "L" keeps the newlines
seen = {}
for line in io.lines(name, "L") do seen[#seen + 1] = string.format("%q", line):gsub("\\\n", "\\n") end
print(table.concat(seen, " ")) -- expect: "alpha\n" "beta\n" "\n" "gamma"

-- several formats a step
seen = {}
for a, b in io.lines(name, 3, "l") do seen[#seen + 1] = (a .. "|" .. tostring(b)):gsub("\n", "\\n") end
print(table.concat(seen, " ")) -- expect: alp|ha bet|a \nga|mma

-- numbers; the loop ends at the first value that is not one
put("1 2 3\n4.5 0x10 oops 7")
seen = {}
for n in io.lines(name, "n") do seen[#seen + 1] = math.type(n) .. ":" .. n end
print(table.concat(seen, " ")) -- expect: integer:1 integer:2 integer:3 float:4.5 integer:16

-- what io.lines returns: the iterator, two nils and the file to close
local results = table.pack(io.lines(name))
print(results.n, type(results[1]), results[2], results[3], io.type(results[4])) -- expect: 4	function	nil	nil	file
results[4]:close()

-- the iterator closes the file when it reaches the end
local it, _, _, file = io.lines(name, "l")
print(it()) -- expect: 1 2 3
print(it()) -- expect: 4.5 0x10 oops 7
print(io.type(file)) -- expect: file
print(select("#", it())) -- expect: 0
print(io.type(file)) -- expect: closed file
print(pcall(it)) -- expect: false	file is already closed

-- a failing format ends the iteration too, and closes the file
it, _, _, file = io.lines(name, "n", "n")
print(it()) -- expect: 1	2
print(it()) -- expect: 3	4.5
print(it()) -- expect: 16	nil
print(select("#", it()), io.type(file)) -- expect: 0	closed file

-- breaking out of a generic for closes the file through its fourth value
do
    local kept
    for line, _ in io.lines(name) do
        kept = select(4, io.lines(name)) -- another, closed below by hand
        break
    end
    print(io.type(kept)) -- expect: file
    kept:close()
end
local escaped
do
    local gen, state, control, closing = io.lines(name)
    escaped = closing
    for line in gen, state, control, closing do break end
end
print(io.type(escaped)) -- expect: closed file

-- an error inside the loop closes it as well
local ok, err = pcall(function()
    local gen, state, control, closing = io.lines(name)
    escaped = closing
    for line in gen, state, control, closing do error("inside", 0) end
end)
print(ok, err, io.type(escaped)) -- expect: false	inside	closed file

-- file:lines leaves the file open at the end
put("one\ntwo")
local f = assert(io.open(name))
seen = {}
for line in f:lines() do seen[#seen + 1] = line end
print(table.concat(seen, ","), io.type(f), f:read("a"), select("#", f:lines())) -- expect: one,two	file		1
f:seek("set")
for word in f:lines(2) do seen[#seen + 1] = word end
print((table.concat(seen, ","):gsub("\n", "\\n"))) -- expect: one,two,on,e\n,tw,o
local iter = f:lines()
f:close()
print(pcall(iter)) -- expect: false	file is already closed

-- io.lines() reads the default input and does not close it
io.input(name)
seen = {}
for line in io.lines() do seen[#seen + 1] = line end
print(table.concat(seen, ","), select("#", io.lines()), io.type(io.input())) -- expect: one,two	1	file
io.input():seek("set")
for c in io.lines(nil, 1) do seen[#seen + 1] = c end
print((table.concat(seen, ""):gsub("\n", "\\n"))) -- expect: onetwoone\ntwo
io.input():close()
print(pcall(io.lines)) -- expect: false	attempt to use a closed file
io.input(io.stdin)

-- errors
ok, err = pcall(io.lines, name .. ".missing")
print(ok, (err:gsub(name, "NAME", 1))) -- expect: false	cannot open file 'NAME.missing' (No such file or directory)
print(pcall(io.lines, {})) -- expect: false	bad argument #1 to 'io.lines' (string expected, got table)
-- formats are checked when read, not when the iterator is made
it, _, _, file = io.lines(name, "x")
print(pcall(it)) -- expect: false	bad argument #2 to '?' (invalid format)
file:close()
ok, err = pcall(function() for l in io.lines(name, "l", {}) do end end)
print(ok, (err:gsub("^.-:%d+: ", ""))) -- expect: false	bad argument #3 to 'for iterator' (string expected, got table)
ok, err = pcall(function() for l in io.lines(name, "x") do end end)
print(ok, (err:gsub("^.-:%d+: ", ""))) -- expect: false	bad argument #2 to 'for iterator' (invalid format)

-- at most 250 formats
local formats = {}
for i = 1, 250 do formats[i] = 0 end
it, _, _, file = io.lines(name, table.unpack(formats))
print(select("#", it())) -- expect: 250
file:close()
formats[251] = 0
print(pcall(io.lines, name, table.unpack(formats))) -- expect: false	bad argument #252 to 'io.lines' (too many arguments)
f = io.open(name)
print(pcall(f.lines, f, table.unpack(formats))) -- expect: false	bad argument #252 to '?' (too many arguments)
f:close()

-- the iterator's arguments are ignored
put("x\ny")
it, _, _, file = io.lines(name)
print(it(1, 2, 3), it("a")) -- expect: x	y
file:close()

print(os.remove(name)) -- expect: true
