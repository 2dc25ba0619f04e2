-- autopilot.lua — plays the colony with a simple strategy, through the UI:
-- it picks a button from the ones the last frame drew (ui.buttons), glides
-- a virtual cursor to it (hovering, so tooltips show up on the way) and
-- clicks it, exactly as a player would.
--
-- Strategy, first match wins: keep housing ahead of the population, keep
-- food positive, put idle colonists to work in the most profitable
-- building it can afford, sell surpluses when prices are fair, buy wood
-- when short, upgrade when rich; otherwise browse the panels.

local engine = require("engine")
local colony = require("colony")
local ui = require("ui")

local autopilot = {}

local sqrt, floor, min, max = math.sqrt, math.floor, math.min, math.max
local random = engine.random

function autopilot.new()
    return { x = 640, y = 360, target = nil, wait = 0.5, click = false, plan = nil }
end

local function idle_workers(c)
    local n = 0
    for i = 1, #c.people do if not c.people[i].job then n = n + 1 end end
    return n
end

local function profit(c, k)
    if not k.makes then return -1 end
    local v = c.price[k.makes[1]] * k.makes[2]
    if k.uses then
        for j = 1, #k.uses, 2 do v = v - c.price[k.uses[j]] * k.uses[j + 1] end
    end
    return v / k.workers
end

-- The button of the lowest-level building of [kind] it can afford to upgrade.
local function cheapest_upgrade(c, kind)
    local best
    for i = 1, #c.buildings do
        local b = c.buildings[i]
        if b.kind.id == kind and b.level < 5 and c.credits >= colony.upgrade_cost(b)
            and (not best or b.level < best.level) then best = b end
    end
    return best and ("up:" .. best.plot)
end

-- What to do next: a button id, and the tab it lives on (or nil).
local function decide(c, game)
    local pop = #c.people
    local house = colony.housing(c)
    local last = c.ledger[#c.ledger]
    local food_net = last and ((last.made.food or 0) - (last.used.food or 0)) or 0
    if house - pop < pop * 0.25 + 10 then
        if colony.can_build(c, "habitat") then return "build:habitat", 1 end
        local up = cheapest_upgrade(c, "habitat")
        if up then return up end
    end
    if (food_net < pop * 0.02 or c.stock.food < pop) then
        if colony.can_build(c, "farm") then return "build:farm", 1 end
        local up = cheapest_upgrade(c, "farm")
        if up then return up end
        if c.credits > c.price.food * 10 + 50 then return "buy:food" end
    end
    if c.stock.wood < 25 and c.credits > 300 then return "buy:wood" end
    if idle_workers(c) > 5 then
        local best, best_v = nil, -1e9
        for i = 1, #colony.KINDS do
            local k = colony.KINDS[i]
            if k.makes and colony.can_build(c, k.id) then
                local v = profit(c, k) + random() * 3
                if v > best_v then best, best_v = k, v end
            end
        end
        if best then return "build:" .. best.id, 1 end
    end
    for i = 1, #colony.GOODS do
        local g = colony.GOODS[i]
        local keep = g.id == "food" and pop * 4 or (g.id == "wood" and 40 or 20)
        if c.stock[g.id] > keep + 10 and c.price[g.id] > g.base * 0.9 then
            return "sell:" .. g.id
        end
    end
    if c.credits > 1500 and #c.buildings > 0 then
        local b = c.buildings[random(#c.buildings)]
        if b.level < 5 then return "up:" .. b.plot end
    end
    -- browse: look at another panel, sort the roster, hover a price
    local r = random(4)
    if r == 1 then return "tab:" .. random(4) end
    if r == 2 and game.tab == 2 then return "sort:" .. random(4), 2 end
    local g = colony.GOODS[random(#colony.GOODS)]
    return (random(2) == 1 and "buy:" or "sell:") .. g.id, nil, true
end

-- Returns the virtual mouse for this frame: {x, y, click}.
function autopilot.input(p, c, game, dt)
    p.click = false
    if p.wait > 0 then
        p.wait = p.wait - dt
        return { x = p.x, y = p.y, click = false }
    end
    if not p.target then
        local id, tab, hover_only = decide(c, game)
        if tab and game.tab ~= tab then
            p.target, p.after = "tab:" .. tab, id
        else
            p.target = id
        end
        p.hover_only = hover_only
    end
    local b = ui.buttons[p.target]
    if not b or not b.enabled then
        -- gone or greyed out since the decision: think again shortly
        p.target, p.after = nil, nil
        p.wait = 0.2
        return { x = p.x, y = p.y, click = false }
    end
    local tx, ty = b.x + b.w / 2, b.y + b.h / 2
    local dx, dy = tx - p.x, ty - p.y
    local d = sqrt(dx * dx + dy * dy)
    local step = max(6, d * 0.18)
    if d <= step then
        p.x, p.y = tx, ty
        if not p.hover_only then p.click = true end
        p.target, p.after = p.after, nil
        p.hover_only = false
        p.wait = p.target and 0.1 or (0.25 + random() * 0.5)
    else
        p.x, p.y = p.x + dx / d * step, p.y + dy / d * step
    end
    return { x = floor(p.x), y = floor(p.y), click = p.click }
end

return autopilot
