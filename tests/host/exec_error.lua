-- An error in an --exec program: message and traceback, exit 1.
-- host-args: --exec
-- expect exit: 1
-- expect stderr: tests/host/exec_error.lua:8: exec failed
-- expect stderr: stack traceback:
local function fail()
    -- the error is raised on the next line
    error("exec failed")
end
fail()
