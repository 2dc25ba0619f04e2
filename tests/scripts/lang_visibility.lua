-- lua: 5.4
-- §3.5 visibility rules: lexical scoping, shadowing, upvalues shared
-- between closures, a fresh local per loop iteration, and closures that
-- outlive their block.

local x = 10
do
    local x = x + 1           -- the new x is visible only after the declaration
    print(x) -- expect: 11
    do
        local x = x * 2
        print(x) -- expect: 22
    end
    print(x) -- expect: 11
end
print(x) -- expect: 10

-- a local declared in the same statement is not yet visible
local y = 1
local y, z = 2, y
print(y, z) -- expect: 2	1

-- shadowing inside a function leaves the outer variable alone
local counter = 0
local function shadow()
    local counter = 100
    counter = counter + 1
    return counter
end
print(shadow(), counter) -- expect: 101	0

-- closures share upvalues: one variable, many functions
local function make_pair()
    local value = 0
    return function() value = value + 1 return value end, function() return value end
end
local inc, get = make_pair()
inc() inc()
print(get()) -- expect: 2
local inc2, get2 = make_pair()
inc2()
print(get(), get2()) -- expect: 2	1

-- a fresh local per iteration of numeric and generic for, and of while
-- with a local in the body
local fns = {}
for i = 1, 3 do fns[i] = function() return i end end
print(fns[1](), fns[2](), fns[3]()) -- expect: 1	2	3
local gfns = {}
for k, v in ipairs({ "a", "b", "c" }) do gfns[k] = function() return v end end
print(gfns[1](), gfns[2](), gfns[3]()) -- expect: a	b	c
local wfns = {}
local w = 0
while w < 3 do
    w = w + 1
    local captured = w * 10
    wfns[w] = function() return captured end
end
print(wfns[1](), wfns[2](), wfns[3]()) -- expect: 10	20	30
-- a variable declared outside the loop is shared by all the closures
local shared = 0
local sfns = {}
for i = 1, 3 do shared = i sfns[i] = function() return shared end end
print(sfns[1](), sfns[2](), sfns[3]()) -- expect: 3	3	3
-- closures over the loop variable can modify their own copy
local mfns = {}
for i = 1, 2 do
    mfns[i] = { get = function() return i end, set = function(v) i = v end }
end
mfns[1].set(100)
print(mfns[1].get(), mfns[2].get()) -- expect: 100	2

-- upvalues survive the end of their block and of the function
local keep
do
    local hidden = "block local"
    keep = function() return hidden end
end
print(keep()) -- expect: block local
local function outer()
    local level1 = 1
    return function()
        local level2 = 2
        return function() return level1 + level2 end
    end
end
print(outer()()()) -- expect: 3

-- repeat-until: the condition sees locals of the body
local tries = 0
repeat
    tries = tries + 1
    local finished = tries == 3
until finished
print(tries) -- expect: 3

-- locals in a function are not visible in functions defined elsewhere
local function sees_global() return hidden_name end
do
    local hidden_name = "local"
    print(sees_global()) -- expect: nil
end

-- functions defined in a loop each capture that iteration's locals,
-- including ones declared after a goto target
local gfs = {}
do
    local n = 0
    ::again::
    n = n + 1
    local mine = n * 100
    gfs[n] = function() return mine end
    if n < 3 then goto again end
end
print(gfs[1](), gfs[2](), gfs[3]()) -- expect: 100	200	300

-- upvalues of coroutines are shared with the creating function
local co_shared = 0
local co = coroutine.wrap(function() while true do co_shared = co_shared + 1 coroutine.yield() end end)
co() co()
print(co_shared) -- expect: 2

-- limits: at most 200 locals in a function, 255 upvalues in a closure
local many = { "local v1" }
for i = 2, 200 do many[#many + 1] = "local v" .. i end
print(load(table.concat(many, "\n")) ~= nil) -- expect: true
many[#many + 1] = "local v201"
print((select(2, load(table.concat(many, "\n"))):match("too many local variables %(limit is 200%)"))) -- expect: too many local variables (limit is 200)
-- an inner function referencing the locals of two enclosing functions
local function upvalue_source(outer_n, inner_n)
    local parts = { "local function f1()" }
    local names = {}
    for i = 1, outer_n do parts[#parts + 1] = "local a" .. i .. " = " .. i names[#names + 1] = "a" .. i end
    parts[#parts + 1] = "local function f2()"
    for i = 1, inner_n do parts[#parts + 1] = "local b" .. i .. " = " .. i names[#names + 1] = "b" .. i end
    parts[#parts + 1] = "return function() return " .. table.concat(names, " + ") .. " end"
    parts[#parts + 1] = "end return f2() end return f1()()"
    return table.concat(parts, "\n")
end
print(load(upvalue_source(150, 105))()) -- expect: 16890
print((select(2, load(upvalue_source(150, 106))):match("too many upvalues %(limit is 255%)"))) -- expect: too many upvalues (limit is 255)
