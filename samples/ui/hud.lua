-- hud.lua — the whole screen: top bar, resource strip, market ticker,
-- market table, colony map, tabbed side panel (build / roster / ledger /
-- stats), event log, collector stats and the floating numbers.
--
-- Everything here is rebuilt from the colony's numbers every frame, text
-- included, with no caching (see ui.lua): the roster alone makes two
-- strings per colonist per frame (a sort key and a row), the map a label
-- per colonist, the tables a string per cell.

local engine = require("engine")
local colony = require("colony")
local ui = require("ui")

local hud = {}

local floor, min, max, abs = math.floor, math.min, math.max, math.abs
local format, rep, concat = string.format, string.rep, table.concat
local f, bar, color = ui.f, ui.bar, ui.color
local GOODS, KINDS = colony.GOODS, colony.KINDS

local W, H = 1280, 720
hud.MARKET = { x = 8, y = 84, w = 422, h = 390 }
hud.MAP = { x = 438, y = 84, w = 404, h = 390 }
hud.SIDE = { x = 850, y = 84, w = 422, h = 390 }
hud.LOG = { x = 8, y = 480, w = 834, h = 206 }
hud.STATS = { x = 850, y = 480, w = 422, h = 206 }
hud.TABS = { "BUILD", "ROSTER", "LEDGER", "STATS" }
hud.SORTS = { "name", "job", "mood", "age" }

local WHITE, DIM, GOLD = { 235, 240, 255 }, { 130, 145, 180 }, { 255, 220, 110 }
local GREEN, RED = { 120, 255, 140 }, { 255, 110, 100 }
local SEASONS = { "Spring", "Summer", "Autumn", "Winter" }

-------------------------------------------------------------- top of screen --

local function top_bar(game, c)
    engine.color(20, 28, 48)
    engine.fill_rect(0, 0, W, 30)
    color(GOLD)
    local day = floor(c.day)
    ui.text(10, 8, f("%s  -  Day %d, %s", c.name, day, SEASONS[floor(day / 20) % 4 + 1]), 2)
    color(WHITE)
    ui.text(470, 8, "Credits " .. ui.commas(c.credits), 2)
    ui.count()
    local house = colony.housing(c)
    if #c.people >= house then color(RED) else color(WHITE) end
    ui.text(720, 8, f("Pop %d/%d", #c.people, house), 2)
    color(DIM)
    ui.right(W - 10, 8, "Net worth " .. ui.commas(colony.net_worth(c)) .. " cr", 2)
    ui.count(2)
end

local function resource_strip(c)
    local last = c.ledger[#c.ledger]
    for i = 1, #GOODS do
        local g = GOODS[i]
        local x = 8 + (i - 1) * 158
        engine.color(16, 22, 38)
        engine.fill_rect(x, 32, 152, 37)
        color(g.color)
        ui.text(x + 5, 35, f("%-8s %s", g.name:upper(), ui.commas(c.stock[g.id])), 1)
        ui.count()
        local net = 0
        if last then net = (last.made[g.id] or 0) - (last.used[g.id] or 0) end
        color(net >= 0 and GREEN or RED)
        ui.right(x + 147, 35, f("%+.1f/d", net), 1)
        color(DIM)
        ui.text(x + 5, 46, bar(c.stock[g.id] / 1000, 20), 1)
        color(WHITE)
        ui.text(x + 5, 57, f("%6.2f cr", c.price[g.id]), 1)
    end
end

-- The market ticker: every good's price and change as one long string,
-- scrolled by cutting the visible part out of it with string.sub.
local function ticker(c, t)
    local parts = {}
    for i = 1, #GOODS do
        local g = GOODS[i]
        local h = c.history[g.id]
        local old, now = h[1], h[#h]
        local ch = (now - old) / old * 100
        parts[#parts + 1] = f("%s %.2f %s%.1f%%", g.id:upper(), now, ch >= 0 and "+" or "", ch)
    end
    local s = ui.cat(parts, "   *   ") .. "   *   "
    ui.count()
    local chars = floor(W / 6)
    local off = floor(t * 12) % #s + 1
    local line = (s .. s):sub(off, off + chars)
    ui.count(2)
    engine.color(24, 18, 6)
    engine.fill_rect(0, 71, W, 11)
    color({ 255, 200, 90 })
    ui.text(0, 73, line, 1)
end

------------------------------------------------------------------ market --

local function sparkline(h, x, y, w, hgt, col)
    local lo, hi = h[1], h[1]
    for i = 2, #h do lo = min(lo, h[i]); hi = max(hi, h[i]) end
    if hi - lo < 1e-6 then hi = lo + 1 end
    color(col, 200)
    local px, py
    for i = 1, #h do
        local sx = x + (i - 1) * w / (#h - 1)
        local sy = y + hgt - (h[i] - lo) / (hi - lo) * hgt
        if px then engine.line(px, py, sx, sy) end
        px, py = sx, sy
    end
    return lo, hi
end

local function market(c)
    local p = hud.MARKET
    ui.panel(p.x, p.y, p.w, p.h, "MARKET  -  lots of 10, prices move with every trade")
    color(DIM)
    local hy = p.y + 22
    ui.text(p.x + 8, hy, "GOOD", 1)
    ui.text(p.x + 104, hy, "PRICE", 1)
    ui.text(p.x + 150, hy, "CHG", 1)
    ui.text(p.x + 196, hy, "TREND 12s", 1)
    ui.text(p.x + 272, hy, "STOCK", 1)
    for i = 1, #GOODS do
        local g = GOODS[i]
        local y = p.y + 36 + (i - 1) * 44
        local h = c.history[g.id]
        local now, prev = h[#h], h[#h - 4]
        local ch = (now - prev) / prev * 100
        color(g.color)
        ui.text(p.x + 8, y + 6, g.name, 2)
        color(WHITE)
        ui.text(p.x + 104, y + 8, f("%.2f", now), 1)
        color(ch >= 0 and GREEN or RED)
        ui.text(p.x + 150, y + 8, f("%s%.1f%%", ch >= 0 and "+" or "", ch), 1)
        local lo, hi = sparkline(h, p.x + 196, y + 2, 68, 20, g.color)
        color(DIM)
        ui.text(p.x + 196, y + 26, f("%.1f-%.1f", lo, hi), 1)
        color(WHITE)
        ui.text(p.x + 272, y + 8, tostring(floor(c.stock[g.id])), 1)
        ui.count()
        local gid, name = g.id, g.name
        ui.button("buy:" .. gid, p.x + 318, y + 2, 46, 18, "BUY", function()
            return ui.template("Buy {qty} {good} at {price} cr each.\nTotal {total} cr, you have {cr}.",
                { qty = 10, good = name:lower(), price = c.price[gid],
                  total = floor(c.price[gid] * 10 + 0.5), cr = floor(c.credits) })
        end, c.credits >= c.price[gid] * 10)
        ui.button("sell:" .. gid, p.x + 368, y + 2, 46, 18, "SELL", function()
            return ui.template("Sell {qty} {good} at {price} cr each (5% fee).\nYou hold {stock}.",
                { qty = 10, good = name:lower(), price = c.price[gid] * 0.95,
                  stock = floor(c.stock[gid]) })
        end, c.stock[gid] >= 1)
        ui.count(2)
        engine.color(40, 50, 75)
        engine.line(p.x + 4, y + 40, p.x + p.w - 4, y + 40)
    end
end

--------------------------------------------------------------------- map --

local function map(c)
    local p = hud.MAP
    ui.panel(p.x, p.y, p.w, p.h, f("COLONY  -  %d buildings, click one to upgrade", #c.buildings))
    local pw, ph = c.plot_w, c.plot_h
    for plot = 1, colony.COLS * colony.ROWS do
        local col = (plot - 1) % colony.COLS
        local row = floor((plot - 1) / colony.COLS)
        local x, y = c.map_x + col * pw + 2, c.map_y + row * ph + 2
        local b = c.plots[plot]
        if b then
            local k = b.kind
            local cost = colony.upgrade_cost(b)
            ui.button("up:" .. plot, x, y, pw - 4, ph - 4, "", function()
                return ui.template("{name} (plot {plot}), level {level}\nStaff {staff}/{want}, " ..
                    "output {out}/day\nUpgrade: {cost} cr", {
                    name = k.name, plot = plot, level = b.level, staff = b.staff,
                    want = k.workers * b.level, out = b.output, cost = cost })
            end, b.level < 5 and c.credits >= cost, k.color)
            ui.count()
            engine.color(10, 10, 20)
            ui.text(x + 3, y + 3, f("%s L%d", k.tag, b.level), 1)
            if k.workers > 0 then
                ui.text(x + 3, y + 13, f("%d/%d", b.staff, k.workers * b.level), 1)
                ui.text(x + 3, y + 23, bar(b.output / (k.makes[2] * b.level), 5, "#", "-"), 1)
            else
                ui.text(x + 3, y + 13, f("+%d", k.housing * b.level), 1)
            end
            if b.damaged > 0 then
                engine.color(255, 60, 60)
                ui.text(x + 3, y + ph - 16, f("DMG %d%%", floor(b.damaged * 100)), 1)
            end
        else
            engine.color(30, 38, 30)
            engine.rect(x, y, pw - 4, ph - 4)
        end
    end
    -- colonists: each gets a fresh label every frame; the ones near the
    -- cursor show it as a nameplate
    local people, inp = c.people, ui.input
    local shown = 0
    for i = 1, #people do
        local q = people[i]
        q.label = q.name .. " " .. (q.job and q.job.kind.tag or "idle") .. " " .. q.mood .. "%"
        ui.count(3)
        local m = q.mood
        engine.color(255 - m * 2, 80 + m * 1.7, 90)
        engine.fill_rect(q.x - 1, q.y - 1, 3, 3)
        if shown < 8 and abs(q.x - inp.x) < 40 and abs(q.y - inp.y) < 40 then
            shown = shown + 1
            engine.color(255, 255, 255)
            ui.text(q.x + 3, q.y - 8, q.label, 1)
        end
    end
end

---------------------------------------------------------------- side tabs --

local function build_tab(c, p, y0)
    for i = 1, #KINDS do
        local k = KINDS[i]
        local y = y0 + (i - 1) * 32
        local cost, mat, amount = colony.build_cost(c, k.id)
        local n = 0
        for j = 1, #c.buildings do if c.buildings[j].kind == k then n = n + 1 end end
        color(k.color)
        ui.text(p.x + 10, y + 4, k.name, 2)
        color(WHITE)
        local what = k.makes and f("makes %d %s", k.makes[2], k.makes[1]) or f("houses %d", k.housing)
        if k.uses then
            local u = {}
            for j = 1, #k.uses, 2 do u[#u + 1] = k.uses[j + 1] .. " " .. k.uses[j]; ui.count() end
            what = what .. " from " .. ui.cat(u, " + ")
            ui.count()
        end
        color(DIM)
        ui.text(p.x + 10, y + 20, what, 1)
        color(WHITE)
        local price = tostring(cost) .. " cr" .. (mat and f(" + %d %s", amount, mat) or "")
        ui.count(2)
        ui.text(p.x + 225, y + 6, price, 1)
        ui.text(p.x + 225, y + 18, f("owned %d", n), 1)
        local ok, why = colony.can_build(c, k.id)
        ui.button("build:" .. k.id, p.x + p.w - 84, y + 3, 74, 22, "BUILD", function()
            return ui.template("Build a {name}: {cost} cr{extra}.\n{status}", {
                name = k.name, cost = cost, extra = mat and f(" and %d %s", amount, mat) or "",
                status = ok and "Click to build." or ("Cannot build: " .. why) })
        end, ok)
        ui.count()
    end
end

-- The roster sorts every colonist by the chosen column every frame: one
-- sort key and one row string per colonist, then shows a window of rows.
local function roster_tab(game, c, p, y0)
    local people = c.people
    local sort = hud.SORTS[game.sort]
    local keyed = {}
    for i = 1, #people do
        local q = people[i]
        local key
        if sort == "name" then key = q.name
        elseif sort == "job" then key = (q.job and q.job.kind.tag or "~") .. q.name
        elseif sort == "mood" then key = format("%03d%s", 100 - q.mood, q.name)
        else key = format("%03d%s", q.age, q.name) end
        keyed[i] = { key = key .. format("%05d", i), q = q }
        ui.count(2)
    end
    table.sort(keyed, function(a, b) return a.key < b.key end)
    for i = 1, #hud.SORTS do
        local s = hud.SORTS[i]
        ui.button("sort:" .. i, p.x + 10 + (i - 1) * 70, y0, 64, 14, s:upper(),
                  "Sort the roster by " .. s, true, game.sort == i and { 90, 70, 30 } or nil)
        ui.count(2)
    end
    local rows = 28
    local first = max(0, min(game.scroll, #keyed - rows))
    game.scroll = first
    color(DIM)
    ui.right(p.x + p.w - 10, y0 + 3, f("%d-%d of %d  (up/down)", first + 1,
                                      min(#keyed, first + rows), #keyed), 1)
    for r = 1, rows do
        local e = keyed[first + r]
        if not e then break end
        local q = e.q
        local row = f("%-10s %-5s age %2d  mood %3d%% %s", q.name, q.job and q.job.kind.tag or "idle",
                      q.age, q.mood, bar(q.mood / 100, 10))
        color(q.mood > 50 and WHITE or RED)
        ui.text(p.x + 10, y0 + 20 + (r - 1) * 11, row, 1)
    end
end

local function ledger_tab(c, p, y0)
    local l = c.ledger
    color(DIM)
    ui.text(p.x + 10, y0, "net production per day (made - used)", 1)
    ui.text(p.x + 10, y0 + 14, "DAY", 1)
    for i = 1, #GOODS do ui.text(p.x + 50 + (i - 1) * 44, y0 + 14, GOODS[i].id:sub(1, 5):upper(), 1) end
    ui.count(#GOODS * 2)
    for r = 1, #l do
        local e = l[#l - r + 1]
        local y = y0 + 16 + r * 13
        color(DIM)
        ui.text(p.x + 10, y, tostring(e.day), 1)
        ui.count()
        for i = 1, #GOODS do
            local id = GOODS[i].id
            local v = (e.made[id] or 0) - (e.used[id] or 0)
            color(v > 0.05 and GREEN or (v < -0.05 and RED or DIM))
            ui.text(p.x + 50 + (i - 1) * 44, y, f("%+.1f", v), 1)
        end
    end
    local y = y0 + 16 + 14 * 13
    color(GOLD)
    local parts = {}
    for i = 1, #l do parts[i] = ui.commas(l[i].credits) end
    ui.text(p.x + 10, y, "credits: " .. ui.cat(parts, " > "), 1)
    ui.count()
end

local function stats_tab(c, p, y0)
    color(DIM)
    ui.text(p.x + 10, y0, "GOOD      MIN     MAX     AVG    VALUE   TRADED", 1)
    for i = 1, #GOODS do
        local g = GOODS[i]
        local h = c.history[g.id]
        local lo, hi, sum = h[1], h[1], 0
        for k = 1, #h do lo = min(lo, h[k]); hi = max(hi, h[k]); sum = sum + h[k] end
        color(g.color)
        ui.text(p.x + 10, y0 + 14 + i * 13,
                f("%-8s %6.2f  %6.2f  %6.2f  %7s  %6d", g.name, lo, hi, sum / #h,
                  ui.commas(c.stock[g.id] * c.price[g.id]), c.traded[g.id] or 0), 1)
    end
    local y = y0 + 14 + 10 * 13
    color(WHITE)
    ui.text(p.x + 10, y, f("births %d   deaths %d   log entries %d", c.births, c.deaths, c.log_total), 1)
    local jobs, idle = 0, 0
    for i = 1, #c.people do if c.people[i].job then jobs = jobs + 1 else idle = idle + 1 end end
    ui.text(p.x + 10, y + 14, f("employed %d   idle %d   housing %d", jobs, idle, colony.housing(c)), 1)
    local moods = 0
    for i = 1, #c.people do moods = moods + c.people[i].mood end
    ui.text(p.x + 10, y + 28, "average mood " .. bar(#c.people > 0 and moods / #c.people / 100 or 0, 30), 1)
end

local function side(game, c)
    local p = hud.SIDE
    ui.panel(p.x, p.y, p.w, p.h, "PANELS  -  keys 1-4 or click a tab")
    for i = 1, #hud.TABS do
        ui.button("tab:" .. i, p.x + 6 + (i - 1) * 103, p.y + 20, 98, 20, f("%d %s", i, hud.TABS[i]),
                  nil, true, game.tab == i and { 90, 70, 30 } or nil)
        ui.count()
    end
    local y0 = p.y + 48
    if game.tab == 1 then build_tab(c, p, y0)
    elseif game.tab == 2 then roster_tab(game, c, p, y0)
    elseif game.tab == 3 then ledger_tab(c, p, y0)
    else stats_tab(c, p, y0) end
end

----------------------------------------------------------- log and stats --

local function event_log(c)
    local p = hud.LOG
    ui.panel(p.x, p.y, p.w, p.h, f("EVENT LOG  -  %d entries", c.log_total))
    local log = c.log
    local lines = 17
    for i = 1, lines do
        local e = log[#log - i + 1]
        if not e then break end
        local age = c.time - e.t
        local when = age < 60 and f("%2ds ago", floor(age)) or f("%2dm ago", floor(age / 60))
        color(e.color, max(90, 255 - i * 9))
        ui.text(p.x + 8, p.y + 22 + (i - 1) * 11, "[" .. e.stamp .. "] " .. e.text, 1)
        ui.count(2)
        color(DIM, max(90, 255 - i * 9))
        ui.right(p.x + p.w - 8, p.y + 22 + (i - 1) * 11, when, 1)
    end
end

local function stats_panel(game, c)
    local p = hud.STATS
    ui.panel(p.x, p.y, p.w, p.h, "STRINGS AND THE COLLECTOR")
    local x, y = p.x + 10, p.y + 24
    color(WHITE)
    ui.text(x, y, f("strings built last frame %6d  (counted)", game.strings_frame), 1)
    ui.text(x, y + 12, f("strings per second      %7s", ui.commas(game.strings_rate)), 1)
    ui.text(x, y + 24, f("colonists %d   buildings %d   floaters %d   log %d",
                         #c.people, #c.buildings, #c.floaters, #c.log), 1)
    ui.text(x, y + 36, f("buttons %d   tooltip %s", game.buttons, ui.tip and "yes" or "no"), 1)
    local kb = engine.gc.count()
    game.peak_kb = max(game.peak_kb, kb)
    color(GOLD)
    ui.text(x, y + 54, f("script heap %.2f MiB  (peak %.2f)", kb / 1024, game.peak_kb / 1024), 2)
    local low = engine.gc.low_latency()
    color(low and GREEN or DIM)
    ui.text(x, y + 78, "GC low-latency: " .. (low and "ON" or "OFF") .. "  [L]", 2)
    color(game.autopilot and GOLD or DIM)
    ui.text(x, y + 100, "autopilot: " .. (game.autopilot and "ON" or "OFF") .. "  [TAB]", 2)
    color(DIM)
    ui.text(x, y + 122, "backend " .. engine.backend() .. f("   colonies founded %d", game.colonies), 2)
    ui.count(4)
    color(DIM)
    ui.text(x, y + 146, f("goal: %d colonists  (%d%%)", colony.CHARTER_POP,
                          floor(#c.people / colony.CHARTER_POP * 100)), 1)
    ui.text(x, y + 158, bar(#c.people / colony.CHARTER_POP, 60), 1)
end

local function floaters(c)
    local fl = c.floaters
    for i = 1, #fl do
        local e = fl[i]
        local a = floor(255 * (1 - e.age / 1.6))
        color(e.color, a)
        ui.text(e.x - 12, e.y, f("%+d %s", e.value, e.unit), 1)
    end
end

local function cursor(game)
    local i = ui.input
    if not game.autopilot then return end
    engine.color(255, 240, 120)
    engine.line(i.x, i.y, i.x, i.y + 16)
    engine.line(i.x, i.y, i.x + 11, i.y + 11)
    engine.line(i.x, i.y + 16, i.x + 11, i.y + 11)
    if i.click then engine.circle(i.x, i.y, 10) end
end

local function banner(game, c)
    if not (c.lost or c.won) then return end
    engine.color(0, 0, 0, 190)
    engine.fill_rect(0, 250, W, 140)
    if c.won then color(GREEN) else color(RED) end
    ui.center(W / 2, 270, c.won and "CHARTER GRANTED" or "COLONY LOST", 6)
    color(WHITE)
    ui.center(W / 2, 340, f("a new colony will be founded in %.1f s  (or press R)", max(0, game.restart_t)), 2)
end

function hud.draw(game)
    local c = game.colony
    engine.clear(6, 8, 14)
    top_bar(game, c)
    resource_strip(c)
    ticker(c, c.time)
    market(c)
    map(c)
    side(game, c)
    event_log(c)
    stats_panel(game, c)
    floaters(c)
    color(DIM)
    ui.text(10, 696, "Mouse: BUY/SELL goods, BUILD, click a building to upgrade.  1-4 panels  up/down scroll  "
                    .. "L low-latency GC  TAB autopilot  R new colony  ESC quit", 1)
    banner(game, c)
    ui.draw_tip()
    cursor(game)
end

return hud
