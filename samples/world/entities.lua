-- entities.lua — the persistent population: every entity is a bundle of
-- component tables (position, velocity, health, an inventory of item
-- tables) plus a unique name string, kept in one dense array and in a
-- spatial grid (one big table keyed by cell index, each cell a list).
--
-- Nothing here is pooled: a birth makes fresh component tables and a death
-- drops them. The world is meant to be a large OLD heap that changes
-- slowly, which is the point of the sample.

local engine = require("engine")
local terrain = require("terrain")

local entities = {}

local floor, random, format = math.floor, engine.random, string.format

entities.CELL = 8                                  -- tiles per grid cell side
entities.CELLS = terrain.WORLD / entities.CELL     -- grid cells per side
local CELL, CELLS = entities.CELL, entities.CELLS

entities.KINDS = {
    { name = "villager", color = { 240, 210, 160 }, hp = 30 },
    { name = "farmer",   color = { 200, 240, 120 }, hp = 35 },
    { name = "merchant", color = { 255, 200, 60 },  hp = 25 },
    { name = "guard",    color = { 120, 170, 255 }, hp = 80 },
    { name = "deer",     color = { 190, 120, 70 },  hp = 20 },
    { name = "wolf",     color = { 150, 150, 160 }, hp = 40 },
    { name = "bandit",   color = { 230, 70, 90 },   hp = 50 },
}
entities.ITEMS = { "bread", "coin", "arrow", "herb", "pelt", "ore", "sword", "rope",
                   "apple", "torch", "gem", "letter" }

-- Live objects per entity besides its items: the entity, pos, vel, health,
-- inventory tables and its name string.
local PER_ENTITY = 6

function entities.new_world()
    local grid = {}
    for i = 1, CELLS * CELLS do grid[i] = {} end
    return {
        list = {},            -- dense array of live entities
        grid = grid,          -- cell index -> array of entities in that cell
        next_id = 1,
        objects = CELLS * CELLS + 2,   -- live objects estimate (see HUD)
        births = 0, deaths = 0,        -- totals since start
        created = 0,                   -- tables/strings made in total
    }
end

local function cell_of(x, y)
    local cx, cy = floor(x / CELL), floor(y / CELL)
    if cx < 0 then cx = 0 elseif cx >= CELLS then cx = CELLS - 1 end
    if cy < 0 then cy = 0 elseif cy >= CELLS then cy = CELLS - 1 end
    return cy * CELLS + cx + 1
end
entities.cell_of = cell_of

local function grid_add(w, e, cell)
    local list = w.grid[cell]
    local n = #list + 1
    list[n] = e
    e.cell, e.slot = cell, n
end

local function grid_remove(w, e)
    local list = w.grid[e.cell]
    local n = #list
    local last = list[n]
    list[e.slot] = last
    last.slot = e.slot
    list[n] = nil
end

-- Moves e to the cell under its position if it changed.
function entities.regrid(w, e)
    local cell = cell_of(e.pos[1], e.pos[2])
    if cell ~= e.cell then
        grid_remove(w, e)
        grid_add(w, e, cell)
    end
end

-- A new entity at (x, y) in tiles. Every component is a fresh table.
function entities.spawn(w, x, y)
    local kind = random(#entities.KINDS)
    local def = entities.KINDS[kind]
    local id = w.next_id
    w.next_id = id + 1
    local items = {}
    local n = random(4)
    for i = 1, n do
        items[i] = { entities.ITEMS[random(#entities.ITEMS)], random(20) }   -- {name, count}
    end
    local e = {
        id = id,
        kind = kind,
        name = format("%s #%d", def.name, id),
        pos = { x, y },
        vel = { 0, 0 },
        health = { def.hp - random(0, floor(def.hp / 2)), def.hp },   -- {hp, max}
        inv = { items = items, gold = random(0, 50) },
        cell = 0, slot = 0,
        index = #w.list + 1,
        msg = nil,            -- last message an agent left here (agents.lua)
        agent = nil,          -- agent state when this entity is an agent
        born = engine.frame(),
    }
    w.list[e.index] = e
    grid_add(w, e, cell_of(x, y))
    local made = PER_ENTITY + n + 1          -- + the items array
    w.objects = w.objects + made
    w.created = w.created + made
    w.births = w.births + 1
    return e
end

-- A random walkable spot, in tiles.
function entities.random_land(w, map)
    for _ = 1, 40 do
        local x = random() * terrain.WORLD
        local y = random() * terrain.WORLD
        if terrain.walkable(map, x, y) then return x, y end
    end
    return terrain.WORLD / 2, terrain.WORLD / 2
end

-- Removes e from the world; its tables become garbage (old garbage: most
-- entities die long after they were promoted).
function entities.kill(w, e)
    grid_remove(w, e)
    local list = w.list
    local n = #list
    local last = list[n]
    list[e.index] = last
    last.index = e.index
    list[n] = nil
    e.dead = true
    local freed = PER_ENTITY + #e.inv.items + 1
    if e.msg then freed = freed + 1 end
    w.objects = w.objects - freed
    w.deaths = w.deaths + 1
end

-- The entity nearest to (x, y) within `radius` tiles, or nil.
function entities.nearest(w, x, y, radius)
    local best, best_d = nil, radius * radius
    local c0x, c0y = floor((x - radius) / CELL), floor((y - radius) / CELL)
    local c1x, c1y = floor((x + radius) / CELL), floor((y + radius) / CELL)
    for cy = c0y, c1y do
        if cy >= 0 and cy < CELLS then
            for cx = c0x, c1x do
                if cx >= 0 and cx < CELLS then
                    local list = w.grid[cy * CELLS + cx + 1]
                    for i = 1, #list do
                        local e = list[i]
                        local dx, dy = e.pos[1] - x, e.pos[2] - y
                        local d = dx * dx + dy * dy
                        if d < best_d then best, best_d = e, d end
                    end
                end
            end
        end
    end
    return best
end

return entities
