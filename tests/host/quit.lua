-- engine.quit() ends the run after the frame that asked: exit 0, and the
-- asking frame (index 7) is the last one recorded.
-- host-args: --frames 100 --quiet
-- expect report rows: 8
-- expect: drawn 7
local engine = require("engine")

function update()
    if engine.frame() == 7 then engine.quit() end
end

function draw()
    if engine.frame() == 7 then print("drawn 7") end
end
