-- bench/lib/string_build.lua — building and taking strings apart: rep (with
-- and without a separator), sub, byte, char, upper/lower, reverse, len,
-- concatenation in a loop, and pack/unpack. Prints the time of each part
-- and the total.
--
--   lua5.4 bench/lib/string_build.lua [N]
--   bin/Release/tide-libcheck bench/lib/string_build.lua [N]

local N = tonumber(arg and arg[1]) or 1000000
local format = string.format
local total = 0

local function timed(label, work)
    local start = os.clock()
    local result = work()
    local elapsed = os.clock() - start
    total = total + elapsed
    print(format("%-24s %8.3f s   (%s)", label, elapsed, tostring(result)))
end

local sample = "The quick brown fox jumps over the lazy dog 0123456789"

timed("rep", function()
    local n = 0
    for i = 1, N do n = n + #("ab"):rep(i % 32) + #("x"):rep(i % 8, ",") end
    return n
end)

timed("rep large", function()
    local n = 0
    for _ = 1, N // 2000 do n = n + #("abcdefgh"):rep(100000) + #("ab"):rep(50000, "--") end
    return n
end)

timed("sub", function()
    local n = 0
    for i = 1, N do n = n + #sample:sub(i % 20, -(i % 10) - 1) end
    return n
end)

timed("byte", function()
    local n = 0
    for i = 1, N do
        local a, b, c = sample:byte(i % 50 + 1, i % 50 + 3)
        n = n + a + b + c + sample:byte(-1)
    end
    return n
end)

timed("char", function()
    local n = 0
    local char = string.char
    for i = 1, N do n = n + #char(65 + i % 26, 97 + i % 26, 48 + i % 10, 32) end
    return n
end)

timed("upper lower reverse", function()
    local n = 0
    for _ = 1, N // 2 do n = n + #sample:upper() + #sample:lower() + #sample:reverse() end
    return n
end)

timed("len", function()
    local n = 0
    local len = string.len
    for i = 1, N * 4 do n = n + len(sample) end
    return n
end)

timed("concat loop", function()
    local n = 0
    for _ = 1, N // 1000 do
        local s = ""
        for i = 1, 200 do s = s .. i .. "," end
        n = n + #s
    end
    return n
end)

timed("byte/char roundtrip", function()
    local n = 0
    local bytes = { sample:byte(1, -1) }
    for _ = 1, N // 50 do n = n + #string.char(table.unpack(bytes)) + select("#", sample:byte(1, -1)) end
    return n
end)

timed("pack unpack", function()
    local n = 0
    local pack, unpack = string.pack, string.unpack
    for i = 1, N // 2 do
        local s = pack("<i4 d s1", i, i * 0.5, "name")
        local a, b, c = unpack("<i4 d s1", s)
        n = n + a + #c
    end
    return n
end)

print(format("%-24s %8.3f s", "total", total))
