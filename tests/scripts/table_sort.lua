-- lua: 5.4
-- table.sort: default order and order functions, many input shapes at
-- sizes where a quadratic sort would show, inconsistent order functions,
-- errors, proxies. Equal elements may end in any order, so results with
-- duplicates are checked, not printed.

local function dump(t) local out = {} for i = 1, #t do out[i] = tostring(t[i]) end return table.concat(out, " ") end

local t = { 5, 2, 8, 1, 9, 3 }
table.sort(t)
print(dump(t))                             -- expect: 1 2 3 5 8 9
table.sort(t, function(a, b) return a > b end)
print(dump(t))                             -- expect: 9 8 5 3 2 1
local words = { "pear", "apple", "fig", "Banana", "cherry", "" }
table.sort(words)
print(dump(words))                         -- expect:  Banana apple cherry fig pear
table.sort(words, function(a, b) return #a < #b or (#a == #b and a < b) end)
print(dump(words))                         -- expect:  fig pear apple Banana cherry
local mixed = { 3, 1.5, -2, 2^53, -0.5, math.mininteger, math.maxinteger, 0 }
table.sort(mixed)
print(dump(mixed))                         -- expect: -9223372036854775808 -2 -0.5 0 1.5 3 9.007199254741e+15 9223372036854775807
local by_key = { { k = 3, v = "c" }, { k = 1, v = "a" }, { k = 2, v = "b" } }
table.sort(by_key, function(x, y) return x.k < y.k end)
print(by_key[1].v .. by_key[2].v .. by_key[3].v) -- expect: abc
-- __lt is used without an order function
local mt = { __lt = function(a, b) return a.n < b.n end }
local objs = {}
for i, n in ipairs({ 4, 2, 3, 1 }) do objs[i] = setmetatable({ n = n }, mt) end
table.sort(objs)
print(objs[1].n, objs[2].n, objs[3].n, objs[4].n) -- expect: 1	2	3	4

-- small sizes
for n = 0, 6 do
    local a = {}
    for i = 1, n do a[i] = (i * 4) % (n + 1) end
    table.sort(a)
    io.write(dump(a), ";")
end
print()                                    -- expect: ;0;1 2;0 0 0;1 2 3 4;0 2 2 4 4;1 2 3 4 5 6;
print(pcall(table.sort, {}, 1), pcall(table.sort, { 1 }, "not checked")) -- expect: true	true

-- shapes at size 20000: sorted, every element kept, comparisons n log n
local N = 20000
local function lcg(seed) return function() seed = (seed * 1103515245 + 12345) % 2147483648 return seed end end
local shapes = {
    random = function(i, r) return r() % 1000000 end,
    few_values = function(i, r) return r() % 5 end,
    sorted = function(i) return i end,
    reversed = function(i) return N - i end,
    equal = function() return 7 end,
    organ_pipe = function(i) return i <= N / 2 and i or N - i end,
    sawtooth = function(i) return i % 100 end,
    almost_sorted = function(i, r) return (r() % 100 == 0) and r() % N or i end,
}
local names = {}
for name in pairs(shapes) do names[#names + 1] = name end
table.sort(names)
local bound = 3 * N * math.log(N, 2)
for _, name in ipairs(names) do
    local r = lcg(#name)
    local a, counts = {}, {}
    for i = 1, N do
        local v = shapes[name](i, r)
        a[i] = v
        counts[v] = (counts[v] or 0) + 1
    end
    local compares = 0
    table.sort(a, function(x, y) compares = compares + 1 return x < y end)
    local ok = #a == N
    for i = 1, N do
        counts[a[i]] = counts[a[i]] - 1
        if i > 1 and a[i - 1] > a[i] then ok = false end
    end
    for _, c in pairs(counts) do if c ~= 0 then ok = false end end
    -- and once more with the default order
    local b = {}
    r = lcg(#name)
    for i = 1, N do b[i] = shapes[name](i, r) end
    table.sort(b)
    for i = 2, N do if b[i - 1] > b[i] then ok = false end end
    print(name, ok, compares < bound)
end
-- expect: almost_sorted	true	true
-- expect: equal	true	true
-- expect: few_values	true	true
-- expect: organ_pipe	true	true
-- expect: random	true	true
-- expect: reversed	true	true
-- expect: sawtooth	true	true
-- expect: sorted	true	true
-- strings, so comparisons are not all numeric
local strs = {}
local r = lcg(99)
for i = 1, 5000 do strs[i] = tostring(r() % 100000) end
table.sort(strs)
local sorted = true
for i = 2, #strs do if strs[i - 1] > strs[i] then sorted = false end end
print(sorted)                              -- expect: true

-- inconsistent order functions
local function always_true() return true end
for _, n in ipairs({ 4, 5, 10, 50, 1000 }) do
    local a = {}
    for i = 1, n do a[i] = i end
    print(n, pcall(table.sort, a, always_true))
end
-- expect: 4	false	invalid order function for sorting
-- expect: 5	false	invalid order function for sorting
-- expect: 10	false	invalid order function for sorting
-- expect: 50	false	invalid order function for sorting
-- expect: 1000	false	invalid order function for sorting
print(pcall(table.sort, { 1, 1, 1, 1 }, function(a, b) return a <= b end)) -- expect: false	invalid order function for sorting
print(pcall(table.sort, { 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 }, function(a, b) return a <= b end)) -- expect: false	invalid order function for sorting
-- the message carries the caller's position
print((select(2, pcall(function() table.sort({ 1, 2, 3, 4 }, always_true) end)):gsub("^.-:%d+: ", "POS: "))) -- expect: POS: invalid order function for sorting
-- an order function that is never true leaves a permutation
local never = { 3, 1, 2, 5, 4 }
table.sort(never, function() return false end)
local total = 0
for _, v in ipairs(never) do total = total + v end
print(#never, total)                       -- expect: 5	15

-- errors
print(pcall(table.sort, { 1, "x" }))       -- expect: false	attempt to compare string with number
print(pcall(table.sort, { 1, 2 }, 1))      -- expect: false	bad argument #2 to 'table.sort' (function expected, got number)
print(pcall(table.sort, { 1, 2 }, {}))     -- expect: false	bad argument #2 to 'table.sort' (function expected, got table)
print(pcall(table.sort))                   -- expect: false	bad argument #1 to 'table.sort' (table expected, got no value)
print(pcall(table.sort, "abc"))            -- expect: false	bad argument #1 to 'table.sort' (table expected, got string)
print(pcall(table.sort, { 3, 2, 1 }, function() error("from order function") end)) -- expect: false	tests/scripts/table_sort.lua:129: from order function
print(pcall(table.sort, { {}, {} }))       -- expect: false	attempt to compare two table values
print(pcall(table.sort, setmetatable({}, { __len = function() return math.maxinteger end }))) -- expect: false	bad argument #1 to 'table.sort' (array too big)
print(pcall(table.sort, setmetatable({}, { __len = function() return 2^31 - 1 end }))) -- expect: false	bad argument #1 to 'table.sort' (array too big)
print(coroutine.resume(coroutine.create(function()
    table.sort({ 1, 2, 3 }, function(a, b) coroutine.yield() return a < b end)
end)))                                     -- expect: false	attempt to yield across a C-call boundary

-- proxies: reads and writes go through __index/__newindex
local backing = { 4, 1, 3, 2 }
local proxy = setmetatable({}, {
    __index = backing,
    __newindex = function(_, k, v) rawset(backing, k, v) end,
    __len = function() return #backing end,
})
table.sort(proxy)
print(dump(backing), next(proxy))          -- expect: 1 2 3 4	nil
