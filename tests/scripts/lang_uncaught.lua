-- lua: 5.4
-- An error nobody catches ends the chunk: what ran before it printed,
-- nothing after it runs, and the message names the variable and line.

print("before") -- expect: before
local config = nil
local function read_setting(name) return config[name] end
print(read_setting("width"))
print("never printed")
-- expect error: tests/scripts/lang_uncaught.lua:7: attempt to index a nil value (upvalue 'config')
