-- waves.lua — the wave director: which enemies come when, and how much
-- harder each wave is than the last.
--
-- A wave is a queue of timed spawn entries built when the wave starts,
-- from "groups" (a column of darts, a row of weavers, ...) picked with
-- weights that shift towards the nastier types as the waves go by. Every
-- fifth wave is a boss. The next wave starts when the queue is empty and
-- the screen is clear (or the stragglers have had long enough).

local engine = require("engine")
local enemies = require("enemies")

local waves = {}

local floor, min, max, pi = math.floor, math.min, math.max, math.pi
local random = engine.random

local function rand(a, b)
    return a + (b - a) * random()
end

-- How wave [n] scales bullet speed, fire rate, extra bullets per volley and
-- enemy health. Capped so that late waves stay dense rather than unfair.
function waves.difficulty(n)
    return {
        speed = min(1.7, 1 + 0.06 * (n - 1)),
        rate = min(2.8, 1 + 0.12 * (n - 1)),
        extra = min(12, n - 1),
        hp = 1 + 0.12 * (n - 1),
    }
end

local function add(d, at, kind, x, y, params)
    d.seq = d.seq + 1
    d.queue[#d.queue + 1] = { at = at, seq = d.seq, kind = kind, x = x, y = y,
                              params = params }
end

------------------------------------------------------------------ groups --

local groups = {}

function groups.darts(d, world, t0)
    local n = 4 + floor(world.wave / 3)
    local x = rand(120, world.width - 120)
    for i = 0, n - 1 do
        add(d, t0 + i * 0.3, "dart", x + (i % 2) * 40 - 20, -30,
            { speed = 150, aim = true })
    end
end

function groups.weavers(d, world, t0)
    local n = 3 + floor(world.wave / 3)
    local span = world.width - 240
    for i = 0, n - 1 do
        local x = 120 + span * (i + 0.5) / n
        add(d, t0 + i * 0.15, "weaver", x, -30,
            { speed = 55, amp = rand(50, 110), freq = rand(1.2, 2.0), phase = i * 0.7 })
    end
end

function groups.swoopers(d, world, t0)
    local n = 5 + floor(world.wave / 4)
    local from_left = random() < 0.5
    local radius = rand(380, 560)
    local cx = world.width / 2 + rand(-200, 200)
    for i = 0, n - 1 do
        add(d, t0 + i * 0.22, "swooper", 0, -40, {
            cx = cx, cy = -40, radius = radius, speed = 380,
            a0 = from_left and pi or 0, dir = from_left and -1 or 1,
        })
    end
end

function groups.turrets(d, world, t0)
    local n = (world.wave >= 6) and 2 or 1
    for i = 1, n do
        local x = world.width * (i / (n + 1)) + rand(-120, 120)
        add(d, t0 + (i - 1) * 0.5, "turret", x, -40,
            { ty = rand(110, 260), hold = 6, leave = -1, phase = rand(0, 6) })
    end
end

function groups.spinner(d, world, t0)
    add(d, t0, "spinner", rand(200, world.width - 200), -40,
        { speed = 32, amp = rand(60, 160), phase = rand(0, 6.28) })
end

function groups.heavy(d, world, t0)
    add(d, t0, "heavy", rand(300, world.width - 300), -50,
        { ty = rand(150, 210), hold = 9, leave = 1, phase = rand(0, 6) })
end

-- Group weights per wave; later waves lean on the types that shoot most.
local function weights(n)
    return {
        { "darts", 3 }, { "weavers", 3 }, { "swoopers", 2 },
        { "turrets", 2 },
        { "spinner", n >= 2 and (n >= 6 and 3 or 2) or 0 },
        { "heavy", n >= 2 and (n >= 6 and 2 or 1) or 0 },
    }
end

local function pick_group(n)
    local list, total = weights(n), 0
    for i = 1, #list do total = total + list[i][2] end
    local roll = random() * total
    for i = 1, #list do
        roll = roll - list[i][2]
        if roll < 0 then return list[i][1] end
    end
    return list[1][1]
end

------------------------------------------------------------------- waves --

local function build_queue(d, world)
    local n = world.wave
    if n % 5 == 0 then
        add(d, 1.5, "boss", world.width / 2, -90, {})
        return
    end
    local count = min(20, 6 + n)
    local gap = max(0.7, 2.0 - 0.15 * n)
    local chance_double = min(0.7, 0.1 + n * 0.07)
    for g = 0, count - 1 do
        local t0 = 1.5 + g * gap
        groups[pick_group(n)](d, world, t0)
        if random() < chance_double then
            groups[pick_group(n)](d, world, t0 + gap / 2)
        end
    end
    table.sort(d.queue, function(a, b)
        if a.at ~= b.at then return a.at < b.at end
        return a.seq < b.seq
    end)
end

function waves.start(world, n)
    world.wave = n
    world.diff = waves.difficulty(n)
    local d = { t = 0, queue = {}, next = 1, seq = 0, idle = 0, escort = 6 }
    world.director = d
    world.banner = 2.0
    build_queue(d, world)
end

local function spawn(world, entry)
    local p = entry.params
    if p.aim then
        -- a dart dives at where the ship is now, not where it was
        p.tx = world.ship.pos.x
    end
    enemies.spawn(world, entry.kind, entry.x, entry.y, p)
end

-- While the boss lives, smaller groups keep arriving to escort it.
local function escorts(world, d, dt)
    d.escort = d.escort - dt
    if d.escort > 0 then return end
    d.escort = max(3, 7 - world.wave * 0.2)
    -- Everything queued before has spawned by now, so appending a group
    -- that starts now keeps the queue in time order.
    groups[(random() < 0.5) and "swoopers" or "darts"](d, world, d.t)
end

function waves.update(world, dt)
    local d = world.director
    d.t = d.t + dt
    if world.banner > 0 then world.banner = world.banner - dt end
    local q = d.queue
    while d.next <= #q and q[d.next].at <= d.t do
        spawn(world, q[d.next])
        d.next = d.next + 1
    end
    if world.boss then
        escorts(world, d, dt)
        return
    end
    if d.next <= #q then return end
    d.idle = d.idle + dt
    if (#world.enemies == 0 and d.idle > 1.0) or d.idle > 4 then
        waves.start(world, world.wave + 1)
    end
end

return waves
