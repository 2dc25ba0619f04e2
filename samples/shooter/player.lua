-- player.lua — the ship: moving, shooting, bombing, dying and coming back.
--
-- The ship is steered by a "controls" table { dx, dy, fire, focus, bomb }
-- built each frame either from the keyboard (main.lua) or by the autopilot,
-- so the game logic does not care who is playing.

local entities = require("entities")
local enemies = require("enemies")
local fx = require("fx")
local palette = require("palette")
local vec = require("vec")

local player = {}

local SPEED, FOCUS_SPEED = 430, 190
local FIRE_INTERVAL = 1 / 15
local SHOT_SPEED = 950
local MARGIN = 22
-- the ship stays above the HUD's bottom band and below the top one
local TOP, BOTTOM = 60, 80
player.SPEED, player.FOCUS_SPEED = SPEED, FOCUS_SPEED

-- The rectangle the ship's centre may be in.
function player.bounds(world)
    return MARGIN, TOP, world.width - MARGIN, world.height - BOTTOM
end
-- Shmup rules: the ship only dies if a bullet touches its tiny core, but it
-- collects power-ups from much further away.
player.HIT_RADIUS = 4
player.GRAZE_RADIUS = 22
player.PICKUP_RADIUS = 32
player.MAX_POWER = 5

local rad = math.pi / 180
local max, min, sqrt = math.max, math.min, math.sqrt

-- Guns per power level: { x offset, angle off vertical in degrees }.
local volleys = {
    { { -7, 0 }, { 7, 0 } },
    { { -12, -3 }, { 0, 0 }, { 12, 3 } },
    { { -14, -7 }, { -7, -2 }, { 0, 0 }, { 7, 2 }, { 14, 7 } },
    { { -20, -11 }, { -14, -6 }, { -7, -1.5 }, { 0, 0 }, { 7, 1.5 }, { 14, 6 },
      { 20, 11 } },
    { { -26, -18 }, { -20, -11 }, { -14, -6 }, { -7, -1.5 }, { 0, 0 }, { 7, 1.5 },
      { 14, 6 }, { 20, 11 }, { 26, 18 } },
}

function player.new(world)
    return {
        pos = vec.new(world.width / 2, world.height - 130),
        vel = vec.new(0, 0),
        power = 1,
        bombs = 3,
        fire_t = 0,
        bomb_cool = 0,
        invuln = 2.5,
        alive = true,
        respawn = 0,
        bank = 0,          -- -1..1, how far the ship leans for drawing
    }
end

local function move(world, s, ctl, dt)
    local dx, dy = ctl.dx, ctl.dy
    local len = sqrt(dx * dx + dy * dy)
    if len > 1 then dx, dy = dx / len, dy / len end
    local speed = ctl.focus and FOCUS_SPEED or SPEED
    s.vel = vec.new(dx * speed, dy * speed)
    local p = vec.add(s.pos, vec.scale(s.vel, dt))
    local x0, y0, x1, y1 = player.bounds(world)
    s.pos = vec.new(max(x0, min(x1, p.x)), max(y0, min(y1, p.y)))
    s.bank = s.bank + (dx - s.bank) * min(1, dt * 10)
end

local function shoot(world, s)
    local guns = volleys[s.power]
    for i = 1, #guns do
        local gun = guns[i]
        local a = gun[2] * rad
        entities.player_bullet(world, s.pos.x + gun[1], s.pos.y - 14,
                               math.sin(a) * SHOT_SPEED, -math.cos(a) * SHOT_SPEED, 1)
    end
end

function player.bomb(world)
    local s = world.ship
    s.bombs = s.bombs - 1
    s.bomb_cool = 1.0
    s.invuln = max(s.invuln, 1.5)
    enemies.cancel_bullets(world)
    local list = world.enemies
    for i = 1, #list do
        local e = list[i]
        if e.entered then enemies.damage(world, e, e.def.boss and 40 or 25) end
    end
    fx.bomb(world, s.pos.x, s.pos.y)
    world.flash = 0.35
end

-- The ship was hit.
function player.kill(world)
    local s = world.ship
    s.alive = false
    s.respawn = 1.6
    s.power = max(1, s.power - 1)
    world.lives = world.lives - 1
    fx.big_explosion(world, s.pos.x, s.pos.y, 26, palette.ship)
end

local function respawn(world)
    local s = world.ship
    s.alive = true
    s.pos = vec.new(world.width / 2, world.height - 130)
    s.invuln = 3
    s.bombs = max(s.bombs, 2)
    enemies.cancel_bullets(world)
end

function player.collect(world, kind)
    local s = world.ship
    local text
    if kind == "power" then
        if s.power < player.MAX_POWER then s.power = s.power + 1 end
        world.score = world.score + 500
        text = "POWER " .. s.power
    elseif kind == "bomb" then
        s.bombs = min(s.bombs + 1, 6)
        text = "BOMB"
    else
        world.lives = min(world.lives + 1, 9)
        text = "1UP"
    end
    fx.popup(world, s.pos.x - 20, s.pos.y - 30, text, palette.green)
end

function player.update(world, ctl, dt)
    local s = world.ship
    if not s.alive then
        s.respawn = s.respawn - dt
        if s.respawn <= 0 and world.lives > 0 then respawn(world) end
        return
    end
    s.invuln = max(0, s.invuln - dt)
    s.bomb_cool = s.bomb_cool - dt
    move(world, s, ctl, dt)
    fx.exhaust(world, s.pos.x - 6, s.pos.y + 14, s.vel.x, s.vel.y, palette.flame)
    fx.exhaust(world, s.pos.x + 6, s.pos.y + 14, s.vel.x, s.vel.y, palette.flame)
    fx.exhaust(world, s.pos.x, s.pos.y + 12, s.vel.x, s.vel.y, palette.flame_hot)
    fx.exhaust(world, s.pos.x, s.pos.y + 12, s.vel.x, s.vel.y, palette.flame_hot)
    s.fire_t = s.fire_t - dt
    if ctl.fire then
        while s.fire_t <= 0 do
            shoot(world, s)
            s.fire_t = s.fire_t + FIRE_INTERVAL
        end
    elseif s.fire_t < 0 then
        s.fire_t = 0
    end
    if ctl.bomb and s.bombs > 0 and s.bomb_cool <= 0 then player.bomb(world) end
end

return player
