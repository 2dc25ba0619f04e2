-- bench/gc/particles.lua — a particle simulation that keeps ~50,000
-- particles alive and, every step, gives each one a FRESH position table
-- (the old one becomes garbage) and a fresh spark record to one in ten:
-- about 60,000 short-lived tables a step next to a live set of ~150,000 tables
-- that changes slowly (particles die after 20-99 steps and are replaced
-- by new ones). The pattern of a game that writes `p.pos = {x, y}` instead
-- of updating in place: a generational collector's best case, a
-- non-generational one's worst, since each cycle re-traces the live set.
-- Prints nothing; asserts the final state.

local LIVE = 50000
local STEPS = 36

-- Our own generator, so the result does not depend on math.random.
local seed = 4242
local function rand()
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
end

local function new_particle(id)
    return {
        id = id,
        pos = { x = rand() * 1000, y = rand() * 1000 },
        vel = { x = rand() * 2 - 1, y = rand() * 2 - 1 },
        life = 20 + math.floor(rand() * 80),
        sparks = 0,
    }
end

local particles = {}
local spawned = 0
for i = 1, LIVE do
    spawned = spawned + 1
    particles[i] = new_particle(spawned)
end

local sparks, last_spark = 0, nil
for step = 1, STEPS do
    for i = 1, LIVE do
        local p = particles[i]
        local pos, vel = p.pos, p.vel
        -- A fresh table every step: the previous position is garbage now.
        local x, y = pos.x + vel.x, pos.y + vel.y
        if x < 0 or x > 1000 then vel.x = -vel.x end
        if y < 0 or y > 1000 then vel.y = -vel.y end
        p.pos = { x = x, y = y }
        p.life = p.life - 1
        if (i + step) % 10 == 0 then
            -- A short-lived effect record, dropped at once.
            last_spark = { x = x, y = y, t = step, colour = { 255, 128, i % 256 } }
            p.sparks = p.sparks + 1
            sparks = sparks + 1
        end
        if p.life <= 0 then
            spawned = spawned + 1
            particles[i] = new_particle(spawned)
        end
    end
end

local sx = 0
for i = 1, LIVE do sx = sx + math.floor(particles[i].pos.x) end
local state = string.format("%d %d %d %d", spawned, sparks, last_spark.t, sx)
assert(state == "60499 180000 36 24954481", state)
