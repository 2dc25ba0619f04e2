-- requires: engine
-- engine.gc: counts grow with live data and shrink after a collection; a
-- step reports finished cycles; the low-latency setting round-trips (on
-- stock backends it only warns, on stderr).
local engine = require("engine")

engine.gc.collect()
local base = engine.gc.count()
print(type(base), base > 0)  -- expect: number	true

local keep = {}
for i = 1, 50000 do keep[i] = { i } end
local grown = engine.gc.count()
print(grown > base + 1000)  -- expect: true

keep = nil
engine.gc.collect()
print(engine.gc.count() < grown - 1000)  -- expect: true

-- collectgarbage agrees with engine.gc.count (KiB including the remainder)
print(math.abs(engine.gc.count() - collectgarbage("count")) < 1)  -- expect: true

local finished = false
for _ = 1, 100000 do
    if engine.gc.step() then finished = true break end
end
print(finished)  -- expect: true
print(type(engine.gc.step(16)))  -- expect: boolean

print(engine.gc.low_latency())              -- expect: false
print(engine.gc.set_low_latency(true))      -- expect: false
print(engine.gc.low_latency())              -- expect: true
print(engine.gc.set_low_latency(false))     -- expect: true
print(engine.gc.low_latency())              -- expect: false
