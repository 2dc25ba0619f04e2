-- An endless loop in update() at frame 2 is stopped by the watchdog:
-- exit 1 and the two frames before it in the report. (On LuaJIT the loop
-- is compiled and never reaches the hook; the backstop thread stops it.)
-- host-args: --frames 100 --quiet --watchdog-ms 200
-- expect exit: 1
-- expect report rows: 2
-- expect stderr: watchdog: the script ran for more than 200 ms in update()
local engine = require("engine")

function update()
    if engine.frame() == 2 then
        local x = 0
        while true do x = x + 1 end
    end
end
