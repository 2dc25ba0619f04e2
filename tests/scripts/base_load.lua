-- lua: 5.4
-- load (strings and reader functions, chunk names, modes, environments),
-- loadfile and dofile.

print(load("return 1 + 1")())              -- expect: 2
print(load("return ...")(1, 2, 3))         -- expect: 1	2	3
local f, msg = load("return +")
print(f, msg)                              -- expect: nil	[string "return +"]:1: unexpected symbol near '+'
print(load("x = ", "=mychunk"))            -- expect: nil	mychunk:1: unexpected symbol near <eof>
print(load("x = ", "@file.lua"))           -- expect: nil	file.lua:1: unexpected symbol near <eof>
print(load("x = ", "plain name"))          -- expect: nil	[string "plain name"]:1: unexpected symbol near <eof>
print(type(load("error('boom')", "=named"))) -- expect: function
print(pcall(load("error('boom')", "=named"))) -- expect: false	named:1: boom
print(pcall(load("error('boom')")))        -- expect: false	[string "error('boom')"]:1: boom
print(pcall(load("local a = 1\nerror('line two')"))) -- expect: false	[string "local a = 1..."]:2: line two
print(load("return 1", nil)())             -- expect: 1
-- the default chunk name of a string is the string itself
print(pcall(load("\n\nerror('where')")))   -- expect: false	[string "..."]:3: where

-- reader functions: pieces are concatenated until nil or ""
local pieces = { "return ", "'con", "cat", "enated'" }
local i = 0
print(load(function() i = i + 1 return pieces[i] end)()) -- expect: concatenated
i = 0
local early = { "return 1", "", "+ 1" }
print(load(function() i = i + 1 return early[i] end)()) -- expect: 1
print(type(load(function() return nil end))) -- expect: function
print(pcall(load(function() return nil end))) -- expect: true
local once = true
print(load(function() if once then once = false return 42 end end)) -- expect: nil	(load):1: unexpected symbol near '42'
print((select(2, load(function() return {} end)):match("^[^\n]*"))) -- expect: tests/scripts/base_load.lua:31: reader function must return a string
print((select(2, load(function() error("reader failed") end)):match("^[^\n]*"))) -- expect: tests/scripts/base_load.lua:32: reader failed
print(select(2, load(function() error({}) end)) ~= nil) -- expect: true
print(type(load(function() return nil end, "=reader"))) -- expect: function
local bad = { "x = = 1" }
i = 0
print(load(function() i = i + 1 return bad[i] end)) -- expect: nil	(load):1: unexpected symbol near '='
i = 0
print(load(function() i = i + 1 return bad[i] end, "=given")) -- expect: nil	given:1: unexpected symbol near '='
print(pcall(load))                         -- expect: false	bad argument #1 to 'load' (function expected, got no value)
print(pcall(load, 42))                     -- expect: true	nil	[string "42"]:1: unexpected symbol near '42'
print(pcall(load, {}))                     -- expect: false	bad argument #1 to 'load' (function expected, got table)

-- modes
local dumped = string.dump(function(a) return "dumped " .. tostring(a) end)
print(load(dumped)(1))                     -- expect: dumped 1
print(load(dumped, "d", "b")(2))           -- expect: dumped 2
print(load(dumped, "d", "t"))              -- expect: nil	attempt to load a binary chunk (mode is 't')
print(load("return 1", "s", "b"))          -- expect: nil	attempt to load a text chunk (mode is 'b')
print(load("return 1", "s", "t")())        -- expect: 1
print(load("return 1", "s", "bt")())       -- expect: 1
print(load("return 1", "s", "x"))          -- expect: nil	attempt to load a text chunk (mode is 'x')
i = 0
print(load(function() i = i + 1 if i == 1 then return dumped end end, "=r", "t")) -- expect: nil	attempt to load a binary chunk (mode is 't')

-- environments: the fourth argument becomes the first upvalue (_ENV)
local env = { y = 5 }
local g = load("x = 1; return y", "=env", "t", env)
print(g(), env.x, x)                       -- expect: 5	1	nil
print(pcall(load("return y", "=nil env", "t", nil))) -- expect: false	nil env:1: attempt to index a nil value (upvalue '_ENV')
print(load("return print", "=default")() == print) -- expect: true
-- a chunk with no upvalues ignores env
print(load(string.dump(function() return 1 end), "u", "b", {})()) -- expect: 1

-- files: loadfile and dofile
local path = os.tmpname()
local function write(text)
    local fh = assert(io.open(path, "wb"))
    fh:write(text)
    fh:close()
end
local function clean(s) return (tostring(s):gsub(path:gsub("%p", "%%%0"), "TMP")) end

write("return 10, ...")
print(loadfile(path)(1, 2))                -- expect: 10	1	2
print(dofile(path))                        -- expect: 10
print(loadfile(path, "t")())               -- expect: 10
print(clean(select(2, loadfile(path, "b")))) -- expect: attempt to load a text chunk (mode is 'b')

write("#!/usr/bin/env lua\nreturn debug.getinfo(1, 'l').currentline")
print(dofile(path))                        -- expect: 2
write("# just a comment line")
print(dofile(path))                        -- expect: 
write("\xEF\xBB\xBFreturn 'after BOM'")
print(dofile(path))                        -- expect: after BOM
write("\xEF\xBB\xBF#!shebang after BOM\nreturn 'both'")
print(dofile(path))                        -- expect: both
write("")
print(select("#", dofile(path)))           -- expect: 0
write("x = = 1")
print(clean(select(2, loadfile(path))))    -- expect: TMP:1: unexpected symbol near '='
print(clean(select(2, pcall(dofile, path)))) -- expect: TMP:1: unexpected symbol near '='
write("error('raised in file')")
print(clean(select(2, pcall(dofile, path)))) -- expect: TMP:1: raised in file
write("local a = ...; return a")
print(loadfile(path)("passed"))            -- expect: passed

-- precompiled files, also after a '#' line
write(dumped)
print(loadfile(path)("bin"))               -- expect: dumped bin
print(clean(select(2, loadfile(path, "t")))) -- expect: attempt to load a binary chunk (mode is 't')
write("#!/usr/bin/lua\n" .. dumped)
print(dofile(path))                        -- expect: dumped nil

-- loadfile's environment
write("return who")
print(loadfile(path, "bt", { who = "env table" })()) -- expect: env table
print(loadfile(path, nil, { who = "nil mode" })()) -- expect: nil mode

os.remove(path)
print(loadfile(path) == nil)               -- expect: true
print(clean(select(2, loadfile(path))))    -- expect: cannot open TMP: No such file or directory
print(clean(select(2, pcall(dofile, path)))) -- expect: cannot open TMP: No such file or directory
print(loadfile("/") == nil, (select(2, loadfile("/"))))  -- expect: true	cannot read /: Is a directory
print(pcall(loadfile, {}))                 -- expect: false	bad argument #1 to 'loadfile' (string expected, got table)
print(pcall(dofile, {}))                   -- expect: false	bad argument #1 to 'dofile' (string expected, got table)

-- no file name: standard input (empty when the test runner runs this)
local from_stdin, stdin_err = loadfile()
print(type(from_stdin), stdin_err, select("#", from_stdin())) -- expect: function	nil	0
print(select("#", dofile()))               -- expect: 0
