-- On tide, collections the game never asks for are timed too: a game that
-- allocates megabytes a frame makes the collector pause inside frames, and
-- those pauses reach the report's GC column (frames.csv gc_ms) and its worst
-- GC (summary.json gc_ms.max). No idle budget, so no collection can move
-- to the idle time between frames.
-- backends: tide
-- host-args: --frames 40 --quiet --idle-budget-ms 0
-- expect report rows: 40
-- expect report positive: gc_ms.max
-- expect report positive: frames.csv:gc_ms
function update()
    local t = {}
    for i = 1, 20000 do t[i] = { i, tostring(i) } end
end
