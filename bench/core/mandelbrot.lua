-- bench/core/mandelbrot.lua — the Mandelbrot set on a 1000×1000 grid, up to
-- 50 iterations a point: tight float loops with integer loop counters.
-- Prints nothing; asserts the number of points inside and a bit checksum.

local SIZE = 1000
local ITER = 50

local inside, bits = 0, 0
for y = 0, SIZE - 1 do
    local ci = 2.0 * y / SIZE - 1.0
    local byte = 0
    for x = 0, SIZE - 1 do
        local cr = 2.0 * x / SIZE - 1.5
        local zr, zi, zr2, zi2 = 0.0, 0.0, 0.0, 0.0
        local escaped = false
        for _ = 1, ITER do
            zi = 2.0 * zr * zi + ci
            zr = zr2 - zi2 + cr
            zr2 = zr * zr
            zi2 = zi * zi
            if zr2 + zi2 > 4.0 then
                escaped = true
                break
            end
        end
        byte = (byte << 1) | (escaped and 0 or 1)
        if x % 8 == 7 then
            bits = (bits * 31 + byte) % 1000000007
            byte = 0
        end
        if not escaped then inside = inside + 1 end
    end
end
assert(inside .. " " .. bits == "396940 796911324", inside .. " " .. bits)
