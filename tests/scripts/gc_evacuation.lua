-- lua: 5.4
-- Evacuation (DESIGN §4.3): an explicit full collection copies the
-- survivors of sparse blocks of the major heap into other blocks and fixes
-- every reference to them. This script builds an old heap of many objects
-- of many sizes and kinds (tables with array and hash parts of several
-- sizes, closures, upvalues open and closed, prototypes, coroutines, short
-- and long strings), drops about 90% of them (a fixed pseudo-random pick),
-- collects — so that on tide most blocks are sparse and their survivors
-- move — and then checks every survivor: contents, identity as a table key
-- and through tostring, closures and their shared upvalues, suspended
-- coroutines and their open upvalues (also of coroutines that died while
-- their closures live on), interned strings (a string built afresh finds
-- the old key), metatables, weak tables, finalizers, and a traversal that
-- clears entries with collections in between. Memory must drop with the
-- objects. The same checks hold on stock Lua (the oracle), which never
-- moves anything.
--
-- Under TIDE_GC_DEBUG (verify around every collection) the heap is built
-- with the collector stopped between explicit collections, and is smaller,
-- so that the run stays within the runner's time limit.

local GC_DEBUG = os.getenv("TIDE_GC_DEBUG") ~= nil
local function pause_gc() if GC_DEBUG then collectgarbage("stop") end end
local function resume_gc() if GC_DEBUG then collectgarbage("restart") end end

-- the same picks on every interpreter (not math.random)
local seed = 12345
local function rand(n)
    seed = (seed * 1103515245 + 12345) % 2147483648
    return (seed // 65536) % n -- the high bits: the low ones cycle
end
local function keep() return rand(10) == 0 end -- about 10% survive

local function full()
    collectgarbage()
    collectgarbage()
end

local N = GC_DEBUG and 10000 or 100000

---------------------------------------------------------------------------
-- 1. the heap

pause_gc()
local shared_mt = { __index = function(_, k) return "default " .. k end }
local eq_mt = { __eq = function(a, b) return a.v == b.v end }

local function make(i)
    local kind = i % 10
    if kind == 0 then -- small table with a metatable
        return setmetatable({ v = i }, shared_mt)
    elseif kind == 1 then -- array part, of a size that grows with i
        local t = {}
        for j = 1, 1 + i % 17 do t[j] = i * 100 + j end
        return t
    elseif kind == 2 then -- hash part of several sizes, string and table keys
        local t = { tag = "h" .. i }
        for j = 1, i % 9 do t["k" .. j] = j end
        t[t] = "self"
        return t
    elseif kind == 3 then -- short string
        return "short string " .. i
    elseif kind == 4 then -- long string (not interned)
        return string.rep("long", 8) .. "/" .. i .. "/" .. string.rep("x", i % 50)
    elseif kind == 5 then -- two closures sharing a closed upvalue
        local count = i
        return { function() count = count + 1; return count end, function() return count end }
    elseif kind == 6 then -- a closure of a fresh prototype (load)
        return load("local k = ... return function(x) return x + k end")(i)
    elseif kind == 7 then -- a suspended coroutine with an open upvalue shared with a closure
        local co = coroutine.wrap(function()
            local box = { v = i }
            local peek = function() return box end
            local step = coroutine.yield(peek)
            while true do
                box = { v = box.v + step }
                step = coroutine.yield(box.v)
            end
        end)
        local peek = co()
        return { co = co, peek = peek }
    elseif kind == 8 then -- a table with __eq and nested tables
        return setmetatable({ v = i, inner = { i, { i } } }, eq_mt)
    else -- a C closure (string.gmatch) over a string
        return { gen = string.gmatch("a" .. i .. " b" .. i .. " c" .. i, "%S+") }
    end
end

local function is_ref(o) return type(o) == "table" or type(o) == "function" end

local objs, names = {}, {}
for i = 1, N do
    local o = make(i)
    objs[i] = o
    if is_ref(o) then names[i] = tostring(o) end
end

-- identity: every table and function is a key of an old map (weak, so
-- that it keeps nothing alive)
local by_identity = setmetatable({}, { __mode = "k" })
for i = 1, N do
    local o = objs[i]
    if is_ref(o) then by_identity[o] = i end
end

-- weak tables over the same objects
local weak_keys = setmetatable({}, { __mode = "k" })
local weak_values = setmetatable({}, { __mode = "v" })
local ephemeron = setmetatable({}, { __mode = "k" })
for i = 1, N, 10 do
    weak_keys[objs[i]] = i
    weak_values[i] = objs[i]
    ephemeron[objs[i]] = { back = objs[i] } -- the value refers to its key
end

-- finalizers, among garbage of their size: once most of them are dropped,
-- their blocks hold little but the objects waiting for their finalizer
-- (kept alive until it runs), and those move
local finalized = 0
local fin_mt = { __gc = function(o) finalized = finalized + o.n end }
local fin_objs, filler = {}, {}
for i = 1, N // 10 do
    fin_objs[i] = setmetatable({ n = i }, fin_mt)
    for j = 1, 9 do filler[#filler + 1] = { j } end
end

-- closures of coroutines that die (dropped) while the closure lives: the
-- coroutine's open upvalue is closed when the coroutine is freed
local orphans = {}
for i = 7, N, 10 do orphans[i] = objs[i].peek end

resume_gc()
full() -- everything is old now
local before = collectgarbage("count")

---------------------------------------------------------------------------
-- 2. drop about 90%

local kept, expect_fin = 0, 0
for i = 1, N do
    if keep() then
        kept = kept + 1
    else
        objs[i], names[i] = nil, nil
    end
end
-- surviving strings as keys: looked up later with strings built afresh
local by_string = {}
for i = 3, N, 10 do
    if objs[i] ~= nil then by_string[objs[i]] = i end
end
local kept_orphans = 0
for i = 7, N, 10 do
    if objs[i] ~= nil or rand(3) == 0 then kept_orphans = kept_orphans + 1 else orphans[i] = nil end
end
filler = nil
local fin_kept = 0
for i = 1, N // 10 do
    if keep() then fin_kept = fin_kept + 1 else expect_fin = expect_fin + i; fin_objs[i] = nil end
end
collectgarbage() -- the survivors of sparse blocks move here (tide)
collectgarbage()
local after = collectgarbage("count")

print("memory dropped", after < before * 0.5)                -- expect: memory dropped	true
print("finalizers", finalized == expect_fin, fin_kept > 0)   -- expect: finalizers	true	true

---------------------------------------------------------------------------
-- 3. the survivors

local function check(i, o, no_identity)
    local kind = i % 10
    if kind == 0 then
        assert(o.v == i and o.missing == "default missing", "table with metatable " .. i)
        assert(getmetatable(o) == shared_mt, "shared metatable " .. i)
    elseif kind == 1 then
        assert(#o == 1 + i % 17, "array length " .. i)
        for j = 1, #o do assert(o[j] == i * 100 + j, "array slot " .. i) end
    elseif kind == 2 then
        assert(o.tag == "h" .. i and o[o] == "self", "hash table " .. i)
        for j = 1, i % 9 do assert(o["k" .. j] == j, "hash field " .. i) end
        local n = 0
        for _ in pairs(o) do n = n + 1 end
        assert(n == 2 + i % 9, "hash count " .. i)
    elseif kind == 3 then
        local fresh = "short string " .. (i // 1)
        assert(o == fresh and rawequal(o, fresh), "short string " .. i)
        assert(by_string[fresh] == i, "string key found with a fresh string " .. i)
    elseif kind == 4 then
        assert(o == string.rep("long", 8) .. "/" .. i .. "/" .. string.rep("x", i % 50), "long string " .. i)
    elseif kind == 5 then
        assert(o[2]() == i and o[1]() == i + 1 and o[2]() == i + 1, "shared closed upvalue " .. i)
    elseif kind == 6 then
        assert(o(1000) == 1000 + i, "closure of a loaded prototype " .. i)
    elseif kind == 7 then
        assert(o.peek().v == i, "open upvalue before resume " .. i)
        assert(o.co(5) == i + 5 and o.peek().v == i + 5, "open upvalue after resume " .. i)
        assert(orphans[i] == o.peek, "closure shared with the coroutine " .. i)
    elseif kind == 8 then
        assert(o == setmetatable({ v = i }, eq_mt), "__eq " .. i)
        assert(o.inner[1] == i and o.inner[2][1] == i, "nested tables " .. i)
    else
        assert(o.gen() == "a" .. i and o.gen() == "b" .. i, "C closure upvalue " .. i)
    end
    if names[i] ~= nil then
        assert(tostring(o) == names[i], "tostring changed " .. i)
        assert(no_identity or by_identity[o] == i, "identity key lost " .. i)
    end
end

local checked = 0
for i = 1, N do
    local o = objs[i]
    if o ~= nil then
        check(i, o)
        checked = checked + 1
    end
end
print("survivors checked", checked == kept)                  -- expect: survivors checked	true

-- orphans: their coroutine died, the closure keeps the value it had
local orphans_ok = 0
for i, peek in pairs(orphans) do
    assert(peek().v == (objs[i] and i + 5 or i), "orphaned upvalue " .. i)
    orphans_ok = orphans_ok + 1
end
print("orphans", orphans_ok == kept_orphans)                 -- expect: orphans	true

-- moved tables take new keys (free nodes are found from the moved hash
-- part's lastfree) and lose them again
local grown = 0
for i = 2, N, 10 do
    local o = objs[i]
    if o ~= nil then
        for j = 1, 5 do o["new" .. j] = j * i end
        for j = 1, i % 9 do assert(o["k" .. j] == j, "old field after growth " .. i) end
        for j = 1, 5 do assert(o["new" .. j] == j * i, "new field " .. i) end
        assert(o.tag == "h" .. i and o[o] == "self", "hash table after growth " .. i)
        for j = 1, 5 do o["new" .. j] = nil end
        grown = grown + 1
    end
end
print("grown", grown > 0)                                    -- expect: grown	true

-- weak tables lost exactly the dropped keys and values (strings stay)
local wk, wv, eph, wk_bad = 0, 0, 0, 0
for k, v in pairs(weak_keys) do
    wk = wk + 1
    if objs[v] ~= k then wk_bad = wk_bad + 1 end
end
for i, v in pairs(weak_values) do
    wv = wv + 1
    assert(objs[i] == v, "weak value " .. i)
end
for k, v in pairs(ephemeron) do
    eph = eph + 1
    assert(v.back == k, "ephemeron value " .. tostring(k))
end
local expect_w = 0
for i = 1, N, 10 do if objs[i] ~= nil then expect_w = expect_w + 1 end end
print("weak", wk == expect_w, wv == expect_w, eph == expect_w, wk_bad) -- expect: weak	true	true	true	0

-- the finalizable survivors are intact and are finalized once dropped
for i, o in pairs(fin_objs) do assert(o.n == i, "finalizable object " .. i) end
local expect_rest = 0
for i in pairs(fin_objs) do expect_rest = expect_rest + i end
fin_objs = nil
full()
print("finalizers later", finalized == expect_fin + expect_rest) -- expect: finalizers later	true

---------------------------------------------------------------------------
-- 4. a traversal of the identity map that empties each entry it visits,
-- while most of the remaining objects are dropped and collected every few
-- steps: the heap fragments again, the survivors (the key being visited
-- among them) move again, and next is called with a key whose entry is
-- dead — its dead key must follow the object

local entries = 0
for _ in pairs(by_identity) do entries = entries + 1 end
local survivors = 0
for i = 1, N do if is_ref(objs[i]) then survivors = survivors + 1 end end
print("identity map", entries == survivors)                  -- expect: identity map	true

local visited, seen = 0, {}
for k, i in pairs(by_identity) do
    assert(objs[i] == k, "identity map entry " .. i)
    visited = visited + 1
    seen[i] = true
    by_identity[k] = nil
    if visited % 97 == 0 then
        for j = 1, N do
            if objs[j] ~= nil and objs[j] ~= k and rand(3) ~= 0 then objs[j], names[j] = nil, nil end
        end
        collectgarbage()
    end
end
local missed = 0
for i = 1, N do
    if is_ref(objs[i]) and not seen[i] then missed = missed + 1 end
end
print("traversal", next(by_identity) == nil, missed, visited > 0) -- expect: traversal	true	0	true

-- what is left is whole
full()
local rechecked = 0
for i = 1, N do
    if objs[i] ~= nil and i % 10 ~= 7 and i % 10 ~= 5 and i % 10 ~= 9 then
        check(i, objs[i], true)
        rechecked = rechecked + 1
    end
end
print("second round", rechecked > 0)                         -- expect: second round	true

---------------------------------------------------------------------------
-- 5. coroutines that die in the very collection that moves the values
-- their open upvalues name: freeing a coroutine closes its upvalues with
-- the values in its stack, which must follow the move even though the dead
-- coroutine's stack is garbage itself

do
    local M = GC_DEBUG and 500 or 2000
    -- garbage-to-be of the boxes' size: once collected, its blocks are
    -- free room for the move below
    local scratch = {}
    for i = 1, 10 * M do scratch[i] = { v = i } end
    full()
    -- ten coroutines for every closure kept, each with a box in its stack
    -- that the closure names through an open upvalue
    local peeks, cos = {}, {}
    for i = 1, 10 * M do
        local co = coroutine.wrap(function()
            local box = { v = i }
            coroutine.yield(function() return box end)
        end)
        local peek = co()
        if i % 10 == 0 then peeks[i // 10] = peek end
        cos[i] = co
    end
    full() -- all old: the boxes side by side
    scratch = nil
    full()
    cos = nil
    collectgarbage() -- nine boxes in ten die: the rest move; every coroutine dies
    collectgarbage()
    local whole = 0
    for j = 1, M do
        if peeks[j]().v == 10 * j then whole = whole + 1 end
    end
    print("dying coroutines", whole == M)                    -- expect: dying coroutines	true
end
