-- lua: 5.4
-- §2.6 coroutines: passing values through resume and yield, status,
-- errors, wrap, yields across pcall and metamethods, isyieldable,
-- running, and close.

local log = {}
local function note(s) log[#log + 1] = tostring(s) end
local function flush() local s = table.concat(log, " ") log = {} return s end

-- the manual's example
local function foo(a)
    note("foo " .. a)
    return coroutine.yield(2 * a)
end
local co = coroutine.create(function(a, b)
    note("co-body " .. a .. " " .. b)
    local r = foo(a + 1)
    note("co-body " .. r)
    local r2, s = coroutine.yield(a + b, a - b)
    note("co-body " .. r2 .. " " .. s)
    return b, "end"
end)
print(coroutine.resume(co, 1, 10)) -- expect: true	4
print(coroutine.resume(co, "r")) -- expect: true	11	-9
print(coroutine.resume(co, "x", "y")) -- expect: true	10	end
print(coroutine.resume(co, "x", "y")) -- expect: false	cannot resume dead coroutine
print(flush()) -- expect: co-body 1 10 foo 2 co-body r co-body x y

-- status
local status_co
status_co = coroutine.create(function()
    note(coroutine.status(status_co))
    coroutine.yield()
end)
print(coroutine.status(status_co)) -- expect: suspended
coroutine.resume(status_co)
print(coroutine.status(status_co), flush()) -- expect: suspended	running
coroutine.resume(status_co)
print(coroutine.status(status_co)) -- expect: dead
-- a coroutine that resumes another is "normal"
local outer
outer = coroutine.create(function()
    local inner = coroutine.create(function() return coroutine.status(outer) end)
    return coroutine.resume(inner)
end)
print(coroutine.resume(outer)) -- expect: true	true	normal

-- running and isyieldable
local main, is_main = coroutine.running()
print(type(main), is_main, coroutine.isyieldable()) -- expect: thread	true	false
print(coroutine.resume(coroutine.create(function() -- expect: true	thread	false	true
    local c, m = coroutine.running()
    return type(c), m, coroutine.isyieldable()
end)))

-- errors
local failing = coroutine.create(function() error("boom") end)
print(coroutine.resume(failing)) -- expect: false	tests/scripts/lang_coroutines.lua:57: boom
print(coroutine.status(failing), coroutine.resume(failing)) -- expect: dead	false	cannot resume dead coroutine
print(coroutine.resume(coroutine.running())) -- expect: false	cannot resume non-suspended coroutine
print(pcall(coroutine.yield)) -- expect: false	attempt to yield from outside a coroutine
local err_obj = {}
local ok, e = coroutine.resume(coroutine.create(function() error(err_obj) end))
print(ok, e == err_obj) -- expect: false	true

-- wrap: errors propagate, results are returned directly
local gen = coroutine.wrap(function(n)
    for i = 1, n do coroutine.yield(i) end
    return "done"
end)
print(gen(3), gen(), gen(), gen()) -- expect: 1	2	3	done
print(pcall(gen)) -- expect: false	cannot resume dead coroutine
local wrapped_err = coroutine.wrap(function() error("wrapped", 0) end)
print(pcall(wrapped_err)) -- expect: false	wrapped
local wrapped_pos = coroutine.wrap(function() error("with pos") end)
print(pcall(wrapped_pos)) -- expect: false	tests/scripts/lang_coroutines.lua:75: with pos

-- generators with for-in
local function range(n)
    return coroutine.wrap(function() for i = 1, n do coroutine.yield(i, i * i) end end)
end
for i, sq in range(4) do note(i .. "^2=" .. sq) end
print(flush()) -- expect: 1^2=1 2^2=4 3^2=9 4^2=16

-- yield across pcall, inside metamethods and iterators
local across = coroutine.create(function()
    local ok2, v = pcall(function()
        local got = coroutine.yield("from inside pcall")
        error("after " .. got, 0)
    end)
    coroutine.yield(tostring(ok2) .. " " .. v)
    local t = setmetatable({}, { __index = function(_, k) return coroutine.yield("index " .. k) end,
                                 __add = function(a, b) return coroutine.yield("add") end,
                                 __lt = function() return coroutine.yield("lt") end,
                                 __concat = function() return coroutine.yield("concat") end })
    local r1 = t.key
    local r2 = t + 1
    local r3 = t < t
    local r4 = t .. "s"
    return r1, r2, r3, r4
end)
print(coroutine.resume(across)) -- expect: true	from inside pcall
print(coroutine.resume(across, "resume 2")) -- expect: true	false after resume 2
print(coroutine.resume(across)) -- expect: true	index key
print(coroutine.resume(across, "I")) -- expect: true	add
print(coroutine.resume(across, "A")) -- expect: true	lt
print(coroutine.resume(across, false)) -- expect: true	concat
print(coroutine.resume(across, "C")) -- expect: true	I	A	false	C
-- yield inside a sort comparator (a C function calling Lua) is not allowed
print(coroutine.resume(coroutine.create(function() -- expect: false	attempt to yield across a C-call boundary
    table.sort({ 3, 2, 1 }, function(a, b) coroutine.yield() return a < b end)
end)))

-- xpcall handler inside a coroutine
print(coroutine.resume(coroutine.create(function() -- expect: true	false	handled x
    return xpcall(function() error("x", 0) end, function(m) return "handled " .. m end)
end)))

-- close: a suspended coroutine closes its pending to-be-closed variables
local closable = coroutine.create(function()
    local r <close> = setmetatable({}, { __close = function(_, err) note("closed " .. tostring(err)) end })
    coroutine.yield(1)
    note("never")
end)
coroutine.resume(closable)
print(coroutine.close(closable), coroutine.status(closable), flush()) -- expect: true	dead	closed nil
print(coroutine.close(coroutine.create(print))) -- expect: true
-- close of a coroutine that died with an error returns false and the error
local dead = coroutine.create(function() error("died", 0) end)
coroutine.resume(dead)
print(coroutine.close(dead)) -- expect: false	died
print(pcall(coroutine.close, coroutine.running())) -- expect: false	cannot close a running coroutine
-- an error in __close while closing
local bad_close = coroutine.create(function()
    local r <close> = setmetatable({}, { __close = function() error("close failed", 0) end })
    coroutine.yield()
end)
coroutine.resume(bad_close)
print(coroutine.close(bad_close)) -- expect: false	close failed

-- many coroutines alive at once
local cos = {}
for i = 1, 100 do
    cos[i] = coroutine.create(function(x) while true do x = coroutine.yield(x + i) end end)
end
local sum = 0
for round = 1, 3 do
    for i = 1, 100 do
        local _, v = coroutine.resume(cos[i], round)
        sum = sum + v
    end
end
print(sum) -- expect: 15750

-- deep recursion inside a coroutine
local deep = coroutine.wrap(function()
    local function down(n) if n == 0 then return coroutine.yield("bottom") end return down(n - 1) end
    local function rec(n) if n == 0 then return coroutine.yield("rec bottom") end local r = rec(n - 1) return r end
    down(10000)
    return rec(150)
end)
print(deep(), deep(), deep("back up")) -- expect: bottom	rec bottom	back up

-- resume arguments become the results of yield; extra values are kept
local echo = coroutine.create(function(...)
    local args = table.pack(...)
    while true do args = table.pack(coroutine.yield(args.n, ...)) end
end)
print(coroutine.resume(echo, 1, nil, 3)) -- expect: true	3	1	nil	3
print(coroutine.resume(echo)) -- expect: true	0	1	nil	3
print(coroutine.resume(echo, nil, nil)) -- expect: true	2	1	nil	3
print(select("#", coroutine.resume(coroutine.create(function() end)))) -- expect: 1
