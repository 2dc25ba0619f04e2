-- --exec runs the file once as a plain program: no frames, no summary on
-- stdout, `engine` available, arg[0] the script.
-- host-args: --exec
-- expect: exec tests/host/exec.lua 0 args
-- expect: engine frame 0
local engine = require("engine")
print(string.format("exec %s %d args", arg[0], #arg))
print("engine frame " .. engine.frame())
function update() error("--exec never calls update") end
