-- Tide streaming — level streaming. Each level is a few hundred thousand
-- objects (tile tables, props, NPCs, dialogue and lore strings, pickups)
-- built in stages behind a loading screen and dropped ENTIRELY when the
-- next one loads (level.lua). The game uses the per-level low-latency
-- toggle: engine.gc.set_low_latency(true) when a level starts playing,
-- false on the loading screen, where it also calls engine.gc.collect()
-- right after dropping the old level — the pause nobody sees.
--
-- This file owns the states (loading, playing), input, the toggle and the
-- zones. See README.md.

local engine = require("engine")
local hud = require("hud")
local level = require("level")
local play = require("play")
local render = require("render")

local game = {
    state = "loading",
    autopilot = engine.autopilot(),
    level = nil,
    player = nil,
    fx = {},
    loads = 0,
    dropped = nil,       -- what the last drop freed, for the loading screen
    score = 0,
    level_time = 0,
}

-- Start loading level `number`: drop the old level, leave low-latency
-- mode, and collect now, on the loading screen, where a pause is free.
local function begin_load(number)
    engine.gc.set_low_latency(false)
    local old = game.level
    local before = engine.gc.count() / 1024
    game.level = nil
    game.fx = {}
    engine.zone_begin("collect")
    engine.gc.collect()
    engine.zone_end("collect")
    if old then
        game.dropped = { number = old.number, objects = old.objects,
                         before = before, after = engine.gc.count() / 1024 }
    end
    old = nil
    game.level = level.new(number)
    game.state = "loading"
end

local function start_play()
    local score, gems = 0, 0
    if game.player then score, gems = game.player.score, game.player.gems end
    game.player = play.new_player(game.level)
    game.player.score, game.player.gems = score, gems
    game.loads = game.loads + 1
    game.level_time = 0
    game.state = "play"
    engine.gc.set_low_latency(true)
end

begin_load(1)

local function handle_keys()
    local pressed = engine.key_pressed
    if pressed("escape") then engine.quit() end
    if pressed("tab") then game.autopilot = not game.autopilot end
    if pressed("l") then engine.gc.set_low_latency(not engine.gc.low_latency()) end
end

function update(dt)
    handle_keys()
    if game.state == "loading" then
        engine.zone_begin("load")
        if level.load_some(game.level) then start_play() end
        engine.zone_end("load")
        return
    end
    local lv, p = game.level, game.player
    game.level_time = game.level_time + dt
    engine.zone_begin("player")
    if game.autopilot then
        play.autopilot(lv, p, dt)
    else
        play.keyboard(lv, p, dt)
    end
    engine.zone_end("player")
    engine.zone_begin("npcs")
    play.update_npcs(lv, p, dt)
    play.update_pickups(lv, p, game.fx)
    play.update_fx(game.fx, dt)
    engine.zone_end("npcs")
    if play.at_exit(lv, p) then begin_load(lv.number + 1) end
end

function draw()
    if game.state == "loading" then
        engine.zone_begin("hud")
        hud.loading(game)
        engine.zone_end("hud")
        return
    end
    engine.zone_begin("draw")
    engine.clear(0, 0, 0)
    render.level(game.level, game.player, game.fx)
    engine.zone_end("draw")
    engine.zone_begin("hud")
    hud.play(game)
    engine.zone_end("hud")
end
