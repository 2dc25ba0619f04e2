-- lua: 5.4
-- The debug library on things only C code makes: user values of full
-- userdata (debug.getuservalue/setuservalue with every index) and a hook
-- set from C (debug.gethook's "external hook"). Uses tide_testmod.so, found
-- by cmodules/find_testmod.lua.

local moddir = dofile((arg[0]:match("^(.*)/[^/]*$") or ".") .. "/cmodules/find_testmod.lua")
package.cpath = moddir .. "/?.so"
local mod = require("tide_testmod")

-- user values: numbered from 1, nil until set
local u = mod.new_userdata(3)
print(type(u), debug.getuservalue(u)) -- expect: userdata	nil	true
print(debug.getuservalue(u, 3)) -- expect: nil	true
print(debug.setuservalue(u, "first") == u, debug.setuservalue(u, { 2 }, 2) == u, debug.setuservalue(u, 3.5, 3) == u) -- expect: true	true	true
print(debug.getuservalue(u), debug.getuservalue(u, 2)[1], debug.getuservalue(u, 3)) -- expect: first	2	3.5	true
-- indices past the last (or below 1) have no value: fail, and nothing set
print(debug.getuservalue(u, 4)) -- expect: nil
print(select("#", debug.getuservalue(u, 4)), select("#", debug.getuservalue(u, 0))) -- expect: 1	1
print(debug.setuservalue(u, "x", 4), debug.setuservalue(u, "x", 0), debug.setuservalue(u, "x", -1)) -- expect: nil	nil	nil
print(debug.setuservalue(u, nil, 1) == u, debug.getuservalue(u, 1)) -- expect: true	nil	true
local none = mod.new_userdata(0)
print(debug.getuservalue(none), debug.setuservalue(none, 1)) -- expect: nil	nil
print(pcall(debug.setuservalue, u, 1, "x")) -- expect: false	bad argument #3 to 'debug.setuservalue' (number expected, got string)

-- a hook set from C is reported but not returned
mod.set_external_hook(1000)
local hook, mask, count = debug.gethook()
debug.sethook()
print(hook, mask, count) -- expect: external hook	c	1000
print(debug.gethook()) -- expect: nil
local co = coroutine.create(function()
    mod.set_external_hook(5)
    coroutine.yield(debug.gethook())
end)
print(select(2, coroutine.resume(co))) -- expect: external hook	c	5
print(debug.gethook(co)) -- expect: external hook	c	5
debug.sethook(co)
print(debug.gethook(co)) -- expect: nil
