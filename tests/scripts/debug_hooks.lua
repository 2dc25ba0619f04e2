-- lua: 5.4
-- debug.sethook / debug.gethook: call, return, tail call, line and count
-- events, masks and counts as gethook reports them, hooks per thread,
-- errors raised by hooks, and the registry table that keeps them.

print(debug.gethook()) -- expect: nil
print(select("#", debug.gethook())) -- expect: 1

-- line events, with the line as the second argument
local lines = {}
local function hook(event, line)
    lines[#lines + 1] = event .. ":" .. tostring(line) .. "/" .. debug.getinfo(2, "l").currentline
end
local function body()
    local a = 1
    local b = 2
    return a + b
end
debug.sethook(hook, "l")
body()
debug.sethook()
print(table.concat(lines, " ")) -- expect: line:20/20 line:15/15 line:16/16 line:17/17 line:21/21

-- gethook reports the function, the mask letters and the count
debug.sethook(hook, "lrc", 0)
local f, mask, count = debug.gethook()
debug.sethook()
print(f == hook, mask, count) -- expect: true	crl	0
debug.sethook(hook, "c")
print(select(2, debug.gethook())) -- expect: c	0
debug.sethook(hook, "r", 7)
print(select(2, debug.gethook())) -- expect: r	7
debug.sethook(hook, "", 3)
print(select(2, debug.gethook())) -- expect: 	3
debug.sethook(hook, "xyz l", 0)
print(select(2, debug.gethook())) -- expect: l	0
debug.sethook()
print(debug.gethook()) -- expect: nil

-- call, return and tail-call events, named as getinfo names them
local events = {}
local function record(event)
    local info = debug.getinfo(2, "nS")
    events[#events + 1] = event .. "(" .. tostring(info.name) .. ")"
end
local function leaf() return 1 end
local function tail() return leaf() end
local function caller()
    local x = leaf()
    return tail()
end
debug.sethook(record, "cr")
caller()
debug.sethook()
print(table.concat(events, " "))
-- expect: return(sethook) call(caller) call(leaf) return(leaf) tail call(nil) tail call(nil) return(nil) call(sethook)

-- count events: every N instructions
local counted = 0
debug.sethook(function(event)
    if event == "count" then counted = counted + 1 end
end, "", 1)
for i = 1, 100 do local _ = i * 2 end
debug.sethook()
print(counted > 100) -- expect: true
local by_ten = 0
debug.sethook(function() by_ten = by_ten + 1 end, "", 10)
for i = 1, 100 do local _ = i * 2 end
debug.sethook()
print(by_ten > 10, by_ten < counted) -- expect: true	true
-- a count with other events
local kinds = {}
debug.sethook(function(event) kinds[event] = true end, "c", 1)
body()
debug.sethook()
print(kinds.call, kinds.count, kinds["return"], kinds.line) -- expect: true	true	nil	nil

-- hooks do not fire inside a hook
local depth, deepest = 0, 0
debug.sethook(function()
    depth = depth + 1
    deepest = math.max(deepest, depth)
    body()
    depth = depth - 1
end, "l")
body()
debug.sethook()
print(deepest) -- expect: 1

-- an error in a hook propagates to the code it interrupted
debug.sethook(function(event, line)
    if debug.getinfo(2, "f").func == body then error("from the hook at a " .. event, 0) end
end, "l")
local ok, err = pcall(body)
debug.sethook()
print(ok, err) -- expect: false	from the hook at a line

-- each thread has its own hook
local co = coroutine.create(function()
    local x = 1
    coroutine.yield()
    x = x + 1
    return x
end)
local co_lines = {}
local co_hook = function(event, line) co_lines[#co_lines + 1] = line end
debug.sethook(co, co_hook, "l")
print(debug.gethook() == nil, debug.gethook(co) == co_hook) -- expect: true	true
print(select(2, debug.gethook(co))) -- expect: l	0
coroutine.resume(co)
coroutine.resume(co)
print(table.concat(co_lines, " ")) -- expect: 100 101 102 103
debug.sethook(co)
print(debug.gethook(co)) -- expect: nil
-- a hook set in a coroutine stays there
local inner_hooked
local setter = coroutine.wrap(function()
    debug.sethook(function() end, "l")
    inner_hooked = debug.gethook() ~= nil
    debug.sethook()
end)
setter()
print(inner_hooked, debug.gethook()) -- expect: true	nil

-- the hooks live in the registry, keyed by thread, with weak keys
debug.sethook(co, co_hook, "c")
local hooks = debug.getregistry()._HOOKKEY
print(type(hooks), getmetatable(hooks).__mode, hooks[co] == co_hook) -- expect: table	k	true
debug.sethook(co)
print(hooks[co]) -- expect: nil

-- errors
print(pcall(debug.sethook, 1, "l")) -- expect: false	bad argument #1 to 'debug.sethook' (function expected, got number)
print(pcall(debug.sethook, hook)) -- expect: false	bad argument #2 to 'debug.sethook' (string expected, got no value)
print(pcall(debug.sethook, hook, "l", "x")) -- expect: false	bad argument #3 to 'debug.sethook' (number expected, got string)
print(pcall(debug.sethook, co, hook)) -- expect: false	bad argument #3 to 'debug.sethook' (string expected, got no value)
print(pcall(debug.sethook, hook, {})) -- expect: false	bad argument #2 to 'debug.sethook' (string expected, got table)
print(debug.gethook()) -- expect: nil
