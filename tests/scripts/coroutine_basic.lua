-- lua: 5.4
-- coroutine.create/resume/yield/status/running/isyieldable: passing
-- values both ways, statuses through a coroutine's life, argument errors.

local co = coroutine.create(function(a, b)
    print("start", a, b)
    local c, d = coroutine.yield(a + b)
    print("resumed with", c, d)
    local e = coroutine.yield()
    print("then", e)
    return "done", 1, nil
end)
print(type(co), coroutine.status(co))      -- expect: thread	suspended
print(coroutine.resume(co, 1, 2))          -- expect: start	1	2
-- expect: true	3
print(coroutine.status(co))                -- expect: suspended
print(coroutine.resume(co, "x", "y"))      -- expect: resumed with	x	y
-- expect: true
print(coroutine.resume(co))                -- expect: then	nil
-- expect: true	done	1	nil
print(coroutine.status(co))                -- expect: dead
print(coroutine.resume(co))                -- expect: false	cannot resume dead coroutine
print(coroutine.resume(co))                -- expect: false	cannot resume dead coroutine

-- many values through yield and resume
local echo = coroutine.create(function(...)
    local args = table.pack(...)
    while true do args = table.pack(coroutine.yield(table.unpack(args, 1, args.n))) end
end)
print(coroutine.resume(echo, 1, nil, 3, nil)) -- expect: true	1	nil	3	nil
print(select("#", coroutine.resume(echo)))  -- expect: 1
print(coroutine.resume(echo, table.unpack({}, 1, 200)) and "200 nils" or "failed") -- expect: 200 nils
print(select("#", coroutine.resume(echo, table.unpack({}, 1, 200)))) -- expect: 201

-- running and isyieldable
local main, is_main = coroutine.running()
print(type(main), is_main)                 -- expect: thread	true
print(coroutine.isyieldable())             -- expect: false
print(coroutine.status(main))              -- expect: running
local inner_co
inner_co = coroutine.create(function()
    local me, ismain = coroutine.running()
    print(me == inner_co, ismain, coroutine.isyieldable(), coroutine.status(me))
    print(coroutine.status(main), coroutine.isyieldable(main))
    local nested = coroutine.create(function() return coroutine.status(inner_co) end)
    print(coroutine.resume(nested))
end)
coroutine.resume(inner_co)
-- expect: true	false	true	running
-- expect: normal	false
-- expect: true	normal
print(coroutine.isyieldable(inner_co))     -- expect: true
-- not yieldable across a C call that does not allow it
print(coroutine.resume(coroutine.create(function()
    return pcall(table.sort, { 1, 2, 3 }, function(a, b) coroutine.yield() return a < b end)
end)))                                     -- expect: true	false	attempt to yield across a C-call boundary
print(coroutine.resume(coroutine.create(function()
    local t = setmetatable({}, { __index = function() return coroutine.yield("from metamethod") end })
    return t.x
end)))                                     -- expect: true	from metamethod

-- errors inside a coroutine make it dead; resume returns false and the error
local bad = coroutine.create(function() local x = nil; return x.y end)
print(coroutine.resume(bad))               -- expect: false	tests/scripts/coroutine_basic.lua:63: attempt to index a nil value (local 'x')
print(coroutine.status(bad))               -- expect: dead
print(coroutine.resume(bad))               -- expect: false	cannot resume dead coroutine
local with_table = coroutine.create(function() error({ code = 1 }) end)
local ok, err = coroutine.resume(with_table)
print(ok, type(err), err.code)             -- expect: false	table	1

-- resuming the running or a normal coroutine fails
print(coroutine.resume(main))              -- expect: false	cannot resume non-suspended coroutine
local outer
outer = coroutine.create(function()
    local inner = coroutine.create(function() return coroutine.resume(outer) end)
    return coroutine.resume(inner)
end)
print(coroutine.resume(outer))             -- expect: true	true	false	cannot resume non-suspended coroutine
print(coroutine.resume(coroutine.running())) -- expect: false	cannot resume non-suspended coroutine

-- yield outside a coroutine
print(pcall(coroutine.yield, 1))           -- expect: false	attempt to yield from outside a coroutine

-- argument errors
print(pcall(coroutine.create, 1))          -- expect: false	bad argument #1 to 'coroutine.create' (function expected, got number)
print(pcall(coroutine.create))             -- expect: false	bad argument #1 to 'coroutine.create' (function expected, got no value)
print(pcall(coroutine.create, print) and "C functions are fine") -- expect: C functions are fine
print(pcall(coroutine.resume, 1))          -- expect: false	bad argument #1 to 'coroutine.resume' (thread expected, got number)
print(pcall(coroutine.resume))             -- expect: false	bad argument #1 to 'coroutine.resume' (thread expected, got no value)
print(pcall(coroutine.status, {}))         -- expect: false	bad argument #1 to 'coroutine.status' (thread expected, got table)
print(pcall(coroutine.isyieldable, 1))     -- expect: false	bad argument #1 to 'coroutine.isyieldable' (thread expected, got number)
print(pcall(coroutine.close, "x"))         -- expect: false	bad argument #1 to 'coroutine.close' (thread expected, got string)
print(pcall(coroutine.wrap, nil))          -- expect: false	bad argument #1 to 'coroutine.wrap' (function expected, got nil)

-- a C function as a body
local cco = coroutine.create(print)
print(coroutine.resume(cco, "printed by a C body")) -- expect: printed by a C body
-- expect: true
print(coroutine.status(cco))               -- expect: dead
local yielder = coroutine.create(coroutine.yield)
print(coroutine.resume(yielder, "a", "b")) -- expect: true	a	b
print(coroutine.status(yielder))           -- expect: suspended
print(coroutine.resume(yielder, "c"))      -- expect: true	c
print(coroutine.status(yielder))           -- expect: dead

-- a generator
local function range(n)
    return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end)
end
local acc = {}
for i in range(5) do acc[#acc + 1] = i end
print(table.concat(acc, ","))              -- expect: 1,2,3,4,5
