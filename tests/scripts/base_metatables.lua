-- lua: 5.4
-- getmetatable, setmetatable (and __metatable protection), rawequal,
-- rawlen, rawget, rawset.

local mt = {}
local t = {}
print(setmetatable(t, mt) == t)            -- expect: true
print(getmetatable(t) == mt)               -- expect: true
print(setmetatable(t, nil) == t, getmetatable(t)) -- expect: true	nil
print(getmetatable({}), getmetatable(1), getmetatable(nil), getmetatable(print)) -- expect: nil	nil	nil	nil
print(getmetatable("abc") == getmetatable(""), getmetatable("").__index == string) -- expect: true	true

-- __metatable: getmetatable returns it, setmetatable refuses
local protected = setmetatable({}, { __metatable = "locked" })
print(getmetatable(protected))             -- expect: locked
print(pcall(setmetatable, protected, {}))  -- expect: false	cannot change a protected metatable
print(pcall(setmetatable, protected, nil)) -- expect: false	cannot change a protected metatable
local falsy = setmetatable({}, { __metatable = false })
print(getmetatable(falsy))                 -- expect: false
print(pcall(setmetatable, falsy, {}))      -- expect: false	cannot change a protected metatable
print(getmetatable(setmetatable({}, { __metatable = nil })) ~= nil) -- expect: true
-- the string metatable can be protected like any other
local string_mt = getmetatable("")
string_mt.__metatable = "strings"
print(getmetatable("x"))                   -- expect: strings
string_mt.__metatable = nil
print(getmetatable("x") == string_mt)      -- expect: true

-- argument errors
print(pcall(setmetatable, 1, {}))          -- expect: false	bad argument #1 to 'setmetatable' (table expected, got number)
print(pcall(setmetatable, {}, 1))          -- expect: false	bad argument #2 to 'setmetatable' (nil or table expected, got number)
print(pcall(setmetatable, {}))             -- expect: false	bad argument #2 to 'setmetatable' (nil or table expected, got no value)
print(pcall(setmetatable))                 -- expect: false	bad argument #1 to 'setmetatable' (table expected, got no value)
print(pcall(getmetatable))                 -- expect: false	bad argument #1 to 'getmetatable' (value expected)

-- raw access bypasses __index/__newindex/__len/__eq
local log = {}
local proxy = setmetatable({}, {
    __index = function(_, k) log[#log + 1] = "get " .. tostring(k) return "dflt" end,
    __newindex = function(_, k) log[#log + 1] = "set " .. tostring(k) end,
    __len = function() return 99 end,
    __eq = function() return true end,
})
print(proxy.x, rawget(proxy, "x"))         -- expect: dflt	nil
proxy.y = 1
print(rawget(proxy, "y"))                  -- expect: nil
print(rawset(proxy, "y", 2) == proxy, rawget(proxy, "y"), proxy.y) -- expect: true	2	2
print(#proxy, rawlen(proxy))               -- expect: 99	0
print(table.concat(log, ","))              -- expect: get x,set y
local other = setmetatable({}, getmetatable(proxy))
print(proxy == other, rawequal(proxy, other), rawequal(proxy, proxy)) -- expect: true	false	true
print(rawequal(1, 1.0), rawequal("a", "a"), rawequal(0, false), rawequal(nil, nil)) -- expect: true	true	false	true
print(rawlen({ 1, 2, 3 }), rawlen("hello"), rawlen(""))  -- expect: 3	5	0
print(rawget({ 10, 20 }, 2), rawget({ a = 1 }, "b"), rawget({ [1.0] = "one" }, 1)) -- expect: 20	nil	one
local r = {}
rawset(r, 2.0, "two")
print(math.type(next(r)), r[2])            -- expect: integer	two

print(pcall(rawlen, 1))                    -- expect: false	bad argument #1 to 'rawlen' (table or string expected, got number)
print(pcall(rawlen))                       -- expect: false	bad argument #1 to 'rawlen' (table or string expected, got no value)
print(pcall(rawget, "s", 1))               -- expect: false	bad argument #1 to 'rawget' (table expected, got string)
print(pcall(rawget, {}))                   -- expect: false	bad argument #2 to 'rawget' (value expected)
print(pcall(rawset, {}, 1))                -- expect: false	bad argument #3 to 'rawset' (value expected)
print(pcall(rawset, {}, nil, 1))           -- expect: false	table index is nil
print(pcall(rawset, {}, 0/0, 1))           -- expect: false	table index is NaN
print(pcall(rawset, 1, 1, 1))              -- expect: false	bad argument #1 to 'rawset' (table expected, got number)
print(pcall(rawequal, 1))                  -- expect: false	bad argument #2 to 'rawequal' (value expected)
print(pcall(rawequal))                     -- expect: false	bad argument #1 to 'rawequal' (value expected)
