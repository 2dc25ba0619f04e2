-- vec.lua — 2D vectors as small immutable tables.
--
-- Every operation returns a fresh { x = ..., y = ... } table instead of
-- updating its argument. Plenty of real game code is written this way
-- because it is easy to read, and it is exactly the kind of tiny, instantly
-- dead object a frame-oriented collector has to make cheap. Bullets move
-- with these (two new vectors per bullet per frame), so do not "optimise"
-- them into in-place updates: the churn is what this sample measures.

local vec = {}

local sqrt, cos, sin = math.sqrt, math.cos, math.sin
-- Lua 5.4 spells two-argument arctangent math.atan(y, x); LuaJIT (Lua 5.1)
-- has math.atan2 and ignores math.atan's second argument.
local atan2 = math.atan2 or math.atan

local function new(x, y)
    return { x = x, y = y }
end
vec.new = new

function vec.add(a, b)
    return new(a.x + b.x, a.y + b.y)
end

function vec.sub(a, b)
    return new(a.x - b.x, a.y - b.y)
end

function vec.scale(a, s)
    return new(a.x * s, a.y * s)
end

function vec.length(a)
    return sqrt(a.x * a.x + a.y * a.y)
end

function vec.dist(a, b)
    local dx, dy = a.x - b.x, a.y - b.y
    return sqrt(dx * dx + dy * dy)
end

-- Unit vector in the direction of [a]; a zero vector stays zero.
function vec.normalize(a)
    local len = sqrt(a.x * a.x + a.y * a.y)
    if len == 0 then return new(0, 0) end
    return new(a.x / len, a.y / len)
end

-- [a] turned by [angle] radians (clockwise on screen, where y points down).
function vec.rotate(a, angle)
    local c, s = cos(angle), sin(angle)
    return new(a.x * c - a.y * s, a.x * s + a.y * c)
end

function vec.from_angle(angle, len)
    return new(cos(angle) * len, sin(angle) * len)
end

-- Angle of [a] in radians, as vec.from_angle takes it.
function vec.angle(a)
    return atan2(a.y, a.x)
end

-- The angle pointing from point (x1, y1) towards (x2, y2).
function vec.angle_to(x1, y1, x2, y2)
    return atan2(y2 - y1, x2 - x1)
end

return vec
