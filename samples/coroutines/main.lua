-- Tide coroutines — a village of thousands of villagers, each one's AI a
-- coroutine running straight-line script code (actors.lua) under a
-- frame-based scheduler (sched.lua). 6,000–9,000 coroutines are alive at
-- any moment; villagers are born and die all the time, so coroutines are
-- created and dropped continuously, along with short-lived generator
-- coroutines and message tables.
--
-- You drop threats (monsters) the villagers flee from and spawn waves of
-- new villagers. This file owns the loop, the director, the autopilot,
-- the keys and mouse, and drawing.

local engine = require("engine")
local actors = require("actors")
local sched = require("sched")

local W, H = engine.width(), engine.height()
local ARENA = { x = 10, y = 10, w = 960, h = 700 }
local TARGET = 5500         -- the director keeps at least this many alive
local DIRECTOR_RATE = 40    -- births per frame at most when below TARGET
local WAVE = 600

local floor, max, min, format = math.floor, math.max, math.min, string.format
local random = engine.random

local game = {
    autopilot = engine.autopilot(),
    world = actors.new_world(ARENA.x, ARENA.y, ARENA.w, ARENA.h),
    threat_t = 2, wave_t = 8,
    hist = {},              -- state -> count, this frame
    -- per-second rates, counted over whole seconds of frames
    rate_frames = 0, marks = {}, rates = {},
    resumes_acc = 0, resumes_avg = 0, peak_live = 0,
}

local RATE_KEYS = { "born", "died_old", "killed", "messages", "generators" }
for i = 1, #RATE_KEYS do game.marks[RATE_KEYS[i]] = 0; game.rates[RATE_KEYS[i]] = 0 end

-- The first population, set up before frame 1.
for i = 1, TARGET do
    local v = game.world.villages[(i - 1) % #game.world.villages + 1]
    actors.spawn(v.x + (random() - 0.5) * 300, v.y + (random() - 0.5) * 300, v)
end

------------------------------------------------------------------- input --

local function in_arena(x, y)
    return x >= ARENA.x and y >= ARENA.y and x < ARENA.x + ARENA.w and y < ARENA.y + ARENA.h
end

local function nearest_village(x, y)
    local vs, best, bd = game.world.villages, nil, 1e18
    for i = 1, #vs do
        local dx, dy = vs[i].x - x, vs[i].y - y
        if dx * dx + dy * dy < bd then best, bd = vs[i], dx * dx + dy * dy end
    end
    return best
end

local function handle_input()
    local pressed = engine.key_pressed
    local world = game.world
    if pressed("escape") then engine.quit() end
    if pressed("tab") then game.autopilot = not game.autopilot end
    if pressed("l") then engine.gc.set_low_latency(not engine.gc.low_latency()) end
    if pressed("c") then world.threats = {} end
    if pressed("w") or pressed("space") then
        actors.wave(world.villages[random(#world.villages)], WAVE)
    end
    for i = 1, 7 do
        if pressed(tostring(i)) then actors.wave(world.villages[i], WAVE) end
    end
    local x, y = engine.mouse()
    if engine.mouse_pressed(1) and in_arena(x, y) then actors.add_threat(x, y) end
    if engine.mouse_pressed(2) and in_arena(x, y) then
        local v = nearest_village(x, y)
        v.x, v.y = x, y
        actors.wave(v, WAVE)
    end
end

-- Drops a threat on a random villager now and then, and sends waves.
local function run_autopilot(dt)
    local world = game.world
    game.threat_t = game.threat_t - dt
    if game.threat_t <= 0 then
        game.threat_t = 1.5 + random() * 3
        local list = world.list
        if #list > 0 and #world.threats < 6 then
            local a = list[random(#list)]
            actors.add_threat(a.x + (random() - 0.5) * 60, a.y + (random() - 0.5) * 60)
        end
    end
    game.wave_t = game.wave_t - dt
    if game.wave_t <= 0 then
        game.wave_t = 8 + random() * 6
        actors.wave(world.villages[random(#world.villages)], WAVE)
    end
end

-- Keeps the village at TARGET at least: new villagers walk in from home.
local function director()
    local world = game.world
    local short = min(DIRECTOR_RATE, TARGET - #world.list)
    for _ = 1, short do
        local v = world.villages[random(#world.villages)]
        actors.spawn(v.x + (random() - 0.5) * 60, v.y + (random() - 0.5) * 60, v)
    end
end

local function measure()
    local world = game.world
    game.resumes_acc = game.resumes_acc + world.sched.resumes
    game.rate_frames = game.rate_frames + 1
    if game.rate_frames < 60 then return end
    for i = 1, #RATE_KEYS do
        local k = RATE_KEYS[i]
        game.rates[k] = world[k] - game.marks[k]
        game.marks[k] = world[k]
    end
    game.resumes_avg = game.resumes_acc / 60
    game.resumes_acc = 0
    game.rate_frames = 0
end

function update(dt)
    handle_input()
    if game.autopilot then run_autopilot(dt) end
    engine.zone_begin("grid")
    actors.rebuild_grid()
    engine.zone_end("grid")
    engine.zone_begin("threats")
    actors.update_threats(dt)
    engine.zone_end("threats")
    engine.zone_begin("scripts")
    sched.run(game.world.sched)
    engine.zone_end("scripts")
    engine.zone_begin("births")
    actors.compact()
    director()
    engine.zone_end("births")
    local live = #game.world.list + game.world.live_generators
    if live > game.peak_live then game.peak_live = live end
    measure()
end

------------------------------------------------------------------ drawing --

local COLORS, STATES = actors.COLORS, actors.STATES

local function draw_world()
    local world = game.world
    engine.color(16, 22, 18)
    engine.fill_rect(ARENA.x, ARENA.y, ARENA.w, ARENA.h)
    engine.color(50, 70, 55)
    engine.rect(ARENA.x, ARENA.y, ARENA.w, ARENA.h)
    local vs = world.villages
    for i = 1, #vs do
        local v = vs[i]
        engine.color(60, 50, 35)
        engine.fill_circle(v.x, v.y, 26)
        engine.color(150, 120, 80)
        engine.text(v.x - 5, v.y - 7, tostring(i), 2)
    end
    local hist = {}
    for i = 1, #STATES do hist[STATES[i]] = 0 end
    local list, last = world.list, nil
    local fill_rect, line = engine.fill_rect, engine.line
    for i = 1, #list do
        local a = list[i]
        local s = a.state
        hist[s] = (hist[s] or 0) + 1
        if s ~= last then
            local c = COLORS[s]
            engine.color(c[1], c[2], c[3])
            last = s
        end
        fill_rect(a.x - 1, a.y - 1, 3, 3)
    end
    -- who is talking to whom
    engine.color(255, 220, 90, 90)
    for i = 1, #list do
        local a = list[i]
        local b = a.partner
        if b and a.state == "talk" then line(a.x, a.y, b.x, b.y) end
    end
    game.hist = hist
    local ts = world.threats
    for i = 1, #ts do
        local t = ts[i]
        local alpha = floor(min(1, t.life) * 255)
        engine.color(255, 60, 50, floor(alpha * 0.35))
        engine.circle(t.x, t.y, t.r)
        engine.color(255, 60, 50, alpha)
        engine.fill_circle(t.x, t.y, 9)
        engine.color(255, 230, 200, alpha)
        engine.text(t.x - 6, t.y - 22, tostring(t.kills), 1)
    end
end

local function row(y, label, value, color)
    engine.color(130, 150, 140)
    engine.text(990, y, label, 2)
    engine.color(color[1], color[2], color[3])
    local s = tostring(value)
    engine.text(1262 - engine.text_width(s, 2), y, s, 2)
end

local WHITE, GOLD, DIMC = { 235, 240, 235 }, { 255, 220, 110 }, { 150, 160, 150 }

local function draw_hud()
    local world = game.world
    local s = world.sched
    local r = game.rates
    engine.color(12, 16, 14)
    engine.fill_rect(980, 10, 290, 700)
    engine.color(120, 255, 170)
    engine.text(990, 18, "COROUTINE VILLAGE", 2)
    local live = #world.list + world.live_generators
    row(46, "live coroutines", live, GOLD)
    row(66, "  villagers", #world.list, WHITE)
    row(86, "  look generators", world.live_generators, WHITE)
    row(106, "peak live", game.peak_live, DIMC)
    row(130, "resumes/frame", s.resumes, GOLD)
    row(150, "  avg last second", floor(game.resumes_avg), WHITE)
    row(174, "born/s", r.born, WHITE)
    row(194, "died of age/s", r.died_old, WHITE)
    row(214, "killed/s", r.killed, { 255, 110, 90 })
    row(234, "generators/s", r.generators, WHITE)
    row(254, "messages/s", r.messages, WHITE)
    row(278, "threats", #world.threats, { 255, 110, 90 })
    row(298, "coroutines made", s.created, DIMC)
    -- states histogram
    engine.color(130, 150, 140)
    engine.text(990, 326, "STATES", 2)
    local total = max(1, #world.list)
    for i = 1, #STATES do
        local st = STATES[i]
        local n = game.hist[st] or 0
        local y = 346 + (i - 1) * 20
        local c = COLORS[st]
        engine.color(c[1], c[2], c[3])
        engine.text(990, y + 3, st, 1)
        engine.fill_rect(1040, y, floor(160 * n / total), 14)
        engine.color(220, 225, 220)
        engine.text(1208, y + 3, format("%5d", n), 1)
    end
    local kb = engine.gc.count()
    engine.color(GOLD[1], GOLD[2], GOLD[3])
    engine.text(990, 496, format("heap %.1f MiB", kb / 1024), 2)
    local low = engine.gc.low_latency()
    if low then engine.color(120, 255, 140) else engine.color(150, 160, 150) end
    engine.text(990, 518, "GC low-latency " .. (low and "ON" or "OFF") .. " [L]", 2)
    if game.autopilot then engine.color(255, 220, 110) else engine.color(150, 160, 150) end
    engine.text(990, 540, "autopilot " .. (game.autopilot and "ON" or "OFF") .. " [TAB]", 2)
    engine.color(150, 160, 150)
    engine.text(990, 562, "backend " .. engine.backend(), 2)
    engine.color(130, 150, 140)
    engine.text(990, 600, "click: drop a threat", 1)
    engine.text(990, 612, "right click: move a village + wave", 1)
    engine.text(990, 624, "W/space: wave at a random village", 1)
    engine.text(990, 636, "1-7: wave at that village", 1)
    engine.text(990, 648, "C: clear threats   L: low-latency GC", 1)
    engine.text(990, 660, "TAB: autopilot   ESC: quit", 1)
end

function draw()
    engine.zone_begin("draw")
    engine.clear(6, 8, 7)
    draw_world()
    draw_hud()
    engine.zone_end("draw")
end
