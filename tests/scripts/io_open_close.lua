-- lua: 5.4
-- io.open (modes, errors), io.type, tostring of handles, closing (method,
-- io.close, __close, __gc), the standard files and the handle metatable.

local name = os.tmpname()

-- every valid mode opens; the file exists (tmpname made it)
local out = {}
for _, mode in ipairs{"r", "w", "a", "r+", "w+", "a+", "rb", "wb", "ab", "r+b", "w+b", "a+b", "rbb", "r+bb"} do
    local f, err = io.open(name, mode)
    out[#out + 1] = mode .. "=" .. (io.type(f) or tostring(err))
    f:close()
end
print(table.concat(out, " ")) -- expect: r=file w=file a=file r+=file w+=file a+=file rb=file wb=file ab=file r+b=file w+b=file a+b=file rbb=file r+bb=file

-- invalid modes
out = {}
for _, mode in ipairs{"", "x", "rw", "r+w", "+r", "br", "r+b+", "rb+", "ra", "r ", 3} do
    local ok, err = pcall(io.open, name, mode)
    out[#out + 1] = tostring(mode) .. ":" .. tostring(ok)
end
print(table.concat(out, " ")) -- expect: :false x:false rw:false r+w:false +r:false br:false r+b+:false rb+:false ra:false r :false 3:false
print(pcall(io.open, name, "rw")) -- expect: false	bad argument #2 to 'io.open' (invalid mode)
print(pcall(io.open)) -- expect: false	bad argument #1 to 'io.open' (string expected, got no value)
print(pcall(io.open, {})) -- expect: false	bad argument #1 to 'io.open' (string expected, got table)
print(pcall(io.open, name, {})) -- expect: false	bad argument #2 to 'io.open' (string expected, got table)

-- opening a missing file: fail, "name: message", errno
local missing = name .. ".missing/x.txt"
local f, msg, code = io.open(missing)
print(f, msg == missing .. ": No such file or directory", code) -- expect: nil	true	2
print(select("#", io.open(missing, "w"))) -- expect: 3
f, msg, code = io.open("/", "w")
print(f, msg, code) -- expect: nil	/: Is a directory	21

-- io.type
local h = assert(io.open(name, "w"))
print(io.type(h), io.type(io.stdout), io.type(42), io.type(nil), io.type({})) -- expect: file	file	nil	nil	nil
print(pcall(io.type)) -- expect: false	bad argument #1 to 'io.type' (value expected)
print(tostring(h):match("^file %(0x%x+%)$") ~= nil) -- expect: true
print(tostring(h) == tostring(h)) -- expect: true
print(h:close()) -- expect: true
print(io.type(h), tostring(h)) -- expect: closed file	file (closed)

-- a closed handle refuses everything but tostring, io.type and __gc
for _, method in ipairs{"close", "flush", "lines", "read", "seek", "setvbuf", "write"} do
    local ok, err = pcall(h[method], h, "no")
    print(method, ok, err)
end
-- expect: close	false	attempt to use a closed file
-- expect: flush	false	attempt to use a closed file
-- expect: lines	false	attempt to use a closed file
-- expect: read	false	attempt to use a closed file
-- expect: seek	false	attempt to use a closed file
-- expect: setvbuf	false	attempt to use a closed file
-- expect: write	false	attempt to use a closed file
print(pcall(io.close, h)) -- expect: false	attempt to use a closed file
print(pcall(h.close, 42)) -- expect: false	bad argument #1 to '?' (FILE* expected, got number)
print(pcall(h.read, {})) -- expect: false	bad argument #1 to '?' (FILE* expected, got table)

-- the metatable
local meta = getmetatable(h)
print(meta == getmetatable(io.stdin), meta.__name, meta == debug.getregistry()["FILE*"]) -- expect: true	FILE*	true
print(type(meta.__index), type(meta.__gc), type(meta.__close), type(meta.__tostring)) -- expect: table	function	function	function
local methods = {}
for k in pairs(meta.__index) do methods[#methods + 1] = k end
table.sort(methods)
print(table.concat(methods, " ")) -- expect: close flush lines read seek setvbuf write
print(meta.__gc(h), meta.__close(h)) -- expect: nil
print(pcall(meta.__tostring, 1)) -- expect: false	bad argument #1 to '?' (FILE* expected, got number)
print(pcall(meta.__gc, "x")) -- expect: false	bad argument #1 to '?' (FILE* expected, got string)

-- io.close with a handle, and with none (the default output)
h = io.open(name, "w")
print(io.close(h), io.type(h)) -- expect: true	closed file
print(io.close()) -- expect: nil	cannot close standard file
print(io.type(io.output())) -- expect: file

-- the standard files cannot be closed and stay usable
for _, std in ipairs{io.stdin, io.stdout, io.stderr} do
    local ok, err = std:close()
    print(ok, err, io.type(std))
end
-- expect: nil	cannot close standard file	file
-- expect: nil	cannot close standard file	file
-- expect: nil	cannot close standard file	file
print(io.stdout:write("still open\n") == io.stdout) -- expect: still open
-- expect: true
print(io.input() == io.stdin, io.output() == io.stdout) -- expect: true	true

-- to-be-closed handles close at the end of their block
local escaped
do
    local c <close> = assert(io.open(name, "w"))
    c:write("closed by its block")
    escaped = c
end
print(io.type(escaped)) -- expect: closed file
h = io.open(name)
print(h:read("a")) -- expect: closed by its block
h:close()

-- closing through an error unwinding the block
local ok, err = pcall(function()
    local c <close> = assert(io.open(name))
    escaped = c
    error("unwound", 0)
end)
print(ok, err, io.type(escaped)) -- expect: false	unwound	closed file

-- a handle left open is closed (and its buffer written) when collected
do
    local g = io.open(name, "w")
    g:write("written by __gc")
end
collectgarbage()
collectgarbage()
h = io.open(name)
print(h:read("a")) -- expect: written by __gc
h:close()

-- io.tmpfile: a readable, writable file removed when closed
local t = io.tmpfile()
print(io.type(t), t:write("tmp", 1, 2.5) == t, t:seek("set")) -- expect: file	true	0
print(t:read("a")) -- expect: tmp12.5
print(t:close()) -- expect: true

print(os.remove(name)) -- expect: true
