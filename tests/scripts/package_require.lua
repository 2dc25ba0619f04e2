-- lua: 5.4
-- require and package: Lua modules found through package.path, the
-- preload table, package.loaded caching, the loader's second value, the
-- searchers (each alone, custom ones, the full "not found" message),
-- package.searchpath, package.config, and package.path/cpath built from
-- LUA_PATH(_5_4)/LUA_CPATH(_5_4) with ";;" standing for the defaults.

local base = os.tmpname()
local dir = base .. ".d"
assert(os.execute("mkdir -p " .. dir .. "/pkg/inner"))
local function write(path, text)
    local f = assert(io.open(dir .. "/" .. path, "w"))
    f:write(text)
    f:close()
end
-- messages name files under the temporary folder: show it as DIR
local function clean(s)
    return (tostring(s):gsub(dir:gsub("%p", "%%%0"), "DIR"))
end

write("plain.lua", "loads = (loads or 0) + 1\nreturn { name = ..., file = select(2, ...) }\n")
write("pkg/init.lua", "return 'package init of ' .. ...\n")
write("pkg/inner/deep.lua", "return 'deep: ' .. ...\n")
write("returns_nil.lua", "return nil\n")
write("returns_false.lua", "return false\n")
write("sets_loaded.lua", "package.loaded[...] = 'set by the module'\nreturn nil\n")
write("broken.lua", "x = = 1\n")
write("fails.lua", "error('module failed')\n")
write("two.lua", "return 1, 2\n")
write("fresh.lua", "return true\n")

package.path = dir .. "/?.lua;" .. dir .. "/?/init.lua"
package.cpath = dir .. "/?.so"

-- a Lua module: its loader gets the name and the file; require returns
-- the value and the file (the loader data), then only the value
local m, data = require("plain")
print(m.name, clean(m.file), clean(data), loads) -- expect: plain	DIR/plain.lua	DIR/plain.lua	1
local again = table.pack(require("plain"))
print(again.n, again[1] == m, loads, package.loaded.plain == m) -- expect: 1	true	1	true

-- dots become directory separators; ?/init.lua templates
print(clean(require("pkg"))) -- expect: package init of pkg
print((require("pkg.inner.deep"))) -- expect: deep: pkg.inner.deep
print(package.loaded["pkg.inner.deep"]) -- expect: deep: pkg.inner.deep

-- what gets stored in package.loaded
print(require("returns_nil"), package.loaded.returns_nil) -- expect: true	true
print(require("returns_false"), package.loaded.returns_false) -- expect: false	false
local set, where = require("sets_loaded")
print(set, clean(where)) -- expect: set by the module	DIR/sets_loaded.lua
print(select("#", require("two")), require("two")) -- expect: 2	1
-- a false value in package.loaded does not count as loaded
package.loaded.returns_false = false
print(select("#", require("returns_false"))) -- expect: 2
-- a value put in package.loaded by hand is returned as it is
package.loaded.virtual = { "virtual" }
print(require("virtual")[1]) -- expect: virtual

-- errors while loading and while running the module
local ok, err = pcall(require, "broken")
print(ok, clean(err))
-- expect: false	error loading module 'broken' from file 'DIR/broken.lua':
-- expect: 	DIR/broken.lua:1: unexpected symbol near '='
ok, err = pcall(require, "fails")
print(ok, clean(err)) -- expect: false	DIR/fails.lua:1: module failed
print(package.loaded.fails) -- expect: nil

-- preload: the loader gets the name and ":preload:"
package.preload.pre = function(...)
    print("preload loader", ...)
    return "from preload"
end
print(require("pre")) -- expect: preload loader	pre	:preload:
-- expect: from preload	:preload:
print(package.preload == debug.getregistry()._PRELOAD) -- expect: true
print(package.loaded == debug.getregistry()._LOADED) -- expect: true
print(package.loaded._G == _G, package.loaded.package == package, package.loaded.string == string) -- expect: true	true	true

-- the message when nothing is found lists every place tried, in order
ok, err = pcall(require, "nowhere.mod")
print(ok, clean(err))
-- expect: false	module 'nowhere.mod' not found:
-- expect: 	no field package.preload['nowhere.mod']
-- expect: 	no file 'DIR/nowhere/mod.lua'
-- expect: 	no file 'DIR/nowhere/mod/init.lua'
-- expect: 	no file 'DIR/nowhere/mod.so'
-- expect: 	no file 'DIR/nowhere.so'
ok, err = pcall(require, "flat")
print(ok, clean(err))
-- expect: false	module 'flat' not found:
-- expect: 	no field package.preload['flat']
-- expect: 	no file 'DIR/flat.lua'
-- expect: 	no file 'DIR/flat/init.lua'
-- expect: 	no file 'DIR/flat.so'

-- each searcher alone
local searchers = package.searchers
print(#searchers, type(searchers[1]), type(searchers[4])) -- expect: 4	function	function
print(searchers[1]("nope")) -- expect: no field package.preload['nope']
print(type(searchers[1]("pre")), select(2, searchers[1]("pre"))) -- expect: function	:preload:
local loader, file = searchers[2]("plain")
print(type(loader), clean(file)) -- expect: function	DIR/plain.lua
print(loader("called", "by hand").name) -- expect: called
print(clean(searchers[2]("nope")))
-- expect: no file 'DIR/nope.lua'
-- expect: 	no file 'DIR/nope/init.lua'
print(clean(searchers[3]("nope"))) -- expect: no file 'DIR/nope.so'
print(select("#", searchers[4]("nope"))) -- expect: 0
print(clean(searchers[4]("nope.sub"))) -- expect: no file 'DIR/nope.so'
print(pcall(searchers[1])) -- expect: false	bad argument #1 to '?' (string expected, got no value)

-- searchers made by hand: a non-function, non-string result is skipped,
-- a string (or number) result joins the message
table.insert(searchers, 1, function(name) return 42 end)
table.insert(searchers, 2, function(name) return nil end)
table.insert(searchers, 3, function(name) return "tried a custom place" end)
ok, err = pcall(require, "absent")
print(ok, clean(err))
-- expect: false	module 'absent' not found:
-- expect: 	42
-- expect: 	tried a custom place
-- expect: 	no field package.preload['absent']
-- expect: 	no file 'DIR/absent.lua'
-- expect: 	no file 'DIR/absent/init.lua'
-- expect: 	no file 'DIR/absent.so'
table.remove(searchers, 1)
table.remove(searchers, 1)
table.remove(searchers, 1)
-- a searcher's loader and data
table.insert(searchers, 1, function(name)
    if name:match("^custom") then
        return function(n, extra) return { n, extra } end, "custom data"
    end
end)
local value, extra = require("custom1")
print(value[1], value[2], extra) -- expect: custom1	custom data	custom data
table.insert(searchers, 1, function(name)
    if name == "no_data" then return function(n, extra) return nil end end
end)
print(require("no_data")) -- expect: true	nil
table.remove(searchers, 1)
table.remove(searchers, 1)

-- bad package fields
local saved_path = package.path
package.path = 3
ok, err = pcall(require, "numeric_path")
print(ok, clean(err))
-- expect: false	module 'numeric_path' not found:
-- expect: 	no field package.preload['numeric_path']
-- expect: 	no file '3'
-- expect: 	no file 'DIR/numeric_path.so'
package.path = {}
print(pcall(require, "table_path")) -- expect: false	'package.path' must be a string
package.path = saved_path
package.cpath = nil
print(pcall(require, "nil_cpath")) -- expect: false	'package.cpath' must be a string
package.cpath = dir .. "/?.so"
package.searchers = nil
print(pcall(require, "no_searchers")) -- expect: false	'package.searchers' must be a table
package.searchers = searchers
print(pcall(require)) -- expect: false	bad argument #1 to 'require' (string expected, got no value)
print(pcall(require, {})) -- expect: false	bad argument #1 to 'require' (string expected, got table)
-- require works from the package table it was made with
local package_table = package
package = nil
print(clean(select(2, require("fresh")))) -- expect: DIR/fresh.lua
package = package_table

-- package.searchpath
print(clean(package.searchpath("plain", package.path))) -- expect: DIR/plain.lua
print(clean(package.searchpath("pkg", package.path))) -- expect: DIR/pkg/init.lua
print(clean(package.searchpath("pkg.inner.deep", package.path))) -- expect: DIR/pkg/inner/deep.lua
print(clean(package.searchpath("pkg_inner_deep", dir .. "/?.lua", "_", "/"))) -- expect: DIR/pkg/inner/deep.lua
print(package.searchpath("a.b.c", "x/?.lua;;y/?"))
-- expect: nil	no file 'x/a/b/c.lua'
-- expect: 	no file ''
-- expect: 	no file 'y/a/b/c'
print(package.searchpath("a.b.c", "x/?.lua;y/?", "")) -- expect: nil	no file 'x/a.b.c.lua'
-- expect: 	no file 'y/a.b.c'
print(package.searchpath("a.b.c", "x/?.lua", ".", "_")) -- expect: nil	no file 'x/a_b_c.lua'
print(package.searchpath("a::b", "?-?.lua", "::", "%")) -- expect: nil	no file 'a%b-a%b.lua'
print(package.searchpath("a", "")) -- expect: nil	no file ''
print(package.searchpath("a", ";")) -- expect: nil	no file ''
-- expect: 	no file ''
print(package.searchpath("a", "?;?")) -- expect: nil	no file 'a'
-- expect: 	no file 'a'
print(package.searchpath("x", "plain")) -- expect: nil	no file 'plain'
print(pcall(package.searchpath, "a")) -- expect: false	bad argument #2 to 'package.searchpath' (string expected, got no value)
print(pcall(package.searchpath, "a", "?", {})) -- expect: false	bad argument #3 to 'package.searchpath' (string expected, got table)

-- package.config
print((package.config:gsub("\n", "|"))) -- expect: /|;|?|!|-|

-- the paths a fresh interpreter builds from the environment
local function interpreter()
    local first = 0
    while arg[first - 1] ~= nil do first = first - 1 end
    if first == 0 then return "lua5.4" end
    local words = {}
    for i = first, -1 do words[#words + 1] = "'" .. arg[i]:gsub("'", "'\\''") .. "'" end
    return table.concat(words, " ")
end
write("show_paths.lua", "print(package.path) print(package.cpath)\n")
local function paths_with(environment)
    local p = io.popen("env -u LUA_PATH -u LUA_PATH_5_4 -u LUA_CPATH -u LUA_CPATH_5_4 -u LUA_INIT -u LUA_INIT_5_4 "
        .. environment .. " " .. interpreter() .. " " .. dir .. "/show_paths.lua")
    local text = p:read("a")
    p:close()
    return text
end
io.write(paths_with(""))
-- expect: /usr/local/share/lua/5.4/?.lua;/usr/local/share/lua/5.4/?/init.lua;/usr/local/lib/lua/5.4/?.lua;/usr/local/lib/lua/5.4/?/init.lua;/usr/share/lua/5.4/?.lua;/usr/share/lua/5.4/?/init.lua;./?.lua;./?/init.lua
-- expect: /usr/local/lib/lua/5.4/?.so;/usr/lib/x86_64-linux-gnu/lua/5.4/?.so;/usr/lib/lua/5.4/?.so;/usr/local/lib/lua/5.4/loadall.so;./?.so
io.write(paths_with("LUA_PATH='a/?.lua' LUA_CPATH='b/?.so'"))
-- expect: a/?.lua
-- expect: b/?.so
-- the versioned names win
io.write(paths_with("LUA_PATH='a/?.lua' LUA_PATH_5_4='v/?.lua' LUA_CPATH='b/?.so' LUA_CPATH_5_4='w/?.so'"))
-- expect: v/?.lua
-- expect: w/?.so
-- ";;" is replaced by the default path: in the middle, at either end, alone
io.write(paths_with("LUA_PATH='a/?.lua;;b/?.lua' LUA_CPATH=';;c/?.so'"))
-- expect: a/?.lua;/usr/local/share/lua/5.4/?.lua;/usr/local/share/lua/5.4/?/init.lua;/usr/local/lib/lua/5.4/?.lua;/usr/local/lib/lua/5.4/?/init.lua;/usr/share/lua/5.4/?.lua;/usr/share/lua/5.4/?/init.lua;./?.lua;./?/init.lua;b/?.lua
-- expect: /usr/local/lib/lua/5.4/?.so;/usr/lib/x86_64-linux-gnu/lua/5.4/?.so;/usr/lib/lua/5.4/?.so;/usr/local/lib/lua/5.4/loadall.so;./?.so;c/?.so
io.write(paths_with("LUA_PATH='a/?.lua;;' LUA_CPATH=';;'"))
-- expect: a/?.lua;/usr/local/share/lua/5.4/?.lua;/usr/local/share/lua/5.4/?/init.lua;/usr/local/lib/lua/5.4/?.lua;/usr/local/lib/lua/5.4/?/init.lua;/usr/share/lua/5.4/?.lua;/usr/share/lua/5.4/?/init.lua;./?.lua;./?/init.lua
-- expect: /usr/local/lib/lua/5.4/?.so;/usr/lib/x86_64-linux-gnu/lua/5.4/?.so;/usr/lib/lua/5.4/?.so;/usr/local/lib/lua/5.4/loadall.so;./?.so
-- only the first ";;" is replaced
io.write(paths_with("LUA_PATH='x;;y;;z' LUA_CPATH=';;;'"))
-- expect: x;/usr/local/share/lua/5.4/?.lua;/usr/local/share/lua/5.4/?/init.lua;/usr/local/lib/lua/5.4/?.lua;/usr/local/lib/lua/5.4/?/init.lua;/usr/share/lua/5.4/?.lua;/usr/share/lua/5.4/?/init.lua;./?.lua;./?/init.lua;y;;z
-- expect: /usr/local/lib/lua/5.4/?.so;/usr/lib/x86_64-linux-gnu/lua/5.4/?.so;/usr/lib/lua/5.4/?.so;/usr/local/lib/lua/5.4/loadall.so;./?.so;;
print((paths_with("LUA_PATH='' LUA_CPATH=';'"):gsub("\n", "|"))) -- expect: |;|

assert(os.execute("rm -rf " .. dir))
print(os.remove(base)) -- expect: true
