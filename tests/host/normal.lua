-- A plain run of 30 headless frames: update and draw every frame, the
-- time simulated (frame * dt), the report holding one row a frame.
-- host-args: --frames 30 --quiet
-- expect report rows: 30
-- expect: main chunk ran: headless true, autopilot true
-- expect: last frame 29, time 0.4833
local engine = require("engine")

print(string.format("main chunk ran: headless %s, autopilot %s",
                    tostring(engine.headless()), tostring(engine.autopilot())))

local updates, draws = 0, 0
local stars = {}

function update(dt)
    assert(dt == engine.dt(), "update gets the fixed timestep")
    assert(updates == draws, "update and draw alternate")
    updates = updates + 1
    stars[#stars + 1] = { x = engine.random(1280), y = engine.random(720) }
    if #stars > 50 then table.remove(stars, 1) end
end

function draw()
    draws = draws + 1
    engine.clear(10, 10, 30)
    engine.color(255, 255, 200)
    for _, s in ipairs(stars) do engine.fill_circle(s.x, s.y, 2) end
    engine.rect(10, 10, 100, 50)
    engine.line(0, 0, 100, 100)
    engine.circle(640, 360, 40)
    engine.text(20, 20, "frame " .. engine.frame(), 2)
    if engine.frame() == 29 then
        print(string.format("last frame %d, time %.4f", engine.frame(), engine.time()))
    end
end
