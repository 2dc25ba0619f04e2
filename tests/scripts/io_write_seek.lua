-- lua: 5.4
-- file:write and io.write (numbers as LUA_INTEGER_FMT and "%.14g"),
-- seek, setvbuf, flush, io.input/io.output, io.popen and write errors.

local name = os.tmpname()
local function contents()
    local f = assert(io.open(name, "rb"))
    local s = f:read("a")
    f:close()
    return s
end

-- write returns the file, so calls chain; numbers are formatted
local f = assert(io.open(name, "w"))
print(f:write("a", 1, " ", -2, " ", 1.0, " ", 0.1, " ", -0.0, " ") == f) -- expect: true
f:write(2^53, " ", 2^63, " ", math.maxinteger, " ", math.mininteger, " ", 1e100, " ", 1/3, " ")
f:write(1e15, " ", 1e14, " ", 123456789012345678, " ", 3.14159265358979, " ", 1/0, " ", -1/0):write("|", "end")
print(f:write() == f) -- expect: true
f:close()
print(contents())
-- expect: a1 -2 1 0.1 -0 9.007199254741e+15 9.2233720368548e+18 9223372036854775807 -9223372036854775808 1e+100 0.33333333333333 1e+15 1e+14 123456789012345678 3.1415926535898 inf -inf|end

-- strings with zeros, and the empty string
f = io.open(name, "wb")
f:write("a\0b", "", "c")
f:close()
print(#contents(), contents() == "a\0bc") -- expect: 4	true

-- errors in arguments: what came before is written
f = io.open(name, "w")
print(pcall(f.write, f, "ok", {})) -- expect: false	bad argument #3 to '?' (string expected, got table)
print(pcall(f.write, f, nil)) -- expect: false	bad argument #2 to '?' (string expected, got nil)
f:close()
print(contents()) -- expect: ok

-- writing to a file opened for reading fails with the system's message
f = io.open(name, "r")
print(f:write("x")) -- expect: nil	Bad file descriptor	9
print(f:write(12)) -- expect: nil	Bad file descriptor	9
print(f:write(1.5)) -- expect: nil	Bad file descriptor	9
f:close()

-- seek
f = io.open(name, "w+")
f:write("0123456789")
print(f:seek()) -- expect: 10
print(f:seek("set")) -- expect: 0
print(f:seek("set", 3), f:read(2)) -- expect: 3	34
print(f:seek("cur"), f:seek("cur", 2), f:read(1)) -- expect: 5	7	7
print(f:seek("cur", -3), f:read("a")) -- expect: 5	56789
print(f:seek("end"), f:seek("end", -4), f:read(1)) -- expect: 10	6	6
print(f:seek("set", 2.0)) -- expect: 2
print(f:seek("set", -1)) -- expect: nil	Invalid argument	22
print(f:seek("end", 5), f:write("X") == f, f:seek("end")) -- expect: 15	true	16
print(pcall(f.seek, f, "middle")) -- expect: false	bad argument #2 to '?' (invalid option 'middle')
print(pcall(f.seek, f, "set", 1.5)) -- expect: false	bad argument #3 to '?' (number has no integer representation)
print(pcall(f.seek, f, "set", "x")) -- expect: false	bad argument #3 to '?' (number expected, got string)
print(pcall(f.seek, f, {})) -- expect: false	bad argument #2 to '?' (string expected, got table)
f:close()
print(#contents(), contents():sub(11, 15) == "\0\0\0\0\0") -- expect: 16	true

-- setvbuf: every mode, with and without a size
f = io.open(name, "w")
print(f:setvbuf("no")) -- expect: true
print(f:setvbuf("full", 1024)) -- expect: true
print(f:setvbuf("line")) -- expect: true
print(f:setvbuf("full")) -- expect: true
print(pcall(f.setvbuf, f, "some")) -- expect: false	bad argument #2 to '?' (invalid option 'some')
print(pcall(f.setvbuf, f)) -- expect: false	bad argument #2 to '?' (string expected, got no value)
print(pcall(f.setvbuf, f, "full", "big")) -- expect: false	bad argument #3 to '?' (number expected, got string)
f:close()
-- unbuffered writes reach the file at once; fully buffered ones at flush
-- (setvbuf goes before any other operation on the file, as C requires)
f = io.open(name, "w")
f:setvbuf("no")
f:write("now")
print(contents()) -- expect: now
f:close()
f = io.open(name, "a")
f:setvbuf("full", 4096)
f:write(" later")
print(contents()) -- expect: now
print(f:flush()) -- expect: true
print(contents()) -- expect: now later
f:close()

-- io.output and io.input: by name, by handle, and what they return
local old_out = io.output()
print(io.output(name) ~= old_out, io.type(io.output())) -- expect: true	file
print(io.write("via ", "io.write ", 42) == io.output()) -- expect: true
print(io.flush()) -- expect: true
local mine = io.output()
io.output(old_out)
print(io.type(mine)) -- expect: file
mine:close()
print(contents()) -- expect: via io.write 42
print(io.output() == io.stdout, io.output(io.stdout) == io.stdout) -- expect: true	true

print(io.input(name) ~= io.stdin, io.read("a")) -- expect: true	via io.write 42
local handle = assert(io.open(name))
print(io.input(handle) == handle, io.input() == handle, io.read(3)) -- expect: true	true	via
handle:close()
print(pcall(io.read)) -- expect: false	default input file is closed
print(pcall(io.input, handle)) -- expect: false	attempt to use a closed file
io.input(io.stdin)

-- a closed default output
io.output(name)
io.output():close()
print(pcall(io.write, "x")) -- expect: false	default output file is closed
print(pcall(io.flush)) -- expect: false	default output file is closed
print(pcall(io.close)) -- expect: false	attempt to use a closed file
io.output(io.stdout)

-- errors
print(pcall(io.output, {})) -- expect: false	bad argument #1 to 'io.output' (FILE* expected, got table)
print(pcall(io.input, true)) -- expect: false	bad argument #1 to 'io.input' (FILE* expected, got boolean)
local ok, err = pcall(io.input, name .. ".missing/x")
print(ok, (err:gsub(name, "NAME", 1))) -- expect: false	cannot open file 'NAME.missing/x' (No such file or directory)
print(pcall(io.output, "/")) -- expect: false	cannot open file '/' (Is a directory)
print(pcall(io.write, {})) -- expect: false	bad argument #1 to 'io.write' (string expected, got table)

-- io.popen: reading a command's output, writing to its input, and the
-- status its close returns
local p = io.popen("echo out; echo more")
print(io.type(p), p:read("l"), (p:read("a"):gsub("\n", "\\n"))) -- expect: file	out	more\n
print(p:close()) -- expect: true	exit	0
p = io.popen("exit 3")
print(p:close()) -- expect: nil	exit	3
p = io.popen("kill -9 $$")
print(p:close()) -- expect: nil	signal	9
p = io.popen("cat > " .. name, "w")
print(p:write("piped ", 1, " ", 2.5) == p) -- expect: true
print(p:close()) -- expect: true	exit	0
print(contents()) -- expect: piped 1 2.5
for line in io.popen("printf 'a\\nb\\n'"):lines() do io.write("<", line, ">") end
print() -- expect: <a><b>
print(pcall(io.popen, "true", "rw")) -- expect: false	bad argument #2 to 'io.popen' (invalid mode)
print(pcall(io.popen, "true", "rb")) -- expect: false	bad argument #2 to 'io.popen' (invalid mode)
print(pcall(io.popen, "true", "")) -- expect: false	bad argument #2 to 'io.popen' (invalid mode)
print(pcall(io.popen)) -- expect: false	bad argument #1 to 'io.popen' (string expected, got no value)
-- what was buffered before popen comes out before the command's output
io.write("before the command\n")
p = io.popen("cat", "w")
p:write("from the command\n")
p:close()
-- expect: before the command
-- expect: from the command

print(os.remove(name)) -- expect: true
