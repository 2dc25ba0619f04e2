-- API test (libtide only): the first frame's initial pause (pacer.c).
-- Before the first frame has ended no frame length is known, nor how much
-- the heap grows in one: a cycle that comes due in the first frame's
-- middle waits for its end, up to the pacer's last point, and begins at
-- the next frame boundary.
local gp = require("gc_pacing")
-- (TIDE_GC_DEBUG's modes collect in full every few allocations: no cycle
-- measures the rates, and there is no pacing to check; they verify the
-- heap at every collection, so they run only a few rounds)
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil
local rounds = debug_modes and 5 or 3000

-- Loading: an old heap grows until a concurrent cycle has measured the
-- rates; then a full collection leaves no cycle under way. It grows in
-- chunks of 1024 entries: one growing array would double its storage,
-- born old, in one step (512 KB at 32,768 entries, which once took the old
-- generation from below the first frame's goal past the last point).
local chunks, n = {}, 0
local CHUNK = 1024
local function grow(count)
    for _ = 1, count do
        n = n + 1
        local chunk = chunks[#chunks]
        if chunk == nil or #chunk == CHUNK then
            chunk = {}
            chunks[#chunks + 1] = chunk
        end
        chunk[#chunk + 1] = { n, n }
    end
end
for _ = 1, rounds do
    if gp.pacing().measured then break end
    grow(1000)
end
collectgarbage()
local p = gp.pacing()
print(debug_modes or p.measured)                        -- expect: true
print(debug_modes or p.phase == "idle")                 -- expect: true

-- The first frame grows the old generation past the trigger, to halfway
-- between it and the last point (an eighth of the growth allowance below
-- the target). No cycle begins inside it.
local last = p.target - (p.target - p.live) // 8
local goal = p.trigger + (last - p.trigger) // 2
local began_inside, reached = false, false
gp.frame(function()
    for _ = 1, rounds * 30 do
        grow(200)
        local now = gp.pacing()
        if now.phase ~= "idle" then began_inside = true end
        if now.old >= goal then reached = true break end
    end
end)
print(debug_modes or reached)                           -- expect: true
print(debug_modes or not began_inside)                  -- expect: true

-- The next frame's boundary begins it.
gp.frame(function() end)
print(debug_modes or gp.pacing().phase ~= "idle")       -- expect: true
local entries = 0
for _, chunk in ipairs(chunks) do entries = entries + #chunk end
print(entries == n)                                     -- expect: true
