-- On tide the host records every pause the collector reports through its
-- event callback (tide_gc_set_event_callback): a game that allocates
-- megabytes a frame for 120 frames pauses many times, and each pause is a
-- row of the report's pauses.csv (frame, kind, duration, heap, the thread's
-- processor time in it) and counts
-- in summary.json's "pauses" (per kind: count, p50, p99, max, total_ms)
-- and in the terminal summary's pause table; the summary and
-- summary.json's "pacing" also say when the pacer will begin the next
-- major cycle (tide_gc_pacing). The new tables replace old
-- ones in a ring of 40,000, so some survive several collections.
-- backends: tide
-- host-args: --frames 120
-- expect report rows: 120
-- expect report positive: pauses.count
-- expect report positive: pauses.max
-- expect report positive: pauses.total_ms
-- expect report positive: pauses.csv:duration_ns
-- expect report positive: pauses.csv:cpu_ns
-- expect stdout: pauses (ms)
-- expect stdout: pacer: next cycle at
-- expect report positive: pacing.target_mib
local engine = require("engine")
local ring = {}
local RING = 40000

function update()
    local base = engine.frame() * 10000
    for i = 1, 10000 do
        ring[(base + i) % RING + 1] = { i, tostring(base + i), { x = i } }
    end
    local scratch = {}
    for i = 1, 10000 do scratch[i] = { i } end
end
