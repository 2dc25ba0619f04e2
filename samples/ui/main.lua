-- Tide ui — a colony trading sim with a busy HUD, and the sample that
-- churns short strings: every label, table cell, tooltip, log line,
-- floating number and the market ticker is rebuilt every frame with
-- string.format, .., table.concat, tostring, string.rep and gsub (ui.lua,
-- hud.lua), a few thousand strings a frame, most of them short and many
-- identical from frame to frame (so Lua interns them again and again).
--
-- This file owns the game loop: input (mouse or autopilot), the clicks the
-- UI reported, keys, restarts, and the strings-per-second count.

local engine = require("engine")
local autopilot = require("autopilot")
local colony = require("colony")
local hud = require("hud")
local ui = require("ui")

local RESTART_WAIT = 5

local function new_colony()
    local m = hud.MAP
    return colony.new(m.x + 4, m.y + 20, m.w - 8, m.h - 24)
end

local game = {
    colony = new_colony(),
    autopilot = engine.autopilot(),
    pilot = autopilot.new(),
    tab = 1, sort = 3, scroll = 0,
    restart_t = RESTART_WAIT,
    colonies = 1,
    strings_frame = 0, strings_rate = 0, strings_acc = 0, rate_frames = 0,
    buttons = 0,
    peak_kb = 0,
}

local function restart()
    game.colony = new_colony()
    game.pilot = autopilot.new()
    game.restart_t = RESTART_WAIT
    game.colonies = game.colonies + 1
end

local function handle_keys()
    local pressed = engine.key_pressed
    if pressed("escape") then engine.quit() end
    if pressed("tab") then game.autopilot = not game.autopilot end
    if pressed("l") then engine.gc.set_low_latency(not engine.gc.low_latency()) end
    if pressed("r") then restart() end
    for i = 1, 4 do
        if pressed(tostring(i)) then game.tab = i end
    end
    if engine.key_down("up") then game.scroll = math.max(0, game.scroll - 1) end
    if engine.key_down("down") then game.scroll = game.scroll + 1 end
end

-- The buttons clicked in the last draw(), applied now. Ids are strings
-- like "buy:food" or "up:12", taken apart with string.match.
local function apply_actions(c)
    local acts = ui.actions
    for i = 1, #acts do
        local kind, arg = acts[i]:match("^(%a+):(%w+)$")
        local b = ui.buttons[acts[i]]
        local x, y = b.x + b.w / 2, b.y
        local ok, why = true, nil
        if kind == "buy" then ok, why = colony.trade(c, arg, 10, x, y)
        elseif kind == "sell" then ok, why = colony.trade(c, arg, -10, x, y)
        elseif kind == "build" then ok, why = colony.place(c, arg)
        elseif kind == "up" then ok, why = colony.upgrade(c, c.plots[tonumber(arg)])
        elseif kind == "tab" then game.tab = tonumber(arg)
        elseif kind == "sort" then game.sort = tonumber(arg); game.scroll = 0
        end
        if not ok then colony.log(c, "Cannot do that: " .. why .. ".", { 255, 150, 120 }) end
    end
    ui.actions = {}
end

local input = { x = -1, y = -1, click = false }

function update(dt)
    handle_keys()
    local c = game.colony
    engine.zone_begin("input")
    apply_actions(c)
    if game.autopilot then
        input = autopilot.input(game.pilot, c, game, dt)
    else
        local x, y = engine.mouse()
        input = { x = x, y = y, click = engine.mouse_pressed(1) }
        game.pilot.x, game.pilot.y = x, y
    end
    engine.zone_end("input")
    engine.zone_begin("simulate")
    colony.update(c, dt)
    if c.lost or c.won then
        game.restart_t = game.restart_t - dt
        if game.restart_t <= 0 then restart() end
    end
    engine.zone_end("simulate")
end

function draw()
    engine.zone_begin("ui")
    ui.begin_frame(input)
    hud.draw(game)
    engine.zone_end("ui")
    local n = 0
    for _ in pairs(ui.buttons) do n = n + 1 end   -- a count only, order does not matter
    game.buttons = n
    game.strings_frame = ui.made
    game.strings_acc = game.strings_acc + ui.made
    game.rate_frames = game.rate_frames + 1
    if game.rate_frames == 60 then
        game.strings_rate, game.strings_acc, game.rate_frames = game.strings_acc, 0, 0
    end
end
