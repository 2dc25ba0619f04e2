-- lua: 5.4
-- §2.2 environments: free names are fields of _ENV; the main chunk's _ENV
-- is the global table; a local _ENV or an _ENV parameter redirects them;
-- load takes an environment.

print(_ENV == _G, _G._G == _G) -- expect: true	true
x_global = 1
print(_ENV.x_global, _G["x_global"], rawget(_G, "x_global")) -- expect: 1	1	1
_ENV.y_global = 2
print(y_global) -- expect: 2

do
    local _ENV = { print = print, tostring = tostring }
    z = 3                                  -- a field of the local table
    print(z, x_global, tostring(_G)) -- expect: 3	nil	nil
end
print(z, rawget(_G, "z")) -- expect: nil	nil

-- a function's free names use the _ENV visible where it is defined
local function make(env)
    local _ENV = env
    return function() return value end
end
local get = make({ value = "from env" })
print(get()) -- expect: from env

-- _ENV as a parameter
local function with_env(_ENV) return a + b end
print(with_env({ a = 1, b = 2 })) -- expect: 3

-- _ENV is an ordinary upvalue: changing it redirects later accesses
local function reader() return shared_name end
shared_name = "global"
print(reader()) -- expect: global
do
    local saved = _ENV
    local ok = pcall(function() _ENV = { shared_name = "replaced" } end)
    local now = reader()
    _ENV = saved
    print(ok, now, reader()) -- expect: true	replaced	global
end

-- load: the first upvalue of a main chunk is _ENV
local chunk = load("v = 10 return v + (w or 0)", "=c", "t", { w = 5 })
print(chunk()) -- expect: 15
print(rawget(_G, "v")) -- expect: nil
local env = {}
local set = load("k = 'in env'", "=c", "t", env)
set()
print(env.k, rawget(_G, "k")) -- expect: in env	nil
local global_chunk = load("return x_global")
print(global_chunk()) -- expect: 1
local upname, upvalue = debug.getupvalue(global_chunk, 1)
print(upname, upvalue == _G) -- expect: _ENV	true
print(load("return ...", "=c")(7, 8)) -- expect: 7	8

-- a global function is a field too
function global_fn() return "gf" end
print(_G.global_fn(), type(rawget(_ENV, "global_fn"))) -- expect: gf	function

-- metatables on _ENV: strict globals
local strict = setmetatable({}, {
    __index = function(_, name) error("undefined global '" .. name .. "'", 2) end,
    __newindex = function(t, name, v) rawset(t, name, v) end,
})
local run_strict = load("defined = 1 return defined + undefined", "=strict", "t", strict)
print(pcall(run_strict)) -- expect: false	strict:1: undefined global 'undefined'
print(strict.defined) -- expect: 1

-- free names inside nested functions go through the same _ENV
local env2 = { n = 0 }
local inc = load("return function() n = n + 1 return n end", "=inc", "t", env2)()
inc() inc()
print(env2.n, rawget(_G, "n")) -- expect: 2	nil
