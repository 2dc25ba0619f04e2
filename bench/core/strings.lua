-- bench/core/strings.lua — building strings: table.concat of parts, `..`
-- in a loop (quadratic on short strings, as real code does it), tostring
-- of numbers, and string.format with %d, %s, %5.2f, %x and %q.
-- Prints nothing; asserts a checksum.

local function run()
    local check = 0

    for round = 1, 30 do
        local parts = {}
        for i = 1, 10000 do parts[#parts + 1] = "item" .. i end
        local s = table.concat(parts, ",")
        check = check + #s + round
    end

    for _ = 1, 400 do
        local s = ""
        for i = 1, 200 do s = s .. i .. ";" end
        check = check + #s
    end

    for i = 1, 200000 do
        local line = string.format("%d:%s:%5.2f:%x", i, "name", i / 7, i)
        check = check + #line
    end

    for i = 1, 30000 do
        local q = string.format("%q", "line " .. i .. "\n\"quoted\"\0")
        check = check + #q + #tostring(i * 0.5)
    end

    local words = {}
    for i = 1, 2000 do words[i] = string.rep("w", i % 10 + 1) end
    for _ = 1, 40 do
        local b = {}
        for i = 1, #words do b[i] = words[i]:upper() .. words[i]:sub(1, 2) end
        check = check + #table.concat(b, " ")
    end
    return check
end

local total = 0
for _ = 1, 3 do total = total + run() end
assert(total == 28541973, total)
