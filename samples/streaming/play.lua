-- play.lua — walking through a level: the player (keyboard or autopilot
-- along the BFS path found at load time), NPCs walking their schedules and
-- talking when the player is near, pickups, and a few sparks (fresh tables,
-- short-lived, as any game makes while playing).

local engine = require("engine")
local level = require("level")

local play = {}

local floor, sqrt, random = math.floor, math.sqrt, engine.random
local W = level.W
local RADIUS = 0.3               -- player radius in tiles

function play.new_player(lv)
    local s = lv.start
    return { x = (s - 1) % W + 0.5, y = floor((s - 1) / W) + 0.5, step = 1,
             score = 0, gems = 0, facing = 0 }
end

local function free(lv, x, y)
    return level.walkable(lv, x - RADIUS, y - RADIUS) and level.walkable(lv, x + RADIUS, y - RADIUS)
       and level.walkable(lv, x - RADIUS, y + RADIUS) and level.walkable(lv, x + RADIUS, y + RADIUS)
end

local function move(lv, p, dx, dy, dt)
    local len = sqrt(dx * dx + dy * dy)
    if len == 0 then return end
    local s = level.SPEED * dt / len
    local nx, ny = p.x + dx * s, p.y + dy * s
    if free(lv, nx, p.y) then p.x = nx end
    if free(lv, p.x, ny) then p.y = ny end
    p.facing = math.atan2 and math.atan2(dy, dx) or math.atan(dy, dx)
end

function play.keyboard(lv, p, dt)
    local k = engine.key_down
    local dx, dy = 0, 0
    if k("left") or k("a") then dx = dx - 1 end
    if k("right") or k("d") then dx = dx + 1 end
    if k("up") or k("w") then dy = dy - 1 end
    if k("down") or k("s") then dy = dy + 1 end
    move(lv, p, dx, dy, dt)
end

-- Follows the path from the nearest point ahead; exactly one tile centre
-- after another, so a walk takes path length / SPEED seconds.
function play.autopilot(lv, p, dt)
    local path = lv.path
    local budget = level.SPEED * dt
    while budget > 0 and p.step <= #path do
        local t = path[p.step]
        local tx, ty = (t - 1) % W + 0.5, floor((t - 1) / W) + 0.5
        local dx, dy = tx - p.x, ty - p.y
        local d = sqrt(dx * dx + dy * dy)
        if d <= budget then
            p.x, p.y = tx, ty
            budget = budget - d
            p.step = p.step + 1
        else
            p.x, p.y = p.x + dx / d * budget, p.y + dy / d * budget
            p.facing = math.atan2 and math.atan2(dy, dx) or math.atan(dy, dx)
            budget = 0
        end
    end
end

function play.at_exit(lv, p)
    local e = lv.exit
    local ex, ey = (e - 1) % W + 0.5, floor((e - 1) / W) + 0.5
    local dx, dy = p.x - ex, p.y - ey
    return dx * dx + dy * dy < 0.25
end

-- NPCs walk from waypoint to waypoint; the ones near the player talk.
function play.update_npcs(lv, p, dt)
    local npcs = lv.npcs
    for i = 1, #npcs do
        local n = npcs[i]
        local wp = n.schedule[n.next]
        local dx, dy = wp.x - n.x, wp.y - n.y
        local d = sqrt(dx * dx + dy * dy)
        if d < 0.2 then
            n.next = n.next % #n.schedule + 1
        else
            local s = n.speed * dt / d
            local nx, ny = n.x + dx * s, n.y + dy * s
            if level.walkable(lv, nx, ny) then
                n.x, n.y = nx, ny
            else
                n.next = n.next % #n.schedule + 1
            end
        end
        if n.talk > 0 then n.talk = n.talk - dt end
        local px, py = n.x - p.x, n.y - p.y
        if n.talk <= 0 and px * px + py * py < 2.25 then
            n.talk = 2
            n.line = random(#n.lines)
        end
    end
end

function play.update_pickups(lv, p, fx)
    local pickups = lv.pickups
    for i = 1, #pickups do
        local k = pickups[i]
        if not k.taken then
            local dx, dy = k.x - p.x, k.y - p.y
            if dx * dx + dy * dy < 0.5 then
                k.taken = true
                p.score = p.score + (k.gem and 50 or 10)
                if k.gem then p.gems = p.gems + 1 end
                -- sparks: fresh short-lived tables, not pooled
                for _ = 1, 14 do
                    local a = random() * 6.2832
                    local v = 2 + random() * 3
                    fx[#fx + 1] = { x = k.x, y = k.y, vx = math.cos(a) * v, vy = math.sin(a) * v,
                                    life = 0.5, gem = k.gem }
                end
            end
        end
    end
end

function play.update_fx(fx, dt)
    local j = 0
    for i = 1, #fx do
        local s = fx[i]
        s.life = s.life - dt
        if s.life > 0 then
            s.x, s.y = s.x + s.vx * dt, s.y + s.vy * dt
            j = j + 1
            fx[j] = s
        end
    end
    for i = #fx, j + 1, -1 do fx[i] = nil end
end

return play
