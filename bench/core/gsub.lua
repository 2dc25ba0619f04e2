-- bench/core/gsub.lua — string.gsub, gmatch, find and match with patterns:
-- character classes, captures, anchors, frontier, replacement strings,
-- tables and functions. Prints nothing; asserts a checksum.

local lines = {}
for i = 1, 400 do
    lines[i] = string.format("  id=%d name=user_%d email=user%d@example.org score=%d.%d  ",
        i, i, i, i * 37 % 1000, i % 10)
end
local text = table.concat(lines, "\n")

local function run()
    local check = 0
    for _ = 1, 30 do
        local trimmed = text:gsub("^%s+", ""):gsub("%s+$", "")
        check = check + #trimmed
        local swapped, n = text:gsub("(%w+)=(%w+)", "%2=%1")
        check = check + n + #swapped
        local upper = text:gsub("%f[%w]%l+", string.upper)
        check = check + #upper
        local ids = text:gsub("id=(%d+)", { ["7"] = "seven", ["77"] = "seventy-seven" })
        check = check + #ids
        for user, domain in text:gmatch("(%w+)@([%w%.]+)") do check = check + #user + #domain end
        for score in text:gmatch("score=(%d+%.%d)") do check = check + math.floor(tonumber(score)) end
        local pos = 1
        while true do
            local s, e = text:find("name=", pos, true)
            if not s then break end
            check = check + 1
            pos = e + 1
        end
        local escaped = text:gsub("[%.%-]", "%%%0")
        check = check + #escaped
    end
    return check
end

local total = 0
for _ = 1, 6 do total = total + run() end
assert(total == 60571260, total)
