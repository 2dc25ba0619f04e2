-- API test: continuations, coroutines driven from C, C closures, upvalues
-- and the debug interface (coro_k.c).
-- Run by tide-api-tests (tests/api/main.c); every "expect" line was proven
-- on stock Lua 5.4.
local coro = require("coro_k")

local function show(t)
    local parts = {}
    for i = 1, #t do parts[i] = tostring(t[i]) end
    return "{" .. table.concat(parts, ",") .. "}"
end

-- lua_callk: a C loop whose callee yields; the continuation resumes the
-- loop where the context says
print(show(coro.map(function(x) return x * 10 end, { 1, 2, 3 })))  -- expect: {10,20,30}
local mapper = coroutine.wrap(function()
    return coro.map(function(x) return coroutine.yield(x) end, { "a", "b", "c" })
end)
print(mapper(), mapper("A"), mapper("B"))  -- expect: a	b	c
print(show(mapper("C")))  -- expect: {A,B,C}

-- lua_pcallk: yieldable pcall, errors caught before and after a yield
print(coro.pcall(function(...) return ... end, 1, 2, 3))  -- expect: true	1	2	3
print(coro.pcall(error, "boom", 0))  -- expect: false	boom
local guarded = coroutine.wrap(function()
    return coro.pcall(function()
        local v = coroutine.yield("paused")
        if v == "fail" then error("failed after resume", 0) end
        return "resumed with " .. v
    end)
end)
print(guarded())  -- expect: paused
print(guarded("fail"))  -- expect: false	failed after resume
guarded = coroutine.wrap(function() return coro.pcall(coroutine.yield, "again") end)
print(guarded(), guarded("done", "twice"))  -- expect: again	true	done	twice

-- lua_yieldk: a C function yields three times and sums what it is resumed with
local stepper = coroutine.wrap(function() return "sum", coro.steps(3) end)
print(stepper(), stepper(10), stepper(20))  -- expect: 1	2	3
print(stepper(30))  -- expect: sum	60

-- lua_yield from C returns to the Lua caller with the resume values
local passer = coroutine.wrap(function(a) local x, y = coro.pass(a, "out") return x .. y end)
print(passer("in"))  -- expect: in	out
print(passer("x", "y"))  -- expect: xy

-- lua_isyieldable
print(coro.yieldable(), coroutine.wrap(coro.yieldable)())  -- expect: false	true

-- yielding across a C call without continuation is an error
print(pcall(coroutine.wrap(function() table.sort({ 2, 1 }, function() coroutine.yield() end) end)))  -- expect: false	attempt to yield across a C-call boundary

-- driving a coroutine from C with lua_resume
print(show((coro.drive(function(a, b)
    local n1 = coroutine.yield(a)
    local n2 = coroutine.yield(b, "two")
    return n1, n2
end, "first", "second"))))  -- expect: {first,second,two}
print(select(2, coro.drive(function(a, b)
    local n1 = coroutine.yield(a)
    local n2 = coroutine.yield(b, "two")
    return n1, n2
end, "first", "second")))  -- expect: ok	1	3

-- an error in a driven coroutine: the status, then lua_closethread closes
-- the pending to-be-closed variable
local log, how, err, status, closed = coro.drive(function()
    local guard <close> = setmetatable({}, { __close = function() print("closing guard") end })
    coroutine.yield("before")
    error("inside", 0)
end)  -- expect: closing guard
print(show(log), how, err, status, closed)  -- expect: {before}	error	inside	2	2

-- lua_status and lua_pushthread of other threads
local co = coroutine.create(function() coroutine.yield() end)
print(coro.status(co))  -- expect: 0	true
coroutine.resume(co)
print(coro.status(co))  -- expect: 1	true
print((coro.traceback(co):gsub("\n.*", "")))  -- expect: trace

-- lua_error with a table as the error object
local obj = {}
print(select(2, pcall(coro.raise, obj)) == obj)  -- expect: true

-- C closures: upvalues are per closure, changed with lua_copy/lua_replace
local c1, c2 = coro.counter(), coro.counter(100)
print(c1(), c1(), c1(5), c2())  -- expect: 1	2	7	101
print(coro.upvalues(c1))  -- expect: ?=7 ?=3

-- Lua closures: names, values, lua_setupvalue, lua_upvalueid, lua_upvaluejoin
local function make()
    local hidden, shared = "h", 0
    local function get() return hidden, shared end
    local function bump() shared = shared + 1 return shared end
    return get, bump
end
local get, bump = make()
print(coro.upvalues(get))  -- expect: hidden=h shared=0
print(coro.setupvalue(get, 1, "changed"), coro.setupvalue(get, 9, "none"))  -- expect: hidden	nil
print(get())  -- expect: changed	0
print(bump(), get())  -- expect: 1	changed	1
print(coro.same_upvalue(get, 2, bump, 1), coro.same_upvalue(get, 1, bump, 1))  -- expect: true	false
local get2 = make()
print(coro.same_upvalue(get, 2, get2, 2))  -- expect: false
coro.join(get2, 2, get, 2)
print(coro.same_upvalue(get, 2, get2, 2), select(2, get2()))  -- expect: true	1
bump()
print(select(2, get2()))  -- expect: 2

-- lua_getstack and lua_getinfo about the caller (called without a tail
-- call, so that the caller is still on the stack)
local function inspect(a, b, ...)
    local info = table.pack(coro.caller())
    return table.unpack(info, 1, info.n)
end
print(inspect(1, 2))  -- expect: inspect	local	Lua	113	112	2	true	true
local function noargs()
    local info = table.pack(coro.caller()) return select(3, table.unpack(info, 1, info.n))
end
print(noargs())  -- expect: Lua	118	117	0	false	true

-- lua_getlocal: the active locals of the caller
local function probe(x, y)
    local z = x + y
    do local inner = z end
    return (coro.locals())
end
print(probe(1, 2))  -- expect: x y z

-- a call hook counting into C memory reached through lua_getextraspace
local function leaf() end
local function tree() leaf() leaf() return leaf() end
print(coro.count_calls(tree))  -- expect: 4	true
