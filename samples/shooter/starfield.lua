-- starfield.lua — the scrolling background: three layers of stars at
-- different speeds (parallax) and a slow planet.
--
-- Unlike everything else in the game the stars are made once and moved in
-- place: a background that lives for the whole run is not the kind of
-- garbage this sample is about, and it keeps a steady set of long-lived
-- objects in the old generation for the collector to (not) trace.

local engine = require("engine")

local starfield = {}

local random = engine.random

-- far to near: more, dimmer and slower stars at the back
local LAYERS = {
    { count = 150, speed = 16, size = 1, bright = 90 },
    { count = 70, speed = 50, size = 2, bright = 150 },
    { count = 26, speed = 160, size = 2, bright = 235, streak = 10 },
}

function starfield.new(width, height)
    local sf = { width = width, height = height, layers = {}, planet_y = height * 0.3 }
    for i = 1, #LAYERS do
        local spec, stars = LAYERS[i], {}
        for k = 1, spec.count do
            stars[k] = { x = random() * width, y = random() * height,
                         tint = 0.6 + 0.4 * random() }
        end
        sf.layers[i] = { spec = spec, stars = stars }
    end
    return sf
end

-- [boost] > 1 speeds everything up (the title screen and wave banners).
function starfield.update(sf, dt, boost)
    for i = 1, #sf.layers do
        local layer = sf.layers[i]
        local dy = layer.spec.speed * boost * dt
        local stars = layer.stars
        for k = 1, #stars do
            local s = stars[k]
            s.y = s.y + dy
            if s.y > sf.height then
                s.y = s.y - sf.height
                s.x = random() * sf.width
            end
        end
    end
    sf.planet_y = sf.planet_y + 4 * dt
    if sf.planet_y > sf.height + 300 then sf.planet_y = -300 end
end

local function draw_planet(sf)
    local x, y = sf.width * 0.78, sf.planet_y
    engine.color(26, 20, 52, 255)
    engine.fill_circle(x, y, 170)
    engine.color(40, 30, 74, 255)
    engine.fill_circle(x - 30, y - 30, 130)
    engine.color(90, 70, 150, 70)
    engine.circle(x, y, 230)
    engine.circle(x, y, 236)
end

function starfield.draw(sf)
    engine.clear(6, 6, 18)
    draw_planet(sf)
    for i = 1, #sf.layers do
        local layer = sf.layers[i]
        local spec, stars = layer.spec, layer.stars
        for k = 1, #stars do
            local s = stars[k]
            local c = spec.bright * s.tint
            engine.color(c, c, c + (255 - c) * 0.3, 255)
            if spec.streak then
                engine.line(s.x, s.y, s.x, s.y - spec.streak)
            else
                engine.fill_rect(s.x, s.y, spec.size, spec.size)
            end
        end
    end
end

return starfield
