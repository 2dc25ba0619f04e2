-- bench/lib/string_gsub.lua — the pattern matcher's hot paths: find (plain
-- and with patterns), match with captures, gmatch over words and fields,
-- gsub with string, table and function replacements, anchored and
-- backtracking patterns. Prints the time of each part and the total.
--
--   lua5.4 bench/lib/string_gsub.lua [SCALE]
--   bin/Release/tide-libcheck bench/lib/string_gsub.lua [SCALE]

local SCALE = tonumber(arg and arg[1]) or 1
local format = string.format
local total = 0

local function timed(label, work)
    local start = os.clock()
    local result = work()
    local elapsed = os.clock() - start
    total = total + elapsed
    print(format("%-24s %8.3f s   (%s)", label, elapsed, tostring(result)))
end

-- A text of words, numbers and punctuation, about 600 KB.
local pieces = {}
for i = 1, 60000 do
    pieces[i] = (i % 7 == 0) and format("item%d=%d;", i, i * 3) or ((i % 3 == 0) and "Lorem" or "ipsum")
end
local text = table.concat(pieces, " ")
local lines = {}
for i = 1, 20000 do lines[i] = format("  key%d = value %d  ", i, i * 7) end

timed("find plain", function()
    local n = 0
    for _ = 1, 40 * SCALE do
        local pos = 1
        while true do
            local s, e = text:find("item", pos, true)
            if not s then break end
            n, pos = n + 1, e + 1
        end
    end
    return n
end)

timed("find pattern", function()
    local n = 0
    for _ = 1, 10 * SCALE do
        local pos = 1
        while true do
            local s, e = text:find("%d+", pos)
            if not s then break end
            n, pos = n + 1, e + 1
        end
    end
    return n
end)

timed("match captures", function()
    local n = 0
    for _ = 1, 10 * SCALE do
        for i = 1, #lines do
            local k, v = lines[i]:match("^%s*(%w+)%s*=%s*(.-)%s*$")
            if k then n = n + #v end
        end
    end
    return n
end)

timed("gmatch words", function()
    local n = 0
    for _ = 1, 5 * SCALE do
        for w in text:gmatch("%a+") do n = n + 1 end
    end
    return n
end)

timed("gmatch fields", function()
    local n = 0
    for _ = 1, 5 * SCALE do
        for k, v in text:gmatch("(%w+)=(%d+)") do n = n + #k + #v end
    end
    return n
end)

timed("gsub string", function()
    local n = 0
    for _ = 1, 5 * SCALE do
        local out, c = text:gsub("ipsum", "IPSUM")
        n = n + c + #out
    end
    return n
end)

timed("gsub captures", function()
    local n = 0
    for _ = 1, 5 * SCALE do
        local out, c = text:gsub("(%w+)=(%d+)", "%2:%1")
        n = n + c + #out
    end
    return n
end)

timed("gsub table", function()
    local n = 0
    local map = { Lorem = "L", ipsum = "I" }
    for _ = 1, 3 * SCALE do
        local out, c = text:gsub("%a+", map)
        n = n + c + #out
    end
    return n
end)

timed("gsub function", function()
    local n = 0
    for _ = 1, 3 * SCALE do
        local out, c = text:gsub("%d+", function(d) return #d end)
        n = n + c + #out
    end
    return n
end)

timed("gsub trim and escape", function()
    local n = 0
    for _ = 1, 10 * SCALE do
        for i = 1, #lines do
            local s = lines[i]:gsub("^%s+", ""):gsub("%s+$", "")
            n = n + #s:gsub("[%p]", "%%%0")
        end
    end
    return n
end)

timed("backtracking", function()
    local n = 0
    local s = string.rep("a", 60) .. "b"
    for _ = 1, 20000 * SCALE do
        if s:find("a-a-a-b") then n = n + 1 end
        if s:match("^(a*)(a*)b$") then n = n + 1 end
    end
    return n
end)

print(format("%-24s %8.3f s", "total", total))
