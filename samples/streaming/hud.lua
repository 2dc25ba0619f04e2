-- hud.lua — the loading screen and the in-level HUD: the level's live
-- object count, script heap, the low-latency state (which the game turns
-- ON for play and OFF for loading), score, controls. Strings are rebuilt
-- every frame.

local engine = require("engine")
local level = require("level")
local palette = require("palette")

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

local function status_line(game, y)
    local low = engine.gc.low_latency()
    if low then paint(palette.green) else paint(palette.hud_dim) end
    local x = 16 + text(16, y, "GC low-latency: " .. (low and "ON" or "OFF") .. " [L]", 2)
    paint(game.autopilot and palette.yellow or palette.hud_dim)
    x = x + 24 + text(x + 24, y, "autopilot: " .. (game.autopilot and "ON" or "OFF") .. " [TAB]", 2)
    paint(palette.hud_dim)
    text(x + 24, y, engine.backend(), 2)
end

function hud.loading(game)
    local W, H = engine.width(), engine.height()
    local lv = game.level
    engine.clear(8, 8, 16)
    local theme = palette.themes[(lv.number - 1) % #palette.themes + 1]
    paint(palette.hud_dim)
    centered(150, "LOADING", 3)
    paint(palette.cyan)
    centered(200, format("LEVEL %d", lv.number), 8)
    paint(theme.floor)
    centered(290, theme.name, 3)

    local bw, by = 640, 380
    local bx = floor((W - bw) / 2)
    paint(palette.hud_dim)
    engine.rect(bx - 3, by - 3, bw + 6, 30)
    paint(palette.cyan)
    engine.fill_rect(bx, by, bw * lv.progress, 24)
    -- stage ticks
    for i = 1, #level.STAGES - 1 do
        engine.color(8, 8, 16)
        engine.fill_rect(bx + bw * i / #level.STAGES - 1, by, 2, 24)
    end
    paint(palette.hud)
    centered(by + 44, format("%s ... %d%%", level.stage_name(lv), floor(lv.progress * 100)), 2)
    centered(by + 70, format("level objects built %s   script heap %.1f MiB",
        thousands(lv.objects), engine.gc.count() / 1024), 2)
    if game.dropped then
        paint(palette.hud_dim)
        centered(by + 110, format("dropped level %d (%s objects), full collection done: heap %.1f -> %.1f MiB",
            game.dropped.number, thousands(game.dropped.objects), game.dropped.before, game.dropped.after), 2)
    end
    paint(palette.hud_dim)
    centered(by + 150, "loading screen: low-latency OFF so the collector can catch up", 2)
    status_line(game, H - 22)
end

function hud.play(game)
    local W, H = engine.width(), engine.height()
    local lv, p = game.level, game.player
    engine.color(0, 0, 0, 170)
    engine.fill_rect(0, 0, W, 40)
    engine.fill_rect(0, H - 52, W, 52)
    local theme = palette.themes[(lv.number - 1) % #palette.themes + 1]
    paint(palette.cyan)
    local x = 16 + text(16, 10, format("LEVEL %d", lv.number), 3)
    paint(theme.floor)
    text(x + 16, 14, theme.name, 2)
    paint(palette.yellow)
    local s = format("SCORE %06d   GEMS %d", p.score, p.gems)
    text(W - 16 - text_width(s, 3), 10, s, 3)

    paint(palette.hud)
    local left = 0
    for i = 1, #lv.pickups do if not lv.pickups[i].taken then left = left + 1 end end
    text(16, H - 44, format("level objects ~%s   NPCs %d   pickups %d   script heap %.1f MiB   levels loaded %d",
        thousands(lv.objects), #lv.npcs, left, engine.gc.count() / 1024, game.loads), 2)
    status_line(game, H - 22)
    paint(palette.hud_dim, 220)
    local hint = "ARROWS/WASD walk   reach the green exit   ESC quit"
    text(W - 16 - text_width(hint, 2), H - 22, hint, 2)
    -- distance to the exit along the path, as a compass line
    local e = lv.exit
    local dx, dy = (e - 1) % level.W + 0.5 - p.x, floor((e - 1) / level.W) + 0.5 - p.y
    local d = math.sqrt(dx * dx + dy * dy)
    paint(palette.green)
    local str = format("exit %d tiles", floor(d + 0.5))
    centered(50, str, 2)
end

return hud
