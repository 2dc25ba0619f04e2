-- API test (libtide only, white-box): the first frame has no last frame to
-- size its stretch by, so it may take the whole stretch — a quarter past
-- the nursery's budget — before it collects (nursery.c,
-- gc_nursery_stretch); and the idle time before it collects whatever the
-- loading left in the nursery, so that it begins empty (frames.c,
-- idle_minor; nursery.c, gc_nursery_frame_would_collect). A later frame after one that allocated nothing
-- has no stretch: the same allocation collects in its middle. Under the
-- runner's debug columns, which collect every few allocations, only the
-- survival of what the frames keep is checked.
local im = require("idle_minor")
local frame = require("nursery_budget").measure -- fn() inside one frame
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil

local kept, n = {}, 0
local function allocate()
    n = n + 1
    local t = { n, n + 1, n + 2 }
    if n % 8 == 0 then kept[#kept + 1] = t end
end
-- Allocate [bytes] in the nursery, across collections.
local function allocate_bytes(bytes)
    local start = im.allocated()
    local limit = debug_modes and 3000 or math.huge -- (verification at every collection is slow)
    while im.allocated() - start < bytes and limit > 0 do
        allocate()
        limit = limit - 1
    end
end

-- Loading: several collections measure the cost per byte; the nursery is
-- left part full.
allocate_bytes(4 * 1024 * 1024)
while im.used() < im.budget() // 3 and not debug_modes do allocate() end
local left = im.used()
im.idle(100000)
print("loading left, idle emptied", debug_modes or left > 0, debug_modes or im.used() == 0)
-- expect: loading left, idle emptied	true	true

-- The first frame: a tenth past the budget, and no collection in it.
local budget = im.budget()
local first = frame(function() allocate_bytes(budget + budget // 10) end)
print("first frame collections", debug_modes and 0 or first) -- expect: first frame collections	0

-- A frame that allocates nothing, then the same tenth past the budget:
-- that frame goes by the last one, which needed no stretch.
im.idle(100000)
frame(function() end)
im.idle(100000)
budget = im.budget()
local later = frame(function() allocate_bytes(budget + budget // 10) end)
print("later frame collects", debug_modes or later >= 1)   -- expect: later frame collects	true

local intact = true
for i, t in ipairs(kept) do
    if t[2] ~= t[1] + 1 or t[3] ~= t[1] + 2 then intact = false end
    if i > 1 and t[1] ~= kept[i - 1][1] + 8 then intact = false end
end
print("kept", intact, #kept > 0)                           -- expect: kept	true	true
