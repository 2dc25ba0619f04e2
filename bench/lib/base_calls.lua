-- bench/lib/base_calls.lua — the basic library's hot paths: select,
-- ipairs, pairs/next, tostring, tonumber, type, pcall, raw access, and a
-- few math calls. Prints one line per section (seconds of CPU time) and a
-- total; compare `bin/Release/tide-libcheck bench/lib/base_calls.lua` with
-- `lua5.4 bench/lib/base_calls.lua`.

collectgarbage("generational")  -- lua5.4's stand-alone default, set for both

local function section(name, f)
    collectgarbage()
    local start = os.clock()
    local check = f()
    local elapsed = os.clock() - start
    print(string.format("%-24s %8.3f  (%s)", name, elapsed, tostring(check)))
    return elapsed
end

local total = 0

local function count(...) return select("#", ...) end
local function last(...) return (select(-1, ...)) end
local function nth(n, ...) return (select(n, ...)) end

total = total + section("select", function()
    local sum = 0
    for i = 1, 2000000 do
        sum = sum + count(i, i, i) + last(1, 2, i) + nth(2, i, 3, 4)
    end
    return sum
end)

total = total + section("ipairs", function()
    local t = {}
    for i = 1, 1000 do t[i] = i end
    local sum = 0
    for _ = 1, 3000 do
        for _, v in ipairs(t) do sum = sum + v end
    end
    return sum
end)

total = total + section("pairs", function()
    local t = {}
    for i = 1, 500 do t["k" .. i] = i t[i] = i end
    local sum = 0
    for _ = 1, 3000 do
        for _, v in pairs(t) do sum = sum + v end
    end
    return sum
end)

total = total + section("next", function()
    local t = {}
    for i = 1, 1000 do t[i] = i end
    local sum = 0
    for _ = 1, 1000 do
        local k, v = next(t)
        while k do sum = sum + v k, v = next(t, k) end
    end
    return sum
end)

total = total + section("tostring", function()
    local len = 0
    local t = {}
    for i = 1, 1000000 do
        len = len + #tostring(i) + #tostring(i + 0.5) + #tostring(true)
    end
    for _ = 1, 200000 do len = len + #tostring(t) end
    return len
end)

total = total + section("tostring __tostring", function()
    local obj = setmetatable({}, { __tostring = function() return "obj" end })
    local named = setmetatable({}, { __name = "Named" })
    local len = 0
    for _ = 1, 500000 do len = len + #tostring(obj) + #tostring(named) end
    return len
end)

total = total + section("tonumber", function()
    local sum = 0
    local strs = { "12", "0x1F", "3.5", "  42  ", "1e3", "bad" }
    for i = 1, 500000 do
        for _, s in ipairs(strs) do sum = sum + (tonumber(s) or 0) end
        sum = sum + tonumber(i) + tonumber("ff", 16) + tonumber("777", 8)
    end
    return sum
end)

total = total + section("type", function()
    local n = 0
    local values = { 1, "s", {}, print, true }
    for _ = 1, 1000000 do
        for i = 1, 5 do if type(values[i]) == "table" then n = n + 1 end end
    end
    return n
end)

total = total + section("pcall", function()
    local n = 0
    local function ok(a) return a end
    local function fail() error("x") end
    for i = 1, 1000000 do
        local _, v = pcall(ok, i)
        n = n + v
        if i % 10 == 0 and not pcall(fail) then n = n + 1 end
    end
    return n
end)

total = total + section("rawget/rawset/rawequal", function()
    local t = setmetatable({}, { __index = function() return 0 end })
    local n = 0
    for i = 1, 1000000 do
        rawset(t, i % 100, i)
        n = n + rawget(t, i % 100) + rawlen(t)
        if rawequal(t, t) then n = n + 1 end
    end
    return n
end)

total = total + section("setmetatable/getmetatable", function()
    local mt = {}
    local n = 0
    for _ = 1, 1000000 do
        local t = setmetatable({}, mt)
        if getmetatable(t) == mt then n = n + 1 end
    end
    return n
end)

total = total + section("math", function()
    local sum = 0
    for i = 1, 1000000 do
        sum = sum + math.floor(i / 3) + math.max(i, 5, 2) + math.abs(-i) + math.fmod(i, 7)
        sum = sum + math.tointeger(i * 1.0) + (math.type(i) == "integer" and 1 or 0)
    end
    return sum
end)

total = total + section("math.random", function()
    math.randomseed(7)
    local sum = 0
    for _ = 1, 2000000 do sum = sum + math.random(1, 100) + math.random() end
    return math.floor(sum)
end)

total = total + section("utf8", function()
    local s = string.rep("aé€😀", 100)
    local n = 0
    for _ = 1, 500 do
        for _, c in utf8.codes(s) do n = n + c end
        n = n + utf8.len(s) + utf8.offset(s, -1)
    end
    n = n + #utf8.char(72, 233, 8364)
    return n
end)

total = total + section("coroutine wrap/yield", function()
    local n = 0
    for _ = 1, 200 do
        local gen = coroutine.wrap(function() for i = 1, 1000 do coroutine.yield(i) end end)
        for _ = 1, 1000 do n = n + gen() end
    end
    return n
end)

print(string.format("%-24s %8.3f", "total", total))
