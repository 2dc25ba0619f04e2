-- entities.lua — constructors for everything that lives in the world, and
-- the counters that prove how much the game allocates.
--
-- Every bullet, particle, enemy and power-up is a fresh Lua table, made when
-- it appears and dropped when it dies. There is deliberately NO object
-- pooling anywhere in this sample: it exists to stress the garbage collector
-- with the allocation churn a real shooter produces (thousands of bullets
-- and particles a second, each living a fraction of a second). A pool would
-- hide exactly what Tide's nursery is built to make cheap.

local vec = require("vec")

local entities = {}

-- Totals since the program started; hud.lua and the test harness read them.
local stats = { bullets = 0, particles = 0, enemies = 0 }
entities.stats = stats

-- Bullets and particles made so far; main.lua turns it into a rate.
function entities.created()
    return stats.bullets + stats.particles
end

local function push(list, item)
    list[#list + 1] = item
    return item
end

-- An enemy bullet. [style] is a shared table from patterns.style (radius,
-- colour); [spin] (radians/s) bends its path, [accel] speeds it up.
function entities.enemy_bullet(world, x, y, vx, vy, style, spin, accel)
    stats.bullets = stats.bullets + 1
    return push(world.ebullets, {
        pos = vec.new(x, y),
        vel = vec.new(vx, vy),
        r = style.r,
        color = style.color,
        spin = spin or style.spin or 0,
        accel = accel or style.accel or 0,
        age = 0,
        trail = 0,
        grazed = false,
        dead = false,
    })
end

function entities.player_bullet(world, x, y, vx, vy, damage)
    stats.bullets = stats.bullets + 1
    return push(world.pbullets, {
        pos = vec.new(x, y),
        vel = vec.new(vx, vy),
        damage = damage,
        trail = 0,
        dead = false,
    })
end

-- A particle. [kind] picks how render.lua draws it: "spark" (a streak),
-- "ember" (a square), "smoke" (a growing disc), "ring" (a growing circle),
-- "flash" (a shrinking disc) or "text". [color] is a palette triple; the
-- alpha fades from [alpha] to 0 over [life] seconds.
function entities.particle(world, kind, x, y, vx, vy, life, size, color, alpha)
    stats.particles = stats.particles + 1
    return push(world.particles, {
        kind = kind,
        x = x, y = y, vx = vx, vy = vy,
        life = life, max_life = life,
        size = size, grow = 0,
        drag = 0, gravity = 0,
        color = color, alpha = alpha or 255,
    })
end

function entities.enemy(world, def, x, y, params)
    stats.enemies = stats.enemies + 1
    local hp = math.floor(def.hp * world.diff.hp + 0.5)
    return push(world.enemies, {
        def = def,
        pos = vec.new(x, y),
        vel = vec.new(0, 0),
        origin = vec.new(x, y),
        params = params or {},
        hp = hp, max_hp = hp,
        t = 0,
        fire_t = def.first_shot or 1.0,
        angle = 0,
        spin = 0,          -- rotating bullet patterns keep their angle here
        flash = 0,         -- white hit flash, seconds left
        entered = false,   -- has been on screen (only then may it leave)
        dead = false,
    })
end

-- A power-up: "power" (more guns), "bomb" or "life".
function entities.powerup(world, kind, x, y)
    return push(world.powerups, {
        kind = kind,
        pos = vec.new(x, y),
        vel = vec.new(0, -120),
        t = 0,
        dead = false,
    })
end

-- One frame's pass over [list]: calls update(world, item, dt) on every entry
-- present when the pass starts, keeps those for which it returns true, and
-- compacts the array in place (entries appended during the pass are kept).
function entities.update_all(list, update, world, dt)
    local seen, kept = #list, 0
    for i = 1, seen do
        local item = list[i]
        if update(world, item, dt) then
            kept = kept + 1
            list[kept] = item
        end
    end
    entities.compact(list, seen, kept)
end

-- Closes an in-place compaction of [list]: entries 1..[kept] survived a pass
-- over the first [seen] entries, and anything appended during the pass
-- (past [seen]) slides down behind them. Keeps the array order, so a run
-- stays deterministic.
function entities.compact(list, seen, kept)
    local total = #list
    for i = seen + 1, total do
        kept = kept + 1
        list[kept] = list[i]
    end
    for i = total, kept + 1, -1 do
        list[i] = nil
    end
end

return entities
