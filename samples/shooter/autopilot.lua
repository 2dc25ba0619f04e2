-- autopilot.lua — the ship plays itself.
--
-- Each frame it tries a handful of candidate moves (eight directions and
-- standing still, at full and at focus speed) and scores each one: how close
-- the ship would come to the bullets and enemies around it within the next
-- 0.4 s if both kept going straight (the exact closest approach, so a fast
-- bullet cannot slip between two sampled instants), weighted by how soon;
-- plus how far the move takes it from where it wants to be (under an
-- enemy, on a power-up, away from walls). It fires all the time and bombs
-- when every move runs into something within a few frames.
--
-- Left alone it would dodge almost forever, and a headless run should also
-- see deaths, game overs and restarts; so now and then, more often in later
-- waves, it has a lapse of attention and holds its last move for a moment.
--
-- It allocates freely, like gameplay code does: a threat record per nearby
-- bullet per frame, a fresh controls table per frame.

local engine = require("engine")
local player = require("player")

local autopilot = {}

local sqrt, abs, min, max = math.sqrt, math.abs, math.min, math.max

local SCAN = 260          -- bullets further away than this are ignored
local SAFE = 30           -- clearance in px that starts to feel risky
local HORIZON = 0.4       -- seconds ahead
local HIT = 1000          -- cost of a predicted hit right now
local BOMB_AT = HIT * 0.9 -- every move hits something within ~0.06 s
local NEAR = 110          -- bullets flying away still matter this close
local CALM = 20           -- below this danger, focus moves are not worth trying
local LAPSE = 0.25        -- seconds a lapse of attention lasts
local LAPSE_CHANCE = 0.0012   -- per frame and per wave

-- Full-speed moves first: the focus moves are only tried when those are
-- all risky (see autopilot.controls).
local moves = {}
for f = 0, 1 do
    for dy = -1, 1 do
        for dx = -1, 1 do
            if f == 0 or dx ~= 0 or dy ~= 0 then
                local len = sqrt(dx * dx + dy * dy)
                if len == 0 then len = 1 end
                moves[#moves + 1] = { dx = dx, dy = dy, ux = dx / len, uy = dy / len,
                                      focus = (f == 1) }
            end
        end
    end
end

-- Everything near the ship that could hurt it, as {x, y, vx, vy, r}.
local function threats(world, s)
    local out = {}
    local sx, sy = s.pos.x, s.pos.y
    local bullets = world.ebullets
    for i = 1, #bullets do
        local b = bullets[i]
        local dx, dy = b.pos.x - sx, b.pos.y - sy
        if not b.dead and abs(dx) < SCAN and abs(dy) < SCAN then
            local v = b.vel
            -- one flying away can only be caught by chasing it, and only if near
            if dx * v.x + dy * v.y < 0 or dx * dx + dy * dy < NEAR * NEAR then
                out[#out + 1] = { x = b.pos.x, y = b.pos.y, vx = v.x, vy = v.y, r = b.r }
            end
        end
    end
    local foes = world.enemies
    for i = 1, #foes do
        local e = foes[i]
        local p, r = e.pos, e.def.r
        if not e.dead and abs(p.x - sx) < SCAN + r and abs(p.y - sy) < SCAN + r then
            out[#out + 1] = { x = p.x, y = p.y, vx = e.vel.x, vy = e.vel.y, r = r * 0.8 }
        end
    end
    return out
end

-- Seconds until the ship, starting at [p] with speed [v] along one axis,
-- reaches the wall at [lo] or [hi]; HORIZON if it never does.
local function time_to_wall(p, v, lo, hi)
    if v > 0 then return min(HORIZON, (hi - p) / v) end
    if v < 0 then return min(HORIZON, (lo - p) / v) end
    return HORIZON
end

-- The ship's path if it holds [move], as straight legs { t0, t1, x, y,
-- vx, vy } (x, y at time t0): each axis moves at full speed until its wall
-- stops it, so there are up to three legs.
local function ship_path(world, s, move)
    local speed = move.focus and player.FOCUS_SPEED or player.SPEED
    local vx, vy = move.ux * speed, move.uy * speed
    local x0, y0, x1, y1 = player.bounds(world)
    local x, y = s.pos.x, s.pos.y
    local tx = max(0, time_to_wall(x, vx, x0, x1))
    local ty = max(0, time_to_wall(y, vy, y0, y1))
    local legs, t = {}, 0
    local stops = { min(tx, ty), max(tx, ty), HORIZON }
    for i = 1, 3 do
        local t1 = stops[i]
        if t1 > t then
            local lvx = (t < tx) and vx or 0
            local lvy = (t < ty) and vy or 0
            legs[#legs + 1] = { t0 = t, t1 = t1, x = x, y = y, vx = lvx, vy = lvy }
            x, y, t = x + lvx * (t1 - t), y + lvy * (t1 - t), t1
        end
    end
    return legs
end

-- Closest approach within [span] seconds of a point at relative position
-- (rx, ry) moving with relative velocity (wx, wy): returns time, distance.
local function approach(rx, ry, wx, wy, span)
    local w2 = wx * wx + wy * wy
    local t = 0
    if w2 > 0 then t = max(0, min(span, -(rx * wx + ry * wy) / w2)) end
    local dx, dy = rx + wx * t, ry + wy * t
    return t, sqrt(dx * dx + dy * dy)
end

-- The closest [th] comes to the ship along its [legs]: time, distance.
local function closest(th, legs)
    local best_t, best_d = 0, 1e9
    for i = 1, #legs do
        local leg = legs[i]
        local t0 = leg.t0
        local t, d = approach(th.x + th.vx * t0 - leg.x, th.y + th.vy * t0 - leg.y,
                              th.vx - leg.vx, th.vy - leg.vy, leg.t1 - t0)
        if d < best_d then best_t, best_d = t0 + t, d end
    end
    return best_t, best_d
end

-- Most candidate moves are a single leg; skip the loop for those.
local function closest_fast(th, legs)
    if #legs == 1 then
        local leg = legs[1]
        return approach(th.x - leg.x, th.y - leg.y, th.vx - leg.vx, th.vy - leg.vy, HORIZON)
    end
    return closest(th, legs)
end

local function danger(world, s, move, list)
    local legs = ship_path(world, s, move)
    local total = 0
    for j = 1, #list do
        local th = list[j]
        local t, dist = closest_fast(th, legs)
        local clear = dist - th.r - player.HIT_RADIUS
        if clear < SAFE then
            local soon = 1 - t / HORIZON           -- 1 now, 0 at the horizon
            if clear < 0 then
                total = total + HIT * (0.3 + 0.7 * soon)
            else
                total = total + (SAFE - clear) * (SAFE - clear) / SAFE * (0.5 + 4 * soon)
            end
        end
    end
    return total
end

-- Where the ship would like to be: on a power-up that has come down,
-- otherwise low on the screen and lined up under an enemy, preferring the
-- ones that stay and shoot (and the boss).
local function goal(world, s)
    local best, best_d = nil, 1e9
    local ups = world.powerups
    for i = 1, #ups do
        local u = ups[i]
        local d = abs(u.pos.x - s.pos.x) + abs(u.pos.y - s.pos.y)
        -- only once it has come down: chasing it up the screen is suicide
        if not u.dead and u.pos.y > world.height * 0.5 and d < best_d then
            best, best_d = u, d
        end
    end
    if best then return best.pos.x, best.pos.y end
    local gy = world.height - 160
    local foes, target, score = world.enemies, nil, 1e9
    for i = 1, #foes do
        local e = foes[i]
        if e.entered and not e.dead and e.pos.y < s.pos.y - 120 then
            local cost = abs(e.pos.x - s.pos.x) + (s.pos.y - e.pos.y) * 0.3
            -- the ones that stay and shoot are worth lining up for
            if e.def.move == "hover" or e.def.move == "drift" then cost = cost - 200 end
            if e.def.boss then cost = cost - 400 end
            if cost < score then target, score = e, cost end
        end
    end
    -- lean a little towards the middle, where there is room on both sides
    local mid = world.width / 2
    if target then return 0.85 * target.pos.x + 0.15 * mid, gy end
    return mid, gy
end

local function move_cost(world, s, move, gx, gy)
    local speed = move.focus and player.FOCUS_SPEED or player.SPEED
    local x = s.pos.x + move.ux * speed * 0.12
    local y = s.pos.y + move.uy * speed * 0.12
    local cost = 0.08 * abs(x - gx) + 0.03 * abs(y - gy)
    -- walls and corners are traps (nowhere to dodge to), and so is the top
    -- of the screen where the enemies are
    local x0, _, x1, y1 = player.bounds(world)
    local edge = min(x - x0, x1 - x, y1 - y + 40)
    if edge < 160 then cost = cost + (160 - edge) * 0.4 end
    local high = world.height * 0.45 - y
    if high > 0 then cost = cost + high * 0.3 end
    if move.focus then cost = cost + 2 end
    return cost
end

function autopilot.new()
    return { last = moves[1], lapse = 0, danger = 0 }
end

-- True while the pilot is not paying attention (see the top of the file).
local function distracted(pilot, world)
    if pilot.lapse > 0 then
        pilot.lapse = pilot.lapse - engine.dt()
        return true
    end
    if engine.random() < LAPSE_CHANCE * world.wave then pilot.lapse = LAPSE end
    return false
end

-- The controls for this frame (see player.lua for their meaning).
function autopilot.controls(pilot, world)
    local s = world.ship
    local ctl = { dx = 0, dy = 0, fire = true, focus = false, bomb = false }
    if not s.alive then return ctl end
    if distracted(pilot, world) then
        ctl.dx, ctl.dy, ctl.focus = pilot.last.dx, pilot.last.dy, pilot.last.focus
        return ctl
    end
    local list = threats(world, s)
    local gx, gy = goal(world, s)
    local best, best_cost, best_danger = nil, 1e18, 0
    for i = 1, #moves do
        local move = moves[i]
        if move.focus and best_danger < CALM then break end
        local d = danger(world, s, move, list)
        local cost = d + move_cost(world, s, move, gx, gy)
        if move == pilot.last then cost = cost - 1 end  -- steadier steering
        if cost < best_cost then best, best_cost, best_danger = move, cost, d end
    end
    pilot.last = best
    pilot.danger = best_danger   -- kept for debugging and tests
    ctl.dx, ctl.dy, ctl.focus = best.dx, best.dy, best.focus
    -- even the best move runs into something within a few frames: bomb
    ctl.bomb = best_danger >= BOMB_AT and s.invuln <= 0
    return ctl
end

return autopilot
