-- API test: the auxiliary library's functions scripts cannot reach
-- directly (auxlib.c). Run by tide-api-tests (tests/api/main.c); every
-- "expect" line was proven on stock Lua 5.4.
local aux = require("auxlib")

-- luaL_ref / luaL_unref: distinct, stored, LUA_REFNIL, balanced stack,
-- freed references reused last-freed-first, the registry's own keys kept
print(aux.refs())  -- expect: true	true	true	true	true	true	true	true

-- luaL_checkversion_
print(aux.check_version())  -- expect: true
print(pcall(aux.wrong_version))  -- expect: false	version mismatch: app. needs 503.0, Lua core provides 504.0
print(pcall(aux.wrong_sizes))  -- expect: false	core and library have incompatible numeric types

-- luaL_requiref: opens once, stores in package.loaded, sets the global on request
local m1, extra1 = aux.requiref("auxmod", false)
print(m1.name, m1.opens, extra1, rawget(_G, "auxmod"), package.loaded.auxmod == m1)  -- expect: auxmod	1	0	nil	true
local m2 = aux.requiref("auxmod", true)
print(m2 == m1, m2.opens, auxmod == m1)  -- expect: true	1	true
package.loaded.auxmod = false  -- a false entry counts as not loaded
print(aux.requiref("auxmod", false).opens)  -- expect: 2

-- luaL_getsubtable
local holder = { existing = { 1 } }
local existed, sub = aux.subtable(holder, "existing")
print(existed, sub == holder.existing)  -- expect: true	true
existed, sub = aux.subtable(holder, "fresh")
print(existed, type(sub), holder.fresh == sub)  -- expect: false	table	true
holder.number = 5
existed, sub = aux.subtable(holder, "number")
print(existed, type(holder.number))  -- expect: false	table

-- luaL_newmetatable, luaL_setmetatable, luaL_testudata, luaL_checkudata
print(aux.metatable_once)  -- expect: true
local p = aux.new_point(3)
print(aux.point_x(p), aux.is_point(p), aux.is_point({}), aux.is_point(io.stdout), aux.is_point(1))  -- expect: 3.0	true	false	false	false
print(getmetatable(p).__name, tostring(p):match("^auxlib.Point: ") ~= nil)  -- expect: auxlib.Point	true
print(pcall(aux.point_x, io.stdout))  -- expect: false	bad argument #1 to 'auxlib.point_x' (auxlib.Point expected, got FILE*)
print(pcall(aux.point_x, {}))  -- expect: false	bad argument #1 to 'auxlib.point_x' (auxlib.Point expected, got table)
print(pcall(aux.point_x))  -- expect: false	bad argument #1 to 'auxlib.point_x' (auxlib.Point expected, got no value)

-- luaL_setfuncs with upvalues and a placeholder
local lib, top = aux.with_upvalues()
print(lib.ups())  -- expect: first	2
print(lib.placeholder, top)  -- expect: false	1

-- luaL_opt*
print(aux.opts())  -- expect: 42	0.5	default	7	NULL	0
print(aux.opts(nil, nil, nil, nil))  -- expect: 42	0.5	default	7	NULL	0
print(aux.opts(7, 2, "given", "x\0y"))  -- expect: 7	2.0	given	5	x	3
print(aux.opts("8", "2.5", 12))  -- expect: 8	2.5	12	2	NULL	0
print(pcall(aux.opts, 1.5))  -- expect: false	bad argument #1 to 'auxlib.opts' (number has no integer representation)
print(pcall(aux.opts, 1, {}))  -- expect: false	bad argument #2 to 'auxlib.opts' (number expected, got table)

-- luaL_checkoption
print(aux.option("read"), aux.option("append"), aux.option(nil, true))  -- expect: 0	2	1
print(pcall(aux.option, "READ"))  -- expect: false	bad argument #1 to 'auxlib.option' (invalid option 'READ')
print(pcall(aux.option))  -- expect: false	bad argument #1 to 'auxlib.option' (string expected, got no value)
print(pcall(aux.option, nil, false))  -- expect: false	bad argument #1 to 'auxlib.option' (string expected, got nil)

-- luaL_checkstack
print(aux.checkstack(100))  -- expect: true
print(pcall(aux.checkstack, 10000000, "too much"))  -- expect: false	stack overflow (too much)
print(pcall(aux.checkstack, 10000000))  -- expect: false	stack overflow

-- argument errors
print(aux.argexpected(3))  -- expect: true
print(pcall(aux.argexpected, 3.5))  -- expect: false	bad argument #1 to 'auxlib.argexpected' (integer expected, got number)
print(pcall(aux.argerror, 2))  -- expect: false	bad argument #2 to 'auxlib.argerror' (custom message)
print(pcall(aux.typeerror, setmetatable({}, { __name = "Gadget" })))  -- expect: false	bad argument #1 to 'auxlib.typeerror' (widget expected, got Gadget)
print(pcall(aux.typeerror))  -- expect: false	bad argument #1 to 'auxlib.typeerror' (widget expected, got no value)
print(pcall(aux.checks, {}, nil))  -- expect: true	true
print(pcall(aux.checks, {}))  -- expect: false	bad argument #2 to 'auxlib.checks' (value expected)
print(pcall(aux.checks, "t", 1))  -- expect: false	bad argument #1 to 'auxlib.checks' (table expected, got string)
-- the caller's name when called from Lua, and method calls
print(pcall(function() return aux.argerror(3) end))  -- expect: false	tests/api/auxlib.lua:76: bad argument #3 to 'argerror' (custom message)
print(pcall(function() local t = { m = aux.argerror } return t:m(1) end))  -- expect: false	tests/api/auxlib.lua:77: calling 'm' on bad self (custom message)
print(pcall(function() local t = { m = aux.argerror } return t:m(2) end))  -- expect: false	tests/api/auxlib.lua:78: bad argument #1 to 'm' (custom message)

-- luaL_execresult and luaL_fileresult
print(aux.execresult(0))  -- expect: true	exit	0
print(aux.execresult(3 << 8))  -- expect: nil	exit	3
print(aux.execresult(9))  -- expect: nil	signal	9
print(aux.execresult(-1, 2))  -- expect: nil	No such file or directory	2
print(aux.fileresult(true))  -- expect: true
print(aux.fileresult(false, "some/file", 2))  -- expect: nil	some/file: No such file or directory	2
print(aux.fileresult(false, nil, 13))  -- expect: nil	Permission denied	13

-- luaL_len, luaL_getmetafield, luaL_callmeta
print(aux.len({ 1, 2, 3 }), aux.len("four"), aux.len(setmetatable({}, { __len = function() return 9 end })))  -- expect: 3	4	9
print(pcall(aux.len, setmetatable({}, { __len = function() return 1.5 end })))  -- expect: false	object length is not an integer
print(pcall(aux.len, 5))  -- expect: false	attempt to get length of a number value
local with_mt = setmetatable({}, { __index = "idx", __call = function(self, ...) return "called" end, __name = "Named" })
print(aux.getmetafield(with_mt, "__index"))  -- expect: string	idx	1
print(aux.getmetafield(with_mt, "__missing"))  -- expect: nil	nil	0
print(aux.getmetafield({}, "__index"))  -- expect: nil	nil	0
print(aux.getmetafield(with_mt, "__name"))  -- expect: string	Named	1
local callee = setmetatable({}, { __tostring = function(self) return "via meta" end })
print(aux.callmeta(callee, "__tostring"))  -- expect: true	via meta	1
print(aux.callmeta(callee, "__missing"))  -- expect: false	nil	0
print(aux.callmeta(1, "__tostring"))  -- expect: false	nil	0
print(pcall(aux.callmeta, setmetatable({}, { __tostring = 1 }), "__tostring"))  -- expect: false	attempt to call a number value

-- luaL_where and luaL_error
print(aux.where(0) == "", aux.where(1))  -- expect: true	tests/api/auxlib.lua:105: 
print(pcall(aux.where, 1))  -- expect: true	
print(aux.where(100) == "")  -- expect: true
print(pcall(aux.error))  -- expect: false	x=7 1.5 z -12 %
print(pcall(function() aux.error() end))  -- expect: false	tests/api/auxlib.lua:109: x=7 1.5 z -12 %

-- luaL_gsub
print(aux.gsub("a.b.c", ".", "/"), aux.gsub("hello", "l", "LL"), aux.gsub("abc", "x", "y"))  -- expect: a/b/c	heLLLLo	abc
print(aux.gsub("aaaa", "aa", "b"), aux.gsub("", "a", "b") == "", aux.gsub("path?", "?", "mod"))  -- expect: bb	true	pathmod

-- a buffer abandoned by an error leaves nothing behind
print(pcall(aux.abandon, 100000))  -- expect: false	abandoned after 100000 bytes
collectgarbage()
print(pcall(aux.abandon, 10))  -- expect: false	abandoned after 10 bytes

-- luaL_loadbufferx, luaL_loadstring, luaL_dostring, luaL_loadfilex
local status, f = aux.loadbuffer("return 1 + 1", "=buf")
print(status, f())  -- expect: ok	2
print(aux.loadbuffer("return +", "=buf"))  -- expect: syntax	buf:1: unexpected symbol near '+'
print(aux.loadbuffer("return 1", "=buf", "b"))  -- expect: syntax	attempt to load a text chunk (mode is 'b')
print(aux.loadbuffer(string.dump(function() return "bin" end), "=bin", "t"))  -- expect: syntax	attempt to load a binary chunk (mode is 't')
status, f = aux.loadbuffer("return 'a\0b'")
print(status, #f())  -- expect: ok	3
status, f = aux.loadstring("return ...")
print(status, f(4, 5))  -- expect: ok	4	5
print(aux.loadstring("x ="))  -- expect: syntax	[string "x ="]:1: unexpected symbol near <eof>
print(aux.dostring("return 1, 2, 3"))  -- expect: true	1	2	3
print(aux.dostring("error('in dostring', 0)"))  -- expect: false	in dostring
print(aux.dostring("syntax error here"))  -- expect: false	[string "syntax error here"]:1: syntax error near 'error'
print(aux.loadfile("/nonexistent/file.lua"))  -- expect: file	cannot open /nonexistent/file.lua: No such file or directory
print(aux.loadfile("tests/api/auxlib.lua", "b"))  -- expect: syntax	attempt to load a text chunk (mode is 'b')
status, f = aux.loadfile("tests/api/auxlib.lua")
print(status, type(f))  -- expect: ok	function

-- luaL_newstate: a working state with a panic function and an allocator
print(aux.newstate("return tostring(1 + 1) .. _VERSION"))  -- expect: 2Lua 5.4	true	true	true
print(aux.newstate("error('fails inside', 0)"))  -- expect: fails inside	false	true	true
print(aux.newstate("return table.concat({ string.rep('x', 3), math.type(1) }, ',')"))  -- expect: xxx,integer	true	true	true
