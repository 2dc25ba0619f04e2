-- palette.lua — the colours of the game, as shared {r, g, b} triples.
-- Entities keep a reference to one of these rather than their own copy.

return {
    white   = { 255, 255, 255 },
    ship    = { 110, 210, 255 },
    cockpit = { 200, 245, 255 },
    flame   = { 255, 170, 60 },
    flame_hot = { 255, 240, 170 },
    shot    = { 150, 255, 210 },
    shot_hot = { 230, 255, 245 },
    orange  = { 255, 140, 40 },
    pink    = { 255, 80, 170 },
    blue    = { 90, 150, 255 },
    cyan    = { 80, 235, 255 },
    violet  = { 185, 110, 255 },
    red     = { 255, 70, 60 },
    yellow  = { 255, 225, 80 },
    green   = { 120, 255, 130 },
    lime    = { 190, 255, 90 },
    grey    = { 150, 150, 175 },
    smoke   = { 95, 90, 110 },
    steel   = { 170, 180, 200 },
    hud     = { 210, 225, 255 },
    hud_dim = { 120, 135, 170 },
}
