-- lua: 5.4
-- os.execute (its three results), os.exit (status and closing the state,
-- run in a child interpreter), os.getenv, os.remove, os.rename,
-- os.setlocale (every category) and os.tmpname.

-- The command that runs this same interpreter: arg's negative indices, as
-- lua5.4 and tide-libcheck set them (a host that sets none gets lua5.4).
local function interpreter()
    local first = 0
    while arg[first - 1] ~= nil do first = first - 1 end
    if first == 0 then return "lua5.4" end
    local words = {}
    for i = first, -1 do words[#words + 1] = "'" .. arg[i]:gsub("'", "'\\''") .. "'" end
    return table.concat(words, " ")
end

-- Runs [source] in a child interpreter; returns its output and status.
local function run_child(source, environment)
    local script = os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write(source)
    f:close()
    local p = io.popen((environment or "") .. " " .. interpreter() .. " " .. script .. " 2>&1")
    local output = p:read("a")
    local _, how, code = p:close()
    os.remove(script)
    return output, how, code
end

-- os.execute
print(os.execute()) -- expect: true
print(os.execute("true")) -- expect: true	exit	0
print(os.execute("exit 3")) -- expect: nil	exit	3
print(os.execute("false")) -- expect: nil	exit	1
print(os.execute("kill -9 $$")) -- expect: nil	signal	9
print(os.execute("kill -15 $$")) -- expect: nil	signal	15
print(os.execute("exit 255")) -- expect: nil	exit	255
print(pcall(os.execute, {})) -- expect: false	bad argument #1 to 'os.execute' (string expected, got table)

-- os.exit: the status from a boolean or a number, true by default
local out, how, code = run_child("io.write('bye') os.exit()")
print(out, how, code) -- expect: bye	exit	0
print(select(2, run_child("os.exit(true)"))) -- expect: exit	0
print(select(2, run_child("os.exit(false)"))) -- expect: exit	1
print(select(2, run_child("os.exit(7)"))) -- expect: exit	7
print(select(2, run_child("os.exit(7.0)"))) -- expect: exit	7
print(run_child("print(pcall(os.exit, 'x')) print(pcall(os.exit, 1.5))"))
-- expect: false	bad argument #1 to 'os.exit' (number expected, got string)
-- expect: false	bad argument #1 to 'os.exit' (number has no integer representation)
-- expect: 	exit	0
-- with close, the state is closed first: finalizers and pending
-- to-be-closed variables run; without it they do not
local finalizing = [[
    local reachable = setmetatable({}, { __gc = function() io.write("finalized ") end })
    local x <close> = setmetatable({}, { __close = function() io.write("closed ") end })
    io.write("exiting ")
    os.exit(%s)
]]
print(run_child(finalizing:format("3, true"))) -- expect: exiting closed finalized 	exit	3
print(run_child(finalizing:format("3, false"))) -- expect: exiting 	exit	3
print(run_child(finalizing:format("true, 1"))) -- expect: exiting closed finalized 	exit	0

-- os.getenv
print(type(os.getenv("PATH")), os.getenv("TIDE_SURELY_UNSET_VARIABLE")) -- expect: string	nil
print(run_child("print(os.getenv('TIDE_TEST_VALUE'))", "TIDE_TEST_VALUE='a value'"))
-- expect: a value
-- expect: 	exit	0
print(pcall(os.getenv)) -- expect: false	bad argument #1 to 'os.getenv' (string expected, got no value)
print(pcall(os.getenv, {})) -- expect: false	bad argument #1 to 'os.getenv' (string expected, got table)

-- os.tmpname makes an empty file under /tmp with a new name each time
local a, b = os.tmpname(), os.tmpname()
print(a ~= b, a:match("^/tmp/lua_%w+$") ~= nil) -- expect: true	true
local f = io.open(a)
print(io.type(f), #f:read("a")) -- expect: file	0
f:close()

-- os.rename and os.remove
f = io.open(a, "w")
f:write("moved")
f:close()
print(os.rename(a, b)) -- expect: true
print(io.open(a), (select(2, io.open(a))):gsub(a, "A", 1)) -- expect: nil	A: No such file or directory	1
f = io.open(b)
print(f:read("a")) -- expect: moved
f:close()
local dir = b .. ".d"
print(os.execute("mkdir " .. dir)) -- expect: true	exit	0
print(os.remove(dir)) -- expect: true
print(os.remove(b)) -- expect: true
local r1, r2, r3 = os.remove(b)
print(r1, (r2:gsub(b, "B", 1)), r3) -- expect: nil	B: No such file or directory	2
print(os.rename(a, b)) -- expect: nil	No such file or directory	2
assert(os.execute("mkdir " .. dir .. " && touch " .. dir .. "/inside"))
r1, r2, r3 = os.remove(dir)
print(r1, (r2:gsub(dir, "D", 1)), r3) -- expect: nil	D: Directory not empty	39
assert(os.execute("rm -r " .. dir))
print(pcall(os.remove)) -- expect: false	bad argument #1 to 'os.remove' (string expected, got no value)
print(pcall(os.rename, "a")) -- expect: false	bad argument #2 to 'os.rename' (string expected, got no value)

-- os.setlocale: query every category; set and restore
local categories = { "all", "collate", "ctype", "monetary", "numeric", "time" }
for _, c in ipairs(categories) do io.write(c, "=", os.setlocale(nil, c), " ") end
print("|") -- expect: all=C collate=C ctype=C monetary=C numeric=C time=C |
print(os.setlocale(), os.setlocale("C"), os.setlocale("POSIX", "numeric"), os.setlocale(nil, "numeric")) -- expect: C	C	C	C
print(os.setlocale("no_SUCH.locale")) -- expect: nil
print(os.setlocale("no_SUCH.locale", "time")) -- expect: nil
for _, c in ipairs(categories) do io.write(tostring(os.setlocale("C", c)), " ") end
print("|") -- expect: C C C C C C |
print(type(os.setlocale(""))) -- expect: string
os.setlocale("C")
print(pcall(os.setlocale, "C", "bad")) -- expect: false	bad argument #2 to 'os.setlocale' (invalid option 'bad')
print(pcall(os.setlocale, {})) -- expect: false	bad argument #1 to 'os.setlocale' (string expected, got table)
-- the numeric locale is the one number formatting follows
print(string.format("%.1f", 1.5), 1.5) -- expect: 1.5	1.5
