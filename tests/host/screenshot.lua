-- --screenshot works headless: frame 1 is saved as a PNG, and at frame 2
-- the game reads the file back and checks its PNG header and size.
-- The file is in the run's own TMPDIR (tests/run.lua gives each run one), so
-- that runs on several hosts at once do not share it.
-- host-args: --frames 3 --quiet --screenshot "1:${TMPDIR:-/tmp}/tide-host-test-screenshot.png"
-- expect report rows: 3
-- expect: screenshot 1280x720
local engine = require("engine")

local path = (os.getenv("TMPDIR") or "/tmp") .. "/tide-host-test-screenshot.png"
os.remove(path)

local function be32(s, at)
    local a, b, c, d = s:byte(at, at + 3)
    return ((a * 256 + b) * 256 + c) * 256 + d
end

function update()
    if engine.frame() ~= 2 then return end
    local file = io.open(path, "rb")
    if not file then return print("no screenshot at " .. path) end
    local head = file:read(24)
    file:close()
    os.remove(path)
    if head:sub(1, 8) ~= "\137PNG\r\n\26\n" then return print("not a PNG") end
    print(string.format("screenshot %dx%d", be32(head, 17), be32(head, 21)))
end

function draw()
    engine.clear(0, 64, 128)
    engine.color(255, 255, 255)
    engine.fill_rect(100, 100, 200, 100)
    engine.text(100, 220, "screenshot", 4)
end
