-- API test (libtide only): what C keeps across a collection that evacuates
-- (evacuation.c). Each part builds a fragmented old heap — many objects
-- of one size, made old, then 90% dropped — so that the next explicit
-- collection moves the survivors of its sparse blocks; the part then checks
-- that what C holds is still valid, and that things did move (else it
-- proves nothing).
local ev = require("evacuation")
-- (a quarter of the objects under the debug columns, which verify the
-- heap at every collection)
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil
local N = debug_modes and 5000 or 20000

-- strings of one size class, made old; returns every tenth (the rest is
-- garbage once this returns). The last ones made are left out: a word the
-- C stack still holds may pin one of them in the nursery through both
-- collections, and its promotion later would count as a move.
local function fragment(prefix)
    local all = {}
    for i = 1, N do all[i] = string.format("%s %08d", prefix, i) end
    collectgarbage()
    collectgarbage()
    local kept = {}
    for i = 10, N - 1000, 10 do kept[#kept + 1] = all[i] end
    return kept
end

-- lua_tostring and lua_touserdata pointers kept in C locals across
-- lua_gc(LUA_GCCOLLECT): the strings are on the C function's stack (the
-- first 64 survivors; the others are free to move)
local ud = ev.newud(256)
local held = fragment("held")
ev.record(held)
print(ev.hold(held, ud))                   -- expect: true
local moved, intact = ev.moved(held)
print(moved > 0, intact)                   -- expect: true	true

-- the same through a C closure's upvalue
local up = fragment("upvalue")
local holder = ev.holder(up)
ev.record(up)
print(holder())                            -- expect: true
moved, intact = ev.moved(up)
print(moved > 0, intact)                   -- expect: true	true

-- strong and weak handles to tables that move
local tabs = {}
for i = 1, N do tabs[i] = { i, "t" .. i } end
collectgarbage()
collectgarbage()
local kept = {}
for i = 10, N, 10 do kept[#kept + 1] = tabs[i] end
tabs = nil
local hs = ev.handles(kept)
collectgarbage()
print(ev.check_handles(hs, kept))          -- expect: true
local whole = true
for j, t in ipairs(kept) do
    if t[1] ~= 10 * j or t[2] ~= "t" .. 10 * j then whole = false end
end
print(whole)                               -- expect: true
ev.free_handles(hs)

-- a chunk compiled while its reader collects: the prototypes being built,
-- the compiler's tables and the strings it made are held by the compiler's
-- C frames, so they stay in place while everything around them moves (the
-- prototypes made before the first collection sit in sparse blocks: the
-- dropped ones are still there, unswept, and the fresh blocks hold little).
local fns = {}
for i = 1, 4000 do fns[i] = load("return function() return " .. i .. " end")() end
collectgarbage()
collectgarbage()
local some = {}
for i = 10, #fns, 10 do some[#some + 1] = fns[i] end
fns = nil
local src = {}
for i = 1, 40 do
    src[#src + 1] = string.format(
        "local function f%d(x) local s = 'name%d' return function(y) return x + y + %d, s .. '!' end end\n", i, i, i)
end
src[#src + 1] = "local r = {}\n"
for i = 1, 40 do src[#src + 1] = string.format("r[%d] = f%d(%d)\n", i, i, i) end
src[#src + 1] = "return r\n"
local chunk, collections = ev.load_collecting(table.concat(src), 64)
assert(chunk, collections)
local r = chunk()
local right = true
for i = 1, 40 do
    local n, s = r[i](1000)
    if n ~= i + 1000 + i or s ~= "name" .. i .. "!" then right = false end
end
for j, f in ipairs(some) do
    if f() ~= 10 * j then right = false end
end
print(collections > 50, right)             -- expect: true	true

-- what moved is counted as old bytes once: the copies in, the husks out
collectgarbage()
print(ev.accounting())                     -- expect: true

-- nothing moves in low-latency mode, not even in a collection the program
-- asks for
ev.low_latency(true)
local still = fragment("low latency")
ev.record(still)
collectgarbage()
moved, intact = ev.moved(still)
ev.low_latency(false)
print(moved, intact)                       -- expect: 0	true

-- nor in the collections the collector starts itself: old objects that
-- pile up make full collections due, which run from the interpreter's
-- allocation checks, never evacuating
still = fragment("paced")
ev.record(still)
ev.count_full_collections(true)
for _ = 1, 6 do
    local keep = {}
    for i = 1, 3 * N do keep[i] = { i } end
end
local paced = ev.count_full_collections(false)
moved, intact = ev.moved(still)
print(paced > 0, moved, intact)            -- expect: true	0	true
