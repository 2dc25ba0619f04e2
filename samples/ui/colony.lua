-- colony.lua — the simulation under the HUD: goods and their market, the
-- buildings on the colony's plots, the colonists who work them, and random
-- events. It knows nothing about drawing; ui.lua and hud.lua read it.
--
-- Log lines and floating numbers are made here as events happen (one
-- string each, when they happen); everything the HUD shows is re-made from
-- these numbers every frame by hud.lua.

local engine = require("engine")

local colony = {}

local floor, min, max, abs = math.floor, math.min, math.max, math.abs
local format = string.format
local random = engine.random

colony.DAY = 1.5          -- seconds of game time per colony day
colony.HISTORY = 48       -- price samples kept per good
colony.COLS, colony.ROWS = 8, 6
colony.MAX_POP = 1500
colony.CHARTER_POP = 1000 -- population that wins the charter (and a new colony)

-- The goods, in display order. base = the price the market drifts back to.
colony.GOODS = {
    { id = "food",     name = "Food",     base = 4,  color = { 140, 220, 90 } },
    { id = "wood",     name = "Wood",     base = 6,  color = { 190, 140, 80 } },
    { id = "ore",      name = "Ore",      base = 9,  color = { 160, 160, 180 } },
    { id = "fuel",     name = "Fuel",     base = 12, color = { 255, 170, 60 } },
    { id = "metal",    name = "Metal",    base = 25, color = { 120, 200, 255 } },
    { id = "cloth",    name = "Cloth",    base = 18, color = { 230, 130, 220 } },
    { id = "tools",    name = "Tools",    base = 45, color = { 255, 225, 90 } },
    { id = "medicine", name = "Medicine", base = 60, color = { 255, 90, 90 } },
}
local GOODS = colony.GOODS
local GOOD_BY_ID = {}
for i = 1, #GOODS do GOOD_BY_ID[GOODS[i].id] = GOODS[i]; GOODS[i].index = i end
colony.GOOD_BY_ID = GOOD_BY_ID

-- The building types. cost = credits, mat = {good, amount} also needed;
-- makes/uses are per day per level at full staff.
colony.KINDS = {
    { id = "farm",     name = "Farm",        tag = "FRM", cost = 120, mat = { "wood", 10 },
      workers = 4, makes = { "food", 22 }, color = { 90, 170, 70 } },
    { id = "lumber",   name = "Lumber camp", tag = "LUM", cost = 100, mat = nil,
      workers = 3, makes = { "wood", 9 }, color = { 150, 105, 60 } },
    { id = "mine",     name = "Mine",        tag = "MIN", cost = 160, mat = { "wood", 10 },
      workers = 5, makes = { "ore", 9 }, color = { 120, 120, 140 } },
    { id = "well",     name = "Fuel well",   tag = "WEL", cost = 150, mat = { "wood", 12 },
      workers = 2, makes = { "fuel", 6 }, color = { 200, 130, 40 } },
    { id = "smelter",  name = "Smelter",     tag = "SML", cost = 220, mat = { "wood", 20 },
      workers = 4, makes = { "metal", 5 }, uses = { "ore", 6, "fuel", 2 }, color = { 80, 150, 210 } },
    { id = "weaver",   name = "Weaver",      tag = "WVR", cost = 180, mat = { "wood", 15 },
      workers = 3, makes = { "cloth", 4 }, uses = { "food", 4 }, color = { 190, 100, 180 } },
    { id = "workshop", name = "Workshop",    tag = "WRK", cost = 260, mat = { "metal", 10 },
      workers = 4, makes = { "tools", 4 }, uses = { "metal", 3, "wood", 3 }, color = { 210, 190, 70 } },
    { id = "clinic",   name = "Clinic",      tag = "CLN", cost = 300, mat = { "tools", 6 },
      workers = 3, makes = { "medicine", 3 }, uses = { "cloth", 1 }, color = { 220, 80, 80 } },
    { id = "habitat",  name = "Habitat",     tag = "HAB", cost = 140, mat = { "wood", 20 },
      workers = 0, housing = 40, color = { 110, 130, 200 } },
}
local KINDS = colony.KINDS
local KIND_BY_ID = {}
for i = 1, #KINDS do KIND_BY_ID[KINDS[i].id] = KINDS[i] end
colony.KIND_BY_ID = KIND_BY_ID

local SYLLABLES = { "ka", "ri", "to", "ne", "sa", "mo", "lu", "vi", "da", "pe", "zo", "an",
                    "el", "or", "is", "ha", "bo", "ty", "qu", "mi" }
local JOBLESS = "idle"

-- Builds a colonist's name once, at birth (two or three syllables).
local function make_name()
    local n = random(2, 3)
    local s = SYLLABLES[random(#SYLLABLES)]
    s = s:sub(1, 1):upper() .. s:sub(2)
    for _ = 2, n do s = s .. SYLLABLES[random(#SYLLABLES)] end
    return s
end

function colony.plot_center(c, plot)
    local col = (plot - 1) % colony.COLS
    local row = floor((plot - 1) / colony.COLS)
    return c.map_x + col * c.plot_w + c.plot_w / 2, c.map_y + row * c.plot_h + c.plot_h / 2
end

local function add_colonist(c)
    local home = c.buildings[1]
    local hx, hy = colony.plot_center(c, home and home.plot or 1)
    local p = {
        name = make_name(),
        age = random(16, 60),
        mood = random(55, 90),
        job = nil,            -- the building they work at, or nil
        x = hx + random(-10, 10), y = hy + random(-10, 10),
        tx = hx, ty = hy,
        speed = 20 + random(0, 20),
        label = "",           -- rebuilt every frame by hud.lua
    }
    c.people[#c.people + 1] = p
    c.births = c.births + 1
    return p
end

function colony.log(c, text, color)
    local day = floor(c.day)
    local hour = floor((c.day - day) * 24)
    local e = { stamp = format("D%03d %02d:00", day, hour), text = text,
                color = color or { 200, 210, 230 }, t = c.time }
    local log = c.log
    log[#log + 1] = e
    if #log > 200 then table.remove(log, 1) end
    c.log_total = c.log_total + 1
end

-- A number floating up from (x, y): hud.lua re-formats its text every frame.
function colony.floater(c, x, y, value, unit, color)
    local f = c.floaters
    f[#f + 1] = { x = x, y = y, value = value, unit = unit, color = color, age = 0 }
end

function colony.new(map_x, map_y, map_w, map_h)
    local c = {
        time = 0, day = 1, next_day = colony.DAY,
        credits = 2000,
        stock = {}, price = {}, history = {}, traded = {},
        ledger = {},          -- per day: {day, made[], used[], bought[], sold[]}
        buildings = {},       -- in building order; each has .plot
        plots = {},           -- plot index -> building or nil
        people = {},
        log = {}, log_total = 0,
        floaters = {},
        births = 0, deaths = 0,
        event_t = 4,
        tick_t = 0,
        map_x = map_x, map_y = map_y,
        plot_w = map_w / colony.COLS, plot_h = map_h / colony.ROWS,
        lost = false, won = false,
        name = "",
    }
    c.name = "New " .. make_name():sub(1, 1):upper() .. make_name():sub(2)
    for i = 1, #GOODS do
        local g = GOODS[i]
        c.stock[g.id] = 0
        c.price[g.id] = g.base
        local h = {}
        for k = 1, colony.HISTORY do h[k] = g.base end
        c.history[g.id] = h
    end
    c.stock.food, c.stock.wood, c.stock.ore = 120, 60, 10
    colony.place(c, "habitat", true)
    colony.place(c, "habitat", true)
    colony.place(c, "farm", true)
    colony.place(c, "farm", true)
    colony.place(c, "lumber", true)
    for _ = 1, 60 do add_colonist(c) end
    colony.log(c, "Colony " .. c.name .. " founded with " .. #c.people .. " settlers.", { 120, 255, 160 })
    return c
end

------------------------------------------------------------------ actions --

function colony.build_cost(c, kind)
    local k = KIND_BY_ID[kind]
    local n = 0
    for i = 1, #c.buildings do if c.buildings[i].kind == k then n = n + 1 end end
    return floor(k.cost * (1 + 0.15 * n)), k.mat and k.mat[1], k.mat and k.mat[2]
end

function colony.can_build(c, kind)
    if #c.buildings >= colony.COLS * colony.ROWS then return false, "no free plot" end
    local cost, mat, amount = colony.build_cost(c, kind)
    if c.credits < cost then return false, "not enough credits" end
    if mat and c.stock[mat] < amount then return false, "not enough " .. mat end
    return true
end

-- Puts a building on the first free plot ([free] skips the cost).
function colony.place(c, kind, free)
    if not free then
        local ok, why = colony.can_build(c, kind)
        if not ok then return false, why end
        local cost, mat, amount = colony.build_cost(c, kind)
        c.credits = c.credits - cost
        if mat then c.stock[mat] = c.stock[mat] - amount end
    end
    local plot = 1
    while c.plots[plot] do plot = plot + 1 end
    local b = { kind = KIND_BY_ID[kind], plot = plot, level = 1, staff = 0,
                progress = 0, output = 0, damaged = 0 }
    c.buildings[#c.buildings + 1] = b
    c.plots[plot] = b
    if not free then
        local x, y = colony.plot_center(c, plot)
        colony.floater(c, x, y, -colony.build_cost(c, kind), "cr", { 255, 120, 100 })
        colony.log(c, format("Built %s on plot %d.", b.kind.name, plot), { 150, 200, 255 })
    end
    return true
end

function colony.upgrade_cost(b)
    return floor(b.kind.cost * 0.8 * b.level)
end

function colony.upgrade(c, b)
    local cost = colony.upgrade_cost(b)
    if b.level >= 5 then return false, "already level 5" end
    if c.credits < cost then return false, "not enough credits" end
    c.credits = c.credits - cost
    b.level = b.level + 1
    b.damaged = 0
    local x, y = colony.plot_center(c, b.plot)
    colony.floater(c, x, y, -cost, "cr", { 255, 120, 100 })
    colony.log(c, format("%s on plot %d upgraded to level %d.", b.kind.name, b.plot, b.level),
               { 150, 200, 255 })
    return true
end

-- Buying and selling move the price: 1.5% per lot of 10.
function colony.trade(c, good, qty, x, y)
    local p = c.price[good]
    if qty > 0 then
        local cost = floor(p * qty + 0.5)
        if c.credits < cost then return false, "not enough credits" end
        c.credits = c.credits - cost
        c.stock[good] = c.stock[good] + qty
        c.price[good] = p * (1 + 0.0015 * qty)
        colony.floater(c, x, y, -cost, "cr", { 255, 120, 100 })
    else
        local n = min(-qty, c.stock[good])
        if n <= 0 then return false, "nothing to sell" end
        local gain = floor(p * n * 0.95 + 0.5)
        c.credits = c.credits + gain
        c.stock[good] = c.stock[good] - n
        c.price[good] = max(GOOD_BY_ID[good].base * 0.3, p * (1 - 0.0015 * n))
        colony.floater(c, x, y, gain, "cr", { 120, 255, 140 })
    end
    c.traded[good] = (c.traded[good] or 0) + qty
    return true
end

--------------------------------------------------------------- simulation --

local function housing(c)
    local h = 0
    for i = 1, #c.buildings do
        local b = c.buildings[i]
        if b.kind.housing then h = h + b.kind.housing * b.level end
    end
    return h
end
colony.housing = housing

-- Fills the jobs in building order; whoever is left is idle.
local function assign_jobs(c)
    local people, pi = c.people, 1
    for i = 1, #c.buildings do
        local b = c.buildings[i]
        local want = b.kind.workers * b.level
        b.staff = 0
        while b.staff < want and pi <= #people do
            people[pi].job = b
            b.staff = b.staff + 1
            pi = pi + 1
        end
    end
    for i = pi, #people do people[i].job = nil end
end

local function produce(c, entry)
    for i = 1, #c.buildings do
        local b = c.buildings[i]
        local k = b.kind
        if k.makes then
            local full = k.workers * b.level
            local rate = (full > 0 and b.staff / full or 0) * b.level * (1 - b.damaged)
            local uses = k.uses
            if uses then
                -- the inputs limit the output
                for u = 1, #uses, 2 do
                    local need = uses[u + 1] * rate
                    if need > 0 then rate = rate * min(1, c.stock[uses[u]] / need) end
                end
                for u = 1, #uses, 2 do
                    local used = uses[u + 1] * rate
                    c.stock[uses[u]] = c.stock[uses[u]] - used
                    entry.used[uses[u]] = (entry.used[uses[u]] or 0) + used
                end
            end
            local out = k.makes[2] * rate
            b.output = out
            c.stock[k.makes[1]] = c.stock[k.makes[1]] + out
            entry.made[k.makes[1]] = (entry.made[k.makes[1]] or 0) + out
            if out >= 1 then
                local x, y = colony.plot_center(c, b.plot)
                colony.floater(c, x, y - 8, floor(out), k.makes[1], GOOD_BY_ID[k.makes[1]].color)
            end
            if b.damaged > 0 then b.damaged = max(0, b.damaged - 0.05) end
        end
    end
end

local function consume_and_grow(c, entry)
    local pop = #c.people
    local food_need = pop * 0.15
    local ate = min(c.stock.food, food_need)
    c.stock.food = c.stock.food - ate
    entry.used.food = (entry.used.food or 0) + ate
    local comfort = 0
    for _, g in ipairs({ "cloth", "medicine", "fuel" }) do
        local need = pop * 0.02
        local got = min(c.stock[g], need)
        c.stock[g] = c.stock[g] - got
        entry.used[g] = (entry.used[g] or 0) + got
        if need > 0 then comfort = comfort + got / need end
    end
    local fed = food_need > 0 and ate / food_need or 1
    local mood_delta = floor((fed - 0.8) * 20 + (comfort - 1) * 3)
    for i = 1, pop do
        local p = c.people[i]
        p.mood = max(0, min(100, p.mood + mood_delta + random(-2, 2)))
    end
    -- taxes
    c.credits = c.credits + pop
    -- births when fed and housed, deaths when starving
    local room = min(housing(c), colony.MAX_POP) - pop
    if fed >= 0.999 and room > 0 then
        local born = min(room, 2 + floor(pop * 0.07))
        for _ = 1, born do add_colonist(c) end
        if born >= 5 then colony.log(c, format("%d colonists were born.", born), { 170, 255, 170 }) end
    elseif fed < 0.7 then
        local died = max(1, floor(pop * (0.7 - fed) * 0.1))
        for _ = 1, min(died, #c.people) do
            table.remove(c.people, random(#c.people))
            c.deaths = c.deaths + 1
        end
        colony.log(c, format("Famine! %d colonists starved.", died), { 255, 90, 90 })
    end
end

-- The market drifts: a random walk pulled back towards the base price.
local function market_tick(c)
    for i = 1, #GOODS do
        local g = GOODS[i]
        local p = c.price[g.id]
        p = p * (1 + (engine.random() - 0.5) * 0.04) + (g.base - p) * 0.02
        p = max(g.base * 0.3, min(g.base * 3, p))
        c.price[g.id] = p
        local h = c.history[g.id]
        table.remove(h, 1)
        h[#h + 1] = p
    end
end

local EVENTS = {
    function(c)
        local g = GOODS[random(#GOODS)]
        c.price[g.id] = c.price[g.id] * 0.7
        colony.log(c, "A trade caravan floods the market with " .. g.name:lower() .. ": price -30%.",
                   { 255, 225, 120 })
    end,
    function(c)
        local g = GOODS[random(#GOODS)]
        c.price[g.id] = c.price[g.id] * 1.4
        colony.log(c, g.name .. " shortage across the sector: price +40%.", { 255, 170, 80 })
    end,
    function(c)
        local b = c.buildings[random(#c.buildings)]
        b.damaged = 0.5
        colony.log(c, format("A storm damaged the %s on plot %d.", b.kind.name:lower(), b.plot),
                   { 255, 120, 120 })
    end,
    function(c)
        local loss = floor(c.credits * 0.1)
        c.credits = c.credits - loss
        colony.log(c, format("Pirates raided the depot and took %d credits.", loss), { 255, 90, 90 })
        colony.floater(c, 640, 40, -loss, "cr", { 255, 90, 90 })
    end,
    function(c)
        local n = random(4, 12)
        local room = housing(c) - #c.people
        n = max(0, min(n, room))
        for _ = 1, n do add_colonist(c) end
        colony.log(c, format("%d refugees arrived and were given shelter.", n), { 170, 255, 170 })
    end,
    function(c)
        local g = GOODS[random(4)]
        local n = random(20, 60)
        c.stock[g.id] = c.stock[g.id] + n
        colony.log(c, format("Scouts found a cache of %d %s.", n, g.name:lower()), { 170, 220, 255 })
    end,
}

function colony.update(c, dt)
    if c.lost or c.won then return end
    c.time = c.time + dt
    c.day = 1 + c.time / colony.DAY
    c.tick_t = c.tick_t + dt
    if c.tick_t >= 0.25 then
        c.tick_t = c.tick_t - 0.25
        market_tick(c)
    end
    if c.time >= c.next_day then
        c.next_day = c.next_day + colony.DAY
        local entry = { day = floor(c.day) - 1, made = {}, used = {}, credits = c.credits }
        assign_jobs(c)
        produce(c, entry)
        consume_and_grow(c, entry)
        local l = c.ledger
        l[#l + 1] = entry
        if #l > 12 then table.remove(l, 1) end
        if #c.people == 0 then
            c.lost = true
            colony.log(c, "The last colonist has left. The colony is lost.", { 255, 80, 80 })
        elseif #c.people >= colony.CHARTER_POP then
            c.won = true
            colony.log(c, "Population 1000: the colony charter is granted!", { 120, 255, 160 })
        end
    end
    c.event_t = c.event_t - dt
    if c.event_t <= 0 then
        c.event_t = 2 + engine.random() * 4
        EVENTS[random(#EVENTS)](c)
    end
    -- colonists walk between home and work
    local people = c.people
    for i = 1, #people do
        local p = people[i]
        local dx, dy = p.tx - p.x, p.ty - p.y
        local d = abs(dx) + abs(dy)
        if d < 2 then
            local target = p.job
            if not target or random(3) == 1 then target = c.buildings[random(#c.buildings)] end
            local x, y = colony.plot_center(c, target.plot)
            p.tx = x + random(-18, 18)
            p.ty = y + random(-18, 18)
        else
            local step = p.speed * dt / d
            p.x = p.x + dx * min(1, step)
            p.y = p.y + dy * min(1, step)
        end
    end
    -- floaters rise and fade
    local f, n = c.floaters, 0
    for i = 1, #f do
        local e = f[i]
        e.age = e.age + dt
        e.y = e.y - 22 * dt
        if e.age < 1.6 then n = n + 1; f[n] = e end
    end
    for i = #f, n + 1, -1 do f[i] = nil end
end

function colony.net_worth(c)
    local w = c.credits
    for i = 1, #GOODS do
        local g = GOODS[i]
        w = w + c.stock[g.id] * c.price[g.id]
    end
    return w
end

return colony
