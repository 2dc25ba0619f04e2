-- lua: 5.4
-- error (levels, non-string values), assert, pcall and xpcall, including
-- yields across them inside coroutines.

local function level1() error("at level 1") end
local function level2() error("at level 2", 2) end
local function level0() error("no position", 0) end
local function caller() level2() end   -- line 8: level 2 points here
print(pcall(level1))                       -- expect: false	tests/scripts/base_errors.lua:5: at level 1
print(pcall(caller))                       -- expect: false	tests/scripts/base_errors.lua:8: at level 2
print(pcall(level0))                       -- expect: false	no position
print(pcall(error))                        -- expect: false	nil
print(pcall(error, nil))                   -- expect: false	nil
print(pcall(error, "direct"))              -- expect: false	direct
print(pcall(error, "lvl2", 2))             -- expect: false	tests/scripts/base_errors.lua:15: lvl2
print(pcall(error, 42))                    -- expect: false	42
print(math.type(select(2, pcall(error, 42)))) -- expect: integer
local err_table = {}
print(select(2, pcall(error, err_table)) == err_table) -- expect: true
print(select(2, pcall(error, setmetatable({}, { __tostring = function() return "E" end })))) -- expect: E
print(pcall(error, "x", 1.5))              -- expect: false	bad argument #2 to 'error' (number has no integer representation)
print(pcall(error, "big level", 50))       -- expect: false	big level
print(pcall(error, "negative level", -1))  -- expect: false	negative level

-- assert returns all its arguments or raises its message
print(assert(1, 2, 3))                     -- expect: 1	2	3
print(select("#", assert(true)))           -- expect: 1
print(pcall(assert, false))                -- expect: false	assertion failed!
print(pcall(assert, nil, "custom"))        -- expect: false	custom
print(pcall(assert, false, 12))            -- expect: false	12
print(select(2, pcall(assert, false, err_table)) == err_table) -- expect: true
print(pcall(assert))                       -- expect: false	bad argument #1 to 'assert' (value expected)
print(pcall(function() assert(false) end)) -- expect: false	tests/scripts/base_errors.lua:33: assertion failed!
print(pcall(function() assert(1 == 2, "math broke") end)) -- expect: false	tests/scripts/base_errors.lua:34: math broke

-- pcall returns true and every result, or false and the error object
print(pcall(function(...) return ... end, 1, nil, 3)) -- expect: true	1	nil	3
print(select("#", pcall(function() end)))  -- expect: 1
print(pcall(pcall))                        -- expect: false	bad argument #1 to 'pcall' (value expected)
print(pcall(pcall, error, "e"))            -- expect: true	false	e
print(pcall(nil))                          -- expect: false	attempt to call a nil value
print(pcall(42))                           -- expect: false	attempt to call a number value
print(pcall(setmetatable({}, { __call = function(self, a) return "called", a end }), "arg")) -- expect: true	called	arg
print(pcall(function() local x = nil; return x.field end)) -- expect: false	tests/scripts/base_errors.lua:44: attempt to index a nil value (local 'x')

-- xpcall: the handler sees the error and its result is the message
print(xpcall(function() error("oops") end, function(m) return "handled: " .. m end)) -- expect: false	handled: tests/scripts/base_errors.lua:47: oops
print(xpcall(function(a, b) return a + b end, print, 3, 4)) -- expect: true	7
print(xpcall(error, function(m) return type(m) end, { })) -- expect: false	table
print(pcall(xpcall, print))                -- expect: false	bad argument #2 to 'xpcall' (function expected, got no value)
print(pcall(xpcall, print, 1))             -- expect: false	bad argument #2 to 'xpcall' (function expected, got number)
-- an error inside the handler
print(xpcall(function() error("first") end, function(m) error("second") end)) -- expect: false	error in error handling
-- handlers may return several values; only the first is the message
print(xpcall(function() error("x") end, function() return "a", "b" end)) -- expect: false	a
-- runtime errors carry positions
print(xpcall(function() return 1 + {} end, function(m) return (m:gsub("^.-:%d+: ", "")) end)) -- expect: false	attempt to perform arithmetic on a table value

-- pcall and xpcall let a coroutine yield across them (continuations)
local co = coroutine.wrap(function(a)
    local ok, b = pcall(function()
        local got = coroutine.yield(a + 1)
        return got * 2
    end)
    local ok2, c = xpcall(function()
        local got = coroutine.yield(b + 1)
        error("after " .. got, 0)
    end, function(m) return "H:" .. m end)
    return ok, b, ok2, c
end)
print(co(1))                               -- expect: 2
print(co(10))                              -- expect: 21
print(co(7))                               -- expect: true	20	false	H:after 7
-- error objects cross resume unchanged
local ok, e = coroutine.resume(coroutine.create(function() error({ code = 7 }) end))
print(ok, type(e), e.code)                 -- expect: false	table	7
