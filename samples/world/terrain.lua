-- terrain.lua — the tile map: WORLD x WORLD tiles stored as CHUNK x CHUNK
-- chunks, each chunk one table of tile types (numbers). The heights come
-- from two octaves of value noise on random lattices (engine.random only,
-- so a seed always gives the same map). Generation is incremental:
-- terrain.generate_some() builds a few chunk rows per call so the world is
-- built over several frames behind the progress screen.

local engine = require("engine")

local terrain = {}

local floor = math.floor

terrain.WORLD = 1024          -- tiles per side
terrain.CHUNK = 16            -- tiles per chunk side
terrain.CHUNKS = terrain.WORLD / terrain.CHUNK   -- chunks per side

local WORLD, CHUNK, CHUNKS = terrain.WORLD, terrain.CHUNK, terrain.CHUNKS

-- A lattice of (n+1) x (n+1) random values in [0, 1), as one flat array.
local function lattice(n)
    local t = {}
    for i = 1, (n + 1) * (n + 1) do t[i] = engine.random() end
    return { n = n, v = t, step = WORLD / n }
end

local function smooth(f) return f * f * (3 - 2 * f) end

local function sample(lat, x, y)
    local fx, fy = x / lat.step, y / lat.step
    local ix, iy = floor(fx), floor(fy)
    if ix >= lat.n then ix = lat.n - 1 end
    if iy >= lat.n then iy = lat.n - 1 end
    local tx, ty = smooth(fx - ix), smooth(fy - iy)
    local w, v = lat.n + 1, lat.v
    local i = iy * w + ix + 1
    local a, b = v[i], v[i + 1]
    local c, d = v[i + w], v[i + w + 1]
    local top = a + (b - a) * tx
    local bottom = c + (d - c) * tx
    return top + (bottom - top) * ty
end

local function tile_type(h)
    if h < 0.36 then return 1 end
    if h < 0.42 then return 2 end
    if h < 0.45 then return 3 end
    if h < 0.60 then return 4 end
    if h < 0.70 then return 5 end
    if h < 0.78 then return 6 end
    return 7
end

function terrain.new()
    return {
        coarse = lattice(16),
        fine = lattice(128),
        chunks = {},          -- chunk index (cy * CHUNKS + cx + 1) -> tile array
        next_row = 0,         -- next chunk row to generate
        done = false,
    }
end

local function make_chunk(t, cx, cy)
    local tiles = {}
    local x0, y0 = cx * CHUNK, cy * CHUNK
    local coarse, fine = t.coarse, t.fine
    local i = 1
    for y = y0, y0 + CHUNK - 1 do
        for x = x0, x0 + CHUNK - 1 do
            local h = 0.72 * sample(coarse, x, y) + 0.28 * sample(fine, x, y)
            -- an island: lower towards the edges of the world
            local dx, dy = (x - WORLD / 2) / (WORLD / 2), (y - WORLD / 2) / (WORLD / 2)
            local r = dx * dx + dy * dy
            if r > 0.55 then h = h - (r - 0.55) * 0.9 end
            tiles[i] = tile_type(h)
            i = i + 1
        end
    end
    return tiles
end

-- Generates up to `rows` chunk rows; returns the fraction done.
function terrain.generate_some(t, rows)
    for _ = 1, rows do
        if t.next_row >= CHUNKS then t.done = true; break end
        local cy = t.next_row
        for cx = 0, CHUNKS - 1 do
            t.chunks[cy * CHUNKS + cx + 1] = make_chunk(t, cx, cy)
        end
        t.next_row = cy + 1
    end
    if t.next_row >= CHUNKS then t.done = true end
    return t.next_row / CHUNKS
end

-- Tile type at integer tile coordinates; deep water outside the world.
function terrain.at(t, x, y)
    if x < 0 or y < 0 or x >= WORLD or y >= WORLD then return 1 end
    local cx, cy = floor(x / CHUNK), floor(y / CHUNK)
    local chunk = t.chunks[cy * CHUNKS + cx + 1]
    if not chunk then return 1 end
    return chunk[(y - cy * CHUNK) * CHUNK + (x - cx * CHUNK) + 1]
end

function terrain.walkable(t, x, y)
    local k = terrain.at(t, floor(x), floor(y))
    return k >= 3 and k <= 6
end

-- Objects the terrain keeps alive (chunk tables and lattices).
function terrain.objects(t)
    return t.next_row * CHUNKS + 4
end

return terrain
