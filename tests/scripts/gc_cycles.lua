-- lua: 5.4
-- What a major cycle that marks while the program runs must survive: the
-- program moving objects out of the heap's reach and back while the
-- collector walks a snapshot (DESIGN §4.4–§4.5). Under
-- TIDE_GC_DEBUG=tiny-nursery,cycles,verify-marks,poison (the test runner's
-- third column) cycles run back to back in small steps, every cycle's
-- marks are checked against a stop-the-world mark, and freed memory is
-- poisoned, so an object the snapshot barrier lost shows up as a verifier
-- abort or as damaged contents below. On stock Lua the same output is
-- expected.

-- garbage that keeps the collector busy: nursery collections, promotions,
-- and with them the steps of a cycle
local function churn(n)
    local keep = {}
    for i = 1, n or 200 do keep[i % 7 + 1] = { i, tostring(i) } end
    return keep
end

-- 1. a list moved from the heap onto the stack, node by node, while
-- cycles run: each node's only reference is a register of a frame below
local list = { head = nil }
for i = 1, 1500 do list.head = { v = i, s = "node " .. i, next = list.head } end
local function unwind(n)
    if n == 0 then return 0 end
    local node = list.head
    list.head = node.next
    node.next = nil
    if n % 50 == 0 then churn() end
    local sum = unwind(n - 1)
    assert(node.s == "node " .. node.v, "a node moved to the stack was lost")
    return sum + node.v
end
print("stack", unwind(1500) == 1500 * 1501 // 2) -- expect: stack	true

-- 2. coroutines whose stacks hold the only references, resumed while
-- cycles run (each stack is scanned once per cycle, before it next runs):
-- a local that is the only reference when the coroutine yields is stored
-- into an old table and dropped from the stack after it resumes
local sink = {}
local cos = {}
for c = 1, 100 do
    cos[c] = coroutine.create(function()
        local mine = {}
        for i = 1, 20 do mine[i] = { c = c, i = i, s = c .. ":" .. i } end
        for round = 1, 10 do
            local fresh = { round = round, s = "round " .. round }
            local carry = { c = c, round = round }
            coroutine.yield()
            sink[#sink + 1] = carry
            carry = nil
            for i = 1, 20 do
                local o = mine[i]
                assert(o.c == c and o.i == i and o.s == c .. ":" .. i, "a coroutine's local was lost")
            end
            assert(fresh.s == "round " .. round, "a coroutine's fresh local was lost")
            mine[round] = { c = c, i = round, s = c .. ":" .. round }
        end
        return c
    end)
end
local finished = 0
for round = 1, 11 do
    for c = 1, #cos do
        local ok, r = coroutine.resume(cos[c])
        assert(ok, r)
        if r == c then finished = finished + 1 end
    end
    churn(500)
end
local carried = 0
for _, o in ipairs(sink) do
    if o.c >= 1 and o.c <= 100 and o.round >= 1 and o.round <= 10 then carried = carried + 1 end
end
print("coroutines", finished, carried) -- expect: coroutines	100	1000

-- 3. a weak table read while a cycle marks: the value read is in use again
-- even if the snapshot reached it only through the weak table
local cache = setmetatable({}, { __mode = "v" })
local strong = {}
for i = 1, 500 do
    local v = { n = i, s = "cached " .. i }
    cache[i] = v
    if i % 2 == 0 then strong[i] = v end
end
local rescued = {}
for i = 1, 500 do
    local v = cache[i]
    if v ~= nil then rescued[#rescued + 1] = v end
    if i % 25 == 0 then churn() end
end
churn(2000)
collectgarbage()
local intact = true
for _, v in ipairs(rescued) do
    if v.s ~= "cached " .. v.n then intact = false end
end
print("weak reads", intact, #rescued >= 250) -- expect: weak reads	true	true
for k, v in pairs(cache) do
    assert(v.n == k and v.s == "cached " .. k, "a weak table kept a damaged value")
end

-- 4. tables resized while their entries' only references are in them
local grown = {}
for round = 1, 3 do
    local t = {}
    for i = 1, 1000 do
        t[i] = { i }
        t["k" .. i] = { -i }
        if i % 200 == 0 then churn() end
    end
    grown[round] = t
end
local sum = 0
for _, t in ipairs(grown) do
    for i = 1, 1000 do sum = sum + t[i][1] + t["k" .. i][1] end
end
print("resized", sum) -- expect: resized	0

-- 5. stores through the open upvalue of a suspended coroutine: the value
-- overwritten in another thread's stack is handed to the marker
local setter
local holder = coroutine.create(function()
    local slot = { "first" }
    setter = function(v) local old = slot slot = v return old end
    coroutine.yield()
    return slot
end)
coroutine.resume(holder)
local olds = {}
for i = 1, 300 do
    olds[#olds + 1] = setter({ "value " .. i })
    if i % 10 == 0 then churn() end
end
local _, last = coroutine.resume(holder)
print("upvalues", olds[1][1], olds[300][1], last[1]) -- expect: upvalues	first	value 299	value 300

-- 6. strings dropped and made again with the same contents while a cycle
-- marks: the string table hands the old string back, and it must survive
local keys = {}
for round = 1, 20 do
    for i = 1, 100 do keys[i] = "interned-" .. (i + round % 3) end
    churn()
end
local index = {}
for i = 1, 100 do index[keys[i]] = i end
local found = 0
for i = 1, 100 do
    if index["interned-" .. (i + 20 % 3)] == i then found = found + 1 end
end
print("strings", found) -- expect: strings	100

-- 7. metatables replaced while their tables are being marked
local objs = {}
for i = 1, 300 do
    local mt = { __index = { kind = "first", n = i } }
    objs[i] = setmetatable({}, mt)
end
for i = 1, 300 do
    setmetatable(objs[i], { __index = { kind = "second", n = i } })
    if i % 20 == 0 then churn() end
end
churn(2000)
local ok = true
for i = 1, 300 do
    if objs[i].kind ~= "second" or objs[i].n ~= i then ok = false end
end
print("metatables", ok) -- expect: metatables	true

-- 8. a table too large to mark in one step (it is marked in pieces):
-- entries overwritten, removed and added, and the table resized, between
-- the pieces
local large = {}
for i = 1, 18000 do large[i] = { i } end
for i = 1, 2000 do large["h" .. i] = { -i } end
for round = 1, 8 do
    for j = 1, 500 do
        local i = (round * 7919 + j * 104729) % 18000 + 1
        local old = large[i]
        large[i] = { old[1] } -- the old entry's only reference goes
        large["h" .. i % 2000 + 1] = nil
        large["h" .. i % 2000 + 1] = { -(i % 2000 + 1) }
    end
    for i = 18001 + (round - 1) * 250, 18000 + round * 250 do large[i] = { i } end -- grows the array part
    churn(300)
end
local sum, count = 0, 0
for i = 1, 20000 do sum = sum + large[i][1]; count = count + 1 end
for i = 1, 2000 do sum = sum + large["h" .. i][1] end
print("large table", count, sum) -- expect: large table	20000	198009000

-- 9. running stacks too deep to scan in a pause: a cycle that begins
-- while they run scans the running frame (and its varargs) at once and the
-- frames below a slice at a time, and scans down to a frame before control
-- returns into it. Objects held only by the frames below, by varargs, by a
-- frame an error unwinds to, by a coroutine closed while deep, and by a
-- local read and then overwritten with debug.setlocal, must all survive.
-- (Each object is moved from its frame into a table made during the cycle,
-- which a cycle never traverses, and its slot is overwritten: unless that
-- slot was scanned before, nothing else shows the cycle the object.)
local DEPTH = 2500
local deep_ok = true
local function deep(n)
    local mine = { n = n, s = "frame " .. n } -- only this frame holds it
    if n == 0 then
        churn(20) -- a cycle begins while every frame below is live
        return {}
    end
    local moved = deep(n - 1)
    moved[#moved + 1] = mine
    mine = nil
    churn(2)
    return moved
end
local moved = deep(DEPTH)
churn(3000)
for i, m in ipairs(moved) do
    if m.n ~= i or m.s ~= "frame " .. i then deep_ok = false end
end
print("deep frames", #moved, deep_ok) -- expect: deep frames	2500	true

local items = {}
for i = 1, 20000 do items[i] = { i } end
local function hold(...)
    items = nil -- the values are on the stack only
    churn(20) -- a cycle begins in a frame above the varargs
    return { ... } -- and they are overwritten by the return
end
local held = hold(table.unpack(items))
churn(3000)
local sum = 0
for i = 1, #held do sum = sum + held[i][1] end
print("varargs", sum) -- expect: varargs	200010000

local below = { "below" }
local function dive(n)
    local mine = { n }
    if n == 0 then
        churn(3000)
        error({ code = 7 })
    end
    dive(n - 1)
    return mine
end
local unwound, err = pcall(dive, DEPTH)
churn(3000)
print("unwound", unwound, err.code, below[1]) -- expect: unwound	false	7	below

local closed_ok
local co = coroutine.create(function()
    local guard = { "guard" }
    local tbc <close> = setmetatable({}, { __close = function() closed_ok = guard[1] == "guard" end })
    local function down(n)
        local mine = { n }
        if n == 0 then
            churn(3000)
            coroutine.yield()
            return
        end
        down(n - 1)
        if mine[1] ~= n then closed_ok = false end
    end
    down(DEPTH)
end)
coroutine.resume(co)
churn(3000)
print("closed", coroutine.close(co), closed_ok) -- expect: closed	true	true

local function reach(n)
    local mine = { "old" .. n }
    if n == 0 then
        churn(1000)
        -- the bottom frame's [mine]: copied up here, then overwritten there
        local name, old = debug.getlocal(DEPTH + 1, 2)
        debug.setlocal(DEPTH + 1, 2, { "new" })
        churn(3000)
        return name, old[1]
    end
    local name, v = reach(n - 1)
    if n == DEPTH then return name, v, mine[1] end
    return name, v
end
print("setlocal", reach(DEPTH)) -- expect: setlocal	mine	old2500	new
