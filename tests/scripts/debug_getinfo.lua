-- lua: 5.4
-- debug.getinfo: every option letter ("nSltufrL"), by level and by
-- function, other threads, the default options, and its errors.

local function sorted_keys(t)
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = k end
    table.sort(keys)
    return table.concat(keys, " ")
end

local function sample(a, b, ...)
    local x = a
    return debug.getinfo(1, "nSltufrL")
end

local info = sample(1, 2, 3)
print(sorted_keys(info))
-- expect: activelines currentline ftransfer func istailcall isvararg lastlinedefined linedefined name namewhat nparams ntransfer nups short_src source what
print(info.source:sub(1, 1), info.source:match("debug_getinfo%.lua$") ~= nil, info.short_src:match("debug_getinfo%.lua$") ~= nil) -- expect: @	true	true
print(info.what, info.linedefined, info.lastlinedefined, info.currentline) -- expect: Lua	12	15	14
print(info.name, info.namewhat, info.nups, info.nparams, info.isvararg) -- expect: sample	local	1	2	true
print(info.istailcall, info.ftransfer, info.ntransfer, info.func == sample) -- expect: false	0	0	true
local lines = {}
for line, on in pairs(info.activelines) do lines[#lines + 1] = line .. "=" .. tostring(on) end
table.sort(lines)
print(table.concat(lines, " ")) -- expect: 13=true 14=true 15=true

-- each option alone gives only its fields
local function fields(options)
    return sorted_keys(debug.getinfo(1, options))
end
print(fields("n")) -- expect: name namewhat
print(fields("S")) -- expect: lastlinedefined linedefined short_src source what
print(fields("l")) -- expect: currentline
print(fields("t")) -- expect: istailcall
print(fields("u")) -- expect: isvararg nparams nups
print(fields("f")) -- expect: func
print(fields("r")) -- expect: ftransfer ntransfer
print(fields("L")) -- expect: activelines
print("[" .. fields("") .. "]") -- expect: []
print(sorted_keys(debug.getinfo(1))) -- expect: currentline ftransfer func istailcall isvararg lastlinedefined linedefined namewhat nparams ntransfer nups short_src source what

-- by function: no current line, no name
local byfunc = debug.getinfo(sample)
print(byfunc.currentline, byfunc.name, byfunc.namewhat, byfunc.linedefined, byfunc.func == sample) -- expect: -1	nil		12	true
print(debug.getinfo(sample, "L").activelines[14], debug.getinfo(sample, "L").activelines[12]) -- expect: true	nil

-- C functions
local c = debug.getinfo(print, "nSlu")
print(c.what, c.source, c.short_src, c.currentline, c.linedefined, c.lastlinedefined) -- expect: C	=[C]	[C]	-1	-1	-1
print(c.nups, c.nparams, c.isvararg) -- expect: 0	0	true
print(debug.getinfo(print, "L").activelines) -- expect: nil
print(debug.getinfo(string.gmatch("", ""), "u").nups) -- expect: 3

-- the main chunk, and functions made by load
local main = debug.getinfo(1, "S")
local top = 1
while debug.getinfo(top + 1, "S") and debug.getinfo(top + 1, "S").what ~= "C" do top = top + 1 end
print(debug.getinfo(top, "S").what) -- expect: main
local loaded = load("return debug.getinfo(1, 'Sl')", "=chunkname")()
print(loaded.source, loaded.short_src, loaded.what, loaded.currentline, loaded.linedefined) -- expect: =chunkname	chunkname	main	1	0
loaded = load("\n\nreturn debug.getinfo(1, 'S')", "some code")()
print(loaded.source, loaded.short_src) -- expect: some code	[string "some code"]
loaded = load("return debug.getinfo(1, 'S')", "@file/name.lua")()
print(loaded.source, loaded.short_src) -- expect: @file/name.lua	file/name.lua
loaded = load("local x = 1\nreturn debug.getinfo(1, 'S')")()
print(loaded.short_src) -- expect: [string "local x = 1..."]
local long = string.rep("x", 100)
loaded = load("return debug.getinfo(1, 'S')", "=" .. long)()
print(#loaded.source, #loaded.short_src) -- expect: 101	59

-- names: global, local, method, field, upvalue, for iterator, metamethod
function global_function() return debug.getinfo(1, "n") end
local t = { field = function() return debug.getinfo(1, "n") end }
function t:method() return debug.getinfo(1, "n") end
local function show(i) print(i.name, i.namewhat) end
show(global_function()) -- expect: global_function	global
show(t.field()) -- expect: field	field
show(t:method()) -- expect: method	method
local upvalue_function = sample
show((function() local i = upvalue_function(1, 2) return i end)()) -- expect: upvalue_function	upvalue
for i in function() return debug.getinfo(1, "n") end do show(i) break end -- expect: for iterator	for iterator
local meta = setmetatable({}, { __index = function(_, k) return debug.getinfo(1, "n") end })
show(meta.anything) -- expect: index	metamethod
local adder = setmetatable({}, { __add = function() return debug.getinfo(1, "n") end })
show(adder + 1) -- expect: add	metamethod

-- tail calls
local function tail_target() return debug.getinfo(1, "tn") end
local function tail_caller() return tail_target() end
local tailinfo = tail_caller()
print(tailinfo.istailcall, tailinfo.name, "[" .. tailinfo.namewhat .. "]") -- expect: true	nil	[]

-- transfers: a return hook sees what is returned
local transferred
debug.sethook(function(event)
    local r = debug.getinfo(2, "r")
    if r.ntransfer == 3 then transferred = r.ftransfer .. "," .. r.ntransfer end
end, "r")
local function three_values() local a, b = 1, 2 return a, b, 3 end
three_values()
debug.sethook()
print(transferred) -- expect: 3,3

-- levels: 0 is getinfo itself, out of range gives nil
print(debug.getinfo(0, "n").name, debug.getinfo(0, "S").what) -- expect: getinfo	C
print(debug.getinfo(100), debug.getinfo(-1)) -- expect: nil	nil
local depth = 0
while debug.getinfo(depth + 1, "") do depth = depth + 1 end
print(depth >= 1, debug.getinfo(depth + 1, "l")) -- expect: true	nil

-- another thread
local co = coroutine.create(function(p)
    local inside = p
    coroutine.yield()
end)
coroutine.resume(co, 5)
local ci = debug.getinfo(co, 1, "Slnf")
print(ci.what, ci.currentline, type(ci.func), ci.name) -- expect: Lua	116	function	nil
print(debug.getinfo(co, 0, "Sn").what, debug.getinfo(co, 0, "n").name) -- expect: C	yield
print(debug.getinfo(co, 2), debug.getinfo(co, sample, "S").linedefined) -- expect: nil	12
print(debug.getinfo(co, 1, "L").activelines[116]) -- expect: true
print(debug.getinfo(coroutine.create(print), 0)) -- expect: nil

-- errors
print(pcall(debug.getinfo, 1, "x")) -- expect: false	bad argument #2 to 'debug.getinfo' (invalid option)
print(pcall(debug.getinfo, 1, "nSx")) -- expect: false	bad argument #2 to 'debug.getinfo' (invalid option)
print(pcall(debug.getinfo, 1, ">S")) -- expect: false	bad argument #2 to 'debug.getinfo' (invalid option '>')
print(pcall(debug.getinfo, co, 1, ">")) -- expect: false	bad argument #3 to 'debug.getinfo' (invalid option '>')
print(pcall(debug.getinfo, co, 1, "q")) -- expect: false	bad argument #3 to 'debug.getinfo' (invalid option)
print(pcall(debug.getinfo)) -- expect: false	bad argument #1 to 'debug.getinfo' (number expected, got no value)
print(pcall(debug.getinfo, {})) -- expect: false	bad argument #1 to 'debug.getinfo' (number expected, got table)
print(pcall(debug.getinfo, co)) -- expect: false	bad argument #2 to 'debug.getinfo' (number expected, got no value)
print(pcall(debug.getinfo, 1, {})) -- expect: false	bad argument #2 to 'debug.getinfo' (string expected, got table)
print(pcall(debug.getinfo, 1.5)) -- expect: false	bad argument #1 to 'debug.getinfo' (number has no integer representation)
