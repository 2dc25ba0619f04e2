-- A syntax error: the Lua message with file, line and 'near', no frames.
-- host-args: --quiet
-- expect exit: 1
-- expect report rows: 0
-- expect stderr: tests/host/syntax_error.lua:9:
-- expect stderr: near '='
function update()
end
local x = = 1
