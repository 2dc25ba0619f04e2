-- bench/core/tables.lua — table reads, writes and inserts: the array part
-- (sequential fill, t[#t+1], table.insert, reads), the hash part (string
-- and integer keys, inserts that rehash, updates, deletes) and next/pairs.
-- Prints nothing; asserts a checksum.

local function run()
    local check = 0

    -- Array part.
    for _ = 1, 12 do
        local a = {}
        for i = 1, 100000 do a[i] = i end
        for i = 1, 100000 do a[#a + 1] = i end
        for i = 1, 50000 do table.insert(a, i) end
        local s = 0
        for i = 1, #a do s = s + a[i] end
        for i = 1, #a, 3 do a[i] = a[i] * 2 end
        check = check + s + a[#a] + #a
    end

    -- Hash part: string keys (interned), integer keys that are not a sequence.
    local keys = {}
    for i = 1, 1000 do keys[i] = "key" .. i end
    for _ = 1, 15 do
        local h = {}
        for i = 1, 1000 do h[keys[i]] = i end
        for r = 1, 40 do
            for i = 1, 1000 do
                local k = keys[i]
                h[k] = h[k] + r
            end
        end
        local sparse = {}
        for i = 1, 40000 do sparse[i * 7919 % 1000003] = i end
        local n = 0
        for k, v in pairs(sparse) do n = n + (k % 13) + v end
        for i = 1, 40000, 2 do sparse[i * 7919 % 1000003] = nil end
        for _ in pairs(sparse) do n = n + 1 end
        check = check + h.key1 + h.key1000 + n
    end

    -- Small records: fields written and read by name.
    local acc = 0
    for i = 1, 400000 do
        local p = { x = i, y = i * 2, name = "p" }
        p.z = p.x + p.y
        acc = acc + p.z
    end
    check = check + acc
    return check
end

local total = 0
for _ = 1, 3 do total = total + run() end
assert(total == 1161031619340, total)
