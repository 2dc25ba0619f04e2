-- requires: engine
-- Profiler zones nest, repeat, and refuse unbalanced use and a 17th name.
local engine = require("engine")

local function try(f, ...)
    local ok, err = pcall(f, ...)
    print(ok and "ok" or err)
end

for _ = 1, 3 do
    engine.zone_begin("update")
    engine.zone_begin("physics")
    engine.zone_end("physics")
    engine.zone_end("update")
end
print("balanced")  -- expect: balanced

try(engine.zone_end, "never")
-- expect: engine.zone_end: zone 'never' is not open (no matching zone_begin)
try(engine.zone_begin, "update")  -- expect: ok
try(engine.zone_begin, "update")
-- expect: engine.zone_begin: zone 'update' is already open
try(engine.zone_end, "update")    -- expect: ok
try(engine.zone_end, "update")
-- expect: engine.zone_end: zone 'update' is not open (no matching zone_begin)
try(engine.zone_begin, "")
-- expect: bad argument #1 to 'engine.zone_begin' (zone name must be 1 to 31 bytes without NULs)
try(engine.zone_begin, string.rep("n", 32))
-- expect: bad argument #1 to 'engine.zone_begin' (zone name must be 1 to 31 bytes without NULs)

-- "update" and "physics" use 2 of the 16 names
for i = 3, 16 do
    engine.zone_begin("zone" .. i)
    engine.zone_end("zone" .. i)
end
try(engine.zone_begin, "one too many")
-- expect: engine.zone_begin: too many zones (at most 16 names), cannot add 'one too many'
try(engine.zone_begin, "zone16")  -- expect: ok
try(engine.zone_end, "zone16")    -- expect: ok
