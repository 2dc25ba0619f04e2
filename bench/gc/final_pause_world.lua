-- bench/gc/final_pause_world.lua MB [FRAMES] — a live heap of about MB
-- megabytes (entities: a table with a name string, a position table and a
-- list of links to other entities), then FRAMES "frames" of steady
-- allocation (short-lived garbage and a few hundred entity updates that
-- store new objects into old ones). Run by tools/bench_final_pause.lua
-- under TIDE_GC_DEBUG=trace, which reads the cycles' pauses from stderr.
local mb = tonumber(arg[1]) or 100
local frames = tonumber(arg[2]) or 400
-- one entity is about 400 bytes with its parts
local n = mb * 1024 * 1024 // 400
local world = {}
for i = 1, n do
    world[i] = { name = "entity " .. i, pos = { x = i, y = -i }, links = { i % 97, i % 89, i % 83 } }
end
local rng = 12345
local function rand(m)
    rng = (rng * 1103515245 + 12345) % 2147483648
    return rng % m + 1
end
local checksum = 0
for f = 1, frames do
    for _ = 1, 2000 do
        local e = world[rand(n)]
        e.pos = { x = f, y = e.pos.y } -- an old entity points at a new table
    end
    local garbage = {}
    for j = 1, 20000 do garbage[j % 64 + 1] = { j, tostring(j) } end
    checksum = checksum + #garbage
end
print(n, checksum)
