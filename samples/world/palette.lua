-- palette.lua — the colours of the world, as shared {r, g, b} triples.

return {
    -- terrain, indexed by tile type (terrain.lua)
    tiles = {
        { 30, 70, 140 },    -- 1 deep water
        { 50, 105, 170 },   -- 2 shallow water
        { 200, 190, 130 },  -- 3 sand
        { 90, 160, 80 },    -- 4 grass
        { 50, 115, 60 },    -- 5 forest
        { 120, 115, 105 },  -- 6 rock
        { 235, 240, 245 },  -- 7 snow
    },
    white   = { 255, 255, 255 },
    black   = { 0, 0, 0 },
    hud     = { 215, 225, 250 },
    hud_dim = { 135, 145, 175 },
    yellow  = { 255, 225, 80 },
    green   = { 120, 255, 130 },
    red     = { 255, 80, 70 },
    cyan    = { 90, 230, 255 },
    orange  = { 255, 150, 50 },
    panel   = { 12, 16, 28 },
}
