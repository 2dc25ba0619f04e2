-- camera.lua — the view onto the world: a position in pixels, panned with
-- the arrow keys, or by the autopilot, which glides from agent to agent and
-- selects each one it visits so the component panel keeps changing.

local engine = require("engine")
local terrain = require("terrain")

local camera = {}

camera.TILE = 16              -- pixels per tile
local TILE = camera.TILE
local PAN_SPEED = 900         -- pixels per second with the arrows
local VISIT = 4.0             -- seconds the autopilot stays with an agent

function camera.new(w, h)
    local half = terrain.WORLD * TILE / 2
    return { x = half - w / 2, y = half - h / 2, w = w, h = h, tile = TILE,
             visit_left = 0, following = nil }
end

local function clamp(c)
    local max_x = terrain.WORLD * TILE - c.w
    local max_y = terrain.WORLD * TILE - c.h
    if c.x < 0 then c.x = 0 elseif c.x > max_x then c.x = max_x end
    if c.y < 0 then c.y = 0 elseif c.y > max_y then c.y = max_y end
end

function camera.keyboard(c, dt)
    local k = engine.key_down
    local dx, dy = 0, 0
    if k("left") or k("a") then dx = dx - 1 end
    if k("right") or k("d") then dx = dx + 1 end
    if k("up") or k("w") then dy = dy - 1 end
    if k("down") or k("s") then dy = dy + 1 end
    local speed = PAN_SPEED * (k("lshift") and 3 or 1)
    c.x = c.x + dx * speed * dt
    c.y = c.y + dy * speed * dt
    if dx ~= 0 or dy ~= 0 then c.following = nil end
    clamp(c)
end

-- Autopilot: every VISIT seconds pick another agent, pan smoothly to it
-- and keep it centred. Returns the agent to select (or nil).
function camera.autopilot(c, agent_list, dt)
    c.visit_left = c.visit_left - dt
    if c.visit_left <= 0 or not c.following then
        c.visit_left = VISIT
        c.following = agent_list[engine.random(#agent_list)]
    end
    local e = c.following
    local tx = e.pos[1] * TILE - c.w / 2
    local ty = e.pos[2] * TILE - c.h / 2
    local f = 1 - math.exp(-3 * dt)
    c.x = c.x + (tx - c.x) * f
    c.y = c.y + (ty - c.y) * f
    clamp(c)
    return e
end

-- Keeps the followed entity centred (used after a click on an agent).
function camera.follow(c, dt)
    local e = c.following
    if not e or e.dead then c.following = nil; return end
    local f = 1 - math.exp(-4 * dt)
    c.x = c.x + (e.pos[1] * TILE - c.w / 2 - c.x) * f
    c.y = c.y + (e.pos[2] * TILE - c.h / 2 - c.y) * f
    clamp(c)
end

function camera.to_world(c, sx, sy)
    return (c.x + sx) / TILE, (c.y + sy) / TILE
end

return camera
