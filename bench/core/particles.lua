-- bench/core/particles.lua — a GC-heavy particle system: every frame spawns
-- particles (a table with a nested colour table and a string tag), moves
-- them, and drops the dead ones: most objects die young, while a few
-- thousand particles are alive at any time, each for 10-59 frames.
-- Prints nothing; asserts the final state.

local FRAMES = 700
local SPAWN = 80

-- A generator of our own: the checksum must not depend on how math.random
-- is seeded or implemented.
local seed = 12345
local function rand()
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
end

local particles = {}
local spawned, died = 0, 0
for frame = 1, FRAMES do
    for _ = 1, SPAWN do
        spawned = spawned + 1
        particles[#particles + 1] = {
            x = rand() * 100, y = rand() * 100,
            vx = rand() - 0.5, vy = rand() * 2,
            life = 10 + (spawned % 50),
            colour = { r = spawned % 256, g = frame % 256, b = 128, a = 1.0 },
            tag = "p" .. (spawned % 1000),
        }
    end
    local alive = {}
    for i = 1, #particles do
        local p = particles[i]
        p.vy = p.vy - 0.1
        p.x = p.x + p.vx
        p.y = p.y + p.vy
        p.life = p.life - 1
        p.colour = { r = p.colour.r, g = p.colour.g, b = p.colour.b, a = p.colour.a * 0.95 }
        if p.life > 0 then
            alive[#alive + 1] = p
        else
            died = died + 1
        end
    end
    particles = alive
end

local sx = 0
for i = 1, #particles do sx = sx + math.floor(particles[i].x) end
local state = string.format("%d %d %d %d", spawned, died, #particles, sx)
assert(state == "56000 53320 2680 133740", state)
