-- requires: engine
-- lua: 5.4
-- On Lua 5.4 (and Tide) integer results are integers, not floats.
local engine = require("engine")

print(math.type(engine.frame()))        -- expect: integer
print(math.type(engine.width()))        -- expect: integer
print(math.type(engine.random(10)))     -- expect: integer
print(math.type(engine.random(-5, 5)))  -- expect: integer
print(math.type(engine.random()))       -- expect: float
print(math.type(engine.seed()))         -- expect: integer
print(math.type(engine.dt()))           -- expect: float
print(math.type(select(3, engine.mouse())))  -- expect: integer
print(engine.random(3.0) <= 3)          -- expect: true

-- the whole integer range works
local neg, pos = false, false
for _ = 1, 100 do
    local x = engine.random(math.mininteger, math.maxinteger)
    if x < 0 then neg = true else pos = true end
end
print(neg, pos)  -- expect: true	true
print(engine.random(math.maxinteger, math.maxinteger) == math.maxinteger)  -- expect: true
