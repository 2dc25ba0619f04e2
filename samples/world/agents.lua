-- agents.lua — a few thousand active entities that retarget EVERY frame.
--
-- Each frame every agent:
--   * takes a fresh path-step table ({dx, dy}) and stores it in its own
--     (old) agent state;
--   * picks a new target — usually an entity in its grid cell, sometimes
--     any entity in the world — and stores a fresh message table in the
--     target's `msg` field;
--   * remembers the target and the order in its agent state;
--   * now and then hands the target a fresh item table, appended to (or
--     replacing a slot of) the target's old inventory array.
-- That is old objects pointing at new ones, thousands of times a frame:
-- the stores a generational collector must remember (its remembered set /
-- card table) so that a minor collection does not free the new tables.
-- None of it is pooled or reused on purpose.
--
-- Besides, a trickle of births and deaths (entities.spawn/kill) changes
-- the old generation slowly.

local engine = require("engine")
local entities = require("entities")
local terrain = require("terrain")

local agents = {}

local floor, sqrt, random = math.floor, math.sqrt, engine.random

agents.COUNT = 2000          -- active agents
agents.BIRTHS = 25           -- entities born per frame
agents.DEATHS = 25           -- entities killed per frame
agents.SPEED = 6             -- tiles per second (base)
agents.GIFT_CHANCE = 8       -- 1 in N retargets also hands over an item
local WANDER = 48            -- tiles: how far a new goal may be

local ORDERS = { "greet", "trade", "follow", "guard", "scout", "deliver", "warn" }
agents.ORDERS = ORDERS

local function new_goal(map, x, y)
    for _ = 1, 8 do
        local gx = x + (random() * 2 - 1) * WANDER
        local gy = y + (random() * 2 - 1) * WANDER
        if terrain.walkable(map, gx, gy) then return { gx, gy } end
    end
    return { x, y }
end

-- Turns `count` existing entities (spread through the list) into agents.
function agents.pick(w, map, count)
    local list = w.list
    local out = {}
    local stride = #list / count
    for i = 1, count do
        local e = list[floor((i - 1) * stride) + 1]
        e.agent = {
            goal = new_goal(map, e.pos[1], e.pos[2]),
            speed = agents.SPEED * (0.6 + random() * 0.8),
            step = nil, target = nil, order = 0, retargets = 0,
        }
        out[i] = e
        w.objects = w.objects + 2
        w.created = w.created + 2
    end
    w.objects = w.objects + 1
    return out
end

local function pick_target(w, e)
    local cell = w.grid[e.cell]
    local n = #cell
    if n > 1 and random(4) > 1 then
        local t = cell[random(n)]
        if t ~= e then return t end
    end
    local list = w.list
    return list[random(#list)]
end

local function give_item(w, target)
    local items = target.inv.items
    local item = { entities.ITEMS[random(#entities.ITEMS)], 1 }   -- fresh, into an old array
    local n = #items
    if n < 6 then
        items[n + 1] = item
        w.objects = w.objects + 1
    else
        items[random(n)] = item
    end
    w.created = w.created + 1
end

-- Moves and retargets every agent; returns the number of retargets.
function agents.update(w, map, list, dt)
    local frame = engine.frame()
    local made, new_msgs = 0, 0
    for i = 1, #list do
        local e = list[i]
        local a = e.agent
        local pos = e.pos
        local x, y = pos[1], pos[2]
        local gx, gy = a.goal[1] - x, a.goal[2] - y
        local d = sqrt(gx * gx + gy * gy)
        if d < 0.5 then
            a.goal = new_goal(map, x, y)
            made = made + 1
        else
            local s = a.speed * dt / d
            if s > 1 then s = 1 end
            local step = { gx * s, gy * s }          -- fresh path step into the old agent
            a.step = step
            local nx, ny = x + step[1], y + step[2]
            if terrain.walkable(map, nx, ny) then
                pos[1], pos[2] = nx, ny
                e.vel[1], e.vel[2] = step[1] / dt, step[2] / dt
                entities.regrid(w, e)
            else
                a.goal = new_goal(map, x, y)
                made = made + 1
            end
            made = made + 1
        end

        local target = pick_target(w, e)
        local kind = random(#ORDERS)
        if not target.msg then new_msgs = new_msgs + 1 end
        target.msg = { from = e, kind = kind, frame = frame }   -- fresh table into an old entity
        a.target, a.order = target, kind
        a.retargets = a.retargets + 1
        made = made + 1
        if random(agents.GIFT_CHANCE) == 1 then give_item(w, target) end
    end
    w.objects = w.objects + new_msgs
    w.created = w.created + made
    return #list
end

-- The slow churn of the old generation: DEATHS random non-agent entities
-- die, BIRTHS new ones appear on random land.
function agents.churn(w, map)
    local list = w.list
    local killed, tries = 0, 0
    while killed < agents.DEATHS and tries < agents.DEATHS * 4 do
        local e = list[random(#list)]
        if not e.agent then
            entities.kill(w, e)
            killed = killed + 1
        end
        tries = tries + 1
    end
    for _ = 1, agents.BIRTHS do
        local x, y = entities.random_land(w, map)
        entities.spawn(w, x, y)
    end
end

return agents
