-- lua: 5.4
-- debug.getlocal/setlocal (levels, parameters of a function, varargs by
-- negative index, other threads, errors) and debug.getupvalue,
-- setupvalue, upvalueid, upvaluejoin.

-- the named locals at a level, in order (temporaries left out)
local function locals_list(level)
    local out = {}
    for i = 1, 20 do
        local name, value = debug.getlocal(level + 1, i)
        if not name then break end
        if name:sub(1, 1) ~= "(" then
            out[#out + 1] = name .. "=" .. tostring(value)
        end
    end
    return table.concat(out, " ")
end
local function scoped(p)
    local before = 1
    do
        local inner = 2
        print(locals_list(1)) -- expect: p=param before=1 inner=2
    end
    local after = 3
    print(locals_list(1)) -- expect: p=param before=1 after=3
end
scoped("param")

-- varargs by negative index
local function varargs(...)
    local out = {}
    for i = -1, -5, -1 do
        local name, value = debug.getlocal(1, i)
        out[#out + 1] = tostring(name) .. "=" .. tostring(value)
    end
    return table.concat(out, " ")
end
print(varargs(10, nil, "c")) -- expect: (vararg)=10 (vararg)=nil (vararg)=c nil=nil nil=nil
print(varargs()) -- expect: nil=nil nil=nil nil=nil nil=nil nil=nil
local function not_vararg(a) return debug.getlocal(1, -1) end
print(not_vararg(1)) -- expect: nil

-- parameters of a function value (names only)
local function params(first, second, ...) local third end
print(debug.getlocal(params, 1), debug.getlocal(params, 2), debug.getlocal(params, 3), debug.getlocal(params, 0)) -- expect: first	second	nil	nil
print(select("#", debug.getlocal(params, 1)), debug.getlocal(print, 1), debug.getlocal(params, -1)) -- expect: 1	nil	nil

-- locals of a caller, and index 0 or past the end
local function inner_probe()
    local name, value = debug.getlocal(2, 1)
    return name, value
end
local function outer(value)
    local name, seen = inner_probe()
    return name, seen
end
print(outer("seen")) -- expect: value	seen
print(debug.getlocal(1, 1000)) -- expect: nil
print(select("#", debug.getlocal(1, 0))) -- expect: 1

-- temporaries of a C function on the stack
local c_locals
table.sort({ 3, 1, 2 }, function(a, b)
    if not c_locals then
        c_locals = tostring(debug.getlocal(2, 1)) .. " " .. tostring(debug.getlocal(2, 2))
    end
    return a < b
end)
print(c_locals) -- expect: (C temporary) (C temporary)

-- setlocal
local function setter()
    local v = "old"
    local w = "other"
    print(debug.setlocal(1, 1, "new"), v) -- expect: v	new
    print(debug.setlocal(1, 2, nil), w) -- expect: w	nil
    print(debug.setlocal(1, 50, "x")) -- expect: nil
    print(select("#", debug.setlocal(1, 50, "x"))) -- expect: 1
end
setter()
local function vararg_setter(...)
    debug.setlocal(1, -2, "changed")
    return ...
end
print(vararg_setter(1, 2, 3)) -- expect: 1	changed	3
local function set_in_caller() debug.setlocal(2, 1, 99) end
local function caller_of_setter(n) set_in_caller() return n end
print(caller_of_setter(1)) -- expect: 99

-- another thread
local co = coroutine.create(function(x)
    local y = x * 2
    coroutine.yield()
    return x, y
end)
coroutine.resume(co, 5)
print(debug.getlocal(co, 1, 1), debug.getlocal(co, 1, 2)) -- expect: x	y	10
print(debug.getlocal(co, 1, 3)) -- expect: nil
print(debug.setlocal(co, 1, 2, 77)) -- expect: y
print(coroutine.resume(co)) -- expect: true	5	77
print(debug.getlocal(co, params, 2)) -- expect: second

-- errors
print(pcall(debug.getlocal, 50, 1)) -- expect: false	bad argument #1 to 'debug.getlocal' (level out of range)
print(pcall(debug.getlocal, co, 1, 1)) -- expect: false	bad argument #2 to 'debug.getlocal' (level out of range)
print(pcall(debug.getlocal, 1)) -- expect: false	bad argument #2 to 'debug.getlocal' (number expected, got no value)
print(pcall(debug.getlocal, 1, {})) -- expect: false	bad argument #2 to 'debug.getlocal' (number expected, got table)
print(pcall(debug.getlocal, {}, 1)) -- expect: false	bad argument #1 to 'debug.getlocal' (number expected, got table)
print(pcall(debug.getlocal, co, "x", 1)) -- expect: false	bad argument #2 to 'debug.getlocal' (number expected, got string)
print(pcall(debug.setlocal, 50, 1, 1)) -- expect: false	bad argument #1 to 'debug.setlocal' (level out of range)
print(pcall(debug.setlocal, 1, 1)) -- expect: false	bad argument #3 to 'debug.setlocal' (value expected)
print(pcall(debug.setlocal, 1)) -- expect: false	bad argument #2 to 'debug.setlocal' (number expected, got no value)
print(pcall(debug.setlocal, co, 1, 1, 1)) -- expect: false	bad argument #2 to 'debug.setlocal' (level out of range)

-- upvalues
local up1, up2 = 1, "two"
local function uses() return up1, up2 end
print(debug.getupvalue(uses, 1)) -- expect: up1	1
print(debug.getupvalue(uses, 2)) -- expect: up2	two
print(select("#", debug.getupvalue(uses, 3)), select("#", debug.getupvalue(uses, 0))) -- expect: 0	0
print(debug.setupvalue(uses, 1, 10), up1) -- expect: up1	10
print(select("#", debug.setupvalue(uses, 3, 0))) -- expect: 0
print(uses()) -- expect: 10	two
-- a C function's upvalues have empty names
local gm = string.gmatch("a b", "%a")
local name, value = debug.getupvalue(gm, 1)
print("[" .. name .. "]", value) -- expect: []	a b
print(debug.setupvalue(gm, 1, "x y") == "") -- expect: true
print(select("#", debug.getupvalue(print, 1))) -- expect: 0
-- _ENV is an upvalue like any other
local global_reader = load("return some_global")
print(debug.getupvalue(global_reader, 1) == "_ENV") -- expect: true
debug.setupvalue(global_reader, 1, { some_global = "from a new _ENV" })
print(global_reader()) -- expect: from a new _ENV
print(pcall(debug.getupvalue, 1, 1)) -- expect: false	bad argument #1 to 'debug.getupvalue' (function expected, got number)
print(pcall(debug.getupvalue, uses)) -- expect: false	bad argument #2 to 'debug.getupvalue' (number expected, got no value)
print(pcall(debug.setupvalue, uses, 1)) -- expect: false	bad argument #3 to 'debug.setupvalue' (value expected)

-- upvalueid and upvaluejoin
local shared = 0
local function inc() shared = shared + 1 return shared end
local function get() return shared end
local other = 100
local function get_other() return other end
print(type(debug.upvalueid(inc, 1)), debug.upvalueid(inc, 1) == debug.upvalueid(get, 1)) -- expect: userdata	true
print(debug.upvalueid(inc, 1) == debug.upvalueid(get_other, 1)) -- expect: false
print(debug.upvalueid(inc, 2), debug.upvalueid(print, 1)) -- expect: nil	nil
print(type(debug.upvalueid(gm, 1))) -- expect: userdata
print(pcall(debug.upvalueid, 1, 1)) -- expect: false	bad argument #1 to 'debug.upvalueid' (function expected, got number)
print(pcall(debug.upvalueid, inc)) -- expect: false	bad argument #2 to 'debug.upvalueid' (number expected, got no value)
debug.upvaluejoin(get_other, 1, inc, 1)
inc()
print(get_other(), get(), other) -- expect: 1	1	100
print(debug.upvalueid(get_other, 1) == debug.upvalueid(inc, 1)) -- expect: true
print(pcall(debug.upvaluejoin, inc, 2, get, 1)) -- expect: false	bad argument #2 to 'debug.upvaluejoin' (invalid upvalue index)
print(pcall(debug.upvaluejoin, inc, 1, get, 0)) -- expect: false	bad argument #4 to 'debug.upvaluejoin' (invalid upvalue index)
print(pcall(debug.upvaluejoin, gm, 1, get, 1)) -- expect: false	bad argument #1 to 'debug.upvaluejoin' (Lua function expected)
print(pcall(debug.upvaluejoin, get, 1, gm, 1)) -- expect: false	bad argument #3 to 'debug.upvaluejoin' (Lua function expected)
print(pcall(debug.upvaluejoin, print, 1, get, 1)) -- expect: false	bad argument #2 to 'debug.upvaluejoin' (invalid upvalue index)
print(pcall(debug.upvaluejoin, 1, 1, get, 1)) -- expect: false	bad argument #1 to 'debug.upvaluejoin' (function expected, got number)
print(pcall(debug.upvaluejoin, get, 1, get)) -- expect: false	bad argument #4 to 'debug.upvaluejoin' (number expected, got no value)
