-- Tide world — a large persistent world that stresses a generational
-- collector: more than a million live Lua objects that stay alive for the
-- whole run (entities made of component tables, inventories of item
-- tables, a terrain of chunk tables, a spatial grid of cell lists), and a
-- few thousand agents that every frame store fresh tables into those OLD
-- objects (agents.lua) — the remembered-set pattern — while a trickle of
-- births and deaths slowly changes the old generation.
--
-- This file owns the two phases (generating, playing), the keyboard and
-- mouse, the per-second rates, and the profiler zones. See README.md.

local engine = require("engine")
local agents = require("agents")
local camera = require("camera")
local entities = require("entities")
local hud = require("hud")
local render = require("render")
local terrain = require("terrain")

local ENTITY_TARGET = 110000      -- ~1.05M live objects with their components
local SPAWN_PER_FRAME = 2500      -- generation speed (entities per frame)
local TERRAIN_ROWS_PER_FRAME = 4  -- chunk rows (64 chunks each) per frame

local W, H = engine.width(), engine.height()

local game = {
    state = "generating",
    phase = "raising terrain",
    progress = 0,
    autopilot = engine.autopilot(),
    map = terrain.new(),
    world = entities.new_world(),
    camera = camera.new(W, H),
    agent_list = nil,
    selected = nil,
    retargets = 0,
    drawn = 0,
    -- per-second rates, counted over whole seconds of 60 frames
    rate = 0, birth_rate = 0, death_rate = 0,
    rate_frames = 0, mark_created = 0, mark_births = 0, mark_deaths = 0,
}

------------------------------------------------------------ generating --

-- One frame of world building: terrain first, then the population, then
-- the agents. Everything built here stays alive for the whole run.
local function generate()
    local map, w = game.map, game.world
    if not map.done then
        local f = terrain.generate_some(map, TERRAIN_ROWS_PER_FRAME)
        game.progress = 0.25 * f
        if map.done then
            w.objects = w.objects + terrain.objects(map)
            game.phase = "populating"
        end
        return
    end
    local list = w.list
    for _ = 1, SPAWN_PER_FRAME do
        if #list >= ENTITY_TARGET then break end
        local x, y = entities.random_land(w, map)
        entities.spawn(w, x, y)
    end
    game.progress = 0.25 + 0.75 * #list / ENTITY_TARGET
    if #list >= ENTITY_TARGET then
        game.agent_list = agents.pick(w, map, agents.COUNT)
        game.state = "play"
        game.phase = "done"
        game.progress = 1
        -- reset the rate counters so the first second is not the build
        game.mark_created, game.mark_births, game.mark_deaths = w.created, w.births, w.deaths
        game.rate_frames = 0
    end
end

---------------------------------------------------------------- input --

local function handle_keys()
    local pressed = engine.key_pressed
    if pressed("escape") then engine.quit() end
    if pressed("tab") then
        game.autopilot = not game.autopilot
        game.camera.following = nil
    end
    if pressed("l") then engine.gc.set_low_latency(not engine.gc.low_latency()) end
    if game.state ~= "play" then return end
    if pressed("f") and game.selected and not game.selected.dead then
        game.camera.following = game.selected
    end
    if engine.mouse_pressed(1) then
        local mx, my = engine.mouse()
        local wx, wy = camera.to_world(game.camera, mx, my)
        game.selected = entities.nearest(game.world, wx, wy, 1.5)
        game.autopilot = false
        game.camera.following = nil
    end
end

local function measure_rates()
    game.rate_frames = game.rate_frames + 1
    if game.rate_frames < 60 then return end
    local w = game.world
    game.rate = w.created - game.mark_created
    game.birth_rate = w.births - game.mark_births
    game.death_rate = w.deaths - game.mark_deaths
    game.mark_created, game.mark_births, game.mark_deaths = w.created, w.births, w.deaths
    game.rate_frames = 0
end

---------------------------------------------------------- host entries --

function update(dt)
    handle_keys()
    if game.state == "generating" then
        engine.zone_begin("generate")
        generate()
        engine.zone_end("generate")
        return
    end

    engine.zone_begin("camera")
    local cam = game.camera
    if game.autopilot then
        game.selected = camera.autopilot(cam, game.agent_list, dt)
    elseif cam.following then
        camera.follow(cam, dt)
    else
        camera.keyboard(cam, dt)
    end
    engine.zone_end("camera")

    engine.zone_begin("agents")
    game.retargets = agents.update(game.world, game.map, game.agent_list, dt)
    engine.zone_end("agents")

    engine.zone_begin("churn")
    agents.churn(game.world, game.map)
    engine.zone_end("churn")

    measure_rates()
end

function draw()
    if game.state == "generating" then
        engine.zone_begin("hud")
        hud.generating(game)
        engine.zone_end("hud")
        return
    end
    local cam = game.camera
    engine.zone_begin("draw")
    engine.clear(30, 70, 140)
    render.terrain(game.map, cam, cam.tile)
    game.drawn = render.entities(game.world, cam, cam.tile, game.selected)
    engine.zone_end("draw")
    engine.zone_begin("hud")
    hud.play(game)
    engine.zone_end("hud")
end
