-- enemies.lua — the enemy types: toughness, looks, movement and how each
-- one shoots, plus what happens when one dies.
--
-- A type is a plain table ("def"). Its `fire(e, world)` is called whenever
-- the enemy's fire timer runs out and returns the seconds until the next
-- volley; world.diff scales bullet speed, fire rate and volley size with
-- the wave number (see waves.lua).

local engine = require("engine")
local entities = require("entities")
local fx = require("fx")
local palette = require("palette")
local patterns = require("patterns")

local enemies = {}

local pi, floor = math.pi, math.floor
local style = patterns.style

local defs = {}
enemies.defs = defs

-- Shapes are closed outlines as flat {x1, y1, x2, y2, ...} lists, nose down.

defs.dart = {
    r = 13, hp = 3, score = 100, move = "dive", first_shot = 0.5,
    color = palette.red, core = 5, rot = 0,
    shape = { 0, 15, -11, -10, 0, -4, 11, -10 },
    fire = function(e, world)
        local d = world.diff
        patterns.fan(world, e.pos.x, e.pos.y, patterns.aim(world, e.pos.x, e.pos.y),
                     3, 0.35, 240 * d.speed, style.small)
        return 1.1 / d.rate
    end,
}

defs.weaver = {
    r = 16, hp = 6, score = 150, move = "sine", first_shot = 1.0,
    color = palette.pink, core = 6, rot = 0,
    shape = { 0, 17, 9, 4, 20, 0, 9, -4, 0, -15, -9, -4, -20, 0, -9, 4 },
    fire = function(e, world)
        local d = world.diff
        local n = 3 + floor(d.extra / 2)
        patterns.fan(world, e.pos.x, e.pos.y, patterns.aim(world, e.pos.x, e.pos.y),
                     n, 0.22 * n, 200 * d.speed, style.medium)
        return 1.3 / d.rate
    end,
}

defs.swooper = {
    r = 15, hp = 4, score = 150, move = "arc", first_shot = 0.8,
    color = palette.yellow, core = 5, rot = 0,
    shape = { 0, 12, 8, 2, 19, 9, 15, -8, 0, -3, -15, -8, -19, 9, -8, 2 },
    fire = function(e, world)
        patterns.aimed(world, e.pos.x, e.pos.y, 320 * world.diff.speed, style.needle)
        return 0.45 / world.diff.rate
    end,
}

defs.turret = {
    r = 22, hp = 22, score = 400, move = "hover", first_shot = 1.8,
    color = palette.cyan, core = 10, rot = 0.6,
    shape = { 22, 0, 16, 16, 0, 22, -16, 16, -22, 0, -16, -16, 0, -22, 16, -16 },
    drops = { power = 0.3 },
    fire = function(e, world)
        local d = world.diff
        patterns.ring(world, e.pos.x, e.pos.y, 16 + 2 * d.extra, 160 * d.speed,
                      e.spin, style.small)
        e.spin = e.spin + 0.21
        return 0.9 / d.rate
    end,
}

defs.spinner = {
    r = 20, hp = 18, score = 350, move = "drift", first_shot = 1.2,
    color = palette.violet, core = 8, rot = 2.5,
    shape = { 20, 0, 6, 6, 0, 20, -6, 6, -20, 0, -6, -6, 0, -20, 6, -6 },
    fire = function(e, world)
        local d = world.diff
        local bend = (e.params.phase > 3) and 0.35 or -0.35
        patterns.spiral(world, e, 4, 150 * d.speed, 0.19, style.curve, bend)
        return 0.1 / d.rate
    end,
}

defs.heavy = {
    r = 32, hp = 60, score = 1000, move = "hover", first_shot = 1.6,
    color = palette.orange, core = 14, rot = 0,
    shape = { 0, 34, 26, 20, 34, -6, 18, -26, -18, -26, -34, -6, -26, 20 },
    drops = { power = 1.0, bomb = 0.25 },
    fire = function(e, world)
        local d = world.diff
        e.shots = (e.shots or 0) + 1
        if e.shots % 3 == 0 then
            patterns.ring(world, e.pos.x, e.pos.y, 20 + 2 * d.extra, 120 * d.speed,
                          e.spin, style.big)
            e.spin = e.spin + 0.15
        else
            patterns.fan(world, e.pos.x, e.pos.y, patterns.aim(world, e.pos.x, e.pos.y),
                         7, 0.9, 250 * d.speed, style.medium)
        end
        return 0.6 / d.rate
    end,
}

-------------------------------------------------------------------- boss --

-- The boss cycles through four attacks, seven seconds each, and speeds up
-- below half health.
local boss_attacks = {
    function(e, world, d) -- flower: a six-armed spiral of curving bullets
        local bend = (e.phase_count % 2 == 0) and 0.25 or -0.25
        patterns.spiral(world, e, 6, 170 * d.speed, 0.13, style.curve, bend)
        return 0.09
    end,
    function(e, world, d) -- rings alternating with aimed needles
        e.shots = (e.shots or 0) + 1
        local look = (e.shots % 2 == 0) and style.big or style.medium
        patterns.ring(world, e.pos.x, e.pos.y, 36 + 2 * d.extra, 150 * d.speed,
                      e.shots * 0.09, look)
        patterns.fan(world, e.pos.x, e.pos.y + 40, patterns.aim(world, e.pos.x, e.pos.y),
                     5, 0.5, 330 * d.speed, style.needle)
        return 0.5
    end,
    function(e, world, d) -- rain from the wings, and a fan now and then
        patterns.rain(world, e.pos.x, e.pos.y + 30, 320, 5, 200 * d.speed, engine.random)
        e.shots = (e.shots or 0) + 1
        if e.shots % 8 == 0 then
            patterns.fan(world, e.pos.x, e.pos.y, patterns.aim(world, e.pos.x, e.pos.y),
                         9, 1.2, 260 * d.speed, style.medium)
        end
        return 0.08
    end,
    function(e, world, d) -- two spirals turning against each other
        patterns.spiral(world, e, 4, 190 * d.speed, 0.17, style.small)
        local p = e.params
        for k = 0, 3 do
            local a = p.counter + k * pi / 2
            entities.enemy_bullet(world, e.pos.x, e.pos.y, math.cos(a) * 150 * d.speed,
                                  math.sin(a) * 150 * d.speed, style.big)
        end
        p.counter = p.counter - 0.11
        return 0.1
    end,
}

defs.boss = {
    r = 70, hp = 360, score = 20000, move = "boss", first_shot = 3.2,
    color = palette.red, core = 26, rot = 0, boss = true,
    shape = { 0, 72, 40, 52, 92, 30, 112, -10, 72, -42, 30, -30, 0, -56,
              -30, -30, -72, -42, -112, -10, -92, 30, -40, 52 },
    drops = { power = 3, bomb = 1, life = 1 },
    fire = function(e, world)
        local d = world.diff
        local phase = floor((e.t - 3) / 7) % #boss_attacks
        if phase ~= e.phase then
            e.phase = phase
            e.phase_count = (e.phase_count or 0) + 1
        end
        local wait = boss_attacks[phase + 1](e, world, d)
        if e.hp < e.max_hp / 2 then wait = wait * 0.75 end
        return wait / d.rate
    end,
}

------------------------------------------------------------------- death --

local function drop(world, e)
    local drops = e.def.drops
    local random = engine.random
    if e.def.boss then
        for i = 1, drops.power do
            entities.powerup(world, "power", e.pos.x + (i - 2) * 50, e.pos.y)
        end
        entities.powerup(world, "bomb", e.pos.x - 30, e.pos.y + 40)
        entities.powerup(world, "life", e.pos.x + 30, e.pos.y + 40)
        return
    end
    local roll = random()
    if drops and drops.power and roll < drops.power then
        entities.powerup(world, "power", e.pos.x, e.pos.y)
    elseif drops and drops.bomb and random() < drops.bomb then
        entities.powerup(world, "bomb", e.pos.x, e.pos.y)
    elseif roll < 0.06 then
        entities.powerup(world, "power", e.pos.x, e.pos.y)
    elseif roll < 0.075 then
        entities.powerup(world, "bomb", e.pos.x, e.pos.y)
    end
end

-- Turns every enemy bullet on screen into harmless sparks (a bomb, a
-- respawn, the boss's death).
function enemies.cancel_bullets(world)
    local list = world.ebullets
    for i = 1, #list do
        local b = list[i]
        if not b.dead then
            fx.bullet_pop(world, b)
            b.dead = true
        end
    end
end

-- [e] was destroyed by the player: score, explosion, maybe a power-up.
function enemies.kill(world, e)
    e.dead = true
    local points = e.def.score * world.wave
    world.score = world.score + points
    if e.def.boss then
        fx.big_explosion(world, e.pos.x, e.pos.y, e.def.r, e.def.color)
        world.boss = nil
        enemies.cancel_bullets(world)
    else
        fx.explosion(world, e.pos.x, e.pos.y, e.def.r * 1.2, e.def.color)
    end
    fx.popup(world, e.pos.x - 12, e.pos.y - 10, "+" .. points, palette.white)
    drop(world, e)
end

-- Damage from a shot or a bomb; true when it killed the enemy.
function enemies.damage(world, e, amount)
    if e.dead then return false end
    e.hp = e.hp - amount
    e.flash = 0.06
    if e.hp <= 0 then
        enemies.kill(world, e)
        return true
    end
    return false
end

function enemies.spawn(world, kind, x, y, params)
    local e = entities.enemy(world, defs[kind], x, y, params)
    if e.def.boss then
        e.params.counter = 0
        e.params.stay = 50
        world.boss = e
    end
    return e
end

return enemies
