-- On tide each row of pauses.csv says whether low-latency mode was on when
-- the pause happened (tide_GcEvent.low_latency): the game below plays its
-- first 40 frames with synchronous majors allowed and the rest with them
-- forbidden, so the rows of the later frames carry low_latency 1 — the
-- pauses the 1 ms limit is about, which tools/compare.lua counts apart
-- from a loading screen's.
-- backends: tide
-- host-args: --frames 80 --gc default
-- expect report rows: 80
-- expect report positive: pauses.csv:low_latency
-- expect report positive: pauses.csv:duration_ns
local engine = require("engine")
local ring = {}
local RING = 40000

function update()
    if engine.frame() == 40 then engine.gc.set_low_latency(true) end
    local base = engine.frame() * 10000
    for i = 1, 10000 do
        ring[(base + i) % RING + 1] = { i, tostring(base + i) }
    end
end
