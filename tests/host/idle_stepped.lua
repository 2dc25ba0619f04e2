-- The idle-stepped collector mode on a game that makes garbage every frame:
-- the collector is stopped during frames and stepped in idle time, so the
-- heap must stay bounded (engine.gc.count() is read at the end).
-- host-args: --frames 120 --quiet --gc idle-stepped --idle-budget-ms 2
-- expect report rows: 120
-- expect: heap bounded
local engine = require("engine")

function update()
    local garbage = {}
    for i = 1, 500 do garbage[i] = { i, tostring(i) } end
    if engine.frame() == 119 then
        -- 120 frames of garbage, about 100 KiB each, never collected would be
        -- over 10 MiB.
        print(engine.gc.count() < 4096 and "heap bounded" or ("heap grew to " .. engine.gc.count()))
    end
end
