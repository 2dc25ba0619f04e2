-- API test (libtide only): the pacer (gc_pacing.c, tide_gc_pacing). A
-- game-like loop of 4 ms frames (longer on a slow machine) keeps a ring of
-- 30,000 old tables and replaces some of them every frame (the replaced
-- ones die old, the new ones are promoted), first slowly, then fast. From the growth rate it
-- measures, the mark rate of the cycles it ran and the frame time, the
-- pacer begins each cycle so that it ends before the heap's target: late
-- while the heap grows slowly, earlier when it grows fast.
local gp = require("gc_pacing")
-- (TIDE_GC_DEBUG's modes start cycles at every safe point, or collect in
-- full every few allocations: they have no pacing to check; with forced
-- full collections there are no cycles either, and a short run checks
-- only that the ring survives them)
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil
local forced = (os.getenv("TIDE_GC_DEBUG") or ""):find("collect%-every") ~= nil

-- Before any cycle has been measured: halfway from the live size to the
-- target.
local p = gp.pacing()
print(p.measured)                                       -- expect: false
print(p.trigger == p.live + (p.target - p.live) // 2)   -- expect: true
print(p.old > 0 and p.target > p.live)                  -- expect: true

local RING = 30000
local ring = {}
for i = 1, RING do ring[i] = { i, i, i } end
collectgarbage()
collectgarbage()                                        -- the ring is old

local seed = 1
local function random(n) -- deterministic, and allocation-free
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n + 1
end

local SLOW, FAST = 300, 2000 -- ring entries replaced per frame

-- A frame's work: [per_frame] ring entries replaced (and as many
-- short-lived tables made again).
local function work_of(per_frame)
    return function()
        for _ = 1, per_frame do
            ring[random(RING)] = { seed, seed, seed }
            local garbage = { seed }
            garbage[2] = garbage
        end
    end
end

-- Frames are 4 ms long, or longer where the fast phase's work would not
-- fit in two thirds of that (a slow machine, a sanitizer build): the two
-- phases' growth rates must differ as their work per frame does, not both
-- be capped by how fast the machine runs the work. The fast work's time is
-- foreseen from the slow work's, the median of five frames like the slow
-- phase's (no burst of frames beforehand may mislead the pacer's rates).
local IDLE_US = 1000
local FRAME_US = 4000
if not debug_modes then -- (whose collections, not the work, would set it)
    local took = {}
    for i = 1, 5 do
        local _, _, work_ns = gp.frame(work_of(SLOW), IDLE_US, 4000)
        took[i] = work_ns
    end
    table.sort(took)
    FRAME_US = math.max(4000, math.ceil(took[3] / 1000 * FAST / SLOW * 1.5))
end

-- Runs frames of [per_frame] replacements until [cycles] cycles have
-- ended. Returns what was seen: cycles, whether the old generation was
-- ever past the target while a cycle marked, the pacing when the last
-- cycle ended, and the growth actually seen over the phase's second half
-- (bytes per second).
local function phase(per_frame, cycles)
    local seen, over, last_idle, marking = 0, false, nil, false
    local promoted, wall, frames = 0, 0, 0
    local work = work_of(per_frame)
    local limit = forced and 12 or 4000
    while seen < cycles do
        frames = frames + 1
        if forced and frames > limit then break end
        assert(frames <= limit, "too few cycles: " .. seen .. " in " .. limit .. " frames")
        local bytes, ns = gp.frame(work, IDLE_US, FRAME_US)
        local now = gp.pacing()
        if now.phase == "marking" then
            marking = true
            if now.old > now.target then over = true end
        elseif marking then
            marking = false
            seen = seen + 1
        end
        if now.phase == "idle" and seen >= cycles // 2 then last_idle = now end
        if seen >= cycles // 2 then
            promoted = promoted + bytes
            wall = wall + ns
        end
    end
    return seen, over, last_idle or gp.pacing(), promoted / (wall / 1e9)
end

-- How far into the growth allowance the trigger lies: 0 = right after the
-- last cycle, 1 = at the target.
local function share(q) return (q.trigger - q.live) / (q.target - q.live) end

local slow_cycles, slow_over, slow, slow_actual = phase(SLOW, 6)
print(forced or slow_cycles >= 6)                                 -- expect: true
print(debug_modes or slow.measured)                     -- expect: true
print(debug_modes or slow.mark_rate > 0)                -- expect: true
-- frames begin every 4 ms at the least (the sleep)
print(debug_modes or slow.frame_ns >= FRAME_US * 1000 * 0.9) -- expect: true
-- the growth rate is the one the loop sees, within a factor of 3
print(debug_modes or (slow.grow_rate > slow_actual / 3 and slow.grow_rate < slow_actual * 3)) -- expect: true
-- slow growth: the cycle begins past halfway, and ends before the target
print(debug_modes or share(slow) > 0.5)                 -- expect: true
print(debug_modes or not slow_over)                     -- expect: true

local fast_cycles, fast_over, fast, fast_actual = phase(FAST, 6)
print(forced or fast_cycles >= 6)                                 -- expect: true
print(debug_modes or (fast.grow_rate > fast_actual / 3 and fast.grow_rate < fast_actual * 3)) -- expect: true
print(debug_modes or fast.grow_rate > slow.grow_rate * 2) -- expect: true
-- growth several times as fast: the cycle begins well before it did
print(debug_modes or share(fast) < share(slow) - 0.1)   -- expect: true
print(debug_modes or not fast_over)                     -- expect: true

-- the ring is intact: every entry a table of three equal numbers
local intact = true
for i = 1, RING do
    local t = ring[i]
    if t[1] ~= t[2] or t[2] ~= t[3] then intact = false end
end
print(intact)                                           -- expect: true
