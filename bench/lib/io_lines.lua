-- bench/lib/io_lines.lua — the io library's hot paths: writing a large
-- file with file:write (strings, integers, floats), then reading it back
-- by lines (io.lines, file:lines, "L"), by numbers ("n"), by counts and
-- whole ("a"). Prints the time of each part and the total.
--
--   lua5.4 bench/lib/io_lines.lua [LINES]
--   bin/Release/tide-libcheck bench/lib/io_lines.lua [LINES]

local LINES = tonumber(arg and arg[1]) or 1000000
local name = os.tmpname()
local total = 0

local function timed(label, work)
    local start = os.clock()
    local result = work()
    local elapsed = os.clock() - start
    total = total + elapsed
    print(string.format("%-24s %8.3f s   (%s)", label, elapsed, tostring(result)))
end

timed("write", function()
    local f = assert(io.open(name, "w"))
    for i = 1, LINES do
        f:write(i, " ", i * 0.5, " line number ", i, "\n")
    end
    f:close()
    return LINES
end)

timed("io.lines", function()
    local n = 0
    for line in io.lines(name) do n = n + #line end
    return n
end)

timed("file:lines L", function()
    local f = assert(io.open(name))
    local n = 0
    for line in f:lines("L") do n = n + #line end
    f:close()
    return n
end)

timed("read n", function()
    local f = assert(io.open(name))
    local sum = 0
    for _ = 1, LINES do
        local a, b = f:read("n", "n")
        sum = sum + a + b
        f:read("l")
    end
    f:close()
    return sum
end)

timed("io.lines n,n,l", function()
    local sum = 0
    for a, b in io.lines(name, "n", "n", "l") do sum = sum + a + b end
    return sum
end)

timed("read 64", function()
    local f = assert(io.open(name))
    local n = 0
    while true do
        local block = f:read(64)
        if not block then break end
        n = n + #block
    end
    f:close()
    return n
end)

timed("read a", function()
    local f = assert(io.open(name))
    local n = #f:read("a")
    f:close()
    return n
end)

os.remove(name)
print(string.format("%-24s %8.3f s", "total", total))
