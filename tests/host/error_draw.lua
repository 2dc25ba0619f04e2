-- A runtime error in draw() at frame 3: frames 0-2 complete, frame 3 ran
-- update but not a whole frame, so three rows are reported.
-- host-args: --frames 100 --quiet
-- expect exit: 1
-- expect report rows: 3
-- expect stderr: tests/host/error_draw.lua:16:
-- expect stderr: nil value
-- expect stderr: stack traceback:
local engine = require("engine")

function update() end

function draw()
    local missing = {}
    if engine.frame() == 3 then missing = nil end
    missing.x = 1
end
