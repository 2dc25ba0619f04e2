-- render.lua — draws only what the camera sees: the visible tiles (runs of
-- equal tiles merged into one rectangle), the entities of the visible grid
-- cells, each agent's line to its current target, and the selection.

local engine = require("engine")
local entities = require("entities")
local palette = require("palette")
local terrain = require("terrain")

local render = {}

local floor, sin = math.floor, math.sin
local color, fill_rect, fill_circle, circle, line =
    engine.color, engine.fill_rect, engine.fill_circle, engine.circle, engine.line

local TILES = palette.tiles

function render.terrain(map, cam, tile)
    local x0, y0 = floor(cam.x / tile), floor(cam.y / tile)
    local x1, y1 = floor((cam.x + cam.w) / tile), floor((cam.y + cam.h) / tile)
    local ox, oy = x0 * tile - cam.x, y0 * tile - cam.y
    local at = terrain.at
    local shimmer = floor(engine.time() * 2)
    for ty = y0, y1 do
        local sy = oy + (ty - y0) * tile
        local run_start, run_kind = x0, at(map, x0, ty)
        for tx = x0 + 1, x1 + 1 do
            local k = (tx <= x1) and at(map, tx, ty) or -1
            if k ~= run_kind then
                local c = TILES[run_kind]
                if run_kind == 1 and (ty + shimmer) % 3 == 0 then
                    color(c[1] + 8, c[2] + 10, c[3] + 14)
                else
                    color(c[1], c[2], c[3])
                end
                fill_rect(ox + (run_start - x0) * tile, sy, (tx - run_start) * tile, tile)
                run_start, run_kind = tx, k
            end
        end
    end
end

-- Draws the entities of the visible cells; returns how many were drawn.
function render.entities(w, cam, tile, selected)
    local CELL, CELLS = entities.CELL, entities.CELLS
    local span = CELL * tile
    local c0x, c0y = floor(cam.x / span), floor(cam.y / span)
    local c1x, c1y = floor((cam.x + cam.w) / span), floor((cam.y + cam.h) / span)
    if c1x >= CELLS then c1x = CELLS - 1 end
    if c1y >= CELLS then c1y = CELLS - 1 end
    local kinds = entities.KINDS
    local camx, camy = cam.x, cam.y
    local drawn = 0
    local frame = engine.frame()
    -- agents' order lines first, under everything else
    color(255, 240, 140, 90)
    for cy = c0y, c1y do
        for cx = c0x, c1x do
            local list = w.grid[cy * CELLS + cx + 1]
            for i = 1, #list do
                local e = list[i]
                local a = e.agent
                if a and a.target then
                    local t = a.target
                    local sx, sy = e.pos[1] * tile - camx, e.pos[2] * tile - camy
                    local tx, ty = t.pos[1] * tile - camx, t.pos[2] * tile - camy
                    local dx, dy = tx - sx, ty - sy
                    if dx * dx + dy * dy < 250000 then line(sx, sy, tx, ty) end
                end
            end
        end
    end
    for cy = c0y, c1y do
        for cx = c0x, c1x do
            local list = w.grid[cy * CELLS + cx + 1]
            for i = 1, #list do
                local e = list[i]
                local sx, sy = e.pos[1] * tile - camx, e.pos[2] * tile - camy
                local c = kinds[e.kind].color
                if e.agent then
                    color(0, 0, 0, 160)
                    fill_circle(sx, sy, 7)
                    color(c[1], c[2], c[3])
                    fill_circle(sx, sy, 5)
                    color(255, 255, 255)
                    circle(sx, sy, 7)
                else
                    color(c[1] * 0.55, c[2] * 0.55, c[3] * 0.55)
                    fill_circle(sx, sy, 4)
                    color(c[1], c[2], c[3])
                    fill_circle(sx, sy, 3)
                end
                -- a fresh message glows for a moment
                local m = e.msg
                if m and frame - m.frame < 6 then
                    color(255, 255, 200, 160 - (frame - m.frame) * 25)
                    circle(sx, sy, 9)
                end
                drawn = drawn + 1
            end
        end
    end
    if selected and not selected.dead then
        local sx, sy = selected.pos[1] * tile - camx, selected.pos[2] * tile - camy
        local r = 13 + 3 * sin(engine.time() * 6)
        color(palette.yellow[1], palette.yellow[2], palette.yellow[3])
        circle(sx, sy, r)
        circle(sx, sy, r + 1)
        local a = selected.agent
        if a then
            color(120, 255, 160, 200)
            line(sx, sy, a.goal[1] * tile - camx, a.goal[2] * tile - camy)
            fill_circle(a.goal[1] * tile - camx, a.goal[2] * tile - camy, 4)
        end
    end
    return drawn
end

-- The whole island in a small box: one rectangle per run of chunks that
-- share their centre tile type, cached as a flat list once the terrain is
-- done. `rows` limits it to the chunk rows generated so far.
function render.minimap(map, x, y, scale, rows)
    local n = terrain.CHUNKS
    local CH = terrain.CHUNK
    local mid = (CH / 2) * CH + CH / 2 + 1
    for cy = 0, rows - 1 do
        local run_start, run_kind = 0, map.chunks[cy * n + 1][mid]
        for cx = 1, n do
            local k = (cx < n) and map.chunks[cy * n + cx + 1][mid] or -1
            if k ~= run_kind then
                local c = TILES[run_kind]
                color(c[1], c[2], c[3])
                fill_rect(x + run_start * scale, y + cy * scale, (cx - run_start) * scale, scale)
                run_start, run_kind = cx, k
            end
        end
    end
end

return render
