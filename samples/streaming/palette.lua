-- palette.lua — the colours, as shared {r, g, b} triples.

return {
    white   = { 255, 255, 255 },
    hud     = { 215, 225, 250 },
    hud_dim = { 135, 145, 175 },
    yellow  = { 255, 225, 80 },
    green   = { 120, 255, 130 },
    cyan    = { 90, 230, 255 },
    red     = { 255, 90, 80 },
    orange  = { 255, 160, 60 },
    gem     = { 140, 220, 255 },
    -- levels cycle through these themes: wall, floor
    themes = {
        { wall = { 70, 60, 80 },  floor = { 140, 120, 100 }, name = "the cellars" },
        { wall = { 40, 70, 60 },  floor = { 90, 140, 100 },  name = "the overgrown halls" },
        { wall = { 60, 60, 95 },  floor = { 120, 125, 160 }, name = "the frozen vaults" },
        { wall = { 95, 55, 45 },  floor = { 170, 110, 80 },  name = "the ember forge" },
    },
    npc = {
        { 240, 200, 150 }, { 200, 120, 240 }, { 120, 220, 160 },
        { 240, 130, 130 }, { 130, 180, 250 }, { 230, 230, 120 },
    },
}
