-- bench/core/oop_vector.lua — method calls through metatables: a 3-D vector
-- class with __index methods, __add/__mul/__eq metamethods and a subclass.
-- Prints nothing; asserts a checksum.

local Vec = {}
Vec.__index = Vec

function Vec.new(x, y, z) return setmetatable({ x = x, y = y, z = z }, Vec) end
function Vec:dot(o) return self.x * o.x + self.y * o.y + self.z * o.z end
function Vec:scale(k) return Vec.new(self.x * k, self.y * k, self.z * k) end
function Vec:length2() return self:dot(self) end
function Vec:addInPlace(o)
    self.x = self.x + o.x
    self.y = self.y + o.y
    self.z = self.z + o.z
    return self
end
Vec.__add = function(a, b) return Vec.new(a.x + b.x, a.y + b.y, a.z + b.z) end
Vec.__mul = function(a, k) return Vec.new(a.x * k, a.y * k, a.z * k) end
Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y and a.z == b.z end

-- A subclass: method lookup goes through two __index levels.
local Body = setmetatable({}, { __index = Vec })
Body.__index = Body
Body.__add = Vec.__add
function Body.new(x, y, z, mass)
    local b = setmetatable({ x = x, y = y, z = z }, Body)
    b.mass = mass
    return b
end
function Body:momentum2() return self:length2() * self.mass end

local acc = Vec.new(0, 0, 0)
local total = 0.0
local b = Body.new(1, 2, 3, 2)
local step = Vec.new(0.5, -0.25, 0.125)
local equal = 0
for i = 1, 800000 do
    local v = Vec.new(i % 7, i % 11, i % 13)
    local w = v + step
    acc:addInPlace(w:scale(0.5))
    total = total + v:dot(w) + b:momentum2()
    if v * 1 == v then equal = equal + 1 end
end
assert(equal == 800000)
assert(total == 101599690.375, string.format("%.17g", total))
assert(acc.x > 0)
