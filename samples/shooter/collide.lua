-- collide.lua — who hit whom this frame.
--
-- Brute force over the arrays: the player's shots against the (few dozen)
-- enemies, and every enemy bullet against the one ship. Cheap box tests
-- first, the circle test only when the boxes overlap. Nothing is removed
-- here: hits only set `dead`, and the next update pass drops the entity.

local enemies = require("enemies")
local fx = require("fx")
local player = require("player")

local collide = {}

-- The first live enemy whose circle contains (x, y), or nil.
local function enemy_at(list, x, y)
    for j = 1, #list do
        local e = list[j]
        if not e.dead and e.entered then
            local r = e.def.r
            local dx, dy = x - e.pos.x, y - e.pos.y
            if dx > -r and dx < r and dy > -r and dy < r and dx * dx + dy * dy < r * r then
                return e
            end
        end
    end
    return nil
end

local function shots_vs_enemies(world)
    local shots, foes = world.pbullets, world.enemies
    for i = 1, #shots do
        local b = shots[i]
        if not b.dead then
            local e = enemy_at(foes, b.pos.x, b.pos.y)
            if e then
                b.dead = true
                world.score = world.score + 10
                fx.hit(world, b.pos.x, b.pos.y, e.def.color)
                enemies.damage(world, e, b.damage)
            end
        end
    end
end

-- Bullets that pass close to the ship without touching it "graze" it for
-- points; one that touches the core kills it unless it is invulnerable.
local function bullets_vs_ship(world, s)
    local list = world.ebullets
    local sx, sy = s.pos.x, s.pos.y
    local graze, core = player.GRAZE_RADIUS, player.HIT_RADIUS
    for i = 1, #list do
        local b = list[i]
        local reach = graze + b.r
        local dx, dy = b.pos.x - sx, b.pos.y - sy
        if not b.dead and dx > -reach and dx < reach and dy > -reach and dy < reach then
            local d2 = dx * dx + dy * dy
            local hit = b.r + core
            if d2 < hit * hit and s.invuln <= 0 then
                b.dead = true
                player.kill(world)
                return
            elseif not b.grazed and d2 < reach * reach then
                b.grazed = true
                world.score = world.score + 20
                fx.graze(world, b.pos.x, b.pos.y)
            end
        end
    end
end

-- Flying into an enemy hurts both.
local function enemies_vs_ship(world, s)
    if s.invuln > 0 then return end
    local list = world.enemies
    for i = 1, #list do
        local e = list[i]
        local reach = e.def.r * 0.75 + 6
        local dx, dy = e.pos.x - s.pos.x, e.pos.y - s.pos.y
        if not e.dead and dx * dx + dy * dy < reach * reach then
            enemies.damage(world, e, 20)
            player.kill(world)
            return
        end
    end
end

local function powerups_vs_ship(world, s)
    local list = world.powerups
    local reach = player.PICKUP_RADIUS
    for i = 1, #list do
        local u = list[i]
        local dx, dy = u.pos.x - s.pos.x, u.pos.y - s.pos.y
        if not u.dead and dx * dx + dy * dy < reach * reach then
            u.dead = true
            player.collect(world, u.kind)
        end
    end
end

function collide.run(world)
    shots_vs_enemies(world)
    local s = world.ship
    if s.alive then bullets_vs_ship(world, s) end
    if s.alive then enemies_vs_ship(world, s) end
    if s.alive then powerups_vs_ship(world, s) end
end

return collide
