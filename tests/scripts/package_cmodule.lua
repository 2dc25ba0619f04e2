-- lua: 5.4
-- C modules: require through package.cpath (the C searcher and the
-- all-in-one searcher), luaopen_ names from names with dots and hyphens,
-- package.loadlib (functions, "*", both kinds of error), the registry's
-- _CLIBS, and io handles shared with C code as luaL_Stream.
--
-- Needs tide_testmod.so (tests/scripts/cmodules/tide_testmod.c), found by
-- cmodules/find_testmod.lua.

local moddir = dofile((arg[0]:match("^(.*)/[^/]*$") or ".") .. "/cmodules/find_testmod.lua")
local library = moddir .. "/tide_testmod.so"
local work = os.tmpname()
local tmp = work .. ".d"
assert(os.execute("mkdir " .. tmp))

local function pattern(s) return (s:gsub("%p", "%%%0")) end
-- messages name files in the two folders: show them as MOD and TMP
local function clean(s)
    s = tostring(s):gsub(pattern(tmp), "TMP"):gsub(pattern(moddir), "MOD")
    return s
end

package.path = tmp .. "/?.lua"
package.cpath = moddir .. "/?.so;" .. tmp .. "/?.so"

-- the C searcher: luaopen_tide_testmod gets the name and the file
local mod, data = require("tide_testmod")
print(mod.name, mod.nargs, mod.arg1, clean(mod.arg2), clean(data)) -- expect: tide_testmod	2	tide_testmod	MOD/tide_testmod.so	MOD/tide_testmod.so
print(require("tide_testmod") == mod, package.loaded.tide_testmod == mod) -- expect: true	true

-- the all-in-one searcher: "tide_testmod.sub" from tide_testmod.so
local sub, subdata = require("tide_testmod.sub")
print(sub.name, sub.arg1, clean(sub.arg2), clean(subdata)) -- expect: tide_testmod.sub	tide_testmod.sub	MOD/tide_testmod.so	MOD/tide_testmod.so
local ok, err = pcall(require, "tide_testmod.missing")
print(ok, clean(err))
-- expect: false	module 'tide_testmod.missing' not found:
-- expect: 	no field package.preload['tide_testmod.missing']
-- expect: 	no file 'TMP/tide_testmod/missing.lua'
-- expect: 	no file 'MOD/tide_testmod/missing.so'
-- expect: 	no file 'TMP/tide_testmod/missing.so'
-- expect: 	no module 'tide_testmod.missing' in file 'MOD/tide_testmod.so'
print(clean(package.searchers[4]("tide_testmod.missing"))) -- expect: no module 'tide_testmod.missing' in file 'MOD/tide_testmod.so'
print(select("#", package.searchers[4]("tide_testmod"))) -- expect: 0

-- copies of the library under other names
local function copy_as(name)
    assert(os.execute("cp " .. library .. " " .. tmp .. "/" .. name))
end
-- a hyphen: the part before it names luaopen_ first...
copy_as("tide_testmod-v2.so")
local v2, v2data = require("tide_testmod-v2")
print(v2.name, v2.arg1, clean(v2data)) -- expect: tide_testmod	tide_testmod-v2	TMP/tide_testmod-v2.so
-- ...then the part after it
copy_as("old-tide_testmod.so")
local old = require("old-tide_testmod")
print(old.name, old.arg1) -- expect: tide_testmod	old-tide_testmod
-- a library without the open function is an error, not "not found"
copy_as("nofunc.so")
ok, err = pcall(require, "nofunc")
print(ok, clean(err))
-- expect: false	error loading module 'nofunc' from file 'TMP/nofunc.so':
-- expect: 	TMP/nofunc.so: undefined symbol: luaopen_nofunc
-- a file that is not a library at all
local f = io.open(tmp .. "/notlib.so", "w")
f:write("not a shared library\n")
f:close()
ok, err = pcall(require, "notlib")
print(ok, clean(err))
-- expect: false	error loading module 'notlib' from file 'TMP/notlib.so':
-- expect: 	TMP/notlib.so: file too short
ok, err = pcall(require, "notlib.inside")
print(ok, clean(err))
-- expect: false	error loading module 'notlib.inside' from file 'TMP/notlib.so':
-- expect: 	TMP/notlib.so: file too short

-- package.loadlib
local add = package.loadlib(library, "tide_testmod_add")
print(type(add), add(40, 2)) -- expect: function	42
print(package.loadlib(library, "*")) -- expect: true
local opener = package.loadlib(library, "luaopen_tide_testmod_sub")
print(opener("by", "hand").arg2) -- expect: hand
local r1, r2, r3 = package.loadlib(library, "no_such_function")
print(r1, clean(r2), r3) -- expect: nil	MOD/tide_testmod.so: undefined symbol: no_such_function	init
r1, r2, r3 = package.loadlib(tmp .. "/absent.so", "f")
print(r1, clean(r2), r3) -- expect: nil	TMP/absent.so: cannot open shared object file: No such file or directory	open
r1, r2, r3 = package.loadlib(tmp .. "/absent.so", "*")
print(r1, clean(r2), r3) -- expect: nil	TMP/absent.so: cannot open shared object file: No such file or directory	open
r1, r2, r3 = package.loadlib(tmp .. "/notlib.so", "f")
print(r1, clean(r2), r3) -- expect: nil	TMP/notlib.so: file too short	open
print(pcall(package.loadlib, library)) -- expect: false	bad argument #2 to 'package.loadlib' (string expected, got no value)

-- every library opened is kept once in the registry's _CLIBS, by path
-- and in order, and closed by its __gc when the state closes
local clibs = debug.getregistry()._CLIBS
print(type(clibs), type(getmetatable(clibs).__gc)) -- expect: table	function
print(#clibs, type(clibs[library]), clibs[1] == clibs[library]) -- expect: 4	userdata	true
print(clibs[tmp .. "/tide_testmod-v2.so"] == clibs[2], clibs[tmp .. "/notlib.so"]) -- expect: true	nil

-- io handles and C code share luaL_Stream
local path = tmp .. "/stream.txt"
local s = mod.open_stream(path, "w")
print(io.type(s), tostring(s):match("^file %(0x%x+%)$") ~= nil, getmetatable(s) == getmetatable(io.stdout)) -- expect: file	true	true
print(s:write("made in C, ", 42, "\n") == s, s:seek("cur")) -- expect: true	14
print(s:close(), mod.closes(), io.type(s), tostring(s)) -- expect: true	1	closed file	file (closed)
print(pcall(s.write, s, "x")) -- expect: false	attempt to use a closed file
s = mod.open_stream(path, "r")
for line in s:lines() do print(line) end -- expect: made in C, 42
print(io.close(s), mod.closes()) -- expect: true	2
do
    local scoped <close> = mod.open_stream(path)
    print(scoped:read("n")) -- expect: nil
end
print(mod.closes()) -- expect: 3
mod.open_stream(path)
collectgarbage()
collectgarbage()
print(mod.closes()) -- expect: 4
print(clean(select(2, mod.open_stream(tmp .. "/absent/x")))) -- expect: TMP/absent/x: No such file or directory
local mine = io.open(path, "w")
print(mod.write_through(mine, "written by C"), mod.is_closed(mine)) -- expect: true	false
mine:close()
print(mod.is_closed(mine), pcall(mod.write_through, mine, "x")) -- expect: true	false	handle is closed
print(mod.is_closed(io.stdout), pcall(mod.is_closed, {})) -- expect: false	false	bad argument #1 to 'tide_testmod.is_closed' (FILE* expected, got table)
for line in io.lines(path) do print(line) end -- expect: written by C

assert(os.execute("rm -rf " .. tmp))
print(os.remove(work)) -- expect: true
