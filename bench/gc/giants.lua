-- bench/gc/giants.lua CASE — the "indivisible giants" of issue 5, item 3,
-- each built and then kept busy while major cycles run; run by
-- tools/bench_giants.lua, which reads every pause from TIDE_GC_TRACE.
--   table       one table of 2M entries (array and hash parts), rewritten
--               in place while it is being marked
--   stack       a list of 990,000 nodes (Lua's stack holds at most 1M
--               values) that the program moves from the heap onto its
--               stack (a vararg call) while it is being marked, and back
--   coroutines  100,000 live coroutines, a few hundred resumed a frame
local case = arg[1] or "table"
local function garbage(n)
    local g = {}
    for j = 1, n do g[j % 64 + 1] = { j } end
end

if case == "table" then
    local t = {}
    for i = 1, 1000000 do t[i] = { i } end
    for i = 1, 1000000 do t["k" .. i] = i end
    for f = 1, 300 do
        for j = 1, 2000 do t[(f * 7919 + j * 104729) % 1000000 + 1] = { f } end
        garbage(20000)
    end
    print(#t)
elseif case == "stack" then
    local head
    local N = 990000
    for i = 1, N do head = { v = i, next = head } end
    local list = { head = head }
    head = nil
    local function to_stack()
        local items, n, node = {}, 0, list.head
        list.head = nil
        while node do n = n + 1; items[n] = node; node = node.next end
        return table.unpack(items, 1, n) -- the nodes now live on the stack only (and in items, dropped below)
    end
    for f = 1, 20 do
        local function hold(...)
            garbage(200000) -- cycles run while the nodes are on the stack
            local first = ...
            list.head = first
            return first.v
        end
        assert(hold(to_stack()) == N)
        garbage(100000)
    end
    local count, node = 0, list.head
    while node do count = count + 1; node = node.next end
    print(count)
elseif case == "coroutines" then
    local cos = {}
    for i = 1, 100000 do
        cos[i] = coroutine.wrap(function()
            local mine = { i }
            while true do mine = { mine[1] }; coroutine.yield(mine) end
        end)
        cos[i]()
    end
    for f = 1, 300 do
        for i = f % 50 + 1, 100000, 250 do cos[i]() end
        garbage(20000)
    end
    print(#cos)
else
    error("unknown case " .. case)
end
