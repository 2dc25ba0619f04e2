-- Tide shooter — a vertical arcade shooter that stresses the garbage
-- collector the way real shooters do: thousands of short-lived bullet and
-- particle tables a second (never pooled, see entities.lua), vectors as
-- small tables (vec.lua), and HUD strings rebuilt every frame (hud.lua).
--
-- This file owns the game's states (title, playing, game over), the
-- keyboard, and the per-second count of new objects. The host calls the
-- global update(dt) and draw() at 60 Hz; see README.md for how to run it.

local engine = require("engine")
local autopilot = require("autopilot")
local collide = require("collide")
local entities = require("entities")
local fx = require("fx")
local hud = require("hud")
local render = require("render")
local starfield = require("starfield")
local world_mod = require("world")

local TITLE_WAIT = 1.5   -- seconds before the autopilot starts a game
local OVER_WAIT = 3.0    -- seconds before the autopilot starts a new one

local W, H = engine.width(), engine.height()

local game = {
    state = "title",          -- "title", "play" or "over"
    paused = false,
    autopilot = engine.autopilot(),
    pilot = autopilot.new(),
    world = world_mod.new(W, H),
    stars = starfield.new(W, H),
    focus = false,            -- the ship is in focus mode (draws its hitbox)
    clock = 0,                -- seconds of game time since start
    title_left = TITLE_WAIT,
    over_left = OVER_WAIT,
    firework_t = 0,
    hiscore = 0,
    -- new bullets + particles in the last whole second of game time
    rate = 0, peak_rate = 0, rate_frames = 0, rate_mark = 0,
}

local function start_game()
    game.world = world_mod.new(W, H)
    game.pilot = autopilot.new()
    game.state = "play"
    game.paused = false
end

----------------------------------------------------------------- input --

local function key(a, b)
    return engine.key_down(a) or (b ~= nil and engine.key_down(b))
end

local function keyboard_controls()
    local dx, dy = 0, 0
    if key("left", "a") then dx = dx - 1 end
    if key("right", "d") then dx = dx + 1 end
    if key("up", "w") then dy = dy - 1 end
    if key("down", "s") then dy = dy + 1 end
    return { dx = dx, dy = dy, fire = key("space", "z"), focus = key("lshift"),
             bomb = engine.key_pressed("x") }
end

-- Keys that work in every state. Headless, no key is ever pressed.
local function handle_keys()
    local pressed = engine.key_pressed
    if pressed("escape") then engine.quit() end
    if pressed("tab") then game.autopilot = not game.autopilot end
    if pressed("l") then engine.gc.set_low_latency(not engine.gc.low_latency()) end
    if game.state == "play" and pressed("p") then game.paused = not game.paused end
    if game.state == "title" and (pressed("space") or pressed("return") or pressed("z")) then
        start_game()
    elseif game.state == "over" and pressed("r") then
        start_game()
    end
end

---------------------------------------------------------------- states --

-- Title screen: fireworks, and the autopilot starts a game by itself.
local function update_title(dt)
    local world = game.world
    game.firework_t = game.firework_t - dt
    if game.firework_t <= 0 then
        game.firework_t = 0.3
        fx.firework(world, W * (0.15 + 0.7 * engine.random()), H * (0.15 + 0.5 * engine.random()))
    end
    world_mod.update_effects(world, dt)
    if game.autopilot then
        game.title_left = game.title_left - dt
        if game.title_left <= 0 then start_game() end
    end
end

local function update_game(dt)
    local world = game.world
    engine.zone_begin("input")
    local ctl
    if game.autopilot then
        ctl = autopilot.controls(game.pilot, world)
    else
        ctl = keyboard_controls()
    end
    engine.zone_end("input")
    game.focus = ctl.focus

    engine.zone_begin("update")
    world_mod.update(world, ctl, dt, game.state == "play")
    engine.zone_end("update")

    engine.zone_begin("collide")
    collide.run(world)
    engine.zone_end("collide")

    if world.score > game.hiscore then game.hiscore = world.score end
    if game.state == "play" and world.lives <= 0 then
        game.state = "over"
        game.over_left = OVER_WAIT
    elseif game.state == "over" then
        game.over_left = game.over_left - dt
        if game.autopilot and game.over_left <= 0 then start_game() end
    end
end

-- Counts whole seconds by frames (60 of them) so the rate is exact.
local function measure_rate()
    game.rate_frames = game.rate_frames + 1
    if game.rate_frames < 60 then return end
    local total = entities.created()
    game.rate = total - game.rate_mark
    game.rate_mark = total
    game.rate_frames = 0
    if game.rate > game.peak_rate then game.peak_rate = game.rate end
end

---------------------------------------------------------- host entries --

function update(dt)
    game.clock = game.clock + dt
    handle_keys()
    if game.paused then return end
    engine.zone_begin("background")
    local boost = (game.state == "title" or game.world.banner > 0) and 3 or 1
    starfield.update(game.stars, dt, boost)
    engine.zone_end("background")
    if game.state == "title" then
        engine.zone_begin("update")
        update_title(dt)
        engine.zone_end("update")
    else
        update_game(dt)
    end
    measure_rate()
end

function draw()
    engine.zone_begin("draw")
    starfield.draw(game.stars)
    if game.state == "title" then
        render.particles(game.world)
    else
        render.world(game.world, game.focus)
    end
    engine.zone_end("draw")
    engine.zone_begin("hud")
    hud.draw(game)
    engine.zone_end("hud")
end
