-- Past --memory-limit allocation fails and Lua raises "not enough memory":
-- exit 1, with the three frames before the runaway one in the report.
-- (The loop calls no C function: Debian's LuaJIT 2.1 snapshot crashes when
-- memory runs out inside a trace stitched around a C call, a LuaJIT bug
-- fixed upstream, e.g. `while true do t[#t+1] = {os.clock()} end`.)
-- host-args: --frames 100 --quiet --memory-limit 8
-- expect exit: 1
-- expect report rows: 3
-- expect stderr: not enough memory
local engine = require("engine")

local hoard = {}

function update()
    local frame = engine.frame()
    if frame == 3 then
        while true do hoard[#hoard + 1] = { frame } end
    end
end
