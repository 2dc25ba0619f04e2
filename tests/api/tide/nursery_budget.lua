-- API test (libtide only): the nursery collection's pause target
-- (nursery_budget.c). A program whose every fresh table is stored into an
-- old one at once: all that the nursery holds survives. Using the whole
-- nursery, each collection copies megabytes; with a pause target it
-- collects after fewer bytes, each collection copying less.
local nb = require("nursery_budget")
-- The budget's own behaviour: objects are never born old here, as they
-- would be where everything survives (tests/api/tide/pretenure.lua).
require("pretenure").set(false)
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil -- collections forced every few allocations

-- the default is TIDE_GC_MINOR_PAUSE_TARGET_DEFAULT_NS (TIDE_GC_DEBUG may set another)
local default_target = nb.set_target(0)
print(debug_modes or default_target == nb.DEFAULT_TARGET) -- expect: true
print(nb.DEFAULT_TARGET > 0 and nb.DEFAULT_TARGET < 1000) -- expect: true
print(nb.set_target(0))                   -- expect: 0

-- (a tenth of the world under the debug columns, which collect every few
-- allocations and verify the heap each time: only the checks of the
-- objects kept apply there)
local world = {}
for i = 1, debug_modes and 4000 or 40000 do world[i] = false end
collectgarbage()
collectgarbage()                          -- the world is old

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

-- The whole nursery each time (4 MiB): most of it is copied.
local whole_minors, whole_promoted = nb.measure(function() keep_all(6) end)
print(intact(6))                          -- expect: true
print(debug_modes or whole_minors >= 1 and whole_promoted / whole_minors > 2 * 1024 * 1024) -- expect: true

-- A 50-microsecond target: the budget shrinks (to 64 KiB at the least),
-- so collections come more often and each copies less.
print(nb.set_target(50))                  -- expect: 0
local small_minors, small_promoted = nb.measure(function() keep_all(6) end)
print(intact(6))                          -- expect: true
print(debug_modes or small_minors > 2 * whole_minors) -- expect: true
print(debug_modes or small_promoted / small_minors < 1024 * 1024) -- expect: true

-- Back to the default: collections come back to using the nursery.
print(nb.set_target(500))                 -- expect: 50
keep_all(2)
print(intact(2))                          -- expect: true

-- After collections where everything survived, a stretch where little
-- does lowers the cost per byte, and the budget would grow back towards
-- the whole nursery, to be spent at full cost when everything survives
-- again (a level's loading): the highest cost seen lately bounds it
-- (nursery.c, ns_per_byte_peak). Measured without the bound: 5.3-6.3
-- times the bytes per collection of the keep-all stretch (Debug), 2.8-3.2
-- (Release); with it, 0.45-1.07.
local all_minors, _, all_allocated = nb.measure(function() keep_all(4) end)
local kept = {}
local few_minors, _, few_allocated = nb.measure(function()
    for r = 1, 10 do
        for i = 1, #world // 2 do
            local t = { r, i }
            if i % 500 == 0 then kept[#kept + 1] = t end
        end
    end
end)
print(intact(4) and #kept == #world // 100)         -- expect: true
print(debug_modes or (few_allocated / few_minors) < 2 * (all_allocated / all_minors)) -- expect: true
