-- requires: engine
-- At the start of an --exec run the engine is at frame 0, nothing is held
-- and nothing was drawn.
local engine = require("engine")

print(string.format("%d", engine.frame()))      -- expect: 0
print(string.format("%.4f", engine.time()))     -- expect: 0.0000
print(string.format("%.6f", engine.dt()))       -- expect: 0.016667
print(string.format("%.4f", 1 / engine.dt()))   -- expect: 60.0000
print(engine.width() > 0, engine.height() > 0)  -- expect: true	true
print(type(engine.clock()), type(engine.backend()), type(engine.headless()))
-- expect: number	string	boolean

local keys = { "left", "right", "up", "down", "space", "return", "escape",
               "tab", "backspace", "lshift", "lctrl", "f1", "f2", "f3", "f4" }
for c = string.byte("a"), string.byte("z") do keys[#keys + 1] = string.char(c) end
for d = 0, 9 do keys[#keys + 1] = tostring(d) end

local held, pressed = 0, 0
for _, k in ipairs(keys) do
    if engine.key_down(k) then held = held + 1 end
    if engine.key_pressed(k) then pressed = pressed + 1 end
end
print(string.format("%d keys, %d held, %d pressed", #keys, held, pressed))
-- expect: 51 keys, 0 held, 0 pressed

print(engine.mouse_pressed(), engine.mouse_pressed(2), engine.mouse_pressed(3))
-- expect: false	false	false
local _, _, buttons = engine.mouse()
print(string.format("%d", buttons))  -- expect: 0
