-- lua: 5.4
-- Identity under a moving, generational collector (§2.1, §2.5, §3.4.4,
-- §6.1 next/tostring/rawequal): objects keep their identity when the
-- nursery copies them. Tables, closures and coroutines used as keys keep
-- finding their values; next/pairs keep one order through a traversal that
-- collects in between (also while fields are being cleared); tostring of an
-- object is the same string before and after collections; short strings
-- built at different times are one key; shared upvalues (open and closed)
-- stay shared; a long list and a large table written with fresh tables
-- (old-to-young stores) come back intact; metatables set on young objects
-- keep working once promoted, and young metatables stored into old objects
-- are kept.
--
-- churn() allocates many small tables and strings so that the nursery fills
-- and minor collections run between the steps of each check; full() runs
-- explicit full collections so that what survives becomes old.
--
-- Under TIDE_GC_DEBUG tide already collects every few allocations and
-- verifies the whole heap each time, so churn() allocates less and the
-- largest structures are built with the collector stopped between explicit
-- collections: the run then stays within the runner's time limit. What is
-- checked, and the output, are the same.

local GC_DEBUG = os.getenv("TIDE_GC_DEBUG") ~= nil

-- stops the collector under TIDE_GC_DEBUG only (restarted by resume_gc)
local function pause_gc() if GC_DEBUG then collectgarbage("stop") end end
local function resume_gc() if GC_DEBUG then collectgarbage("restart") end end

local function churn(n)
    n = n or 50000
    if GC_DEBUG then n = n // 20 end
    local last
    for i = 1, n do
        local t = { i, i + 1, name = "churn" .. i }
        last = t
    end
    return last[1]
end

local function full()
    collectgarbage()
    collectgarbage()
end

local function count(t)
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    return n
end

---------------------------------------------------------------------------
-- 1. tables, closures and coroutines as keys

-- an old map that receives young keys, and keys of mixed ages
local old_map = {}
local early_key = { "early" }
old_map[early_key] = "early value"
full()
full()

local keys = {}
for i = 1, 600 do
    local m = i % 3
    local k
    if m == 0 then
        k = { id = i }
    elseif m == 1 then
        k = function() return i end
    else
        k = coroutine.create(function(x) return x + i end)
    end
    keys[i] = k
end
local young_map = {}
for i, k in ipairs(keys) do
    young_map[k] = i
    old_map[k] = -i
end
-- a key reachable only through the map (no other reference to it)
young_map[{ only = "key" }] = "lonely"
old_map[{ only = "key" }] = "lonely old"

local names = {}
for i, k in ipairs(keys) do names[i] = tostring(k) end

churn()
for i, k in ipairs(keys) do
    assert(young_map[k] == i, "young map lost key " .. i .. " after minor collections")
    assert(old_map[k] == -i, "old map lost young key " .. i .. " after minor collections")
end
assert(old_map[early_key] == "early value", "old key lost in old map")
full()
churn()
for i, k in ipairs(keys) do
    assert(young_map[k] == i, "young map lost key " .. i .. " after full collections")
    assert(old_map[k] == -i, "old map lost key " .. i .. " after full collections")
    assert(tostring(k) == names[i], "tostring changed for key " .. i)
end

-- a fresh object is never an existing key
assert(young_map[{}] == nil and old_map[{ id = 3 }] == nil, "a fresh table found a value")
assert(young_map[function() return 1 end] == nil, "a fresh closure found a value")

-- the keys reachable only through the maps: found by traversal, then by lookup
local function find_lonely(map, value)
    local found
    for k, v in pairs(map) do
        if v == value then
            assert(found == nil, "two keys with the lonely value")
            found = k
        end
    end
    return found
end
local lonely = find_lonely(young_map, "lonely")
local lonely_old = find_lonely(old_map, "lonely old")
assert(type(lonely) == "table" and lonely.only == "key", "lonely key lost")
assert(type(lonely_old) == "table" and lonely_old.only == "key", "lonely old key lost")
assert(young_map[lonely] == "lonely" and old_map[lonely_old] == "lonely old", "lonely keys not found by lookup")
assert(not rawequal(lonely, lonely_old), "two different lonely keys are one object")
lonely, lonely_old = nil, nil

-- the keys still are what they were: closures return their i, coroutines run
local called, resumed = 0, 0
for i, k in ipairs(keys) do
    local m = i % 3
    if m == 0 then
        assert(k.id == i, "table key contents changed")
    elseif m == 1 then
        assert(k() == i, "closure key returns the wrong upvalue")
        called = called + 1
    else
        local ok, r = coroutine.resume(k, 1000)
        assert(ok and r == 1000 + i, "coroutine key runs wrong")
        assert(coroutine.status(k) == "dead")
        resumed = resumed + 1
    end
end
-- a dead coroutine is still the same key
for i = 2, 600, 3 do assert(young_map[keys[i]] == i, "dead coroutine key lost") end
print(count(young_map), count(old_map), called, resumed) -- expect: 601	602	200	200

-- tostring: distinct live objects have distinct strings, stable across collections
local seen = {}
local distinct = 0
for i, k in ipairs(keys) do
    local s = tostring(k)
    if not seen[s] then distinct = distinct + 1 end
    seen[s] = true
end
print(distinct) -- expect: 600
do
    local t, f, co = {}, function() end, coroutine.create(function() end)
    local st, sf, sco = tostring(t), tostring(f), tostring(co)
    churn()
    full()
    churn()
    assert(tostring(t) == st and tostring(f) == sf and tostring(co) == sco,
        "tostring of a young object changed after it moved")
    assert(string.format("%s", t) == st, "%s format differs from tostring")
end

-- rawequal and == on references held in different places
do
    local obj = { "me" }
    local holder_old = { ref = obj }
    full()
    local holder_young = { ref = obj }
    local list = { obj, obj, obj }
    churn()
    assert(rawequal(holder_old.ref, holder_young.ref), "one object became two")
    assert(rawequal(list[1], list[3]) and rawequal(list[2], obj), "array copies of a reference differ")
    assert(holder_old.ref == obj and not rawequal(obj, { "me" }), "identity compares contents")
    full()
    assert(rawequal(holder_old.ref, holder_young.ref) and rawequal(list[2], holder_old.ref),
        "identity lost after full collections")
end

---------------------------------------------------------------------------
-- 2. next / pairs across collections

local bag = {}
for i = 1, 2000 do bag[{ id = i }] = i end
for i = 1, 500 do bag["s" .. i] = -i end
for i = 1, 100 do bag[i] = i * 10 end
for i = 1, 50 do bag[function() return i end] = 1e6 + i end
bag[2.5] = "float"
bag[true] = "bool"

local first_order = {}
for k in pairs(bag) do first_order[#first_order + 1] = k end
assert(#first_order == 2652, "first traversal saw " .. #first_order .. " keys")

-- the same traversal, with minor and full collections between the steps
do
    local n = 0
    local k, v = next(bag)
    while k ~= nil do
        n = n + 1
        assert(rawequal(first_order[n], k), "traversal order changed at step " .. n)
        assert(bag[k] == v, "next returned a value that lookup disagrees with")
        if n % 300 == 0 then churn(20000) end
        if n % 1000 == 0 then collectgarbage() end
        k, v = next(bag, k)
    end
    assert(n == #first_order, "traversal with collections saw " .. n .. " keys")
end

-- and again through pairs, after everything moved
churn()
full()
do
    local n = 0
    for k in pairs(bag) do
        n = n + 1
        assert(rawequal(first_order[n], k), "pairs order changed after collections at step " .. n)
    end
    assert(n == #first_order)
end

-- clearing fields during a traversal is allowed; collections in between must
-- not lose the place (next is called with keys just removed)
do
    local visited, cleared = 0, 0
    local step = 0
    for k, v in pairs(bag) do
        step = step + 1
        visited = visited + 1
        local drop
        if type(k) == "table" then drop = k.id % 2 == 1
        elseif type(k) == "string" then drop = v % 5 == 0
        elseif math.type(k) == "integer" then drop = k % 3 == 0
        else drop = false end
        if drop then
            bag[k] = nil
            cleared = cleared + 1
        end
        if step % 250 == 0 then churn(20000) end
        if step % 900 == 0 then collectgarbage() end
    end
    assert(visited == 2652, "clearing traversal visited " .. visited)
    print(cleared, count(bag)) -- expect: 1133	1519
    for k, v in pairs(bag) do
        if type(k) == "table" then assert(k.id % 2 == 0 and v == k.id, "wrong table key kept")
        elseif type(k) == "string" then assert(v % 5 ~= 0 and k == "s" .. -v, "wrong string key kept")
        elseif math.type(k) == "integer" then assert(k % 3 ~= 0 and v == k * 10, "wrong integer key kept")
        end
    end
end
first_order = nil

---------------------------------------------------------------------------
-- 3. short strings: one string per contents, whenever it was built

local built_early = {}
for i = 1, 300 do built_early[i] = "key" .. i end
local smap_old = {}
for i = 1, 300 do smap_old[built_early[i]] = i end
full()
-- keys referenced only by the (old) map, created young
for i = 1, 300 do smap_old["late" .. i .. "x"] = -i end
local long_prefix = string.rep("long string contents ", 4)
for i = 1, 50 do smap_old[long_prefix .. i] = 1000 + i end
churn()
for i = 1, 300 do
    local again = "k" .. "ey" .. tostring(i)
    assert(again == built_early[i], "equal short strings compare unequal")
    assert(rawequal(again, built_early[i]), "rawequal fails on equal strings")
    assert(smap_old[again] == i, "rebuilt short string misses its key " .. i)
    assert(smap_old[string.format("late%dx", i)] == -i, "moved short string key not found " .. i)
    assert(smap_old[table.concat({ "la", "te", tostring(i), "x" })] == -i, "concat-built key not found")
end
for i = 1, 50 do
    local again = string.rep("long string contents ", 4) .. i
    assert(smap_old[again] == 1000 + i, "long string key not found " .. i)
end
assert(smap_old[string.char(107, 101, 121, 55)] == 7, "string.char-built key")
assert(smap_old[("KEY9"):lower()] == 9, "lower-built key")
assert(smap_old[("xxkey11yy"):sub(3, 7)] == 11, "sub-built key")
full()
assert(smap_old["key" .. 150] == 150 and smap_old["late150x"] == -150, "string keys after full collections")
print(count(smap_old)) -- expect: 650

---------------------------------------------------------------------------
-- 4. closures and upvalues

-- closed upvalues shared by pairs of closures
local function counter_pair()
    local n = 0
    return function() n = n + 1 return n end, function() return n end
end
local incs, gets = {}, {}
for i = 1, 200 do incs[i], gets[i] = counter_pair() end
churn()
full()
for i = 1, 200 do for _ = 1, i % 17 do incs[i]() end end
churn()
for i = 1, 200 do
    assert(gets[i]() == i % 17, "closed upvalue not shared after collections " .. i)
end
do
    local id1 = debug.upvalueid(incs[5], 1)
    assert(id1 == debug.upvalueid(gets[5], 1), "upvalueid: shared upvalue differs")
    assert(id1 ~= debug.upvalueid(gets[6], 1), "upvalueid: separate upvalues equal")
    churn()
    full()
    assert(debug.upvalueid(incs[5], 1) == debug.upvalueid(gets[5], 1), "upvalueid differs after collections")
    assert(debug.upvalueid(incs[5], 1) == id1, "upvalueid of a live upvalue changed")
    -- join two after they moved: they share from then on
    debug.upvaluejoin(gets[6], 1, incs[7], 1)
    churn()
    incs[7]()
    assert(gets[6]() == 7 % 17 + 1, "joined upvalue not shared")
end

-- an old closure whose closed upvalue receives a young table
local set_holder, get_holder
do
    local holder
    set_holder = function(v) holder = v end
    get_holder = function() return holder end
end
full()
set_holder({ mark = "young in old upvalue", list = { 1, 2, 3 } })
churn()
assert(get_holder().mark == "young in old upvalue" and get_holder().list[3] == 3,
    "young value in an old closure's upvalue lost")

-- open upvalues: closures made while their function is still running
local function open_upvalues()
    local v = 0
    local t = { mark = "initial" }
    local fs = {}
    for i = 1, 50 do fs[i] = function(d) v = v + d return v end end
    local function replace() t = { mark = "replaced", deep = { "x" } } end
    churn()
    for i = 1, 50 do fs[i](i) end
    assert(v == 1275, "open upvalue updates lost: " .. v)
    v = 10
    churn()
    assert(fs[1](0) == 10 and fs[50](0) == 10, "open upvalue not shared with the frame")
    replace()
    churn()
    full()
    assert(t.mark == "replaced" and t.deep[1] == "x", "young table through open upvalue lost")
    return fs
end
local fs = open_upvalues()
churn()
fs[1](5)
assert(fs[2](0) == 15 and fs[50](0) == 15, "closed upvalue not shared after return")

-- each loop iteration has its own variable
local per_iter = {}
for i = 1, 100 do
    local box = { i }
    per_iter[i] = { get = function() return box[1] end, set = function(x) box = { x } end }
end
churn()
for i = 1, 100, 2 do per_iter[i].set(-i) end
churn()
full()
for i = 1, 100 do
    local want = (i % 2 == 1) and -i or i
    assert(per_iter[i].get() == want, "per-iteration upvalue mixed up at " .. i)
end

-- a suspended coroutine keeps its locals and open upvalues
local peek
local co = coroutine.wrap(function()
    local state = { n = 0, tag = "first" }
    local pokes = 0
    peek = function() pokes = pokes + 1 return state, pokes end
    while true do
        local extra = { "extra" .. state.n }
        coroutine.yield(state.n, pokes, extra)
        assert(extra[1] == "extra" .. state.n, "coroutine local changed while suspended")
        state = { n = state.n + 1, tag = "next" }
    end
end)
assert(co() == 0)
for round = 1, 5 do
    churn(30000)
    local st, p = peek()
    assert(st.n == round - 1 and p == round, "suspended coroutine state wrong")
    collectgarbage()
    local n, pokes, extra = co()
    assert(n == round and pokes == round and extra[1] == "extra" .. round, "resumed coroutine state wrong")
end

-- a deep suspended coroutine: every frame holds a young table
local deep = coroutine.create(function()
    local function dive(d)
        local mine = { depth = d, text = "d" .. d }
        if d < 150 then
            local below = dive(d + 1)
            assert(mine.depth == d and mine.text == "d" .. d, "frame local lost at depth " .. d)
            return below + d
        end
        coroutine.yield("bottom")
        return d
    end
    return dive(1)
end)
assert(select(2, coroutine.resume(deep)) == "bottom")
churn()
full()
local ok_deep, sum_deep = coroutine.resume(deep)
print(ok_deep, sum_deep) -- expect: true	11325

-- varargs, to-be-closed variables and error objects survive moves
local function varargs(...)
    churn()
    local t = { ... }
    return #t, t[1][1], t[2].k, t[3]
end
print(varargs({ "a" }, { k = "b" }, "c" .. 1)) -- expect: 3	a	b	c1
do
    local closed_with
    do
        local x <close> = setmetatable({ tag = "tbc" }, { __close = function(o) closed_with = o.tag end })
        churn()
    end
    assert(closed_with == "tbc", "to-be-closed variable lost its value")
end
do
    local err = { "error object" }
    local ok, got = pcall(function() churn() error(err) end)
    assert(not ok and rawequal(got, err), "error object identity changed")
end

---------------------------------------------------------------------------
-- 5. deep structures

-- (in functions, so that nothing of them stays in a register afterwards)
local function long_list()
    local head = nil
    pause_gc()
    for i = 1, 200000 do
        head = { value = i, next = head }
        if i % 50000 == 0 then
            resume_gc()
            churn(10000)
            pause_gc()
        end
    end
    resume_gc()
    churn()
    collectgarbage()
    local sum, len, expect_value = 0, 0, 200000
    local node = head
    while node do
        if node.value ~= expect_value then error("list out of order at " .. expect_value) end
        expect_value = expect_value - 1
        sum = sum + node.value
        len = len + 1
        node = node.next
    end
    print(len, sum) -- expect: 200000	20000100000
end
long_list()

-- a chain through upvalues
local function closure_chain()
    local f = nil
    pause_gc()
    for i = 1, 20000 do
        local prev = f
        f = function() return i, prev end
        if i % 5000 == 0 then
            resume_gc()
            churn(5000)
            pause_gc()
        end
    end
    resume_gc()
    churn()
    full()
    local n, total = 0, 0
    while f do
        local i, prev = f()
        n = n + 1
        total = total + i
        f = prev
    end
    assert(n == 20000 and total == 200010000, "closure chain broken")
end
closure_chain()

---------------------------------------------------------------------------
-- 6. old-to-young stores: a large old table written with fresh tables

local function large_table()
    local N = 1000000
    local big = {}
    for i = 1, N do big[i] = i end
    full()
    local seed = 12345
    local written = 0
    pause_gc()
    for w = 1, 40000 do
        seed = (seed * 1103515245 + 12345) % 2147483648
        local p = seed % N + 1
        if math.type(big[p]) == "integer" then written = written + 1 end
        big[p] = { pos = p, w = w, s = "w" .. w }
        if w % 10000 == 0 then
            resume_gc()
            churn(20000)
            pause_gc()
        end
    end
    resume_gc()
    churn()
    local tables = 0
    for i = 1, N do
        local v = big[i]
        if type(v) == "table" then
            if v.pos ~= i or v.s ~= "w" .. v.w then error("fresh table in old table corrupted at " .. i) end
            tables = tables + 1
        elseif v ~= i then
            error("integer overwritten at " .. i)
        end
    end
    assert(tables == written, "fresh tables found " .. tables .. ", written " .. written)
    assert(#big == N)
    print(tables > 35000, tables == written) -- expect: true	true
end
large_table()
collectgarbage()

-- other ways young values reach old objects
do
    local old = { list = {}, hash = {} }
    full()
    for i = 1, 3000 do old.list[#old.list + 1] = { i } end      -- array part grows
    for i = 1, 3000 do old.hash["h" .. i] = { -i } end          -- hash part grows
    table.insert(old.list, 1, { 0 })
    local src = {}
    for i = 1, 100 do src[i] = { "moved" .. i } end
    table.move(src, 1, 100, 5001, old.list)
    rawset(old, "raw", { "rawset" })
    src = nil
    GC_MOVING_GLOBAL = { "global" }                              -- into _ENV
    churn()
    for i = 0, 3000 do assert(old.list[i + 1][1] == i, "array store lost " .. i) end
    for i = 1, 3000 do assert(old.hash["h" .. i][1] == -i, "hash store lost " .. i) end
    for i = 1, 100 do assert(old.list[5000 + i][1] == "moved" .. i, "table.move store lost") end
    assert(old.raw[1] == "rawset" and GC_MOVING_GLOBAL[1] == "global", "rawset / global store lost")
    GC_MOVING_GLOBAL = nil
end

---------------------------------------------------------------------------
-- 7. metatables

do
    local calls = 0
    local mt = {
        __index = function(_, k) return "missing " .. k end,
        __len = function(o) return o.id * 2 end,
        __call = function(o, x) calls = calls + 1 return o.id + x end,
        __eq = function(a, b) return a.id == b.id end,
        __lt = function(a, b) return a.id < b.id end,
        __concat = function(a, b) return "cat" .. (type(a) == "table" and a.id or a) end,
    }
    local objs = {}
    for i = 1, 200 do objs[i] = setmetatable({ id = i }, mt) end
    churn()
    full()
    churn()
    for i = 1, 200 do
        local o = objs[i]
        assert(getmetatable(o) == mt, "metatable changed")
        assert(o.nothing == "missing nothing" and #o == i * 2 and o(1) == i + 1, "metamethods lost")
        assert(o == setmetatable({ id = i }, mt) and (i == 1 or objs[i - 1] < o), "__eq/__lt lost")
        assert(o .. "x" == "cat" .. i, "__concat lost")
    end
    assert(calls == 200)
end

-- old objects given young metatables, old metatables given young fields
do
    local olds = {}
    for i = 1, 100 do olds[i] = { id = i } end
    local old_mt = {}
    full()
    for i = 1, 100 do
        setmetatable(olds[i], { __index = { answer = i * 3, chain = setmetatable({}, { __index = { deep = "d" .. i } }) } })
    end
    old_mt.__index = { from_young = "yes" }
    local user = setmetatable({}, old_mt)
    string.gc_moving_test = function(s) return "<" .. s .. ">" end  -- a young closure in the old string library
    churn()
    for i = 1, 100 do
        assert(olds[i].answer == i * 3 and olds[i].chain.deep == "d" .. i, "young metatable of an old object lost")
    end
    assert(user.from_young == "yes", "young __index in an old metatable lost")
    assert(("abc"):gc_moving_test() == "<abc>", "young method in the string metatable's __index lost")
    full()
    assert(olds[50].answer == 150 and olds[50].chain.deep == "d50", "young metatable lost after full collection")
    string.gc_moving_test = nil
end

print("done") -- expect: done
