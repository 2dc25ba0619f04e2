-- requires: engine
-- Bad calls fail with a message naming the function and the argument, the
-- same on every backend.
local engine = require("engine")

local function try(f, ...)
    local ok, err = pcall(f, ...)
    print(ok and "no error" or err)
end

try(engine.key_down, "bogus")
-- expect: bad argument #1 to 'engine.key_down' (unknown key 'bogus')
try(engine.key_down, 42)
-- expect: bad argument #1 to 'engine.key_down' (string expected, got number)
try(engine.key_pressed)
-- expect: bad argument #1 to 'engine.key_pressed' (string expected, got no value)
try(engine.rect, 1, 2, "x", 4)
-- expect: bad argument #3 to 'engine.rect' (number expected, got string)
try(engine.fill_circle, 1, 2)
-- expect: bad argument #3 to 'engine.fill_circle' (number expected, got no value)
try(engine.color, 1, 2, {})
-- expect: bad argument #3 to 'engine.color' (number expected, got table)
try(engine.text, 0, 0, nil)
-- expect: bad argument #3 to 'engine.text' (string expected, got nil)
try(engine.random, 0)
-- expect: bad argument #1 to 'engine.random' (interval is empty)
try(engine.random, 10, 1)
-- expect: bad argument #2 to 'engine.random' (interval is empty)
try(engine.random, 2.5)
-- expect: bad argument #1 to 'engine.random' (number has no integer representation)
try(engine.random, 1, 2, 3)
-- expect: wrong number of arguments to 'engine.random'
try(engine.seed, "x")
-- expect: bad argument #1 to 'engine.seed' (integer expected, got string)
try(engine.mouse_pressed, 4)
-- expect: bad argument #1 to 'engine.mouse_pressed' (button must be 1, 2 or 3)
try(engine.gc.set_low_latency, 1)
-- expect: bad argument #1 to 'engine.gc.set_low_latency' (boolean expected, got number)
try(engine.gc.step, -1)
-- expect: bad argument #1 to 'engine.gc.step' (step size must be 0 to 1048576 KiB)
-- a numeric string is a number, as everywhere in Lua
try(engine.rect, "1", 2, 3, 4)
-- expect: no error
