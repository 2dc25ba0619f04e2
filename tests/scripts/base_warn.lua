-- lua: 5.4
-- warn: off by default, "@on"/"@off" control messages, multi-piece
-- messages, argument checks.
--
-- Warnings go to stderr, and only through the warning function that
-- luaL_newstate installs (a host with its own state may have none), so the
-- exact stream is checked by running a child script under this same
-- interpreter when it can be named (arg[-1]); the calls in this process
-- only have to run.

local child_source = [[
warn("not shown: warnings start off")
warn("@on")
warn("first ", "message")
warn("@unknown control messages are ignored")
warn(1, 2)
warn("@off")
warn("hidden")
warn("@on")
warn("a", "@off")
warn("after")
warn("@o", "n")
warn("x", "@on")
warn("@off")
warn("y", "@on")
warn("back on")
warn("")
warn("", "")
print("stdout line")
]]
-- while on, a continued message is all text ("a@off", "x@on"); while off,
-- only a message's last piece is looked at, so "y", "@on" turns them on
local expected = "Lua warning: first message\n" ..
                 "Lua warning: 12\n" ..
                 "Lua warning: a@off\n" ..
                 "Lua warning: after\n" ..
                 "Lua warning: @on\n" ..
                 "Lua warning: x@on\n" ..
                 "Lua warning: back on\n" ..
                 "Lua warning: \n" ..
                 "Lua warning: \n"

-- the same calls here: they must not fail
load(child_source:gsub('print%b()', ''))()
warn("@off")

print(pcall(warn))                          -- expect: false	bad argument #1 to 'warn' (string expected, got no value)
print(pcall(warn, "x", {}))                 -- expect: false	bad argument #2 to 'warn' (string expected, got table)
print(pcall(warn, {}))                      -- expect: false	bad argument #1 to 'warn' (string expected, got table)
print(pcall(warn, "a", nil))                -- expect: false	bad argument #2 to 'warn' (string expected, got nil)
print(select("#", warn("@off")))            -- expect: 0

local interpreter = arg and arg[-1]
if interpreter and io.popen then
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write(child_source)
    f:close()
    local p = io.popen(string.format("%s %s 2>&1 >/dev/null", interpreter, path))
    local stderr = p:read("a")
    p:close()
    p = io.popen(string.format("%s %s 2>/dev/null", interpreter, path))
    local stdout = p:read("a")
    p:close()
    os.remove(path)
    assert(stderr == expected, stderr)
    assert(stdout == "stdout line\n", stdout)
end
print("done")                               -- expect: done
