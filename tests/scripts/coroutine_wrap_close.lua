-- lua: 5.4
-- coroutine.wrap (results, error propagation with the caller's position,
-- closing a failed coroutine's variables) and coroutine.close.

local function strip(msg) return (tostring(msg):gsub("tests/scripts/coroutine_wrap_close.lua", "W")) end

local gen = coroutine.wrap(function(a)
    local b = coroutine.yield(a * 2)
    return b + 1, "end"
end)
print(type(gen))                           -- expect: function
print(gen(5))                              -- expect: 10
print(gen(10))                             -- expect: 11	end
-- resuming a dead wrapped coroutine: the error carries the call's position
print(strip(select(2, pcall(function() return gen() end)))) -- expect: W:15: cannot resume dead coroutine
print(strip(select(2, pcall(gen))))        -- expect: cannot resume dead coroutine

-- errors propagate with the wrapper's caller position added
local failing = coroutine.wrap(function() error("inside") end)
print(strip(select(2, pcall(function() return failing() end)))) -- expect: W:20: W:19: inside
local failing0 = coroutine.wrap(function() error("no position", 0) end)
print(strip(select(2, pcall(function() return failing0() end)))) -- expect: W:22: no position
-- non-string errors pass unchanged
local tbl_err = {}
local failing_tbl = coroutine.wrap(function() error(tbl_err) end)
print(select(2, pcall(failing_tbl)) == tbl_err) -- expect: true
local failing_num = coroutine.wrap(function() error(42) end)
print(select(2, pcall(function() return failing_num() end))) -- expect: 42
-- a runtime error
local arith = coroutine.wrap(function() return 1 + nil end)
print(strip(select(2, pcall(function() return arith() end)))) -- expect: W:31: W:30: attempt to perform arithmetic on a nil value

-- a failed wrapped coroutine closes its pending to-be-closed variables
local log = {}
local function closer(name) return setmetatable({}, { __close = function(_, e) log[#log + 1] = name .. ":" .. strip(e) end }) end
local with_tbc = coroutine.wrap(function()
    local a <close> = closer("a")
    local b <close> = closer("b")
    coroutine.yield(1)
    error("failing", 0)
end)
print(with_tbc())                          -- expect: 1
print(pcall(with_tbc))                     -- expect: false	failing
print(table.concat(log, " "))              -- expect: b:failing a:failing
-- an error in __close replaces the error
log = {}
local close_fails = coroutine.wrap(function()
    local a <close> = setmetatable({}, { __close = function() error("close error", 0) end })
    error("original", 0)
end)
print(pcall(close_fails))                  -- expect: false	close error

-- coroutine.close
local suspended = coroutine.create(function()
    local x <close> = closer("x")
    coroutine.yield()
end)
log = {}
coroutine.resume(suspended)
print(coroutine.close(suspended), coroutine.status(suspended)) -- expect: true	dead
print(table.concat(log, " "))              -- expect: x:nil
print(coroutine.close(suspended))          -- expect: true
print(coroutine.close(coroutine.create(print))) -- expect: true
local dead_by_error = coroutine.create(function() error("died") end)
coroutine.resume(dead_by_error)
print(strip(select(2, coroutine.close(dead_by_error)))) -- expect: W:64: died
print(coroutine.close(dead_by_error))      -- expect: true
local dead_by_table = coroutine.create(function() error({ "t" }) end)
coroutine.resume(dead_by_table)
local ok, e = coroutine.close(dead_by_table)
print(ok, type(e), e[1])                   -- expect: false	table	t
-- an error in __close while closing
local bad_close = coroutine.create(function()
    local x <close> = setmetatable({}, { __close = function() error("in close", 0) end })
    coroutine.yield()
end)
coroutine.resume(bad_close)
print(coroutine.close(bad_close))          -- expect: false	in close
print(coroutine.status(bad_close))         -- expect: dead
-- running and normal coroutines cannot be closed
print(strip(select(2, pcall(coroutine.close, coroutine.running())))) -- expect: cannot close a running coroutine
local outer
outer = coroutine.create(function()
    local inner = coroutine.create(function() return pcall(coroutine.close, outer) end)
    return coroutine.resume(inner)
end)
print(coroutine.resume(outer))             -- expect: true	true	false	cannot close a normal coroutine
local self_close = coroutine.create(function() return pcall(coroutine.close, coroutine.running()) end)
print(coroutine.resume(self_close))        -- expect: true	false	cannot close a running coroutine
print(strip(select(2, pcall(function() coroutine.close(coroutine.running()) end)))) -- expect: W:90: cannot close a running coroutine
