-- Lua 5.4's generational mode runs a normal game.
-- backends: lua54
-- host-args: --frames 30 --quiet --gc generational
-- expect report rows: 30
function update()
    local t = {}
    for i = 1, 200 do t[i] = { i } end
end
