-- render.lua — draws the part of the level around the player: tiles,
-- props, pickups, the exit, NPCs (with speech), the player and sparks.

local engine = require("engine")
local level = require("level")
local palette = require("palette")

local render = {}

local floor, sin, cos = math.floor, math.sin, math.cos
local color, fill_rect, rect, fill_circle, circle, line, text =
    engine.color, engine.fill_rect, engine.rect, engine.fill_circle, engine.circle, engine.line, engine.text

render.TILE = 24
local TILE = render.TILE
local W, H = level.W, level.H

function render.camera(p)
    local sw, sh = engine.width(), engine.height()
    local cx = p.x * TILE - sw / 2
    local cy = p.y * TILE - sh / 2
    cx = math.max(0, math.min(W * TILE - sw, cx))
    cy = math.max(0, math.min(H * TILE - sh, cy))
    return floor(cx), floor(cy)
end

local function draw_prop(p, sx, sy, t)
    local k = p.kind
    if p.on_wall then
        if k == 1 then         -- torch
            color(255, 170 + 60 * sin(t * 9 + sx), 60)
            fill_circle(sx + 12, sy + 9, 3)
        elseif k == 2 then     -- banner
            color(170, 40, 50)
            fill_rect(sx + 8, sy + 3, 8, 14)
        elseif k == 3 then     -- moss
            color(60, 120, 60)
            fill_rect(sx + 3, sy + 16, 10, 4)
        end
        return
    end
    if k == 1 or k == 7 then       -- crate, chest
        color(k == 7 and 200 or 150, k == 7 and 150 or 105, 50)
        fill_rect(sx + 6, sy + 6, 12, 12)
        color(90, 60, 30)
        rect(sx + 6, sy + 6, 12, 12)
    elseif k == 2 or k == 5 then   -- barrel, pot
        color(120, 80, 50)
        fill_circle(sx + 12, sy + 12, k == 2 and 6 or 4)
    elseif k == 3 then             -- rug
        color(140, 50, 70, 150)
        fill_rect(sx + 2, sy + 5, 20, 14)
    elseif k == 4 then             -- bones
        color(225, 220, 200)
        line(sx + 6, sy + 8, sx + 17, sy + 15)
    elseif k == 8 then             -- plant
        color(70, 170, 70)
        fill_circle(sx + 12, sy + 12, 5)
    end
end

function render.level(lv, p, fx)
    local cx, cy = render.camera(p)
    local sw, sh = engine.width(), engine.height()
    local theme = palette.themes[(lv.number - 1) % #palette.themes + 1]
    local wall, fl = theme.wall, theme.floor
    local x0, y0 = floor(cx / TILE), floor(cy / TILE)
    local x1, y1 = math.min(W - 1, floor((cx + sw) / TILE)), math.min(H - 1, floor((cy + sh) / TILE))
    local tiles = lv.tiles
    local t = engine.time()
    for y = y0, y1 do
        for x = x0, x1 do
            local tile = tiles[y * W + x + 1]
            local sx, sy = x * TILE - cx, y * TILE - cy
            local c = (tile.kind == level.WALL) and wall or fl
            local s = tile.shade
            color(c[1] + s, c[2] + s, c[3] + s)
            fill_rect(sx, sy, TILE, TILE)
            if tile.kind == level.WALL then
                color(c[1] * 0.6, c[2] * 0.6, c[3] * 0.6)
                fill_rect(sx, sy + TILE - 4, TILE, 4)
            end
            local props = tile.props
            if props then
                for i = 1, #props do draw_prop(props[i], sx, sy, t) end
            end
        end
    end
    -- the exit
    local e = lv.exit
    local ex, ey = ((e - 1) % W) * TILE - cx, floor((e - 1) / W) * TILE - cy
    color(40, 30, 60)
    fill_rect(ex - 6, ey - 6, TILE + 12, TILE + 12)
    color(160, 255, 200, 160 + 90 * sin(t * 5))
    rect(ex - 6, ey - 6, TILE + 12, TILE + 12)
    fill_rect(ex + 4, ey + 4, TILE - 8, TILE - 8)
    -- pickups
    local pickups = lv.pickups
    local left, right, top, bottom = cx / TILE - 1, (cx + sw) / TILE + 1, cy / TILE - 1, (cy + sh) / TILE + 1
    for i = 1, #pickups do
        local k = pickups[i]
        if not k.taken and k.x > left and k.x < right and k.y > top and k.y < bottom then
            local sx, sy = k.x * TILE - cx, k.y * TILE - cy + 2 * sin(t * 4 + i)
            if k.gem then
                color(palette.gem[1], palette.gem[2], palette.gem[3])
                fill_circle(sx, sy, 6)
                color(255, 255, 255)
                circle(sx, sy, 6)
            else
                color(palette.yellow[1], palette.yellow[2], palette.yellow[3])
                fill_circle(sx, sy, 4)
            end
        end
    end
    -- NPCs
    local npcs = lv.npcs
    for i = 1, #npcs do
        local n = npcs[i]
        if n.x > left and n.x < right and n.y > top and n.y < bottom then
            local sx, sy = n.x * TILE - cx, n.y * TILE - cy
            local c = palette.npc[n.stats.hue]
            color(0, 0, 0, 110)
            fill_circle(sx + 2, sy + 3, 8)
            color(c[1], c[2], c[3])
            fill_circle(sx, sy, 8)
            color(30, 30, 40)
            fill_circle(sx, sy - 2, 2)
        end
    end
    -- sparks
    for i = 1, #fx do
        local s = fx[i]
        if s.gem then color(140, 220, 255, s.life * 500) else color(255, 225, 80, s.life * 500) end
        fill_rect(s.x * TILE - cx - 1, s.y * TILE - cy - 1, 3, 3)
    end
    -- the player
    local px, py = p.x * TILE - cx, p.y * TILE - cy
    color(255, 255, 255)
    fill_circle(px, py, 9)
    color(60, 140, 255)
    fill_circle(px, py, 7)
    color(255, 255, 255)
    line(px, py, px + cos(p.facing) * 12, py + sin(p.facing) * 12)
    -- speech of the NPCs talking near the player
    for i = 1, #npcs do
        local n = npcs[i]
        if n.talk > 0 and n.x > left and n.x < right and n.y > top and n.y < bottom then
            local sx, sy = n.x * TILE - cx, n.y * TILE - cy
            local str = n.lines[n.line]
            local w = engine.text_width(str, 1)
            color(0, 0, 0, 190)
            fill_rect(sx - w / 2 - 4, sy - 30, w + 8, 14)
            color(255, 255, 255)
            text(sx - w / 2, sy - 27, str, 1)
        end
    end
    return cx, cy
end

return render
