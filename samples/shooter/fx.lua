-- fx.lua — particle effects: explosions, sparks, exhaust, trails, popups.
--
-- Effects are where most of the sample's garbage comes from: a small
-- explosion is ~60 fresh particle tables, a boss dies in well over a
-- thousand, and every ship and bullet leaves a trail. See entities.lua for
-- why none of them are pooled.

local engine = require("engine")
local entities = require("entities")
local palette = require("palette")

local fx = {}

local random = engine.random
local cos, sin, pi = math.cos, math.sin, math.pi
local particle = entities.particle

local function rand(a, b)
    return a + (b - a) * random()
end

-- Past this many live particles the purely cosmetic ones (trails, glows,
-- enemy exhaust) are skipped. The game must stay well inside a 60 Hz frame
-- on stock Lua by itself, so that frames over budget point at the collector
-- and not at the game; explosions and bombs still burst far above it.
local BUSY = 3500

local function busy(world)
    return #world.particles > BUSY
end

-- Shakes the screen for a moment; bigger blasts shake harder.
function fx.shake(world, amount)
    if amount > world.shake then world.shake = amount end
end

-- [n] sparks flying out of (x, y) within [spread] radians around [angle].
function fx.sparks(world, x, y, n, color, angle, spread, speed, life)
    for _ = 1, n do
        local a = angle + rand(-spread, spread)
        local v = speed * rand(0.3, 1.0)
        local p = particle(world, "spark", x, y, cos(a) * v, sin(a) * v,
                           life * rand(0.5, 1.0), 1, color)
        p.drag = 3
    end
end

-- Glowing squares that fall a little as they cool.
local function embers(world, x, y, n, color, speed, life)
    for _ = 1, n do
        local a = rand(0, 2 * pi)
        local v = speed * rand(0.1, 1.0)
        local p = particle(world, "ember", x, y, cos(a) * v, sin(a) * v,
                           life * rand(0.4, 1.0), rand(2, 4), color)
        p.drag = 2
        p.gravity = 60
    end
end

local function smoke(world, x, y, n, radius)
    for _ = 1, n do
        local a = rand(0, 2 * pi)
        local v = rand(10, 50)
        local p = particle(world, "smoke", x + cos(a) * radius * 0.3,
                           y + sin(a) * radius * 0.3, cos(a) * v,
                           sin(a) * v + 20, rand(0.5, 1.1), radius * rand(0.2, 0.45),
                           palette.smoke, 60)
        p.grow = radius * 0.6
        p.drag = 1.5
    end
end

-- Hot balls of fire that shrink as they burn out.
local FIRE = { palette.flame_hot, palette.yellow, palette.flame, palette.orange, palette.red }
local function fireballs(world, x, y, n, radius)
    for i = 1, n do
        local a = rand(0, 2 * pi)
        local d = radius * rand(0, 0.5)
        local v = rand(20, 90)
        local p = particle(world, "flash", x + cos(a) * d, y + sin(a) * d, cos(a) * v,
                           sin(a) * v, rand(0.2, 0.45), radius * rand(0.3, 0.6),
                           FIRE[(i - 1) % #FIRE + 1], 210)
        p.drag = 2
    end
end

local function ring(world, x, y, radius, color, life)
    local p = particle(world, "ring", x, y, 0, 0, life, radius * 0.2, color, 230)
    p.grow = radius / life
end

-- An explosion of roughly [size] pixels radius in [color].
function fx.explosion(world, x, y, size, color)
    particle(world, "flash", x, y, 0, 0, 0.1, size * 1.1, palette.flame_hot, 220)
    fireballs(world, x, y, math.floor(size / 3) + 3, size)
    ring(world, x, y, size * 2.2, color, 0.35)
    fx.sparks(world, x, y, math.floor(size * 2.2), palette.yellow, 0, pi,
              size * 18, 0.55)
    fx.sparks(world, x, y, math.floor(size * 1.2), color, 0, pi, size * 12, 0.7)
    embers(world, x, y, math.floor(size * 1.2), color, size * 8, 0.9)
    smoke(world, x, y, math.floor(size / 4) + 2, size)
    fx.shake(world, size / 9)
end

-- Several explosions spread over a big body, for bosses and the player.
function fx.big_explosion(world, x, y, size, color)
    fx.explosion(world, x, y, size, color)
    for _ = 1, 6 do
        fx.explosion(world, x + rand(-size, size), y + rand(-size, size),
                     size * rand(0.3, 0.6), color)
    end
    ring(world, x, y, size * 5, palette.white, 0.6)
end

-- A few sparks where a shot hits an enemy.
function fx.hit(world, x, y, color)
    fx.sparks(world, x, y, 4, color, -pi / 2, 1.2, 260, 0.25)
end

-- An enemy bullet cancelled by a bomb or a respawn turns into sparks.
function fx.bullet_pop(world, b)
    fx.sparks(world, b.pos.x, b.pos.y, busy(world) and 1 or 2, b.color, 0, pi, 120, 0.4)
end

-- Engine flame behind a ship moving at (vx, vy).
function fx.exhaust(world, x, y, vx, vy, color)
    local p = particle(world, "ember", x + rand(-2, 2), y, vx * 0.2 + rand(-20, 20),
                       vy * 0.2 + rand(140, 240), rand(0.12, 0.25), rand(2, 4), color)
    p.drag = 4
end

-- Engine glow behind an enemy (they fly nose down, so it drifts up).
function fx.enemy_exhaust(world, e)
    if busy(world) then return end
    local r = e.def.r
    local jets = e.def.boss and 6 or 2
    for i = 1, jets do
        local x = e.pos.x + (i - (jets + 1) / 2) * r * 0.5 + rand(-3, 3)
        local p = particle(world, "ember", x, e.pos.y - r * 0.7, rand(-15, 15),
                           e.vel.y * 0.3 - rand(40, 90), rand(0.15, 0.3),
                           e.def.boss and 5 or 3, e.def.color, 200)
        p.drag = 3
    end
end

-- The faint afterglow an enemy bullet leaves every few frames.
function fx.glow(world, x, y, r, color)
    if busy(world) then return end
    particle(world, "ember", x, y, 0, 0, 0.18, r * 1.2, color, 90)
end

-- A short-lived glow left behind a fast shot.
function fx.trail(world, x, y, color)
    if busy(world) then return end
    particle(world, "ember", x + rand(-1.5, 1.5), y, rand(-15, 15), rand(10, 40),
             rand(0.12, 0.2), 2, color, 160)
end

-- Floating score text. The string itself is fresh garbage too.
function fx.popup(world, x, y, text, color)
    particle(world, "text", x, y, 0, -50, 0.8, 1, color).text = text
end

-- Grazing a bullet (passing very close) throws a couple of white sparks.
function fx.graze(world, x, y)
    fx.sparks(world, x, y, 3, palette.white, 0, pi, 160, 0.2)
end

-- The bomb: a white-out and a wall of sparks across the whole screen.
function fx.bomb(world, x, y)
    particle(world, "flash", x, y, 0, 0, 0.3, 260, palette.cyan, 70)
    for i = 1, 3 do
        ring(world, x, y, 260 * i, palette.cyan, 0.5 + 0.15 * i)
    end
    fx.sparks(world, x, y, 400, palette.cyan, 0, pi, 1200, 0.9)
    fx.sparks(world, x, y, 200, palette.white, 0, pi, 700, 0.7)
    fx.shake(world, 10)
end

-- Title-screen fireworks, so the collector is busy before the game starts.
function fx.firework(world, x, y)
    local colors = { palette.pink, palette.cyan, palette.yellow, palette.green,
                     palette.violet, palette.orange }
    local color = colors[random(#colors)]
    fx.sparks(world, x, y, 90, color, 0, pi, 320, 1.2)
    ring(world, x, y, 120, color, 0.5)
end

return fx
