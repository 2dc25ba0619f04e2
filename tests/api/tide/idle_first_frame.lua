-- API test (libtide only, white-box): the idle time a program gives
-- before its first frame (the host's, after loading) writes room for
-- promotion ahead as if the loading were a frame: as much as the loading
-- promoted and a quarter more, with the next collection's room on top
-- (frames.c, tide_gc_idle; sweep.c, idle_reserve_blocks). A first frame
-- that makes as much as the loading did (samples/coroutines' frame 0
-- starts its 5,500 actors) then takes no step writing room in its middle.
-- Under the runner's debug columns, which collect every few allocations,
-- only the survival of what the loading kept is checked.
local im = require("idle_minor")
local debug_modes = os.getenv("TIDE_GC_DEBUG") ~= nil

-- Loading: about 2 MB kept, on a list (a growing array would retire
-- large storage, which is given back by other steps).
local chain, n = nil, 0
local start = im.allocated()
while im.allocated() - start < 2 * 1024 * 1024 and (not debug_modes or n < 3000) do
    n = n + 1
    chain = { next = chain, n = n }
end

im.idle(50000)
local room, frame_promoted, promoted = im.reserve()
print(debug_modes or frame_promoted == 0) -- expect: true
print(debug_modes or promoted > 1024 * 1024) -- expect: true
local want = math.min(promoted + promoted // 4, 8 * 1024 * 1024) + im.budget()
print(debug_modes or room >= want) -- expect: true

local length, ok = 0, true
while chain do
    if chain.n ~= n - length then ok = false end
    length, chain = length + 1, chain.next
end
print(ok and length == n) -- expect: true
