-- patterns.lua — how enemies move and the shapes of their bullet volleys.
--
-- Movement paths are pure functions of an enemy's age (e.t), where it
-- spawned (e.origin) and its parameters (e.params): each frame they hand the
-- enemy a brand-new position vector. Bullet patterns create one fresh bullet
-- table per bullet, a ring of 48 is 48 tables (plus two vectors each).

local entities = require("entities")
local palette = require("palette")
local vec = require("vec")

local patterns = {}

local cos, sin, pi = math.cos, math.sin, math.pi
local enemy_bullet = entities.enemy_bullet

-- Bullet looks, shared by every bullet that uses them.
patterns.style = {
    small  = { r = 4, color = palette.orange },
    medium = { r = 6, color = palette.pink },
    big    = { r = 9, color = palette.blue },
    needle = { r = 3, color = palette.cyan },
    curve  = { r = 5, color = palette.violet },
    rain   = { r = 4, color = palette.lime },
}
local style = patterns.style

---------------------------------------------------------------- bullets --

-- The angle from (x, y) to the ship; straight down while it is respawning.
function patterns.aim(world, x, y)
    local ship = world.ship
    if not ship.alive then return pi / 2 end
    return vec.angle_to(x, y, ship.pos.x, ship.pos.y)
end

-- [n] bullets evenly around a circle, the first at [offset] radians.
function patterns.ring(world, x, y, n, speed, offset, look, spin)
    for i = 0, n - 1 do
        local a = offset + i * 2 * pi / n
        enemy_bullet(world, x, y, cos(a) * speed, sin(a) * speed, look, spin)
    end
end

-- [n] bullets spread over [spread] radians centred on [angle].
function patterns.fan(world, x, y, angle, n, spread, speed, look)
    if n == 1 then
        enemy_bullet(world, x, y, cos(angle) * speed, sin(angle) * speed, look)
        return
    end
    for i = 0, n - 1 do
        local a = angle - spread / 2 + spread * i / (n - 1)
        enemy_bullet(world, x, y, cos(a) * speed, sin(a) * speed, look)
    end
end

-- One bullet at the ship.
function patterns.aimed(world, x, y, speed, look)
    patterns.fan(world, x, y, patterns.aim(world, x, y), 1, 0, speed, look)
end

-- One step of a rotating spiral with [arms] arms; the enemy remembers the
-- angle in e.spin so successive calls wind round.
function patterns.spiral(world, e, arms, speed, step, look, spin)
    for k = 0, arms - 1 do
        local a = e.spin + k * 2 * pi / arms
        enemy_bullet(world, e.pos.x, e.pos.y, cos(a) * speed, sin(a) * speed,
                     look, spin)
    end
    e.spin = e.spin + step
end

-- Bullets dropped from random points along a line, falling at mixed speeds.
function patterns.rain(world, x, y, width, n, speed, random)
    for _ = 1, n do
        local bx = x + (random() - 0.5) * width
        local v = speed * (0.6 + 0.6 * random())
        enemy_bullet(world, bx, y, (random() - 0.5) * 60, v, style.rain, 0, 0.35)
    end
end

--------------------------------------------------------------- movement --

local function smooth(u)
    if u >= 1 then return 1 end
    return u * u * (3 - 2 * u)
end

patterns.move = {}

-- Falls from the top, steering towards the x the ship had at spawn time,
-- and speeds up as it goes.
function patterns.move.dive(e)
    local p, o, t = e.params, e.origin, e.t
    local x = o.x + (p.tx - o.x) * smooth(t / 1.4)
    return vec.new(x, o.y + p.speed * t + 70 * t * t)
end

-- Descends slowly while weaving from side to side.
function patterns.move.sine(e)
    local p, o, t = e.params, e.origin, e.t
    return vec.new(o.x + p.amp * sin(p.freq * t + p.phase), o.y + p.speed * t)
end

-- Swoops along a half circle from one top corner to the other.
function patterns.move.arc(e)
    local p, t = e.params, e.t
    local a = p.a0 + p.dir * p.speed / p.radius * t
    return vec.new(p.cx + p.radius * cos(a), p.cy + p.radius * sin(a))
end

-- Glides down to height p.ty, hovers there for p.hold seconds, then leaves
-- (p.leave = 1 down the screen, -1 back up).
function patterns.move.hover(e)
    local p, o, t = e.params, e.origin, e.t
    local enter = 1.6
    local sway = 24 * sin(t * 0.9 + p.phase)
    if t < enter then
        return vec.new(o.x + sway * t / enter, o.y + (p.ty - o.y) * smooth(t / enter))
    end
    local gone = t - enter - p.hold
    if gone < 0 then gone = 0 end
    return vec.new(o.x + sway, p.ty + p.leave * 90 * gone * gone)
end

-- Drifts down slowly; for enemies that are busy shooting.
function patterns.move.drift(e)
    local p, o, t = e.params, e.origin, e.t
    return vec.new(o.x + p.amp * sin(t * 0.7 + p.phase), o.y + p.speed * t)
end

-- The boss comes down over three seconds, sways across the top, and if it
-- is still alive after p.stay seconds it flies off (so the waves go on).
function patterns.move.boss(e, world)
    local o, t = e.origin, e.t
    local home_y = 150
    if t < 3 then
        return vec.new(o.x, o.y + (home_y - o.y) * smooth(t / 3))
    end
    local s = t - 3
    local reach = world.width * 0.32
    local y = home_y + 25 * sin(s * 0.8)
    local gone = t - e.params.stay
    if gone > 0 then y = y - 80 * gone * gone end
    return vec.new(world.width / 2 + reach * sin(s * 0.35), y)
end

return patterns
