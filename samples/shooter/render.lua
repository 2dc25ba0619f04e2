-- render.lua — draws the world: enemies, the ship, shots, bullets,
-- power-ups and particles, shifted by the screen shake.

local engine = require("engine")
local palette = require("palette")

local render = {}

local floor, cos, sin, abs = math.floor, math.cos, math.sin, math.abs
local color, line = engine.color, engine.line
local fill_rect, fill_circle, circle = engine.fill_rect, engine.fill_circle, engine.circle

-- The screen-shake offset of the frame being drawn.
local ox, oy = 0, 0

-- Sets a palette colour (engine.color rounds fractional components).
local function paint(c, alpha)
    color(c[1], c[2], c[3], alpha or 255)
end

local function paint_dim(c, f, alpha)
    color(c[1] * f, c[2] * f, c[3] * f, alpha or 255)
end

-- A closed outline from a flat {x1, y1, ...} list, turned by [angle] and
-- stretched by [sx], [sy], centred on (x, y).
local function outline(x, y, pts, angle, sx, sy)
    local c, s = cos(angle), sin(angle)
    local n = #pts
    local lx, ly = pts[n - 1] * sx, pts[n] * sy
    local px, py = x + lx * c - ly * s, y + lx * s + ly * c
    for i = 1, n, 2 do
        local kx, ky = pts[i] * sx, pts[i + 1] * sy
        local qx, qy = x + kx * c - ky * s, y + kx * s + ky * c
        line(px, py, qx, qy)
        px, py = qx, qy
    end
end
render.outline = outline

------------------------------------------------------------------ enemies --

local function draw_boss_details(e, x, y)
    paint(palette.yellow, 200)
    for k = -1, 1, 2 do
        circle(x + k * 62, y + 6, 14)
        fill_circle(x + k * 62, y + 6, 5)
    end
    local pulse = 0.5 + 0.5 * sin(e.t * 6)
    paint(palette.white, 120 + 100 * pulse)
    fill_circle(x, y + 8, 10 + 4 * pulse)
end

local function draw_enemy(e)
    local def = e.def
    local x, y = e.pos.x + ox, e.pos.y + oy
    local c = def.color
    -- a hit flashes the outline white; the body keeps its colour so that a
    -- boss under constant fire still looks like itself
    local edge = (e.flash > 0) and palette.white or c
    paint_dim(c, 0.3, 200)
    fill_circle(x, y, def.r * 0.8)
    paint_dim(c, 0.7)
    fill_circle(x, y, def.core)
    paint(edge)
    outline(x, y, def.shape, e.angle, 1, 1)
    outline(x, y, def.shape, e.angle, 1.06, 1.06)
    paint_dim(edge, 0.8, 220)
    outline(x, y, def.shape, -e.angle, 0.55, 0.55)
    if def.boss then draw_boss_details(e, x, y) end
    if not def.boss and e.max_hp >= 10 and e.hp < e.max_hp then
        local w = def.r * 2
        paint(palette.grey, 160)
        fill_rect(x - def.r, y + def.r + 6, w, 3)
        paint(palette.green)
        fill_rect(x - def.r, y + def.r + 6, w * e.hp / e.max_hp, 3)
    end
end

--------------------------------------------------------------------- ship --

local SHIP = { 0, -20, 6, -7, 18, 9, 7, 8, 0, 14, -7, 8, -18, 9, -6, -7 }

local function draw_ship(world, s, focus)
    if not s.alive then return end
    -- blink while invulnerable
    if s.invuln > 0 and floor(s.invuln * 12) % 2 == 0 then return end
    local x, y = s.pos.x + ox, s.pos.y + oy
    local squeeze = 1.25 * (1 - 0.35 * abs(s.bank))
    paint_dim(palette.ship, 0.35)
    fill_circle(x, y, 11)
    paint(palette.ship)
    outline(x, y, SHIP, 0, squeeze, 1.25)
    outline(x, y, SHIP, 0, squeeze * 1.06, 1.3)
    outline(x, y + 1, SHIP, 0, squeeze * 0.6, 0.85)
    paint(palette.cockpit)
    fill_circle(x, y - 4, 3.5)
    if focus then
        -- in focus mode, show the tiny hitbox the bullets must touch
        paint(palette.white, 220)
        circle(x, y, 6)
        fill_circle(x, y, 3)
    end
end

------------------------------------------------------------------ bullets --

local function draw_enemy_bullets(list)
    for i = 1, #list do
        local b = list[i]
        if not b.dead then
            local x, y = b.pos.x + ox, b.pos.y + oy
            paint(b.color)
            fill_circle(x, y, b.r + 1.5)
            color(255, 255, 255, 255)
            fill_circle(x, y, b.r * 0.55)
        end
    end
end

local function draw_player_bullets(list)
    paint(palette.shot, 220)
    for i = 1, #list do
        local b = list[i]
        if not b.dead then fill_rect(b.pos.x + ox - 2, b.pos.y + oy - 9, 4, 18) end
    end
    paint(palette.shot_hot)
    for i = 1, #list do
        local b = list[i]
        if not b.dead then line(b.pos.x + ox, b.pos.y + oy - 8, b.pos.x + ox, b.pos.y + oy + 6) end
    end
end

---------------------------------------------------------------- power-ups --

local UP_SHAPE = { 0, -13, 13, 0, 0, 13, -13, 0 }
local UP_LOOK = {
    power = { palette.red, "P" },
    bomb = { palette.cyan, "B" },
    life = { palette.green, "1" },
}

local function draw_powerups(list)
    for i = 1, #list do
        local u = list[i]
        if not u.dead then
            local look = UP_LOOK[u.kind]
            local x, y = u.pos.x + ox, u.pos.y + oy
            paint(look[1], 60 + 40 * sin(u.t * 8))
            fill_circle(x, y, 18)
            paint(look[1])
            outline(x, y, UP_SHAPE, u.t * 2, 1, 1)
            paint(palette.white)
            engine.text(x - 5, y - 7, look[2], 2)
        end
    end
end

---------------------------------------------------------------- particles --

local function draw_particle(p)
    local fade = p.life / p.max_life
    paint(p.color, p.alpha * fade)
    local x, y, kind = p.x + ox, p.y + oy, p.kind
    if kind == "spark" then
        line(x, y, x - p.vx * 0.035, y - p.vy * 0.035)
    elseif kind == "ember" then
        local s = p.size * (0.4 + 0.6 * fade)
        fill_rect(x - s / 2, y - s / 2, s, s)
    elseif kind == "smoke" then
        fill_circle(x, y, p.size)
    elseif kind == "ring" then
        circle(x, y, p.size)
    elseif kind == "flash" then
        fill_circle(x, y, p.size * fade)
    elseif kind == "text" then
        engine.text(x, y, p.text, 2)
    end
end

local function draw_particles(list)
    for i = 1, #list do draw_particle(list[i]) end
end

-- Only the particles (the title screen's fireworks).
function render.particles(world)
    ox, oy = world.shake_x, world.shake_y
    draw_particles(world.particles)
end

-------------------------------------------------------------------- world --

function render.world(world, focus)
    ox, oy = world.shake_x, world.shake_y
    draw_particles(world.particles)
    draw_powerups(world.powerups)
    local foes = world.enemies
    for i = 1, #foes do
        if not foes[i].dead then draw_enemy(foes[i]) end
    end
    draw_player_bullets(world.pbullets)
    draw_ship(world, world.ship, focus)
    draw_enemy_bullets(world.ebullets)
    if world.flash > 0 then
        color(200, 240, 255, world.flash / 0.35 * 50)
        fill_rect(0, 0, world.width, world.height)
    end
end

return render
