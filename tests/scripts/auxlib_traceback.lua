-- lua: 5.4
-- luaL_traceback as debug.traceback and message handlers show it: how each
-- level's function is named, C levels, tail calls, main chunks, the cut in
-- long tracebacks, other coroutines. Every traceback is taken inside a
-- coroutine, so its last level is the coroutine's body and nothing of the
-- interpreter that runs this script shows.

local function in_coroutine(f, ...)
    local co = coroutine.create(f)
    local ok, result = coroutine.resume(co, ...)
    assert(ok, result)
    return result
end

local function show(tb) print((tb:gsub("tests/scripts/auxlib_traceback.lua", "T"))) end

-- a global function is named by its global name
function global_fn() local tb = debug.traceback("msg") return tb end
show(in_coroutine(function() local r = global_fn() return r end))
-- expect: msg
-- expect: stack traceback:
-- expect: 	T:18: in function 'global_fn'
-- expect: 	T:19: in function <T:19>

-- ... even when called through another name
show(in_coroutine(function() local alias = global_fn local r = alias() return r end))
-- expect: msg
-- expect: stack traceback:
-- expect: 	T:18: in function 'global_fn'
-- expect: 	T:26: in function <T:26>

-- locals, upvalues, methods, fields
local function local_fn() local tb = debug.traceback() return tb end
local obj = {}
function obj:method() local r = local_fn() return r end
obj.field = function() local r = obj:method() return r end
local function via_upvalue() local r = obj.field() return r end
show(in_coroutine(function() local r = via_upvalue() return r end))
-- expect: stack traceback:
-- expect: 	T:33: in upvalue 'local_fn'
-- expect: 	T:35: in method 'method'
-- expect: 	T:36: in field 'field'
-- expect: 	T:37: in upvalue 'via_upvalue'
-- expect: 	T:38: in function <T:38>

-- C levels: global C functions by name, others as '?'
show(in_coroutine(function()
    local r
    table.sort({ 3, 2, 1 }, function(a, b) r = r or debug.traceback() return a < b end)
    return r
end))
-- expect: stack traceback:
-- expect: 	T:49: in function <T:49>
-- expect: 	[C]: in function 'table.sort'
-- expect: 	T:49: in function <T:47>
show(in_coroutine(function()
    local ok, r = pcall(function() return debug.traceback("in pcall") end)
    return r
end))
-- expect: in pcall
-- expect: stack traceback:
-- expect: 	T:57: in function <T:57>
-- expect: 	[C]: in function 'pcall'
-- expect: 	T:57: in function <T:56>

-- tail calls leave a mark
local function tail_target() return debug.traceback() end
local function tail_caller() return tail_target() end
show(in_coroutine(function() local r = tail_caller() return r end))
-- expect: stack traceback:
-- expect: 	T:67: in function <T:67>
-- expect: 	(...tail calls...)
-- expect: 	T:69: in function <T:69>

-- a chunk's main function, and a function stored in a loaded module
show(in_coroutine(load("local r = debug.traceback('main') return r", "=chunk")))
-- expect: main
-- expect: stack traceback:
-- expect: 	chunk:1: in main chunk
package.loaded.tbmod = { deep = function() local tb = debug.traceback() return tb end }
show(in_coroutine(function() local r = package.loaded.tbmod.deep() return r end))
-- expect: stack traceback:
-- expect: 	T:80: in function 'tbmod.deep'
-- expect: 	T:81: in function <T:81>
package.loaded.tbmod = nil

-- error tracebacks through xpcall start at the raising function
show(in_coroutine(function()
    local _, tb = xpcall(function() error("failed here") end, debug.traceback)
    return tb
end))
-- expect: T:89: failed here
-- expect: stack traceback:
-- expect: 	[C]: in function 'error'
-- expect: 	T:89: in function <T:89>
-- expect: 	[C]: in function 'xpcall'
-- expect: 	T:89: in function <T:88>
show(in_coroutine(function()
    local _, tb = xpcall(function() local x = nil; return x.y end, debug.traceback)
    return tb
end))
-- expect: T:99: attempt to index a nil value (local 'x')
-- expect: stack traceback:
-- expect: 	T:99: in function <T:99>
-- expect: 	[C]: in function 'xpcall'
-- expect: 	T:99: in function <T:98>

-- levels: 0 includes debug.traceback itself, 2 starts one level up, a
-- level past the stack leaves only the header
local function levels(n) local tb = debug.traceback("L", n) return tb end
show(in_coroutine(function() local r = levels(0) return r end))
-- expect: L
-- expect: stack traceback:
-- expect: 	[C]: in function 'debug.traceback'
-- expect: 	T:110: in upvalue 'levels'
-- expect: 	T:111: in function <T:111>
show(in_coroutine(function() local r = levels(2) return r end))
-- expect: L
-- expect: stack traceback:
-- expect: 	T:117: in function <T:117>
show(in_coroutine(function() local r = levels(50) return r end))
-- expect: L
-- expect: stack traceback:

-- messages: nil gives none, numbers are strings, other values come back
show(in_coroutine(function() local r = debug.traceback(nil) return r end))
-- expect: stack traceback:
-- expect: 	T:126: in function <T:126>
show(in_coroutine(function() local r = debug.traceback(42) return r end))
-- expect: 42
-- expect: stack traceback:
-- expect: 	T:129: in function <T:129>
local t = {}
print(debug.traceback(t) == t, debug.traceback(true)) -- expect: true	true

-- long stacks: the first 10 levels, a count, the last 11
local function count_lines(s) local n = 0 for _ in s:gmatch("\n") do n = n + 1 end return n end
local function recurse(n) if n == 0 then local tb = debug.traceback() return tb end local r = recurse(n - 1) return r end
for _, depth in ipairs({ 19, 20, 21, 22, 40 }) do
    local tb = in_coroutine(recurse, depth)
    print(depth, count_lines(tb), tb:match("%.%.%.\t%(skipping %d+ levels%)") or "no cut") -- expect: 19	20	no cut
end
-- expect: 20	21	no cut
-- expect: 21	22	no cut
-- expect: 22	22	...	(skipping 1 levels)
-- expect: 40	22	...	(skipping 19 levels)
show(in_coroutine(recurse, 25))
-- expect: stack traceback:
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	...	(skipping 4 levels)
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in upvalue 'recurse'
-- expect: 	T:138: in function <T:138>

-- another coroutine's stack: suspended, dead by error, finished, fresh
local co = coroutine.create(function(a) local function inner() coroutine.yield(a) end inner() end)
coroutine.resume(co, 1)
show(debug.traceback(co))
-- expect: stack traceback:
-- expect: 	[C]: in function 'coroutine.yield'
-- expect: 	T:173: in local 'inner'
-- expect: 	T:173: in function <T:173>
show(debug.traceback(co, "with message"))
-- expect: with message
-- expect: stack traceback:
-- expect: 	[C]: in function 'coroutine.yield'
-- expect: 	T:173: in local 'inner'
-- expect: 	T:173: in function <T:173>
show(debug.traceback(co, "level 1", 1))
-- expect: level 1
-- expect: stack traceback:
-- expect: 	T:173: in local 'inner'
-- expect: 	T:173: in function <T:173>
local failed = coroutine.create(function() local x = {} ; x = x + 1 end)
coroutine.resume(failed)
show(debug.traceback(failed))
-- expect: stack traceback:
-- expect: 	T:191: in function <T:191>
coroutine.resume(co)
show(debug.traceback(co))
-- expect: stack traceback:
show(debug.traceback(coroutine.create(print), "fresh"))
-- expect: fresh
-- expect: stack traceback:

-- a long message and a long traceback build a long string
local long = in_coroutine(function() local r = debug.traceback(string.rep("m", 5000)) return r end)
print(#long, long:sub(4999, 5019) == "mm\nstack traceback:\n\t") -- expect: 5111	true
local deep = in_coroutine(recurse, 2000)
print(#deep > 600, select(2, deep:gsub("\n", "\n")))  -- expect: true	22
