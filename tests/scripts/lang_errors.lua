-- lua: 5.4
-- §2.3 error handling: error values of any type, positions added to string
-- messages, message handlers, errors in handlers, and the messages of the
-- runtime errors, which name the variable involved.

local function catch(f, ...) return select(2, pcall(f, ...)) end

-- any value can be an error object; only strings get a position
print(catch(error, "plain")) -- expect: plain
print(catch(function() error("with position") end)) -- expect: tests/scripts/lang_errors.lua:10: with position
print(catch(function() error("level 0", 0) end)) -- expect: level 0
print(type(catch(function() error({ code = 1 }) end)), catch(function() error({ code = 1 }) end).code) -- expect: table	1
print(catch(function() error(12) end), math.type(catch(function() error(12) end))) -- expect: 12	integer
print(catch(function() error(true) end), catch(function() error() end)) -- expect: true	nil

-- xpcall: the handler sees the original error object, before unwinding
local function handler(e) return "handled: " .. tostring(e) end
print(xpcall(function() error("oops", 0) end, handler)) -- expect: false	handled: oops
print(xpcall(function(a, b) return a + b end, handler, 1, 2)) -- expect: true	3
print(xpcall(function() local x = nil; return x.y end, function(e) return (e:gsub("^.-:%d+: ", "")) end)) -- expect: false	attempt to index a nil value (local 'x')
local depth_seen
print(xpcall(function() error("deep", 0) end, function(e) depth_seen = debug.traceback(e, 1):match("^deep\nstack traceback:") ~= nil return e end)) -- expect: false	deep
print(depth_seen) -- expect: true
-- an error inside the handler
print(xpcall(function() error("first", 0) end, function(e) error("in handler", 0) end)) -- expect: false	error in error handling

-- pcall returns all results on success
print(pcall(function() return 1, nil, 3 end)) -- expect: true	1	nil	3
print(select("#", pcall(function() end))) -- expect: 1

-- nested pcall: the inner error does not escape
print(pcall(function() -- expect: true	outer saw false inner
    local ok, e = pcall(error, "inner", 0)
    return "outer saw " .. tostring(ok) .. " " .. e
end))

-- runtime errors name what they can
local t = {}
local up = nil
print(catch(function() return undefined_global.x end)) -- expect: tests/scripts/lang_errors.lua:40: attempt to index a nil value (global 'undefined_global')
print(catch(function() local l; return l.x end)) -- expect: tests/scripts/lang_errors.lua:41: attempt to index a nil value (local 'l')
print(catch(function() return t.a.b end)) -- expect: tests/scripts/lang_errors.lua:42: attempt to index a nil value (field 'a')
print(catch(function() return up.x end)) -- expect: tests/scripts/lang_errors.lua:43: attempt to index a nil value (upvalue 'up')
print(catch(function() return t:nomethod() end)) -- expect: tests/scripts/lang_errors.lua:44: attempt to call a nil value (method 'nomethod')
print(catch(function() undefined_fn() end)) -- expect: tests/scripts/lang_errors.lua:45: attempt to call a nil value (global 'undefined_fn')
print(catch(function() t.f() end)) -- expect: tests/scripts/lang_errors.lua:46: attempt to call a nil value (field 'f')
print(catch(function() local s = "x"; return s + 1 end)) -- expect: tests/scripts/lang_errors.lua:47: attempt to add a 'string' with a 'number'
print(catch(function() return {} + 1 end)) -- expect: tests/scripts/lang_errors.lua:48: attempt to perform arithmetic on a table value
print(catch(function() return 1 < "2" end)) -- expect: tests/scripts/lang_errors.lua:49: attempt to compare number with string
print(catch(function() return {} < {} end)) -- expect: tests/scripts/lang_errors.lua:50: attempt to compare two table values
print(catch(function() return nil > 1 end)) -- expect: tests/scripts/lang_errors.lua:51: attempt to compare number with nil
print(catch(function() return "a" .. {} end)) -- expect: tests/scripts/lang_errors.lua:52: attempt to concatenate a table value
print(catch(function() return -{} end)) -- expect: tests/scripts/lang_errors.lua:53: attempt to perform arithmetic on a table value
print(catch(function() return #nil end)) -- expect: tests/scripts/lang_errors.lua:54: attempt to get length of a nil value
print(catch(function() return 1 & 1.5 end)) -- expect: tests/scripts/lang_errors.lua:55: number has no integer representation
print(catch(function() return "1" | 2 end)) -- expect: tests/scripts/lang_errors.lua:56: attempt to perform bitwise operation on a string value (constant '1')
print(catch(function() return 1 // 0 end)) -- expect: tests/scripts/lang_errors.lua:57: attempt to divide by zero
print(catch(function() return 1 % 0 end)) -- expect: tests/scripts/lang_errors.lua:58: attempt to perform 'n%0'
print(catch(function() t[nil] = 1 end)) -- expect: tests/scripts/lang_errors.lua:59: table index is nil
print(catch(function() return math.huge | 0 end)) -- expect: tests/scripts/lang_errors.lua:60: number (field 'huge') has no integer representation
print(catch(function() return ("x"):bad() end)) -- expect: tests/scripts/lang_errors.lua:61: attempt to call a nil value (method 'bad')
print(catch(function() for i = 1, 10, 0 do end end)) -- expect: tests/scripts/lang_errors.lua:62: 'for' step is zero
print(catch(function() for i = "a", 2 do end end)) -- expect: tests/scripts/lang_errors.lua:63: bad 'for' initial value (number expected, got string)
print(catch(function() for i = 1, {} do end end)) -- expect: tests/scripts/lang_errors.lua:64: bad 'for' limit (number expected, got table)
print(catch(function() for i = 1, 2, nil do end end)) -- expect: tests/scripts/lang_errors.lua:65: bad 'for' step (number expected, got nil)

-- error position at level 2 points at the caller
local function check_arg(v) if type(v) ~= "number" then error("number expected", 2) end end
print(catch(function() check_arg("x") end)) -- expect: tests/scripts/lang_errors.lua:69: number expected

-- errors cross coroutine boundaries through resume's results
local co = coroutine.create(function() error("in coroutine") end)
print(coroutine.resume(co)) -- expect: false	tests/scripts/lang_errors.lua:72: in coroutine
print(coroutine.status(co)) -- expect: dead

-- tostring on error objects with __tostring
local obj = setmetatable({}, { __tostring = function() return "custom error" end })
print(tostring(catch(error, obj))) -- expect: custom error

-- the stack overflow error is catchable
local function recurse(n) return 1 + recurse(n + 1) end
local ok, msg = pcall(recurse, 1)
print(ok, (msg:match("stack overflow"))) -- expect: false	stack overflow
print(select("#", pcall(string.rep, "x", -1)), select(2, pcall(string.rep, "x", -1)) == "") -- expect: 2	true
