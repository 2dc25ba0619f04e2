-- lua: 5.4
-- next, pairs (and __pairs), ipairs (honouring __index), select.

-- next walks every key once; the order is the table's, so sort the keys
local function keys_of(t)
    local ks = {}
    local k = next(t)
    while k ~= nil do
        ks[#ks + 1] = tostring(k)
        k = next(t, k)
    end
    table.sort(ks)
    return table.concat(ks, ",")
end
print(keys_of({ 1, 2, a = 1, b = 2, [3.5] = 0, [true] = 1 })) -- expect: 1,2,3.5,a,b,true
print(next({}))                            -- expect: nil
print(select("#", next({})))               -- expect: 1
print(next({ 7 }))                         -- expect: 1	7
print(next({ 7 }, 1))                      -- expect: nil
print(pcall(next, {}, "missing"))          -- expect: false	invalid key to 'next'
print(pcall(next))                         -- expect: false	bad argument #1 to 'next' (table expected, got no value)
print(pcall(next, 1))                      -- expect: false	bad argument #1 to 'next' (table expected, got number)

-- pairs returns next, the table and nil
local f, s, c = pairs({})
print(f == next, type(s), c)               -- expect: true	table	nil
local sum = 0
for k, v in pairs({ 10, 20, x = 30 }) do sum = sum + v end
print(sum)                                 -- expect: 60
print(pcall(pairs))                        -- expect: false	bad argument #1 to 'pairs' (value expected)
local ok, fn, st, ctl = pcall(pairs, nil)
print(ok, fn == next, st, ctl)             -- expect: true	true	nil	nil
-- pairs of a non-table without __pairs returns next, which then fails
print(pcall(function() for _ in pairs(1) do end end)) -- expect: false	tests/scripts/base_iteration.lua:34: bad argument #1 to 'for iterator' (table expected, got number)

-- __pairs supplies the iterator; exactly three values are used
local proxied = setmetatable({}, {
    __pairs = function(self)
        local i = 0
        return function(_, last)
            i = i + 1
            if i <= 3 then return i, i * i end
        end, self, nil, "ignored"
    end,
})
for k, v in pairs(proxied) do io.write(k, "=", v, " ") end
print()                                    -- expect: 1=1 2=4 3=9 
print(select("#", pairs(proxied)))         -- expect: 3
local one = setmetatable({}, { __pairs = function() return 1 end })
print(pairs(one))                          -- expect: 1	nil	nil

-- ipairs stops at the first nil and goes through __index
local out = {}
for i, v in ipairs({ "a", "b", nil, "d" }) do out[#out + 1] = i .. v end
print(table.concat(out, " "))              -- expect: 1a 2b
local virtual = setmetatable({}, { __index = function(_, i) if i <= 4 then return i * 10 end end })
out = {}
for i, v in ipairs(virtual) do out[#out + 1] = v end
print(table.concat(out, " "))              -- expect: 10 20 30 40
local f2, s2, c2 = ipairs({})
print(type(f2), type(s2), c2)              -- expect: function	table	0
print(f2({ "x", "y" }, 1))                 -- expect: 2	y
print(f2({ "x", "y" }, 2))                 -- expect: nil
print(pcall(ipairs))                       -- expect: false	bad argument #1 to 'ipairs' (value expected)
print(pcall(function() for _ in ipairs(nil) do end end)) -- expect: false	attempt to index a nil value
-- ipairs accepts any value; indexing is what fails
print(pcall(function() for _ in ipairs(42) do end end)) -- expect: false	attempt to index a number value
for i, ch in ipairs(setmetatable({}, { __index = function(_, i) return ("xyz"):sub(i, i) ~= "" and ("xyz"):sub(i, i) or nil end })) do io.write(i, ch) end
print()                                    -- expect: 1x2y3z

-- select
print(select(1, "a", "b", "c"))            -- expect: a	b	c
print(select(2, "a", "b", "c"))            -- expect: b	c
print(select(3, "a", "b", "c"))            -- expect: c
print(select(4, "a", "b", "c"))            -- expect: 
print(select(100, "a"))                    -- expect: 
print(select(-1, "a", "b", "c"))           -- expect: c
print(select(-3, "a", "b", "c"))           -- expect: a	b	c
print(select("#"))                         -- expect: 0
print(select("#", nil, nil))               -- expect: 2
print(select("#x", 1, 2, 3))               -- expect: 3
print(select("2", "a", "b"))               -- expect: b
print(select(2.0, "a", "b"))               -- expect: b
print(pcall(select, 0, "a"))               -- expect: false	bad argument #1 to 'select' (index out of range)
print(pcall(select, -4, "a", "b", "c"))    -- expect: false	bad argument #1 to 'select' (index out of range)
print(pcall(select, "x"))                  -- expect: false	bad argument #1 to 'select' (number expected, got string)
print(pcall(select, 1.5))                  -- expect: false	bad argument #1 to 'select' (number has no integer representation)
print(pcall(select))                       -- expect: false	bad argument #1 to 'select' (number expected, got no value)
print(pcall(select, math.mininteger, 1))   -- expect: false	bad argument #1 to 'select' (index out of range)
print(select(math.maxinteger, 1))          -- expect: 
