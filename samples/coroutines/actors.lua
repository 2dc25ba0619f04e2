-- actors.lua — the villagers and their scripts. Each villager's life is
-- one coroutine running actors.life: straight-line code that walks, waits,
-- looks around, chats with a neighbour and flees, yielding to the
-- scheduler (sched.lua) whenever it needs time to pass. Looking around
-- uses a second, short-lived coroutine (a coroutine.wrap generator of the
-- directions to look in); conversations are message tables dropped into
-- the neighbour's inbox.
--
-- Villagers are born (spawned by the director, in waves, or by two of them
-- chatting) and die (old age ends the script; a threat kills them mid-
-- script, leaving a suspended coroutine for the collector). Nothing is
-- pooled: a new actor table, coroutine and inbox per birth, a new message
-- table per line said, on purpose.

local engine = require("engine")
local sched = require("sched")

local actors = {}

local yield, wrap = coroutine.yield, coroutine.wrap
local sqrt, floor, min, max, cos, sin, pi = math.sqrt, math.floor, math.min, math.max,
                                           math.cos, math.sin, math.pi
local random = engine.random

actors.STATES = { "walk", "wait", "look", "talk", "listen", "flee", "panic" }
actors.COLORS = {
    walk = { 110, 170, 255 }, wait = { 120, 130, 150 }, look = { 90, 230, 200 },
    talk = { 255, 220, 90 }, listen = { 230, 150, 255 }, flee = { 255, 80, 60 },
    panic = { 255, 150, 40 },
}
actors.CELL = 40
actors.MAX = 7500          -- births stop here, to keep a frame inside budget
actors.TOPICS = { "weather", "harvest", "prices", "rumours", "the mayor", "a wedding" }

local world          -- set by actors.new_world; the scripts read it

---------------------------------------------------------------- the world --

function actors.new_world(x, y, w, h)
    world = {
        x = x, y = y, w = w, h = h,
        list = {},           -- live actors, in birth order
        threats = {},
        sched = sched.new(),
        cols = floor(w / actors.CELL) + 1, rows = floor(h / actors.CELL) + 1,
        cells = {}, counts = {},
        villages = {},
        next_id = 0,
        -- totals since the start
        born = 0, died_old = 0, killed = 0, messages = 0, generators = 0, live_generators = 0,
    }
    for i = 1, world.cols * world.rows do world.cells[i] = {}; world.counts[i] = 0 end
    for i = 1, 7 do
        world.villages[i] = { x = x + 80 + random() * (w - 160), y = y + 80 + random() * (h - 160) }
    end
    return world
end

function actors.world() return world end

local function clamp_x(v) return max(world.x + 2, min(world.x + world.w - 2, v)) end
local function clamp_y(v) return max(world.y + 2, min(world.y + world.h - 2, v)) end

-- Which actors are in which 40-px cell; rebuilt every frame, before the
-- scheduler runs. (The cell arrays are the world's spatial index and are
-- reused; stale entries past counts[k] are ignored.)
function actors.rebuild_grid()
    local cells, counts, cols = world.cells, world.counts, world.cols
    local inv, ox, oy = 1 / actors.CELL, world.x, world.y
    for k = 1, #counts do counts[k] = 0 end
    local list = world.list
    for i = 1, #list do
        local a = list[i]
        -- positions are clamped inside the world, so the cell is in range
        local k = floor((a.y - oy) * inv) * cols + floor((a.x - ox) * inv) + 1
        local n = counts[k] + 1
        counts[k] = n
        cells[k][n] = a
    end
end

-- Calls fn(a) for the actors whose cell is within [r] of (x, y).
function actors.near(x, y, r, fn)
    local cs, cols, rows = actors.CELL, world.cols, world.rows
    local x0 = max(0, floor((x - r - world.x) / cs))
    local x1 = min(cols - 1, floor((x + r - world.x) / cs))
    local y0 = max(0, floor((y - r - world.y) / cs))
    local y1 = min(rows - 1, floor((y + r - world.y) / cs))
    for cy = y0, y1 do
        for cx = x0, x1 do
            local k = cy * cols + cx + 1
            local cell = world.cells[k]
            for i = 1, world.counts[k] do
                if fn(cell[i]) then return end
            end
        end
    end
end

----------------------------------------------------------- script pieces --

local function now() return world.sched.frame end

local function send(to, from, topic, hops)
    local inbox = to.inbox
    inbox[#inbox + 1] = { from = from, topic = topic, x = from.x, y = from.y,
                          hops = hops or 0, frame = now() }
    world.messages = world.messages + 1
    sched.wake(world.sched, to)
end

-- Sleeps for [seconds]; false if woken early by an alarm or a message.
local function wait(a, seconds, state)
    a.state = state or "wait"
    yield(max(1, floor(seconds * 60)))
    return not a.alarm and a.inbox[1] == nil
end

-- Walks to (x, y) a step per frame; false if interrupted.
local function walk_to(a, x, y, speed, state)
    a.state = state or "walk"
    x, y = clamp_x(x), clamp_y(y)
    local step = speed / 60
    while true do
        local dx, dy = x - a.x, y - a.y
        local d = sqrt(dx * dx + dy * dy)
        if d <= step then
            a.x, a.y = x, y
            return true
        end
        a.x, a.y = a.x + dx / d * step, a.y + dy / d * step
        yield(1)
        if state ~= "flee" and (a.alarm or a.inbox[1]) then return false end
    end
end

-- Looks in four directions, pausing on each. The directions come from a
-- generator: a coroutine.wrap made for this one look-around (left to the
-- collector, unfinished, if the look-around is interrupted).
local function look_around(a)
    a.state = "look"
    world.generators = world.generators + 1
    world.sched.created = world.sched.created + 1
    world.live_generators = world.live_generators + 1
    local start = random() * 2 * pi
    local directions = wrap(function()
        for i = 0, 3 do yield(start + i * pi / 2 + (random() - 0.5)) end
    end)
    for angle in directions do
        a.heading = angle
        if not wait(a, 0.25 + random() * 0.3, "look") then break end
    end
    world.live_generators = world.live_generators - 1
end

-- Finds someone calm nearby to talk to.
local function neighbour(a)
    local found
    actors.near(a.x, a.y, 30, function(b)
        if b ~= a and not b.dead and not b.alarm and b.state ~= "talk" and b.state ~= "listen"
            and b.state ~= "flee" then
            local dx, dy = b.x - a.x, b.y - a.y
            if dx * dx + dy * dy < 900 then found = b; return true end
        end
    end)
    return found
end

local spawn   -- forward: actors.spawn

local function talk(a)
    local b = neighbour(a)
    if not b then return wait(a, 0.3) end
    a.partner = b
    send(b, a, actors.TOPICS[random(#actors.TOPICS)])
    local ok = wait(a, 0.6 + random() * 1.2, "talk")
    a.partner = nil
    -- a good chat now and then ends in a new villager
    if ok and random(40) == 1 and #world.list < actors.MAX then
        spawn((a.x + b.x) / 2, (a.y + b.y) / 2)
    end
    return ok
end

-- Answers the messages in the inbox, one at a time.
local function listen(a)
    while a.inbox[1] do
        local m = table.remove(a.inbox, 1)
        if m.topic == "danger" then
            -- pass the alarm on, a couple of hops at most
            a.alarm = true
            a.fear_x, a.fear_y = m.x, m.y
            a.hops = m.hops + 1
            return
        end
        a.partner = m.from
        a.state = "listen"
        yield(floor(20 + random() * 40))
        if not m.from.dead and random(3) == 1 then send(m.from, a, "reply") end
        a.partner = nil
    end
end

local function flee(a)
    local dx, dy = a.x - a.fear_x, a.y - a.fear_y
    local d = sqrt(dx * dx + dy * dy)
    if d < 1 then dx, dy, d = random() - 0.5, random() - 0.5, 1 end
    local run = 90 + random() * 80
    walk_to(a, a.x + dx / d * run, a.y + dy / d * run, 110 + random() * 40, "flee")
    a.alarm = false
    -- warn whoever is near, then stand there shaking for a moment
    if (a.hops or 0) < 2 then
        local b = neighbour(a)
        if b then send(b, a, "danger", a.hops or 0) end
    end
    a.hops = 0
    a.inbox = {}
    wait(a, 0.5 + random() * 0.8, "panic")
end

-------------------------------------------------------------- the script --

-- One villager's whole life, as straight-line code.
function actors.life(a)
    local home = a.home
    while now() < a.dies do
        if a.alarm then
            flee(a)
        elseif a.inbox[1] then
            listen(a)
        else
            local r = random()
            if r < 0.45 then
                -- wander, drifting back home now and then
                local tx, ty
                if random(4) == 1 then
                    tx, ty = home.x + (random() - 0.5) * 120, home.y + (random() - 0.5) * 120
                else
                    tx, ty = a.x + (random() - 0.5) * 160, a.y + (random() - 0.5) * 160
                end
                walk_to(a, tx, ty, 25 + random() * 30)
            elseif r < 0.65 then
                wait(a, 0.5 + random() * 2.5)
            elseif r < 0.8 then
                look_around(a)
            else
                talk(a)
            end
        end
    end
    world.died_old = world.died_old + 1
end

-- A new villager at (x, y) with a fresh coroutine.
function actors.spawn(x, y, home)
    local s = world.sched
    world.next_id = world.next_id + 1
    local a = {
        id = world.next_id, x = clamp_x(x), y = clamp_y(y), heading = 0,
        state = "wait", alarm = false, fear_x = 0, fear_y = 0, hops = 0,
        inbox = {}, partner = nil, dead = false, wake = 0,
        home = home or world.villages[random(#world.villages)],
        dies = s.frame + floor((12 + random() * 30) * 60),
    }
    world.list[#world.list + 1] = a
    world.born = world.born + 1
    sched.spawn(s, a, actors.life)
    return a
end
spawn = actors.spawn

function actors.wave(v, n)
    for _ = 1, n do
        if #world.list >= actors.MAX then return end
        actors.spawn(v.x + (random() - 0.5) * 80, v.y + (random() - 0.5) * 80, v)
    end
end

------------------------------------------------------------------ threats --

function actors.add_threat(x, y)
    local t = { x = clamp_x(x), y = clamp_y(y), r = 110, life = 7, kills = 0, prey = nil }
    world.threats[#world.threats + 1] = t
    return t
end

-- Threats hunt the nearest villager, kill what they touch (its coroutine is
-- dropped mid-script) and alarm everyone within their radius.
function actors.update_threats(dt)
    local threats, n = world.threats, 0
    local s = world.sched
    for i = 1, #threats do
        local t = threats[i]
        t.life = t.life - dt
        if t.life > 0 then
            n = n + 1
            threats[n] = t
            if not t.prey or t.prey.dead then
                local best, bd = nil, 1e18
                actors.near(t.x, t.y, t.r, function(a)
                    local dx, dy = a.x - t.x, a.y - t.y
                    local d = dx * dx + dy * dy
                    if not a.dead and d < bd then best, bd = a, d end
                end)
                t.prey = best
            end
            if t.prey then
                local dx, dy = t.prey.x - t.x, t.prey.y - t.y
                local d = sqrt(dx * dx + dy * dy)
                if d > 1 then
                    local step = min(d, 95 * dt)
                    t.x, t.y = t.x + dx / d * step, t.y + dy / d * step
                end
            end
            actors.near(t.x, t.y, t.r, function(a)
                if a.dead then return end
                local dx, dy = a.x - t.x, a.y - t.y
                local d2 = dx * dx + dy * dy
                if d2 < 100 then
                    a.dead = true          -- never resumed again
                    a.co = nil
                    t.kills = t.kills + 1
                    world.killed = world.killed + 1
                elseif d2 < t.r * t.r and not a.alarm and a.state ~= "flee" then
                    a.alarm = true
                    a.fear_x, a.fear_y = t.x, t.y
                    a.hops = 0
                    sched.wake(s, a)
                end
            end)
        end
    end
    for i = #threats, n + 1, -1 do threats[i] = nil end
end

-- Drops the dead from the list, keeping birth order.
function actors.compact()
    local list, n = world.list, 0
    for i = 1, #list do
        local a = list[i]
        if not a.dead then n = n + 1; list[n] = a end
    end
    for i = #list, n + 1, -1 do list[i] = nil end
end

return actors
