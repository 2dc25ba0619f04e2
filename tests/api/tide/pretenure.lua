-- API test (libtide only, white-box): pretenuring (gc/nursery.c, the
-- modules pretenure.c and nursery_budget.c). Where nearly everything the
-- nursery holds survives — each fresh table stored into an old one at once
-- — objects are born old for a while instead of being copied out by
-- nursery collections; where little survives they are young again within
-- one span. Objects born old are filled with young ones: a store without
-- its barrier leaves an old-to-young reference nothing remembers, which
-- the verifier reports under the test runner's debug column, and which
-- breaks the object once its young referent moves (the gmatch case below
-- fails either way without lua_pushcclosure's barriers).
local pt = require("pretenure")
local nb = require("nursery_budget")
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil -- collections forced every few allocations

-- (smaller under the debug modes, whose collections verify the whole heap)
local N = debug_modes and 2000 or 40000
local world = {}
for i = 1, N do world[i] = false end
collectgarbage()
collectgarbage() -- the world is old

local function keep_all(rounds)
    for r = 1, rounds do
        for i = 1, #world do world[i] = { r, i } end
    end
end
local function intact(r)
    for i = 1, #world do
        local t = world[i]
        if t[1] ~= r or t[2] ~= i then return false end
    end
    return true
end
-- bytes born old, copied out, and nursery collections, over fn()
local function measure(fn)
    local minors0, promoted0, pretenured0 = pt.stats()
    local _, _, allocated = nb.measure(fn)
    local minors1, promoted1, pretenured1 = pt.stats()
    return minors1 - minors0, promoted1 - promoted0, pretenured1 - pretenured0, allocated
end

-- 1. Everything survives: most of it is born old, little is copied.
local on_minors, on_promoted, on_pretenured, on_allocated = measure(function() keep_all(6) end)
print(intact(6))                                                  -- expect: true
-- (the tables' arrays are born old too, as storage of old tables is,
-- but not counted as pretenured)
print(debug_modes or on_pretenured > on_allocated // 4)           -- expect: true
print(debug_modes or on_promoted < on_allocated // 8)             -- expect: true

-- 2. The same with pretenuring off: nothing is born old, the nursery
-- collections copy it all, and there are many more of them.
print(pt.set(false))                                              -- expect: true
local off_minors, off_promoted, off_pretenured = measure(function() keep_all(6) end)
print(intact(6))                                                  -- expect: true
print(off_pretenured == 0)                                        -- expect: true
print(debug_modes or off_promoted > on_allocated // 2)            -- expect: true
print(debug_modes or off_minors > 3 * on_minors)                  -- expect: true
print(pt.set(true))                                               -- expect: false

-- 3. Objects born old filled with young ones: closures over a loop's
-- locals and over young upvalues of the closure that makes them, C closures
-- (string.gmatch keeps its subject and pattern as upvalues), a young
-- string stored after the table was made. Checked after collections
-- have moved everything young.
keep_all(2)
local function fill(r)
    for i = 1, #world do
        local s = "s" .. i .. ":" .. r
        local t = { r, i }
        local function outer() -- its upvalue s is the inner closure's too
            return function() return s, r, i end
        end
        t.f = outer()
        t.g = (s .. " w"):gmatch("%S+")
        t.s = s .. "!"
        world[i] = t
    end
end
local function filled(r)
    for i = 1, #world do
        local t = world[i]
        local s, r2, i2 = t.f()
        if s ~= "s" .. i .. ":" .. r or r2 ~= r or i2 ~= i or t.s ~= s .. "!" then return false end
        if t.g() ~= s or t.g() ~= "w" then return false end
    end
    return true
end
local function churn()
    local t
    for i = 1, 5 * N do t = { i } end
    return t
end
for r = 1, 4 do
    fill(r)
    churn()
end
collectgarbage()
churn()
print(filled(4))                                                  -- expect: true

-- C closures made while their young upvalue is pinned: gsub holds its
-- subject by address, so the subject stays young through the collections
-- its callback runs into, some of which begin pretenuring; each gmatch
-- closure made then is born old over it. (A subject born old, as
-- pretenuring may make it, is made again: 2 KB, under the largest young
-- object.)
local subject
repeat subject = ("w "):rep(1000) .. #world until pt.young(subject)
local k, born_old_over_young, pad = 0, 0, {}
subject:gsub("%S+", function()
    k = k + 1
    local g = subject:gmatch("%S+")
    if pt.young(subject) and not pt.young(g) then born_old_over_young = born_old_over_young + 1 end
    world[k] = { g, k }
    -- (survivors, and little garbage: collections during gsub that find
    -- nearly everything alive, and so begin pretenuring)
    for j = 1, 8 do pad[#pad + 1] = { k, j, k, j, k, j, k, j, k, j, k, j, k, j, k, j } end
end)
churn()
collectgarbage()
local matched = true
for i = 1, k do
    if world[i][1]() ~= "w" or world[i][2] ~= i then matched = false end
end
print(k == 1001, matched)                                         -- expect: true	true
print(born_old_over_young > 0)                                    -- expect: true

-- 4. Then little survives: within one span objects are young again, so
-- that most of what dies now dies young.
keep_all(2)
local kept = {}
local few_minors, few_promoted, few_pretenured, few_allocated = measure(function()
    for r = 1, 50 do
        for i = 1, N // 2 do
            local t = { r, i }
            if i % 500 == 0 then kept[#kept + 1] = t end
        end
    end
end)
local _, _, _, pretenuring = pt.stats()
print(#kept == 50 * (N // 1000))                                  -- expect: true
print(debug_modes or not pretenuring)                             -- expect: true
print(debug_modes or few_pretenured < few_allocated // 2)         -- expect: true
print(debug_modes or few_minors > 0 and few_promoted < few_allocated // 4) -- expect: true

-- Frames that keep what they make, with idle time after each: a span that
-- runs out in a frame's middle is drawn out to near the frame's end, and
-- the sample it leaves is the frame's last allocation, which idle time
-- collects (nursery.c, gc_nursery_span_ended): once the frames have a
-- measure, no nursery collection falls inside one. (Before, a span that
-- ran out mid-frame put its sample's collection in that frame: one every
-- other frame here.)
pt.set(true)
local idle = require("idle_assist").idle
local FRAME = N // 2 -- fresh tables a frame, each stored into the old world
local in_frame, in_idle = 0, 0
for f = 1, 30 do
    local minors0 = pt.stats()
    local minors = nb.measure(function()
        for i = 1, FRAME do world[(f * FRAME + i) % N + 1] = { f, i } end
    end)
    idle(50000)
    local minors1 = pt.stats()
    if f > 5 then
        in_frame = in_frame + minors
        in_idle = in_idle + (minors1 - minors0 - minors)
    end
end
print(debug_modes or in_frame <= 1)                               -- expect: true
print(debug_modes or in_idle > 0)                                 -- expect: true
