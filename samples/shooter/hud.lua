-- hud.lua — everything drawn on top of the world: score, lives, wave, the
-- live object counts and script memory, the controls, and the title,
-- pause and game-over screens.
--
-- The HUD strings are rebuilt with string.format and .. every frame, as
-- most game HUDs do: a dozen or so fresh strings a frame, on top of the
-- bullets and particles.

local engine = require("engine")
local palette = require("palette")
local render = require("render")

local hud = {}

local floor, format = math.floor, string.format
local text, text_width = engine.text, engine.text_width

local function paint(c, alpha)
    engine.color(c[1], c[2], c[3], alpha or 255)
end

local function centered(y, str, scale)
    local x = floor((engine.width() - text_width(str, scale)) / 2)
    text(x, y, str, scale)
end

local function right_aligned(x, y, str, scale)
    text(x - text_width(str, scale), y, str, scale)
end

local function blink(t, period)
    return floor(t / period) % 2 == 0
end

------------------------------------------------------------------- status --

local LIFE_ICON = { 0, -8, 7, 6, 0, 3, -7, 6 }

local function draw_lives_and_bombs(world)
    paint(palette.ship)
    for i = 1, world.lives do
        render.outline(24 + (i - 1) * 20, 58, LIFE_ICON, 0, 1, 1)
    end
    paint(palette.cyan)
    for i = 1, world.ship.bombs do
        local x = 20 + (i - 1) * 18
        engine.circle(x, 80, 6)
        engine.fill_circle(x, 80, 2)
    end
end

local function draw_power(world, width)
    local s = world.ship
    paint(palette.hud_dim)
    right_aligned(width - 20 - 5 * 14, 52, "POWER ", 2)
    for i = 1, 5 do
        local x = width - 20 - (6 - i) * 14
        if i <= s.power then paint(palette.red) else paint(palette.hud_dim, 120) end
        engine.fill_rect(x, 52, 10, 12)
    end
end

local function draw_boss_bar(world, width)
    local boss = world.boss
    if not boss or boss.dead then return end
    local w = width * 0.4
    local x = (width - w) / 2
    paint(palette.grey, 140)
    engine.rect(x - 2, 50, w + 4, 12)
    paint(palette.red)
    engine.fill_rect(x, 52, w * boss.hp / boss.max_hp, 8)
end

local function draw_score_line(world, game, width)
    paint(palette.hud)
    text(16, 14, format("SCORE %08d", world.score), 3)
    centered(14, format("WAVE %d", world.wave), 3)
    right_aligned(width - 16, 14, format("HI %08d", game.hiscore), 3)
    draw_lives_and_bombs(world)
    draw_power(world, width)
    draw_boss_bar(world, width)
end

-- The numbers this sample exists for: how much is alive, how fast it is
-- being made, how big the script heap is and which collector mode is on.
local function draw_stats(world, game, height)
    local low = engine.gc.low_latency()
    paint(palette.hud_dim)
    text(16, height - 62, format("bullets %4d   particles %5d   enemies %3d",
                                 #world.ebullets + #world.pbullets, #world.particles,
                                 #world.enemies), 2)
    text(16, height - 42, format("new objects %5d/s (peak %d/s)   script heap %.2f MiB",
                                 game.rate, game.peak_rate, engine.gc.count() / 1024), 2)
    if low then paint(palette.green) else paint(palette.hud_dim) end
    local x = 16 + text(16, height - 22, "GC low-latency: " .. (low and "ON" or "OFF") .. " [L]", 2)
    paint(game.autopilot and palette.yellow or palette.hud_dim)
    x = x + 24 + text(x + 24, height - 22, "autopilot: " .. (game.autopilot and "ON" or "OFF") .. " [TAB]", 2)
    paint(palette.hud_dim)
    text(x + 24, height - 22, engine.backend(), 2)
end

local function draw_controls(width, height)
    paint(palette.hud_dim, 200)
    right_aligned(width - 16, height - 42, "ARROWS/WASD move  SPACE/Z fire  SHIFT focus", 2)
    right_aligned(width - 16, height - 22, "X bomb  P pause  R restart  ESC quit", 2)
end

local function draw_banner(world)
    if world.banner <= 0 then return end
    local alpha = math.min(1, world.banner) * 255
    local boss_wave = world.wave % 5 == 0
    paint(boss_wave and palette.red or palette.hud, alpha)
    centered(260, format("WAVE %d", world.wave), 6)
    if boss_wave then centered(320, "WARNING: BOSS APPROACHING", 3) end
end

------------------------------------------------------------------ screens --

local function draw_title(game, width, height)
    paint(palette.cyan)
    centered(170, "T I D E", 12)
    paint(palette.pink)
    centered(280, "S H O O T E R", 5)
    paint(palette.hud)
    centered(360, "a garbage-collector stress test you can play", 2)
    if blink(game.clock, 0.5) then
        paint(palette.yellow)
        centered(430, "PRESS SPACE TO START", 3)
    end
    paint(palette.hud_dim)
    centered(490, "arrows/WASD move   space/Z fire   shift focus   X bomb", 2)
    centered(512, "P pause   L GC low-latency   TAB autopilot   ESC quit", 2)
    if game.autopilot then
        paint(palette.yellow)
        centered(560, format("autopilot starts in %.1f s", math.max(0, game.title_left)), 2)
    end
end

-- A dark panel across the middle so a message stays readable over bullets.
local function draw_panel(y, h)
    engine.color(0, 0, 0, 170)
    engine.fill_rect(0, y, engine.width(), h)
end

local function draw_game_over(world, game)
    draw_panel(225, 220)
    paint(palette.red)
    centered(250, "GAME OVER", 8)
    paint(palette.hud)
    centered(350, format("score %d   wave %d", world.score, world.wave), 3)
    paint(palette.yellow)
    if game.autopilot then
        centered(410, format("restarting in %.1f s", math.max(0, game.over_left)), 2)
    elseif blink(game.clock, 0.5) then
        centered(410, "PRESS R TO RESTART", 3)
    end
end

-- Dark bands behind the text so the bullets do not hide it.
local function draw_backing(game, width, height)
    engine.color(0, 0, 0, 140)
    if game.state ~= "title" then engine.fill_rect(0, 0, width, 44) end
    engine.fill_rect(0, height - 70, width, 70)
end

function hud.draw(game)
    local width, height = engine.width(), engine.height()
    local world = game.world
    draw_backing(game, width, height)
    if game.state == "title" then
        draw_title(game, width, height)
    else
        draw_score_line(world, game, width)
        draw_banner(world)
        if game.state == "over" then draw_game_over(world, game) end
        if game.paused then
            draw_panel(280, 120)
            paint(palette.white)
            centered(300, "PAUSED", 6)
            centered(370, "press P to continue", 2)
        end
    end
    draw_stats(world, game, height)
    draw_controls(width, height)
end

return hud
