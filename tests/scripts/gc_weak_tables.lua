-- lua: 5.4
-- Weak tables under a moving, generational collector (§2.5.4): weak values,
-- weak keys (ephemerons), all-weak tables. Objects referenced only from a
-- weak table are removed by a full collection; strings, numbers and
-- booleans never are; an entry stays while its referent is strongly
-- reachable, whether the referent and the table are young (just made) or
-- old (through several full collections) — and after the referent moved,
-- the entry still holds it and a weak key is still found by lookup. An
-- ephemeron's value keeps its key's value alive only while the key is alive,
-- through chains and across tables.
--
-- Garbage is made inside helper functions so that no live register still
-- refers to it. Counts of what must go allow a few survivors, since a
-- collector may keep an object a stale word on the C stack points to (Tide
-- scans it conservatively); what must stay is checked exactly.
--
-- Under TIDE_GC_DEBUG tide already collects every few allocations (and
-- verifies the heap each time), so churn() allocates less there; the checks
-- and the output are the same.

local GC_DEBUG = os.getenv("TIDE_GC_DEBUG") ~= nil

-- many small tables and strings: the nursery fills, minor collections run
local function churn(n)
    n = n or 50000
    if GC_DEBUG then n = n // 20 end
    local last
    for i = 1, n do
        local t = { i, "churn" .. i }
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

local function count_where(t, pred)
    local n = 0
    for k, v in pairs(t) do if pred(k, v) then n = n + 1 end end
    return n
end

local function is_object(x)
    local ty = type(x)
    return ty == "table" or ty == "function" or ty == "thread"
end

local LONG = string.rep("a long string, longer than any short one; ", 3)

---------------------------------------------------------------------------
-- 1. weak values: objects go; strings, numbers, booleans stay

local wv = setmetatable({}, { __mode = "v" })
local function fill_weak_values()
    for i = 1, 400 do
        local m = i % 4
        if m == 0 then wv[i] = { i }
        elseif m == 1 then wv[i] = function() return i end
        elseif m == 2 then wv[i] = coroutine.create(function() return i end)
        else wv[i] = setmetatable({}, { __mode = "k" }) end
    end
    -- strings made at run time, referenced from nowhere else
    wv.short = "short" .. 400 // 4
    wv.long = LONG .. "(weak value)"
    wv.huge = string.rep("h", 20000)
    wv.int, wv.float, wv.yes, wv.no = 7, 2.5, true, false
end
fill_weak_values()
churn()
full()
print(count_where(wv, function(_, v) return is_object(v) end) < 40) -- expect: true
print(wv.short, wv.long == LONG .. "(weak value)", #wv.huge, wv.int, wv.float, wv.yes, wv.no) -- expect: short100	true	20000	7	2.5	true	false
-- the survivors, if any, are intact objects
for k, v in pairs(wv) do
    if type(v) == "table" and getmetatable(v) == nil then
        assert(v[1] == k, "surviving weak value corrupted")
    elseif type(v) == "function" then
        assert(v() == k, "surviving weak closure corrupted")
    end
end

---------------------------------------------------------------------------
-- 2. weak keys: object keys go; string, number and boolean keys stay, and
-- so do their values (a key that cannot go keeps its value)

local wk = setmetatable({}, { __mode = "k" })
local function fill_weak_keys()
    for i = 1, 300 do
        local m = i % 3
        if m == 0 then wk[{ i }] = i
        elseif m == 1 then wk[function() return i end] = i
        else wk[coroutine.create(print)] = i end
    end
    wk["key" .. 1] = { "value of a short string key" }
    wk[LONG .. "(weak key)"] = { "value of a long string key" }
    wk[string.rep("k", 20000)] = { "value of a huge string key" }
    wk[1] = { "value of an integer key" }
    wk[2^53] = { "value of a float key" }
    wk[true] = { "value of a boolean key" }
end
fill_weak_keys()
churn()
full()
print(count_where(wk, function(k) return is_object(k) end) < 30, count(wk) >= 6) -- expect: true	true
print(wk.key1[1]) -- expect: value of a short string key
print(wk[LONG .. "(weak key)"][1]) -- expect: value of a long string key
print(wk[string.rep("k", 20000)][1]) -- expect: value of a huge string key
print(wk[1][1], wk[2^53][1], wk[true][1]) -- expect: value of an integer key	value of a float key	value of a boolean key
for k, v in pairs(wk) do
    if type(k) == "table" then assert(k[1] == v, "surviving weak key corrupted") end
    if type(k) == "function" then assert(k() == v, "surviving weak closure key corrupted") end
end

---------------------------------------------------------------------------
-- 3. all-weak tables: an entry goes when its key or its value goes

local kv = setmetatable({}, { __mode = "kv" })
local kv_key, kv_value = { "kept key" }, { "kept value" }
local function fill_all_weak()
    for i = 1, 100 do kv["dead value " .. i] = { i } end   -- value dies
    for i = 1, 100 do kv[{ i }] = "dead key " .. i end     -- key dies
    for i = 1, 100 do kv[{ i }] = { i } end                -- both die
    kv[kv_key] = kv_value                                  -- both kept
    kv["string key"] = "string value"                      -- strings stay
    kv[LONG] = 12
    kv[kv_value] = "kept as a key"
end
fill_all_weak()
churn()
full()
print(count(kv) < 30, kv[kv_key] == kv_value, kv["string key"], kv[LONG], kv[kv_value]) -- expect: true	true	string value	12	kept as a key

---------------------------------------------------------------------------
-- 4. strongly reachable referents stay: every mix of young and old weak
-- table and young and old referent, for each mode

local function age()
    full()
    full()
end

local function strong_case(mode, table_old, referents_old)
    local label = string.format("[%s table %s, referents %s]", mode,
        table_old and "old" or "young", referents_old and "old" or "young")
    local wt = setmetatable({}, { __mode = mode })
    if table_old then age() end
    local held = {}
    for i = 1, 200 do held[i] = { n = i, text = "n" .. i } end
    if referents_old then age() end
    -- kv: key i, value i+2 (wrapping): odd with odd, even with even
    local function partner(i) return (i + 1) % 200 + 1 end
    for i = 1, 200 do
        if mode == "k" then wt[held[i]] = i
        elseif mode == "v" then wt[i] = held[i]
        else wt[held[i]] = held[partner(i)] end
    end
    local function check_entry(i)
        local o = held[i]
        if mode == "k" then
            if wt[o] ~= i then error("weak key lost " .. i .. " " .. label, 2) end
        elseif mode == "v" then
            if not rawequal(wt[i], o) then error("weak value lost " .. i .. " " .. label, 2) end
        else
            if not rawequal(wt[o], held[partner(i)]) then error("all-weak entry lost " .. i .. " " .. label, 2) end
        end
        if o.n ~= i or o.text ~= "n" .. i then error("referent corrupted " .. i .. " " .. label, 2) end
    end
    churn(30000)                     -- minor collections move the young ones
    for i = 1, 200 do check_entry(i) end
    full()
    for i = 1, 200 do check_entry(i) end
    assert(count(wt) == 200, "strongly held entries missing " .. label)
    -- drop the even ones: the odd ones stay, the even ones (mostly) go
    for i = 2, 200, 2 do held[i] = nil end
    full()
    for i = 1, 200, 2 do check_entry(i) end
    local left = count(wt)
    assert(left >= 100 and left < 120, "after dropping half, " .. left .. " entries " .. label)
    -- new entries after the clearing (the table may have shrunk or rehashed)
    for i = 2, 200, 2 do held[i] = { n = i, text = "n" .. i } end
    for i = 2, 200, 2 do
        if mode == "k" then wt[held[i]] = i
        elseif mode == "v" then wt[i] = held[i] end
    end
    if mode == "kv" then for i = 1, 200 do wt[held[i]] = held[partner(i)] end end
    churn(20000)
    for i = 1, 200 do check_entry(i) end
    return true
end

local cases = 0
for _, mode in ipairs({ "k", "v", "kv" }) do
    for _, table_old in ipairs({ false, true }) do
        for _, referents_old in ipairs({ false, true }) do
            if strong_case(mode, table_old, referents_old) then cases = cases + 1 end
        end
    end
end
print(cases) -- expect: 12

-- a weak key made just before the lookup, in an old table, then moved
do
    local old_wk = setmetatable({}, { __mode = "k" })
    age()
    local fresh = { "fresh" }
    old_wk[fresh] = "found"
    local names = {}
    for i = 1, 100 do
        local k = { i }
        names[i] = k
        old_wk[k] = i
    end
    churn()
    assert(old_wk[fresh] == "found", "moved young weak key not found")
    for i = 1, 100 do assert(old_wk[names[i]] == i, "moved young weak key not found " .. i) end
    full()
    assert(old_wk[fresh] == "found" and old_wk[names[77]] == 77, "weak key not found after promotion")
    print(count(old_wk)) -- expect: 101
end

---------------------------------------------------------------------------
-- 5. young referents held only weakly: after minor collections an entry is
-- either gone or intact; after a full collection it is (almost) gone

do
    local wv_old = setmetatable({}, { __mode = "v" })
    local wk_old = setmetatable({}, { __mode = "k" })
    local eph_old = setmetatable({}, { __mode = "k" })
    age()
    local function fill_young_only()
        for i = 1, 2000 do
            wv_old[i] = { tag = i, s = "t" .. i }
            wk_old[{ tag = i, s = "t" .. i }] = i
            local k = { tag = i }
            eph_old[k] = { key = k, tag = i }
        end
    end
    fill_young_only()
    churn()
    churn()
    for i, v in pairs(wv_old) do
        if v.tag ~= i or v.s ~= "t" .. i then error("weak value entry dangles at " .. i) end
    end
    for k, v in pairs(wk_old) do
        if k.tag ~= v or k.s ~= "t" .. v then error("weak key entry dangles at " .. v) end
        if wk_old[k] ~= v then error("weak key found by traversal but not by lookup") end
    end
    for k, v in pairs(eph_old) do
        if k.tag ~= v.tag or not rawequal(v.key, k) then error("ephemeron entry dangles") end
    end
    full()
    print(count(wv_old) < 200, count(wk_old) < 200, count(eph_old) < 200) -- expect: true	true	true
end

---------------------------------------------------------------------------
-- 6. ephemerons

-- a value referring to its own key does not keep the key alive
local eph = setmetatable({}, { __mode = "k" })
local anchor = { "anchor" }
local function fill_self_referring()
    for i = 1, 300 do
        local k = { i }
        if i % 2 == 0 then
            eph[k] = { owner = k, i }
        else
            eph[k] = function() return k, i end   -- a closure capturing its key
        end
    end
    eph[anchor] = { owner = anchor, payload = { "payload" } }
end
fill_self_referring()
churn()
full()
print(count(eph) < 30, eph[anchor].owner == anchor, eph[anchor].payload[1]) -- expect: true	true	payload

-- cycles through values: a -> b, b -> a, neither held
local function fill_cycles()
    for _ = 1, 150 do
        local a, b = {}, {}
        eph[a] = b
        eph[b] = a
    end
end
fill_cycles()
full()
print(count(eph) < 30) -- expect: true

-- chains: each key's value names the next key; only the first is held.
-- Entries are made last-to-first, so one pass over the table in insertion
-- order does not find them all reachable.
local chain_eph = setmetatable({}, { __mode = "k" })
local chain_roots = {}
local CHAINS, LENGTH = 20, 10
local function build_chains()
    for c = 1, CHAINS do
        local ks = {}
        for j = 1, LENGTH do ks[j] = { c = c, j = j } end
        for j = LENGTH, 1, -1 do chain_eph[ks[j]] = { nxt = ks[j + 1], c = c, j = j } end
        chain_roots[c] = ks[1]
    end
end
local function walk(c)
    local k, n = chain_roots[c], 0
    while k do
        local v = chain_eph[k]
        assert(v and v.c == c and v.j == n + 1 and k.j == n + 1, "chain broken in chain " .. c)
        n = n + 1
        k = v.nxt
    end
    return n
end
build_chains()
churn()
full()
churn()
local total = 0
for c = 1, CHAINS do total = total + walk(c) end
print(total, count(chain_eph)) -- expect: 200	200
for c = 1, CHAINS, 2 do chain_roots[c] = nil end
full()
total = 0
for c = 2, CHAINS, 2 do total = total + walk(c) end
local left = count(chain_eph)
print(total, left >= 100 and left < 150) -- expect: 100	true
for c = 1, CHAINS do chain_roots[c] = nil end
full()
print(count(chain_eph) < 50) -- expect: true

-- a chain alternating between two ephemeron tables
local left_eph = setmetatable({}, { __mode = "k" })
local right_eph = setmetatable({}, { __mode = "k" })
local cross_root
local function build_cross(n)
    local ks = {}
    for j = 1, n do ks[j] = { j = j } end
    for j = n, 1, -1 do
        local t = (j % 2 == 1) and left_eph or right_eph
        t[ks[j]] = ks[j + 1] or "end"
    end
    cross_root = ks[1]
end
build_cross(100)
churn()
full()
do
    local k, n = cross_root, 0
    while type(k) == "table" do
        n = n + 1
        assert(k.j == n, "cross chain out of order")
        k = ((n % 2 == 1) and left_eph or right_eph)[k]
    end
    print(n, k, count(left_eph), count(right_eph)) -- expect: 100	end	50	50
end
cross_root = nil
full()
print(count(left_eph) + count(right_eph) < 50) -- expect: true

-- a key kept only through another ephemeron's value whose key is held
do
    local holder_key = {}
    local function link()
        local middle = { "middle" }
        eph[holder_key] = middle
        left_eph[middle] = { "reached through middle" }
    end
    link()
    churn()
    full()
    local middle = eph[holder_key]
    assert(middle and middle[1] == "middle", "ephemeron value lost")
    assert(left_eph[middle][1] == "reached through middle", "second-level ephemeron lost")
end

---------------------------------------------------------------------------
-- 7. weakness given after the entries were made, and the incremental steps

do
    local late = {}
    local held = {}
    local function fill_late()
        for i = 1, 200 do late[{ i }] = i end
        for i = 1, 10 do held[i] = { i }; late[held[i]] = -i end
    end
    fill_late()
    churn()
    assert(count(late) == 210, "strong table lost entries")
    setmetatable(late, { __mode = "k" })
    full()
    full()
    local n = count(late)
    for i = 1, 10 do assert(late[held[i]] == -i, "held key lost after weakening") end
    print(n >= 10 and n < 40) -- expect: true
end

do
    local previous = collectgarbage("incremental")
    local wt = setmetatable({}, { __mode = "v" })
    local keep = {}
    local function fill_for_steps()
        for i = 1, 1000 do
            wt[i] = { i }
            if i % 10 == 0 then keep[i] = wt[i] end
        end
    end
    fill_for_steps()
    -- complete two cycles by steps alone
    local cycles, steps = 0, 0
    while cycles < 2 and steps < 100000 do
        steps = steps + 1
        if collectgarbage("step", 0) then cycles = cycles + 1 end
        if steps % 50 == 0 then churn(2000) end
    end
    assert(cycles == 2, "steps never finished a cycle")
    for i = 10, 1000, 10 do assert(rawequal(wt[i], keep[i]) and wt[i][1] == i, "held weak value lost by steps") end
    local n = count(wt)
    print(n >= 100 and n < 200) -- expect: true
    collectgarbage(previous)
end

print("done") -- expect: done
