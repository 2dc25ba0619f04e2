-- ui.lua — a small immediate-mode UI: buttons, panels, tooltips and text
-- helpers, redone from scratch every frame the way most game UIs are.
--
-- Every label is a fresh string each frame (string.format, .., table.concat,
-- string.rep, gsub, tostring). That is the point of this sample: do NOT
-- cache the strings or reuse buffers here, the churn of short strings (and
-- the interning of the many identical ones) is what it exists to produce.
-- ui.made counts the strings built through these helpers in the frame (a
-- lower bound: inline .. in hud.lua is counted by hand where it happens).

local engine = require("engine")

local ui = {
    made = 0,          -- strings built this frame (counted)
    buttons = {},      -- id -> {x, y, w, h, enabled} of this frame's buttons
    actions = {},      -- ids of the buttons clicked this frame, in order
    tip = nil,         -- the tooltip text for the hovered widget
    input = { x = -1, y = -1, click = false },
}

local format, rep, concat, gsub = string.format, string.rep, table.concat, string.gsub
local text, text_width = engine.text, engine.text_width
local floor = math.floor

function ui.begin_frame(input)
    ui.made = 0
    ui.input = input
    ui.buttons = {}
    ui.actions = {}
    ui.tip = nil
end

function ui.count(n) ui.made = ui.made + (n or 1) end

function ui.f(fmt, ...)
    ui.made = ui.made + 1
    return format(fmt, ...)
end

function ui.cat(parts, sep)
    ui.made = ui.made + 1
    return concat(parts, sep)
end

-- A text bar like "[||||||....]" for a fraction in 0..1.
function ui.bar(frac, width, full, empty)
    local n = floor(math.max(0, math.min(1, frac)) * width + 0.5)
    ui.made = ui.made + 3
    return "[" .. rep(full or "|", n) .. rep(empty or ".", width - n) .. "]"
end

-- "{name} costs {cost}" with values from [vals], through gsub and tostring.
function ui.template(tpl, vals)
    local s, n = gsub(tpl, "{(%w+)}", function(k)
        local v = vals[k]
        if type(v) == "number" and v ~= floor(v) then return format("%.1f", v) end
        return tostring(v)
    end)
    ui.made = ui.made + n + 1
    return s
end

-- Thousands separators: 1234567 -> "1,234,567" (a gsub loop, as usual).
function ui.commas(n)
    local s = tostring(floor(n))
    local k
    repeat
        s, k = gsub(s, "^(-?%d+)(%d%d%d)", "%1,%2")
        ui.made = ui.made + 1
    until k == 0
    return s
end

function ui.color(c, a)
    engine.color(c[1], c[2], c[3], a or 255)
end

function ui.text(x, y, s, scale)
    return text(x, y, s, scale)
end

function ui.right(x, y, s, scale)
    text(x - text_width(s, scale), y, s, scale)
end

function ui.center(x, y, s, scale)
    text(floor(x - text_width(s, scale) / 2), y, s, scale)
end

function ui.inside(x, y, w, h)
    local i = ui.input
    return i.x >= x and i.x < x + w and i.y >= y and i.y < y + h
end

function ui.panel(x, y, w, h, title)
    engine.color(14, 20, 34, 235)
    engine.fill_rect(x, y, w, h)
    engine.color(60, 80, 120)
    engine.rect(x, y, w, h)
    if title then
        engine.color(30, 44, 70)
        engine.fill_rect(x + 1, y + 1, w - 2, 16)
        engine.color(200, 215, 255)
        text(x + 6, y + 5, title, 1)
    end
end

-- A button; returns true when clicked this frame. [tip] is shown when it is
-- hovered (a string, or a function building it, called only then).
function ui.button(id, x, y, w, h, label, tip, enabled, accent)
    if enabled == nil then enabled = true end
    ui.buttons[id] = { x = x, y = y, w = w, h = h, enabled = enabled }
    local hover = ui.inside(x, y, w, h)
    local down = hover and ui.input.click
    if not enabled and accent then
        engine.color(floor(accent[1] * 0.6), floor(accent[2] * 0.6), floor(accent[3] * 0.6))
    elseif not enabled then
        engine.color(40, 44, 56)
    elseif down then
        engine.color(250, 250, 255)
    elseif hover then
        engine.color(80, 110, 170)
    else
        local a = accent or { 40, 60, 100 }
        engine.color(a[1], a[2], a[3])
    end
    engine.fill_rect(x, y, w, h)
    engine.color(hover and 220 or 90, hover and 235 or 110, 255)
    engine.rect(x, y, w, h)
    if enabled then engine.color(235, 240, 255) else engine.color(110, 115, 130) end
    local scale = h >= 18 and 2 or 1
    ui.center(x + w / 2, y + floor((h - 7 * scale) / 2), label, scale)
    if hover and tip then
        if type(tip) == "function" then tip = tip() end
        ui.tip = tip
    end
    if down and enabled then ui.actions[#ui.actions + 1] = id end
    return down and enabled
end

-- The tooltip box near the cursor, drawn last.
function ui.draw_tip()
    local tip = ui.tip
    if not tip then return end
    local lines, n = {}, 0
    for line in tip:gmatch("[^\n]+") do n = n + 1; lines[n] = line end
    ui.made = ui.made + n
    local w = 0
    for i = 1, n do w = math.max(w, text_width(lines[i], 1)) end
    local x, y = ui.input.x + 16, ui.input.y + 14
    if x + w + 12 > engine.width() then x = engine.width() - w - 12 end
    if y + n * 10 + 10 > engine.height() then y = ui.input.y - n * 10 - 14 end
    engine.color(8, 10, 18, 240)
    engine.fill_rect(x, y, w + 12, n * 10 + 8)
    engine.color(255, 225, 120)
    engine.rect(x, y, w + 12, n * 10 + 8)
    engine.color(240, 240, 220)
    for i = 1, n do text(x + 6, y + 5 + (i - 1) * 10, lines[i], 1) end
end

return ui
