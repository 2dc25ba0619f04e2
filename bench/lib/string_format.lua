-- bench/lib/string_format.lua — string.format's hot paths: plain %d and %s,
-- floats with a precision, padded fields, hexadecimal, %q, and a long
-- format with many items. Prints the time of each part and the total.
--
--   lua5.4 bench/lib/string_format.lua [N]
--   bin/Release/tide-libcheck bench/lib/string_format.lua [N]

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

timed("%d", function()
    local n = 0
    for i = 1, N do n = n + #format("%d", i) end
    return n
end)

timed("%s strings", function()
    local n = 0
    local words = { "alpha", "beta", "gamma", "delta" }
    for i = 1, N do n = n + #format("%s=%s", words[i % 4 + 1], words[(i + 1) % 4 + 1]) end
    return n
end)

timed("%s numbers", function()
    local n = 0
    for i = 1, N do n = n + #format("%s %s", i, i * 0.5) end
    return n
end)

timed("%.2f and %g", function()
    local n = 0
    for i = 1, N do n = n + #format("%.2f %g", i / 3, i * 1.5) end
    return n
end)

timed("padded fields", function()
    local n = 0
    for i = 1, N do n = n + #format("[%-10s|%8d|%08.3f]", "name", i, i / 7) end
    return n
end)

timed("%x %X %o %c", function()
    local n = 0
    for i = 1, N do n = n + #format("%x %X %o %c", i, i, i, 65 + i % 26) end
    return n
end)

timed("%q", function()
    local n = 0
    local s = 'a "quoted"\n\tstring\0 with 1 zero'
    for i = 1, N // 4 do n = n + #format("%q %q %q", s, i, i + 0.5) end
    return n
end)

timed("long format", function()
    local n = 0
    local f = "x=%d y=%d w=%d h=%d name=%s scale=%.3f visible=%s layer=%d\n"
    for i = 1, N // 4 do n = n + #format(f, i, i + 1, 640, 480, "sprite", i / 9, true, i % 8) end
    return n
end)

print(format("%-24s %8.3f s", "total", total))
