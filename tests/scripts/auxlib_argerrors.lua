-- lua: 5.4
-- The auxiliary library's error messages as scripts see them: how
-- luaL_argerror names the function (call-site name, method calls, global
-- name when called from C, '?'), luaL_typeerror's type names (__name,
-- light userdata), number checks, options, luaL_error's position prefix,
-- luaL_len, luaL_checkstack, luaL_checkudata, luaL_fileresult,
-- luaL_execresult and luaL_gsub (through package.searchpath).

local function e(f, ...) return select(2, pcall(f, ...)) end
local function strip(msg) return (tostring(msg):gsub("^tests/scripts/auxlib_argerrors.lua:(%d+): ", "L%1: ")) end

-- the name the caller used
print(strip(e(function() return string.rep() end)))            -- expect: L13: bad argument #1 to 'rep' (string expected, got no value)
print(strip(e(function() local rep = string.rep; return rep() end))) -- expect: L14: bad argument #1 to 'rep' (string expected, got no value)
print(strip(e(function() local t = { f = string.rep }; return t.f() end))) -- expect: L15: bad argument #1 to 'f' (string expected, got no value)
print(strip(e(function() return math.floor("x") end)))         -- expect: L16: bad argument #1 to 'floor' (number expected, got string)
print(strip(e(function() return tonumber() end)))              -- expect: L17: bad argument #1 to 'tonumber' (value expected)
-- methods: self is not counted; a bad self says so
print(strip(e(function() return ("x"):rep() end)))             -- expect: L19: bad argument #1 to 'rep' (number expected, got no value)
print(strip(e(function() return ("x"):rep(1, {}) end)))        -- expect: L20: bad argument #2 to 'rep' (string expected, got table)
print(strip(e(function() local s = setmetatable({}, { __index = string }); return s:upper() end))) -- expect: L21: calling 'upper' on bad self (string expected, got table)
print(strip(e(function() return io.stdout:write({}) end)))     -- expect: L22: bad argument #1 to 'write' (string expected, got table)
print(strip(e(function() return io.stdout.write(1) end)))      -- expect: L23: bad argument #1 to 'write' (FILE* expected, got number)
-- called from C (pcall): the global name, "_G." dropped
print(e(string.rep))                       -- expect: bad argument #1 to 'string.rep' (string expected, got no value)
print(e(math.floor, {}))                   -- expect: bad argument #1 to 'math.floor' (number expected, got table)
print(e(setmetatable, 1))                  -- expect: bad argument #1 to 'setmetatable' (table expected, got number)
print(e(table.concat, 1))                  -- expect: bad argument #1 to 'table.concat' (table expected, got number)
print(e(utf8.char, -1))                    -- expect: bad argument #1 to 'utf8.char' (value out of range)
-- no name at all
local ipairs_step = ipairs({})
print(e(ipairs_step, {}, "x"))             -- expect: bad argument #2 to '?' (number expected, got string)

-- what was received
print(e(math.floor, nil))                  -- expect: bad argument #1 to 'math.floor' (number expected, got nil)
print(e(math.floor, true))                 -- expect: bad argument #1 to 'math.floor' (number expected, got boolean)
print(e(math.floor, print))                -- expect: bad argument #1 to 'math.floor' (number expected, got function)
print(e(math.floor, coroutine.create(print))) -- expect: bad argument #1 to 'math.floor' (number expected, got thread)
print(e(math.floor, setmetatable({}, { __name = "MyType" }))) -- expect: bad argument #1 to 'math.floor' (number expected, got MyType)
print(e(math.floor, setmetatable({}, { __name = 42 })))       -- expect: bad argument #1 to 'math.floor' (number expected, got table)
print(e(math.floor, io.stdout))            -- expect: bad argument #1 to 'math.floor' (number expected, got FILE*)
print(e(math.floor, debug.upvalueid(e, 1)))  -- expect: bad argument #1 to 'math.floor' (number expected, got light userdata)
print(e(string.rep, "x", 1.5))             -- expect: bad argument #2 to 'string.rep' (number has no integer representation)
print(e(string.rep, "x", "1.5"))           -- expect: bad argument #2 to 'string.rep' (number has no integer representation)
print(e(string.rep, "x", 2^63))            -- expect: bad argument #2 to 'string.rep' (number has no integer representation)
print(e(string.rep, "x", "abc"))           -- expect: bad argument #2 to 'string.rep' (number expected, got string)
print(string.rep("x", "3"), string.rep("x", 3.0), string.rep(5, 2)) -- expect: xxx	xxx	55
print(e(string.char, 256))                 -- expect: bad argument #1 to 'string.char' (value out of range)
print(e(collectgarbage, "nope"))           -- expect: bad argument #1 to 'collectgarbage' (invalid option 'nope')
print(e(io.stdout.seek, io.stdout, "nowhere")) -- expect: bad argument #2 to '?' (invalid option 'nowhere')
print(e(os.date, {}))                      -- expect: bad argument #1 to 'os.date' (string expected, got table)

-- luaL_error prefixes the position of the Lua code that called the C function
print(strip(e(function() return table.concat({ {} }) end)))    -- expect: L54: invalid value (table) at index 1 in table for 'concat'
print(e(table.concat, { {} }))             -- expect: invalid value (table) at index 1 in table for 'concat'
print(strip(e(function() return ("x"):rep(1e10) end)))         -- expect: L56: resulting string too large
print(strip(e(function() return setmetatable(setmetatable({}, { __metatable = 1 }), {}) end))) -- expect: L57: cannot change a protected metatable

-- luaL_len: __len must give an integer
print(e(table.concat, setmetatable({}, { __len = function() return "x" end }))) -- expect: object length is not an integer
print(e(table.concat, setmetatable({}, { __len = function() return 1.5 end }))) -- expect: object length is not an integer
print(table.concat(setmetatable({}, { __len = function() return "2" end, __index = function(_, i) return i end }))) -- expect: 12
print(table.concat(setmetatable({}, { __len = function() return 2.0 end, __index = function(_, i) return i end }))) -- expect: 12

-- luaL_checkstack
print(e(utf8.codepoint, string.rep("a", 1100000), 1, -1)) -- expect: stack overflow (string slice too long)

-- luaL_fileresult: fail, "name: reason", errno
print(io.open("/nonexistent/dir/file"))    -- expect: nil	/nonexistent/dir/file: No such file or directory	2
print(io.open("/nonexistent/dir/file", "w")) -- expect: nil	/nonexistent/dir/file: No such file or directory	2
print(os.remove("/nonexistent/dir/file"))  -- expect: nil	/nonexistent/dir/file: No such file or directory	2
print(os.rename("/nonexistent/a", "/nonexistent/b")) -- expect: nil	No such file or directory	2
local ok_file = io.open("tests/scripts/auxlib_argerrors.lua")
print(io.type(ok_file), ok_file:close())   -- expect: file	true

-- luaL_execresult: true/fail, "exit"/"signal", code
print(os.execute("exit 0"))                -- expect: true	exit	0
print(os.execute("exit 3"))                -- expect: nil	exit	3
print(os.execute("kill -9 $$"))            -- expect: nil	signal	9
print(io.popen("exit 5"):close())          -- expect: nil	exit	5
print(io.popen("true"):close())            -- expect: true	exit	0

-- luaL_gsub builds package.searchpath's file names and messages
print(package.searchpath("a.b.c", "/nonexistent/?.lua;/nowhere/?/init.lua")) -- expect: nil	no file '/nonexistent/a/b/c.lua'
-- expect: 	no file '/nowhere/a/b/c/init.lua'
print(package.searchpath("a.b", "/nonexistent/?.x", ".", "_")) -- expect: nil	no file '/nonexistent/a_b.x'
print(package.searchpath("a_b", "/nonexistent/?", "_", "/")) -- expect: nil	no file '/nonexistent/a/b'
print(package.searchpath("plain", "no_marks_here")) -- expect: nil	no file 'no_marks_here'
