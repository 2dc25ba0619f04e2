-- An error while the main chunk runs: no frame starts.
-- host-args: --quiet
-- expect exit: 1
-- expect report rows: 0
-- expect stderr: tests/host/main_error.lua:7: no such level
-- expect stderr: stack traceback:
error("no such level")

function update() end
