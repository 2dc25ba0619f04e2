-- Only update is defined; a game may also swap its update function at run
-- time, and the host calls whichever is current.
-- host-args: --frames 6 --quiet
-- expect report rows: 6
-- expect: first 0
-- expect: first 1
-- expect: second 2
-- expect: second 5
local engine = require("engine")

local function second()
    local f = engine.frame()
    if f == 2 or f == 5 then print("second " .. f) end
end

function update()
    print("first " .. engine.frame())
    if engine.frame() == 1 then update = second end
end
