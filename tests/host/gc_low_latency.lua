-- Tide's low-latency mode (no synchronous major collection) runs a game
-- that allocates every frame, and engine.gc.low_latency() reports it on.
-- backends: tide
-- host-args: --frames 60 --quiet --gc low-latency
-- expect report rows: 60
-- expect: low latency on
local engine = require("engine")
local printed = false
function update()
    local t = {}
    for i = 1, 2000 do t[i] = { i, tostring(i) } end
    if not printed then
        print(engine.gc.low_latency() and "low latency on" or "low latency off")
        printed = true
    end
end
