-- A runtime error in update() at frame 5: file:line and a traceback on
-- stderr, exit 1, and the five frames completed before it in the report.
-- host-args: --frames 100 --quiet
-- expect exit: 1
-- expect report rows: 5
-- expect stderr: tests/host/error_update.lua:12: boom at frame 5
-- expect stderr: stack traceback:
local engine = require("engine")

local function explode(frame)
    if frame == 5 then
        error("boom at frame " .. frame)
    end
end

function update()
    explode(engine.frame())
end
