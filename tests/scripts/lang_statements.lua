-- lua: 5.4
-- §3.2-§3.3 variables and statements: assignment, blocks, while/repeat/if,
-- goto and labels, numeric for (integer and float loops, overflow at the
-- limits), generic for, <const> and <close>.

local log = {}
local function note(s) log[#log + 1] = tostring(s) end
local function flush() local s = table.concat(log, " ") log = {} return s end

-- multiple assignment: all expressions are evaluated before assigning
local a, b, c = 1, 2
print(a, b, c) -- expect: 1	2	nil
a, b = b, a
print(a, b) -- expect: 2	1
local t = { 1, 2, 3 }
local i = 1
i, t[i] = i + 1, 20
print(i, t[1], t[2]) -- expect: 2	20	2
local x, y = (function() return 1, 2, 3 end)()
print(x, y) -- expect: 1	2
local p, q, r = (function() return 1, 2 end)(), 10
print(p, q, r) -- expect: 1	10	nil

-- while, repeat (the until condition sees the body's locals), if chains
local n = 0
while n < 5 do n = n + 1 end
print(n) -- expect: 5
local k = 0
repeat local done = k >= 3; k = k + 1 until done
print(k) -- expect: 4
local function classify(v)
    if v < 0 then return "neg" elseif v == 0 then return "zero" elseif v < 10 then return "small" else return "big" end
end
print(classify(-1), classify(0), classify(5), classify(50)) -- expect: neg	zero	small	big

-- break leaves the innermost loop only
for o = 1, 3 do
    for inner = 1, 3 do
        if inner == 2 then break end
        note(o .. inner)
    end
end
print(flush()) -- expect: 11 21 31

-- goto: continue, nested loop exit, backward jump
for v = 1, 5 do
    if v % 2 == 0 then goto continue end
    note(v)
    ::continue::
end
print(flush()) -- expect: 1 3 5
for o = 1, 3 do
    for inner = 1, 3 do
        if o * inner == 4 then goto out end
        note(o * inner)
    end
end
::out::
print(flush()) -- expect: 1 2 3 2
do
    local count = 0
    ::again::
    count = count + 1
    if count < 4 then goto again end
    print(count) -- expect: 4
end
-- each pass through a backward goto makes a new local: closures see that
do
    local fns = {}
    local m = 1
    ::top::
    local captured = m
    fns[m] = function() return captured end
    m = m + 1
    if m <= 3 then goto top end
    print(fns[1](), fns[2](), fns[3]()) -- expect: 1	2	3
end
-- goto rules checked at compile time
print(load("goto nowhere")) -- expect: nil	[string "goto nowhere"]:1: no visible label 'nowhere' for <goto> at line 1
print(load("do goto inner end do ::inner:: end")) -- expect: nil	[string "do goto inner end do ::inner:: end"]:1: no visible label 'inner' for <goto> at line 1
print(load("goto skip local z = 1 ::skip:: print(z)")) -- expect: nil	[string "goto skip local z = 1 ::skip:: print(z)"]:1: <goto skip> at line 1 jumps into the scope of local 'z'
print(load("::dup:: ::dup::")) -- expect: nil	[string "::dup:: ::dup::"]:1: label 'dup' already defined on line 1
print(load("do ::l:: end ::l::") ~= nil) -- expect: true
print(load("goto fine local z = 1 do end ::fine::") ~= nil) -- expect: true
print(load("repeat goto cont local w = 1 ::cont:: until w")) -- expect: nil	[string "repeat goto cont local w = 1 ::cont:: until w..."]:1: <goto cont> at line 1 jumps into the scope of local 'w'

-- numeric for: the limit and step are evaluated once; the loop variable
-- is a fresh local copy
local evals = 0
local function limit() evals = evals + 1 return 3 end
for v = 1, limit() do note(v) end
print(flush(), evals) -- expect: 1 2 3	1
for v = 1, 3 do local w = v; v = v * 10; note(w .. ":" .. v) end
print(flush()) -- expect: 1:10 2:20 3:30
for v = 10, 1, -3 do note(v) end
print(flush()) -- expect: 10 7 4 1
for v = 1, 0 do note("never") end
for v = 5, 5 do note(v) end
print(flush()) -- expect: 5
-- integer loops near the limits do not overflow
for v = math.maxinteger - 2, math.maxinteger do note(v - math.maxinteger) end
print(flush()) -- expect: -2 -1 0
for v = math.mininteger, math.mininteger + 2 do note(v - math.mininteger) end
print(flush()) -- expect: 0 1 2
for v = math.mininteger + 2, math.mininteger, -1 do note(v - math.mininteger) end
print(flush()) -- expect: 2 1 0
for v = 1, math.maxinteger, math.maxinteger // 2 do note(v) end
print(flush()) -- expect: 1 4611686018427387904 9223372036854775807
for v = math.maxinteger, math.maxinteger - 10, -7 do note(math.maxinteger - v) end
print(flush()) -- expect: 0 7
local iterations = 0
for v = math.maxinteger - 1, math.huge do iterations = iterations + 1 end
print(iterations) -- expect: 2
for v = 0, -math.huge, -1 do iterations = iterations + 1 if iterations > 5 then break end end
print(iterations) -- expect: 6
-- a float limit with integer start and step: integer loop, limit floored
for v = 1, 3.9 do note(math.type(v) .. v) end
print(flush()) -- expect: integer1 integer2 integer3
for v = 3, 0.5, -1 do note(v) end
print(flush()) -- expect: 3 2 1
-- float loops
for v = 1.0, 2 do note(v) end
print(flush()) -- expect: 1.0 2.0
for v = 0, 1, 0.25 do note(v) end
print(flush()) -- expect: 0.0 0.25 0.5 0.75 1.0
for v = 1, 0, -0.5 do note(v) end
print(flush()) -- expect: 1.0 0.5 0.0
local float_count = 0
for v = 0.1, 1.0, 0.1 do float_count = float_count + 1 end
print(float_count) -- expect: 10
print(pcall(load("for v = 1.0, 2, 0 do end"))) -- expect: false	[string "for v = 1.0, 2, 0 do end"]:1: 'for' step is zero
-- numeric strings are converted (to a float loop: the start is not an integer)
for v = "1", 2 do note(math.type(v) .. v) end
print(flush()) -- expect: float1.0 float2.0

-- generic for: iterator, state, control; nil ends; the 4th value is closed
local function iter(state, control)
    if control < state then return control + 1, control * 2 end
end
for v, w in iter, 3, 0 do note(v .. "/" .. w) end
print(flush()) -- expect: 1/0 2/2 3/4
for k2, v2 in next, { 10 } do note(k2 .. "=" .. v2) end
print(flush()) -- expect: 1=10
do
    local closer = setmetatable({}, { __close = function() note("closed") end })
    for v in function(_, c) c = c + 1 if c <= 2 then return c end end, nil, 0, closer do note(v) end
    note("after")
    for v in function(_, c) c = c + 1 return c end, nil, 0, closer do
        if v == 2 then break end
    end
    note("after break")
end
print(flush()) -- expect: 1 2 closed after closed after break

-- <const>
local K <const> = 10
local S <const> = "str"
print(K * 2, S .. "!") -- expect: 20	str!
print(load("local c <const> = 1; c = 2")) -- expect: nil	[string "local c <const> = 1; c = 2"]:1: attempt to assign to const variable 'c'
print(load("local c <const> = 1; return function() c = 2 end")) -- expect: nil	[string "local c <const> = 1; return function() c = 2 ..."]:1: attempt to assign to const variable 'c'
print(load("local c <unknown> = 1")) -- expect: nil	[string "local c <unknown> = 1"]:1: unknown attribute 'unknown'
print(load("local a <close>, b <close> = nil, nil")) -- expect: nil	[string "local a <close>, b <close> = nil, nil"]:1: multiple to-be-closed variables in local list

-- <close>: closed in reverse order, on normal exit, break, return and error
local function closable(name)
    return setmetatable({}, { __close = function(_, err)
        note(name .. (err and (":" .. tostring(err):gsub("^.-:%d+: ", "")) or ""))
    end })
end
do
    local c1 <close> = closable("c1")
    local c2 <close> = closable("c2")
    local nothing <close> = nil
    local nope <close> = false
    note("body")
end
print(flush()) -- expect: body c2 c1
for _ = 1, 2 do
    local lc <close> = closable("loop")
    if _ == 2 then break end
end
print(flush()) -- expect: loop loop
local function returns()
    local rc <close> = closable("ret")
    return "value"
end
print(returns(), flush()) -- expect: value	ret
print(pcall(function() -- expect: false	tests/scripts/lang_statements.lua:191: failure
    local e1 <close> = closable("e1")
    local e2 <close> = closable("e2")
    error("failure")
end))
print(flush()) -- expect: e2:failure e1:failure
-- an error in __close replaces the original error, later closes still run
print(pcall(function() -- expect: false	close error
    local a1 <close> = closable("a1")
    local a2 <close> = setmetatable({}, { __close = function() error("close error", 0) end })
    error("original", 0)
end))
print(flush()) -- expect: a1:close error
print(pcall(function() local bad <close> = {} end)) -- expect: false	tests/scripts/lang_statements.lua:201: variable 'bad' got a non-closable value
print(pcall(function() local bad <close> = 42 end)) -- expect: false	tests/scripts/lang_statements.lua:202: variable 'bad' got a non-closable value
-- the value is checked when the variable is declared
local closed_before = pcall(function()
    local fine <close> = closable("fine")
    local bad <close> = "no"
end)
print(closed_before, flush()) -- expect: false	fine:variable 'bad' got a non-closable value
