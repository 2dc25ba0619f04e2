-- API test (libtide only): where table storage is born (storage.c).
local storage = require("storage")
-- (where storage is born when nothing is pretenured: the debug column's
-- pretenuring would make some of it old at random)
require("pretenure").set(false)

-- [n] tables made by [make](i), then promoted by full collections. (A
-- table some stale word on the C stack points at stays young, pinned: the
-- checks count the old ones.)
local function old_tables(n, make)
    local list = {}
    for i = 1, n do list[i] = make(i) end
    collectgarbage()
    collectgarbage()
    return list
end

-- Enough allocation for several nursery collections.
local function work()
    local keep = {}
    for i = 1, 60000 do keep[i % 100 + 1] = { i, tostring(i) } end
end

-- [change](t) for each table of [list]; then, for those that were old,
-- where their part [which] ("hash" or "array") is. Returns whether some
-- were old, and how many of those do not have their part [expected] —
-- young storage went through a nursery collection meanwhile counts as
-- expected (it may have been moved out).
local function survey(list, change, which, expected)
    local old, as_expected = 0, 0
    for _, t in ipairs(list) do
        local was_old = storage.where(t) == "old"
        local before = storage.minors()
        change(t)
        if was_old then
            old = old + 1
            local _, hash, array = storage.where(t)
            local got = which == "hash" and hash or array
            if got == expected or (expected == "young" and storage.minors() ~= before) then
                as_expected = as_expected + 1
            end
        end
    end
    return old > 0, old - as_expected
end

-- An old table whose hash part grows gets old storage: copying it out at
-- the next nursery collection would be wasted.
local hashes = old_tables(50, function() return { a = 1, b = 2, c = 3 } end)
print(survey(hashes, function(t) t.d, t.e = 4, 5 end, "hash", "old"))        -- expect: true	0

-- The same for its array part.
local arrays = old_tables(50, function() return { 1, 2, 3, 4 } end)
print(survey(arrays, function(t) for i = 5, 9 do t[i] = i end end, "array", "old")) -- expect: true	0

-- Storage that replaces storage no smaller is young even for an old
-- table: a hash part rehashed after deletions, at the same size, is often
-- replaced again soon.
local churns = old_tables(50, function()
    local t = {}
    for i = 1, 8 do t["k" .. i] = i end
    return t
end)
print(survey(churns, function(t)
    for i = 1, 64 do
        t["k" .. i] = nil
        t["k" .. (i + 8)] = i + 8
    end
end, "hash", "young"))                                                       -- expect: true	0
local intact = 0
for _, t in ipairs(churns) do
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    if n == 8 and t.k65 == 65 and t.k72 == 72 then intact = intact + 1 end
end
print(intact)                                                                -- expect: 50

-- A young table's storage is young (unless a collection came between:
-- then it may have been moved out with its table).
local before = storage.minors()
local y = {}
for i = 1, 20 do y["k" .. i] = i end
for i = 1, 40 do y[i] = i end
local tw, hw, aw = storage.where(y)
print((tw == "young" and hw == "young" and aw == "young") or storage.minors() ~= before) -- expect: true

-- Young values stored into old storage while it grows are remembered:
-- nursery collections find them through the old table and keep them.
local keep = old_tables(1, function() return {} end)[1]
for i = 1, 2000 do
    keep[i] = { i }
    keep["k" .. i] = { -i }
end
work()
work()
intact = 0
for i = 1, 2000 do
    if keep[i][1] == i and keep["k" .. i][1] == -i then intact = intact + 1 end
end
print(intact)                                                                -- expect: 2000

-- Old storage made while a major cycle marks is marked: the cycle's sweep
-- keeps it, and what it holds.
local marked = old_tables(20, function() return { x = 0 } end)
print(storage.begin_cycle())                                                 -- expect: true
for _, m in ipairs(marked) do
    for i = 1, 50 do m["k" .. i] = { i } end
    for i = 1, 30 do m[i] = { -i } end
end
storage.end_cycle()
work()
intact = 0
for _, m in ipairs(marked) do
    for i = 1, 50 do if m["k" .. i][1] == i then intact = intact + 1 end end
    for i = 1, 30 do if m[i][1] == -i then intact = intact + 1 end end
end
print(intact)                                                                -- expect: 1600
