-- world.lua — the game world: what is in it and how it moves each frame.
--
-- The world holds plain arrays of entities (enemies, the player's shots,
-- enemy bullets, particles, power-ups). Each update pass moves every entity
-- and compacts the array in place, dropping the dead ones, which the
-- collector then has to find. Arrays and numeric loops only, never pairs():
-- the order of everything must be the same on every run of a seed.

local engine = require("engine")
local entities = require("entities")
local fx = require("fx")
local palette = require("palette")
local patterns = require("patterns")
local player = require("player")
local vec = require("vec")
local waves = require("waves")

local world_mod = {}

local max, min, sqrt = math.max, math.min, math.sqrt
local update_all = entities.update_all

function world_mod.new(width, height)
    local world = {
        width = width, height = height,
        t = 0,
        score = 0, lives = 3, wave = 0,
        enemies = {}, pbullets = {}, ebullets = {}, particles = {}, powerups = {},
        boss = nil,
        shake = 0, shake_x = 0, shake_y = 0,
        flash = 0,      -- white-out after a bomb, seconds left
        banner = 0,     -- "WAVE n" banner, seconds left
    }
    world.ship = player.new(world)
    waves.start(world, 1)
    return world
end

----------------------------------------------------------------- enemies --

-- A bullet budget, as real shooters have: past it enemies hold their fire.
-- Without it late waves pile up bullets until the game itself, not the
-- collector, is what blows the frame budget on stock Lua.
local MAX_ENEMY_BULLETS = 1200

local function fire(world, e, dt)
    e.fire_t = e.fire_t - dt
    if e.fire_t <= 0 and #world.ebullets >= MAX_ENEMY_BULLETS then
        e.fire_t = 0.1
        return
    end
    local volleys = 0
    -- fast patterns may be due more than once in a frame; a cap keeps a
    -- long hitch from dumping a burst of stacked volleys
    while e.fire_t <= 0 and volleys < 3 do
        e.fire_t = e.fire_t + e.def.fire(e, world)
        volleys = volleys + 1
    end
    if e.fire_t < 0 then e.fire_t = 0 end
end

local function on_screen(world, p, margin)
    return p.x > -margin and p.x < world.width + margin
       and p.y > -margin and p.y < world.height + margin
end

-- Moves [e]; returns false once it has left the screen for good.
local function update_enemy(world, e, dt)
    e.t = e.t + dt
    local old = e.pos
    e.pos = patterns.move[e.def.move](e, world)
    e.vel = vec.scale(vec.sub(e.pos, old), 1 / dt)
    e.angle = e.angle + e.def.rot * dt
    e.flash = e.flash - dt
    if on_screen(world, e.pos, -10) then
        e.entered = true
    elseif e.entered and not on_screen(world, e.pos, e.def.r + 40) then
        return false
    end
    if e.entered and e.pos.y < world.height * 0.66 then fire(world, e, dt) end
    fx.enemy_exhaust(world, e)
    return e.t < 60
end

local function enemy_survives(world, e, dt)
    if not e.dead and update_enemy(world, e, dt) then return true end
    if world.boss == e then world.boss = nil end   -- it flew off
    return false
end

local function update_enemies(world, dt)
    update_all(world.enemies, enemy_survives, world, dt)
end

----------------------------------------------------------------- bullets --

-- Note the two fresh vectors per bullet per frame (see vec.lua).
local function update_player_bullet(world, b, dt)
    b.pos = vec.add(b.pos, vec.scale(b.vel, dt))
    b.trail = b.trail - dt
    if b.trail <= 0 then
        fx.trail(world, b.pos.x, b.pos.y + 10, palette.shot)
        b.trail = 0.03
    end
    return not b.dead and b.pos.y > -30 and b.pos.x > -30 and b.pos.x < world.width + 30
end

local function update_player_bullets(world, dt)
    update_all(world.pbullets, update_player_bullet, world, dt)
end

local function update_enemy_bullet(world, b, dt)
    b.age = b.age + dt
    if b.spin ~= 0 then b.vel = vec.rotate(b.vel, b.spin * dt) end
    if b.accel ~= 0 and b.age < 2 then b.vel = vec.scale(b.vel, 1 + b.accel * dt) end
    b.pos = vec.add(b.pos, vec.scale(b.vel, dt))
    b.trail = b.trail - dt
    if b.trail <= 0 then
        fx.glow(world, b.pos.x, b.pos.y, b.r, b.color)
        b.trail = 0.05
    end
    return not b.dead and b.age < 15 and on_screen(world, b.pos, 40)
end

local function update_enemy_bullets(world, dt)
    update_all(world.ebullets, update_enemy_bullet, world, dt)
end

--------------------------------------------------------------- particles --

local function update_particle(_, p, dt)
    p.life = p.life - dt
    if p.life <= 0 then return false end
    local drag = 1 - p.drag * dt
    p.vx = p.vx * drag
    p.vy = p.vy * drag + p.gravity * dt
    p.x = p.x + p.vx * dt
    p.y = p.y + p.vy * dt
    p.size = p.size + p.grow * dt
    return true
end

local function update_particles(world, dt)
    update_all(world.particles, update_particle, world, dt)
end

---------------------------------------------------------------- power-ups --

-- Power-ups pop up, fall, and home in on the ship when it comes close.
local function update_powerup(world, u, dt)
    u.t = u.t + dt
    local ship = world.ship
    local vx = 40 * math.cos(u.t * 3)
    local vy = min(90, u.vel.y + 150 * dt)
    if ship.alive then
        local to = vec.sub(ship.pos, u.pos)
        local d = sqrt(to.x * to.x + to.y * to.y)
        if d < 150 and d > 0 then
            vx, vy = to.x / d * 420, to.y / d * 420
        end
    end
    u.vel = vec.new(vx, vy)
    u.pos = vec.add(u.pos, vec.scale(u.vel, dt))
    return not u.dead and u.pos.y < world.height + 30
end

local function update_powerups(world, dt)
    update_all(world.powerups, update_powerup, world, dt)
end

------------------------------------------------------------------- world --

local function update_screen_effects(world, dt)
    world.flash = max(0, world.flash - dt)
    world.shake = max(0, world.shake - dt * 25)
    if world.shake > 0 then
        world.shake_x = (engine.random() - 0.5) * 2 * world.shake
        world.shake_y = (engine.random() - 0.5) * 2 * world.shake
    else
        world.shake_x, world.shake_y = 0, 0
    end
end

-- Only particles and screen effects move (the title screen).
function world_mod.update_effects(world, dt)
    update_particles(world, dt)
    update_screen_effects(world, dt)
end

-- One step of the game. [ctl] steers the ship (see player.lua); [playing]
-- is false on the game-over screen, where the enemies carry on without it.
function world_mod.update(world, ctl, dt, playing)
    world.t = world.t + dt
    if playing then player.update(world, ctl, dt) end
    waves.update(world, dt)
    update_enemies(world, dt)
    update_player_bullets(world, dt)
    update_enemy_bullets(world, dt)
    update_powerups(world, dt)
    update_particles(world, dt)
    update_screen_effects(world, dt)
end

return world_mod
