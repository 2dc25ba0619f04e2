-- bench/gc/world_old_young — a benchmark game for the collector's worst
-- generational case: a big OLD heap that is written FRESH tables into all
-- the time (old-to-young references), as open-world games do.
--
-- The main chunk builds the world before the first frame: 200,000 entities,
-- each an entity table with a unique name string and four component tables
-- (pos, vel, inventory, last message) — 1,200,000 live objects in big arrays
-- (the entity list and a 4,096-cell grid of entity lists). Every frame then:
--   - 20,000 stores of a FRESH message table into the `msg` field of a
--     random OLD entity; each replaces the entity's previous message, so
--     about 20,000 tables (at first old ones, later young ones) become
--     garbage every frame;
--   - 2,000 entities move (in place, no allocation);
--   - draw() clears the screen and prints two lines.
-- Randomness only from engine.random, so a run is the same for a seed on
-- every backend. tools/bench_gc.lua runs it headless on tide and on stock
-- Lua 5.4 (incremental and generational); see tools/README.md.

local engine = require("engine")

local ENTITIES = 200000
local STORES_PER_FRAME = 20000
local MOVES_PER_FRAME = 2000
local GRID = 64                     -- GRID x GRID cells of entity lists
local WORLD = 4096                  -- world units on a side

local random = engine.random

local entities = {}                 -- the big array of old objects
local grid = {}                     -- cell -> array of entities
for c = 1, GRID * GRID do grid[c] = {} end

local function cell_of(x, y)
    return (y * GRID // WORLD) * GRID + (x * GRID // WORLD) + 1
end

for i = 1, ENTITIES do
    local x, y = random(0, WORLD - 1), random(0, WORLD - 1)
    local e = {
        id = i,
        name = "entity-" .. i,
        pos = { x = x, y = y },
        vel = { x = random(-2, 2), y = random(-2, 2) },
        inventory = { random(1, 50), random(1, 50), random(1, 50) },
        msg = { from = 0, frame = 0, value = 0 },
        received = 0,
    }
    entities[i] = e
    local cell = grid[cell_of(x, y)]
    cell[#cell + 1] = e
end
-- entities, grid, cells; per entity: itself, name, pos, vel, inventory, msg
local LIVE_OBJECTS = 2 + GRID * GRID + 6 * ENTITIES

local stores, checksum = 0, 0

function update()
    local frame = engine.frame()
    for k = 1, STORES_PER_FRAME do
        local e = entities[random(ENTITIES)]
        local old = e.msg
        checksum = (checksum + old.value) % 1000003
        -- The store the benchmark is about: a fresh table into an old object.
        e.msg = { from = k, frame = frame, value = (k * 7 + frame) % 1009 }
        e.received = e.received + 1
    end
    stores = stores + STORES_PER_FRAME
    for _ = 1, MOVES_PER_FRAME do
        local e = entities[random(ENTITIES)]
        local pos, vel = e.pos, e.vel
        pos.x = (pos.x + vel.x) % WORLD
        pos.y = (pos.y + vel.y) % WORLD
    end
end

function draw()
    engine.clear(20, 24, 32)
    engine.color(220, 220, 220)
    engine.text(10, 10, string.format("world_old_young  frame %d  live objects ~%d",
        engine.frame(), LIVE_OBJECTS), 2)
    engine.text(10, 40, string.format("fresh tables stored into old entities: %d  checksum %d",
        stores, checksum), 2)
end
