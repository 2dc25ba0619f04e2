-- level.lua — builds one level the way a streaming loader does: in stages,
-- a slice per frame, behind the loading screen. A level is a few hundred
-- thousand objects — tile tables, props with names and loot, NPCs with
-- names, dialogue and schedules, a library of lore strings, pickups — that
-- all live exactly as long as the level and are dropped together when the
-- next one loads. Nothing is pooled or reused between levels on purpose:
-- the whole point is the big build-up and the big drop.

local engine = require("engine")

local level = {}

local floor, random, format = math.floor, engine.random, string.format

level.W, level.H = 256, 160      -- tiles
local W, H = level.W, level.H
level.WALL, level.FLOOR = 1, 2

local ROWS_PER_FRAME = 20        -- tile rows turned into tile tables per frame
local PROPS, PROPS_PER_FRAME = 30000, 4000
local NPCS, NPCS_PER_FRAME = 900, 120
local BOOKS, LINES, BOOKS_PER_FRAME = 600, 200, 40
local PICKUPS = 600
level.SPEED = 9                  -- walking speed, tiles per second

local PROP_KINDS = {
    floor = { "crate", "barrel", "rug", "bones", "pot", "table", "chest", "plant" },
    wall = { "torch", "banner", "moss", "shelf", "painting", "crack" },
}
level.PROP_KINDS = PROP_KINDS
local NAMES1 = { "Al", "Bo", "Ca", "Da", "El", "Fa", "Gu", "Ha", "Ir", "Jo", "Ka", "Lu", "Mo", "Ne", "Or", "Pe" }
local NAMES2 = { "dric", "mira", "thos", "bel", "wyn", "gar", "lin", "rok", "sa", "vor", "nia", "dan" }
local WORDS = { "the", "old", "king", "road", "north", "river", "stone", "night", "gold", "tower",
                "wolf", "sea", "fire", "crown", "lost", "deep", "silver", "storm", "gate", "song" }

local function idx(x, y) return y * W + x + 1 end
level.idx = idx

function level.new(number)
    return {
        number = number,
        stage = 1,
        progress = 0,
        grid = {},          -- numeric layout (WALL/FLOOR), one table of numbers
        tiles = {},         -- tile tables, by idx
        rooms = {},
        props = {}, npcs = {}, books = {}, pickups = {},
        path = nil,         -- array of tile indices from start to exit
        objects = 0,        -- live objects this level holds (counted as made)
        row = 0, done_props = 0, done_npcs = 0, done_books = 0,
        ready = false,
    }
end

------------------------------------------------------------------ stages --

local function carve(grid, x0, y0, x1, y1)
    for y = y0, y1 do
        for x = x0, x1 do
            if x > 0 and y > 0 and x < W - 1 and y < H - 1 then grid[idx(x, y)] = level.FLOOR end
        end
    end
end

-- Stage 1: rooms joined by L-shaped corridors (numbers only, fast).
local function layout(lv)
    local grid = lv.grid
    for i = 1, W * H do grid[i] = level.WALL end
    local rooms = lv.rooms
    for r = 1, 70 do
        local w, h = random(6, 18), random(5, 12)
        local x, y = random(2, W - w - 3), random(2, H - h - 3)
        rooms[r] = { x = x, y = y, w = w, h = h, cx = x + floor(w / 2), cy = y + floor(h / 2) }
        carve(grid, x, y, x + w - 1, y + h - 1)
        if r > 1 then
            local a, b = rooms[r - 1], rooms[r]
            if random(2) == 1 then
                carve(grid, math.min(a.cx, b.cx), a.cy, math.max(a.cx, b.cx), a.cy + 1)
                carve(grid, b.cx, math.min(a.cy, b.cy), b.cx + 1, math.max(a.cy, b.cy))
            else
                carve(grid, a.cx, math.min(a.cy, b.cy), a.cx + 1, math.max(a.cy, b.cy))
                carve(grid, math.min(a.cx, b.cx), b.cy, math.max(a.cx, b.cx), b.cy + 1)
            end
        end
    end
    lv.objects = lv.objects + 70 + 5
    return 1
end

-- Stage 2: one table per tile.
local function build_tiles(lv)
    local grid, tiles = lv.grid, lv.tiles
    for y = lv.row, math.min(H, lv.row + ROWS_PER_FRAME) - 1 do
        for x = 0, W - 1 do
            local i = idx(x, y)
            tiles[i] = { kind = grid[i], shade = random(0, 12), props = nil }
        end
    end
    lv.objects = lv.objects + (math.min(H, lv.row + ROWS_PER_FRAME) - lv.row) * W
    lv.row = lv.row + ROWS_PER_FRAME
    return math.min(1, lv.row / H)
end

-- Stage 3: props, each with a unique name string and a loot table.
local function build_props(lv)
    local tiles, props = lv.tiles, lv.props
    local n = lv.done_props
    for _ = 1, PROPS_PER_FRAME do
        if n >= PROPS then break end
        n = n + 1
        local i = random(W * H)
        local t = tiles[i]
        local list = (t.kind == level.FLOOR) and PROP_KINDS.floor or PROP_KINDS.wall
        local kind = random(#list)
        local p = {
            tile = i, kind = kind, on_wall = t.kind == level.WALL,
            name = format("%s #%d of level %d", list[kind], n, lv.number),
            loot = { gold = random(0, 9), weight = random(1, 30) },
        }
        props[n] = p
        if not t.props then t.props = {}; lv.objects = lv.objects + 1 end
        t.props[#t.props + 1] = p
    end
    lv.objects = lv.objects + (n - lv.done_props) * 3
    lv.done_props = n
    return n / PROPS
end

local function random_floor(lv)
    local grid = lv.grid
    for _ = 1, 200 do
        local r = lv.rooms[random(#lv.rooms)]
        local x, y = random(r.x, r.x + r.w - 1), random(r.y, r.y + r.h - 1)
        if grid[idx(x, y)] == level.FLOOR then return x, y end
    end
    return lv.rooms[1].cx, lv.rooms[1].cy
end

local function sentence(n)
    local words = {}
    for k = 1, n do words[k] = WORDS[random(#WORDS)] end
    return table.concat(words, " ")
end

-- Stage 4: NPCs — a name, eight lines of dialogue, a schedule of four
-- waypoints and a stats table each.
local function build_npcs(lv)
    local npcs = lv.npcs
    local n = lv.done_npcs
    for _ = 1, NPCS_PER_FRAME do
        if n >= NPCS then break end
        n = n + 1
        local x, y = random_floor(lv)
        local name = NAMES1[random(#NAMES1)] .. NAMES2[random(#NAMES2)] .. format(" the %d", n)
        local lines = {}
        for k = 1, 8 do
            lines[k] = format("%s: \"%s, %s.\"", name, sentence(random(3, 6)), WORDS[random(#WORDS)])
        end
        local schedule = {}
        for k = 1, 4 do
            local wx, wy = random_floor(lv)
            schedule[k] = { x = wx + 0.5, y = wy + 0.5 }
        end
        npcs[n] = {
            name = name, x = x + 0.5, y = y + 0.5, lines = lines, schedule = schedule,
            next = 1, speed = 1.5 + random() * 2, talk = 0, line = 1,
            stats = { hp = random(5, 40), mood = random(1, 5), hue = random(1, 6) },
        }
        lv.objects = lv.objects + 1 + 1 + 1 + 8 + 1 + 4 + 1
    end
    lv.done_npcs = n
    return n / NPCS
end

-- Stage 5: the level's library — lore books of generated lines.
local function build_books(lv)
    local books = lv.books
    local n = lv.done_books
    for _ = 1, BOOKS_PER_FRAME do
        if n >= BOOKS then break end
        n = n + 1
        local book = { title = format("Book %d: %s", n, sentence(3)) }
        for k = 1, LINES do
            book[k] = format("%d.%d %s", n, k, sentence(random(4, 9)))
        end
        books[n] = book
        lv.objects = lv.objects + 2 + LINES
    end
    lv.done_books = n
    return n / BOOKS
end

-- Stage 6: start, a BFS over the floor from it, the exit at a walking
-- distance that gives the autopilot a 6-9 second walk, the path, pickups.
local function build_path(lv)
    local grid = lv.grid
    local r = lv.rooms[1]
    local start = idx(r.cx, r.cy)
    local dist, parent = { [start] = 0 }, {}
    local queue, head = { start }, 1
    local want = random(55, 80)
    local exit, best = start, math.huge
    while head <= #queue do
        local i = queue[head]
        head = head + 1
        local d = dist[i]
        local e = math.abs(d - want)
        if e < best then exit, best = i, e end
        local x, y = (i - 1) % W, floor((i - 1) / W)
        local n1, n2, n3, n4 = idx(x + 1, y), idx(x - 1, y), idx(x, y + 1), idx(x, y - 1)
        for _, j in ipairs({ n1, n2, n3, n4 }) do
            if grid[j] == level.FLOOR and not dist[j] then
                dist[j] = d + 1
                parent[j] = i
                queue[#queue + 1] = j
            end
        end
    end
    local path = {}
    local i = exit
    while i do
        path[#path + 1] = i
        i = parent[i]
    end
    -- reverse: start first
    local n = #path
    for k = 1, floor(n / 2) do path[k], path[n + 1 - k] = path[n + 1 - k], path[k] end
    lv.path, lv.start, lv.exit, lv.dist = path, start, exit, dist
    -- pickups: some on the path (so the autopilot collects them), the rest anywhere
    local pickups = lv.pickups
    for k = 1, PICKUPS do
        local x, y
        if k <= 40 then
            local t = path[random(n)]
            x, y = (t - 1) % W, floor((t - 1) / W)
        else
            x, y = random_floor(lv)
        end
        pickups[k] = { x = x + 0.5, y = y + 0.5, gem = random(5) == 1, taken = false }
    end
    lv.objects = lv.objects + PICKUPS + 5
    return 1
end

level.STAGES = {
    { name = "laying out halls", run = layout },
    { name = "building tiles", run = build_tiles },
    { name = "placing props", run = build_props },
    { name = "spawning NPCs", run = build_npcs },
    { name = "writing dialogue", run = build_books },
    { name = "finding the way", run = build_path },
}

-- One frame of loading; sets lv.ready when the last stage is done.
function level.load_some(lv)
    local stage = level.STAGES[lv.stage]
    local f = stage.run(lv)
    if f >= 1 then
        lv.stage = lv.stage + 1
        if lv.stage > #level.STAGES then lv.ready = true end
    end
    local n = #level.STAGES
    lv.progress = math.min(1, (lv.stage - 1 + (f < 1 and f or 0)) / n)
    return lv.ready
end

function level.stage_name(lv)
    local s = level.STAGES[lv.stage]
    return s and s.name or "ready"
end

function level.walkable(lv, x, y)
    if x < 0 or y < 0 or x >= W or y >= H then return false end
    return lv.grid[idx(floor(x), floor(y))] == level.FLOOR
end

return level
