-- hud.lua — the numbers this sample is about (live entities, the live
-- object estimate, retargets per frame, births/deaths, script heap), the
-- minimap, the selected entity's components, the controls, and the
-- "generating world" screen. The strings are rebuilt every frame.

local engine = require("engine")
local agents = require("agents")
local entities = require("entities")
local palette = require("palette")
local render = require("render")
local terrain = require("terrain")

local hud = {}

local floor, format = math.floor, string.format
local text, text_width = engine.text, engine.text_width

local function paint(c, alpha) engine.color(c[1], c[2], c[3], alpha or 255) end

local function centered(y, str, scale)
    text(floor((engine.width() - text_width(str, scale)) / 2), y, str, scale)
end

local function thousands(n)
    local s = format("%d", n)
    local out = s:reverse():gsub("(%d%d%d)", "%1,"):reverse()
    if out:sub(1, 1) == "," then out = out:sub(2) end
    return out
end
hud.thousands = thousands

local MINI = 2            -- minimap pixels per chunk

local function low_latency_line(x, y, game)
    local low = engine.gc.low_latency()
    if low then paint(palette.green) else paint(palette.hud_dim) end
    x = x + 24 + text(x, y, "GC low-latency: " .. (low and "ON" or "OFF") .. " [L]", 2)
    paint(game.autopilot and palette.yellow or palette.hud_dim)
    x = x + 24 + text(x, y, "autopilot: " .. (game.autopilot and "ON" or "OFF") .. " [TAB]", 2)
    paint(palette.hud_dim)
    text(x, y, engine.backend(), 2)
end

----------------------------------------------------------- generating --

function hud.generating(game)
    local W, H = engine.width(), engine.height()
    local w, map = game.world, game.map
    engine.clear(10, 12, 22)
    paint(palette.cyan)
    centered(90, "W O R L D", 8)
    paint(palette.hud)
    centered(170, "generating world", 3)

    local size = terrain.CHUNKS * 4
    local mx, my = floor((W - size) / 2), 215
    paint(palette.panel)
    engine.fill_rect(mx - 4, my - 4, size + 8, size + 8)
    render.minimap(map, mx, my, 4, map.next_row)
    -- people appear on the map as they are placed
    paint(palette.white, 160)
    local list = w.list
    local stride = math.max(1, floor(#list / 1500))
    local scale = 4 / terrain.CHUNK
    for i = 1, #list, stride do
        local e = list[i]
        engine.fill_rect(mx + e.pos[1] * scale, my + e.pos[2] * scale, 1, 1)
    end

    local bw, by = 600, my + size + 30
    local bx = floor((W - bw) / 2)
    local frac = game.progress
    paint(palette.hud_dim)
    engine.rect(bx - 2, by - 2, bw + 4, 24)
    paint(palette.cyan)
    engine.fill_rect(bx, by, bw * frac, 20)
    paint(palette.hud)
    centered(by + 36, format("%s ... %d%%", game.phase, floor(frac * 100)), 2)
    centered(by + 60, format("entities %s   objects ~%s   script heap %.1f MiB",
        thousands(#list), thousands(w.objects), engine.gc.count() / 1024), 2)
    low_latency_line(16, H - 22, game)
end

------------------------------------------------------------- playing --

local function stat_line(y, label, value, c)
    paint(palette.hud_dim)
    local x = 16 + text(16, y, label, 2)
    paint(c or palette.hud)
    text(x + 6, y, value, 2)
end

local function draw_stats(game)
    local w = game.world
    engine.color(0, 0, 0, 170)
    engine.fill_rect(0, 0, 330, 168)
    paint(palette.cyan)
    text(16, 12, "WORLD", 3)
    stat_line(44, "live entities", thousands(#w.list))
    stat_line(64, "live objects ~", thousands(w.objects), palette.yellow)
    stat_line(84, "retargets/frame", thousands(game.retargets))
    stat_line(104, "new tables/s", thousands(game.rate))
    stat_line(124, "births/deaths /s", format("%d / %d", game.birth_rate, game.death_rate))
    stat_line(144, "script heap", format("%.1f MiB", engine.gc.count() / 1024), palette.yellow)
end

local function draw_minimap(game)
    local map, cam = game.map, game.camera
    local size = terrain.CHUNKS * MINI
    local W = engine.width()
    local x, y = W - size - 16, 16
    engine.color(0, 0, 0, 170)
    engine.fill_rect(x - 4, y - 4, size + 8, size + 8)
    render.minimap(map, x, y, MINI, terrain.CHUNKS)
    local s = MINI / terrain.CHUNK / cam.tile
    paint(palette.white)
    engine.rect(x + cam.x * s, y + cam.y * s, cam.w * s, cam.h * s)
    local sel = game.selected
    if sel and not sel.dead then
        paint(palette.yellow)
        engine.fill_rect(x + sel.pos[1] * MINI / terrain.CHUNK - 1,
                         y + sel.pos[2] * MINI / terrain.CHUNK - 1, 3, 3)
    end
end

-- The selected entity's components, read straight from its tables.
local function draw_selection(game)
    local e = game.selected
    if not e then return end
    local lines = {}
    local def = entities.KINDS[e.kind]
    lines[#lines + 1] = e.name .. (e.dead and "  (dead)" or "")
    lines[#lines + 1] = format("kind      %s%s", def.name, e.agent and "  [agent]" or "")
    lines[#lines + 1] = format("position  %.1f, %.1f", e.pos[1], e.pos[2])
    lines[#lines + 1] = format("velocity  %.2f, %.2f", e.vel[1], e.vel[2])
    lines[#lines + 1] = format("health    %d / %d", e.health[1], e.health[2])
    lines[#lines + 1] = format("gold      %d", e.inv.gold)
    local items = e.inv.items
    for i = 1, #items do
        lines[#lines + 1] = format("  item %d  %s x%d", i, items[i][1], items[i][2])
    end
    local m = e.msg
    if m then
        lines[#lines + 1] = format("message   %s from %s", agents.ORDERS[m.kind], m.from.name)
        lines[#lines + 1] = format("          %d frames ago", engine.frame() - m.frame)
    end
    local a = e.agent
    if a then
        if a.target then
            lines[#lines + 1] = format("order     %s -> %s", agents.ORDERS[a.order], a.target.name)
        end
        lines[#lines + 1] = format("goal      %.1f, %.1f", a.goal[1], a.goal[2])
        lines[#lines + 1] = format("retargets %s", thousands(a.retargets))
    end
    local H = engine.height()
    local h = #lines * 18 + 20
    local y = H - 80 - h
    engine.color(0, 0, 0, 180)
    engine.fill_rect(0, y, 360, h)
    local c = def.color
    engine.color(c[1], c[2], c[3])
    engine.fill_rect(0, y, 4, h)
    for i = 1, #lines do
        if i == 1 then paint(palette.yellow) else paint(palette.hud) end
        text(16, y + 10 + (i - 1) * 18, lines[i], 2)
    end
end

function hud.play(game)
    local W, H = engine.width(), engine.height()
    draw_stats(game)
    draw_minimap(game)
    draw_selection(game)
    engine.color(0, 0, 0, 170)
    engine.fill_rect(0, H - 54, W, 54)
    low_latency_line(16, H - 22, game)
    paint(palette.hud_dim, 220)
    local hint = "ARROWS/WASD pan (SHIFT fast)   CLICK select   F follow   ESC quit"
    text(16, H - 44, hint, 2)
    paint(palette.hud_dim)
    local info = format("view (%d, %d)  %d entities on screen",
        floor(game.camera.x / game.camera.tile), floor(game.camera.y / game.camera.tile), game.drawn)
    text(W - 16 - text_width(info, 2), H - 44, info, 2)
end

return hud
