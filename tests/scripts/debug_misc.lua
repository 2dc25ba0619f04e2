-- lua: 5.4
-- debug.traceback (message, level, thread, values that are not strings),
-- debug.getmetatable/setmetatable, getregistry, getuservalue/setuservalue
-- on handles without user values, setcstacklimit, and debug.debug
-- reading commands from a child interpreter's standard input.

-- a traceback up to the main chunk, with this file's name cut short (what
-- is below the main chunk depends on the program running the script)
local script = debug.getinfo(1, "S").short_src
local function shown(traceback)
    local out = {}
    for line in (traceback .. "\n"):gmatch("(.-)\n") do
        out[#out + 1] = line:gsub(script:gsub("%p", "%%%0"), "SCRIPT")
        if line:find("in main chunk", 1, true) then break end
    end
    return table.concat(out, "|")
end

local function level3() return debug.traceback("message") end
local function level2() local t = level3() return t end
local function level1() local t = level2() return t end
print(shown(level1()))
-- expect: message|stack traceback:|	SCRIPT:19: in upvalue 'level3'|	SCRIPT:20: in upvalue 'level2'|	SCRIPT:21: in local 'level1'|	SCRIPT:22: in main chunk
print(shown(debug.traceback())) -- expect: stack traceback:|	SCRIPT:24: in main chunk
print(shown(debug.traceback(nil))) -- expect: stack traceback:|	SCRIPT:25: in main chunk
print(shown(debug.traceback("at level 0", 0))) -- expect: at level 0|stack traceback:|	[C]: in function 'debug.traceback'|	SCRIPT:26: in main chunk
print(shown(debug.traceback(12))) -- expect: 12|stack traceback:|	SCRIPT:27: in main chunk
print(shown(debug.traceback("", 1))) -- expect: |stack traceback:|	SCRIPT:28: in main chunk
print(debug.traceback("too deep", 50)) -- expect: too deep
-- expect: stack traceback:
local function levels(n) return debug.traceback("lv", n) end
print(shown((function() local t = levels(2) return t end)())) -- expect: lv|stack traceback:|	SCRIPT:32: in function <SCRIPT:32>|	SCRIPT:32: in main chunk
-- values that are not strings come back untouched
local t = {}
print(debug.traceback(t) == t, debug.traceback(true), debug.traceback(print) == print) -- expect: true	true	true
print(select("#", debug.traceback({}, "ignored"))) -- expect: 1
-- tracebacks of another thread start at its level 0
local co = coroutine.create(function()
    local function deeper() coroutine.yield() end
    deeper()
end)
coroutine.resume(co)
print(shown(debug.traceback(co)))
-- expect: stack traceback:|	[C]: in function 'coroutine.yield'|	SCRIPT:39: in local 'deeper'|	SCRIPT:40: in function <SCRIPT:38>
print(shown(debug.traceback(co, "msg", 1))) -- expect: msg|stack traceback:|	SCRIPT:39: in local 'deeper'|	SCRIPT:40: in function <SCRIPT:38>
print(shown(debug.traceback(co, nil, 2))) -- expect: stack traceback:|	SCRIPT:40: in function <SCRIPT:38>
print(debug.traceback(co, t) == t) -- expect: true
print(shown(debug.traceback(coroutine.create(print), "fresh"))) -- expect: fresh|stack traceback:
print(pcall(debug.traceback, "m", "x")) -- expect: false	bad argument #2 to 'debug.traceback' (number expected, got string)
print(pcall(debug.traceback, co, "m", {})) -- expect: false	bad argument #3 to 'debug.traceback' (number expected, got table)
-- long tracebacks are cut in the middle
local function recurse(n) if n == 0 then return debug.traceback("deep") end local r = recurse(n - 1) return r end
local deep = recurse(100)
print(deep:find("\n\t...\t(skipping ", 1, true) ~= nil, select(2, deep:gsub("\n", "")) < 40) -- expect: true	true

-- metatables of any value
print(debug.getmetatable("").__index == string, debug.getmetatable(1), debug.getmetatable(nil)) -- expect: true	nil	nil
local protected = setmetatable({}, { __metatable = "locked" })
print(getmetatable(protected), type(debug.getmetatable(protected))) -- expect: locked	table
print(pcall(debug.getmetatable)) -- expect: false	bad argument #1 to 'debug.getmetatable' (value expected)
local number_meta = { __index = function(n, k) return k .. n end }
print(debug.setmetatable(10, number_meta)) -- expect: 10
print((5).x, (2.5).y) -- expect: x5	y2.5
print(debug.setmetatable(0, nil), debug.getmetatable(1)) -- expect: 0	nil
print(debug.setmetatable(protected, nil) == protected, getmetatable(protected)) -- expect: true	nil
debug.setmetatable(print, { __index = { kind = "a function" } })
print(print.kind, (function() end).kind) -- expect: a function	a function
debug.setmetatable(print, nil)
print(debug.setmetatable(nil, { __len = function() return 42 end }) == nil, #nil) -- expect: true	42
debug.setmetatable(nil, nil)
print(pcall(debug.setmetatable, 1, 2)) -- expect: false	bad argument #2 to 'debug.setmetatable' (nil or table expected, got number)
print(pcall(debug.setmetatable, 1)) -- expect: false	bad argument #2 to 'debug.setmetatable' (nil or table expected, got no value)

-- the registry
local registry = debug.getregistry()
print(type(registry), registry == debug.getregistry(), registry._LOADED == package.loaded) -- expect: table	true	true
print(registry[2] == _G, type(registry[1])) -- expect: true	thread

-- user values: a file handle has none; other values have none at all
print(debug.getuservalue(io.stdout)) -- expect: nil
print(select("#", debug.getuservalue(io.stdout, 1))) -- expect: 1
print(debug.getuservalue(io.stdout, 0), debug.getuservalue(io.stdout, -1)) -- expect: nil	nil
print(debug.getuservalue(1), debug.getuservalue({}), debug.getuservalue(nil)) -- expect: nil	nil	nil
print(debug.setuservalue(io.stdout, "x")) -- expect: nil
print(debug.setuservalue(io.stdout, "x", 2)) -- expect: nil
print(pcall(debug.setuservalue, {}, 1)) -- expect: false	bad argument #1 to 'debug.setuservalue' (userdata expected, got table)
print(pcall(debug.setuservalue, io.stdout)) -- expect: false	bad argument #2 to 'debug.setuservalue' (value expected)
print(pcall(debug.getuservalue, io.stdout, "x")) -- expect: false	bad argument #2 to 'debug.getuservalue' (number expected, got string)

-- setcstacklimit is kept for compatibility: it changes nothing
print(debug.setcstacklimit(100), debug.setcstacklimit(30000)) -- expect: 200	200
print(pcall(debug.setcstacklimit)) -- expect: false	bad argument #1 to 'debug.setcstacklimit' (number expected, got no value)

-- debug.debug: commands from standard input until "cont"; errors are
-- printed to standard error and the loop goes on
local function interpreter()
    local first = 0
    while arg[first - 1] ~= nil do first = first - 1 end
    if first == 0 then return "lua5.4" end
    local words = {}
    for i = first, -1 do words[#words + 1] = "'" .. arg[i]:gsub("'", "'\\''") .. "'" end
    return table.concat(words, " ")
end
local child = os.tmpname()
local commands = os.tmpname()
local function write(path, text)
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
end
local function run_debug(input)
    write(commands, input)
    local p = io.popen(interpreter() .. " " .. child .. " < " .. commands .. " 2>&1")
    local out = p:read("a")
    p:close()
    return (out:gsub("table: 0x%x+", "table: ADDRESS"))
end
write(child, "x = 'global'\ndebug.debug()\nprint('after debug, x is ' .. x)\n")
io.write(run_debug("print(1 + 1)\nx = 'changed'\nerror('boom')\nerror({})\nlocal y = = 1\ncontinue\ncont\nprint('not run')\n"))
-- expect: lua_debug> 2
-- expect: lua_debug> lua_debug> (debug command):1: boom
-- expect: lua_debug> table: ADDRESS
-- expect: lua_debug> (debug command):1: unexpected symbol near '='
-- expect: lua_debug> (debug command):2: syntax error near <eof>
-- expect: lua_debug> after debug, x is changed
-- the end of input ends it too; "cont" must be the whole line
io.write(run_debug("print('only line')\n cont\ncont \n"), "|\n")
-- expect: lua_debug> only line
-- expect: lua_debug> (debug command):2: syntax error near <eof>
-- expect: lua_debug> (debug command):2: syntax error near <eof>
-- expect: lua_debug> after debug, x is global
-- expect: |
io.write(run_debug("cont"), "|\n")
-- expect: lua_debug> (debug command):1: syntax error near <eof>
-- expect: lua_debug> after debug, x is global
-- expect: |
os.remove(child)
os.remove(commands)
