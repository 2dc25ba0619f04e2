-- Without --quiet the host prints its summary on stdout: the frame count,
-- the frame-time percentiles, the over-budget counts and the memory peak.
-- host-args: --frames 12
-- expect report rows: 12
-- expect stdout: 12 frames in
-- expect stdout: p99.9
-- expect stdout: over 16.7 ms:
-- expect stdout: script peak
-- expect stdout: zone tick
local engine = require("engine")

function update()
    engine.zone_begin("tick")
    local t = {}
    for i = 1, 100 do t[i] = i end
    engine.zone_end("tick")
end
