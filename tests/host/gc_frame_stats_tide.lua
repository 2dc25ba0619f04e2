-- On tide the host drives tide_frame_begin/tide_frame_end and takes each
-- frame's GC time from tide_gc_frame_stats: the pauses of the explicit
-- collections below land in the frames that asked for them, so the
-- report's GC column and its worst GC (gc_ms.max) are above zero.
-- backends: tide
-- host-args: --frames 30 --quiet
-- expect report rows: 30
-- expect report positive: gc_ms.max
-- expect report positive: gc_ms.mean
-- expect report positive: frames.csv:gc_ms
-- expect: collected 3 times
local engine = require("engine")
local keep = {}
local collections = 0

function update()
    -- Enough live data that a full collection takes measurable time.
    for i = 1, 2000 do keep[(engine.frame() * 2000 + i) % 20000 + 1] = { i, tostring(i) } end
    if engine.frame() % 10 == 5 then
        engine.gc.collect()
        collections = collections + 1
    end
    if engine.frame() == 29 then print("collected " .. collections .. " times") end
end
