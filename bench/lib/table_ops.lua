-- bench/lib/table_ops.lua — the table library's hot paths: insert, remove,
-- concat, sort, unpack. Prints one line per section (seconds of CPU time)
-- and a total; compare `bin/Release/tide-libcheck bench/lib/table_ops.lua`
-- with `lua5.4 bench/lib/table_ops.lua`.
--
-- The collector mode is set explicitly: the stand-alone lua5.4 starts in
-- generational mode and tide-libcheck in incremental mode.

collectgarbage("generational")

local sections = {}
local function section(name, f)
    collectgarbage()
    local start = os.clock()
    local check = f()
    local elapsed = os.clock() - start
    sections[#sections + 1] = name
    print(string.format("%-28s %8.3f  (%s)", name, elapsed, tostring(check)))
    return elapsed
end

local function lcg(seed)
    return function() seed = (seed * 1103515245 + 12345) % 2147483648 return seed end
end

local total = 0

total = total + section("insert append", function()
    local n = 0
    for _ = 1, 200 do
        local t = {}
        for i = 1, 10000 do table.insert(t, i) end
        n = n + #t
    end
    return n
end)

total = total + section("insert/remove front (100)", function()
    local n = 0
    for _ = 1, 2000 do
        local t = {}
        for i = 1, 100 do table.insert(t, 1, i) end
        while #t > 0 do n = n + table.remove(t, 1) end
    end
    return n
end)

total = total + section("remove last", function()
    local n = 0
    for _ = 1, 200 do
        local t = {}
        for i = 1, 10000 do t[i] = i end
        for _ = 1, 10000 do n = n + table.remove(t) end
    end
    return n
end)

total = total + section("concat short strings", function()
    local parts = {}
    for i = 1, 1000 do parts[i] = "item" .. i end
    local len = 0
    for _ = 1, 2000 do len = len + #table.concat(parts, ", ") end
    return len
end)

total = total + section("concat numbers", function()
    local parts = {}
    for i = 1, 1000 do parts[i] = i * 1.5 end
    local len = 0
    for _ = 1, 500 do len = len + #table.concat(parts, " ") end
    return len
end)

total = total + section("concat small tables", function()
    local t = { "a", "b", "c", "d" }
    local len = 0
    for _ = 1, 500000 do len = len + #table.concat(t) end
    return len
end)

total = total + section("concat big result", function()
    local chunk = string.rep("x", 1000)
    local parts = {}
    for i = 1, 2000 do parts[i] = chunk end
    local len = 0
    for _ = 1, 100 do len = len + #table.concat(parts) end
    return len
end)

total = total + section("sort random integers", function()
    local r = lcg(1)
    local sum = 0
    for _ = 1, 10 do
        local t = {}
        for i = 1, 50000 do t[i] = r() end
        table.sort(t)
        sum = sum + t[1]
    end
    return sum
end)

total = total + section("sort with comparator", function()
    local r = lcg(2)
    local sum = 0
    for _ = 1, 10 do
        local t = {}
        for i = 1, 50000 do t[i] = r() end
        table.sort(t, function(a, b) return a > b end)
        sum = sum + t[1]
    end
    return sum
end)

total = total + section("sort strings", function()
    local r = lcg(3)
    local t0 = {}
    for i = 1, 50000 do t0[i] = tostring(r()) end
    local first
    for _ = 1, 5 do
        local t = table.move(t0, 1, #t0, 1, {})
        table.sort(t)
        first = t[1]
    end
    return first
end)

total = total + section("sort sorted/reversed", function()
    local sum = 0
    for _ = 1, 5 do
        local a, b = {}, {}
        for i = 1, 50000 do a[i] = i b[i] = 50001 - i end
        table.sort(a)
        table.sort(b)
        sum = sum + a[1] + b[1]
    end
    return sum
end)

total = total + section("sort small tables", function()
    local sum = 0
    for k = 1, 100000 do
        local t = { k % 7, 3, k % 5, 1, 4 }
        table.sort(t)
        sum = sum + t[1]
    end
    return sum
end)

total = total + section("unpack", function()
    local t = { 1, 2, 3, 4, 5, 6, 7, 8 }
    local sum = 0
    for _ = 1, 1000000 do
        local a, b, c, d, e, f, g, h = table.unpack(t)
        sum = sum + a + h
    end
    return sum
end)

total = total + section("pack", function()
    local n = 0
    for i = 1, 500000 do n = n + table.pack(i, i, i).n end
    return n
end)

total = total + section("move", function()
    local src = {}
    for i = 1, 1000 do src[i] = i end
    local n = 0
    for _ = 1, 2000 do
        local dst = table.move(src, 1, 1000, 1, {})
        table.move(dst, 1, 999, 2)
        n = n + dst[1000]
    end
    return n
end)

print(string.format("%-28s %8.3f", "total", total))
