-- API test (libtide only): pinning and cementing (pinning.c).
local pinning = require("pinning")

-- Old tables: made, then promoted by full collections.
local function old_tables(n)
    local t = {}
    for i = 1, n do t[i] = { index = i } end
    collectgarbage()
    collectgarbage()
    return t
end

-- Enough allocation for several nursery collections (a few MB).
local function work()
    local keep = {}
    for i = 1, 60000 do
        keep[i % 100 + 1] = { i, tostring(i) }
    end
end

-- A few old tables: the string is pinned by the C local alone.
local few = old_tables(8)
print(pinning.hold(few, work))            -- expect: true	0

-- Many old tables: the pinned string is referenced from more of them than
-- the collector keeps remembering, and is cemented.
local many = old_tables(2000)
print(pinning.hold(many, work))           -- expect: true	0

-- After the C function returned, the string may move or stay: the tables
-- still agree on it, through more collections, and a full one.
work()
collectgarbage()
work()
local s = many[1].s
local same = 0
for i = 1, #many do
    if many[i].s == s then same = same + 1 end
end
print(same == #many, s:match("^pinned string %d+ made for this test$") ~= nil) -- expect: true	true

-- Dropped, it goes: memory comes back after full collections.
local before = collectgarbage("count")
few, many, s = nil, nil, nil
collectgarbage()
collectgarbage()
print(collectgarbage("count") < before)   -- expect: true
