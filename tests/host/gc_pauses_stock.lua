-- Stock Lua 5.4 and LuaJIT do not report their collectors' pauses: the
-- summary says so (as it says their GC time is untimed), summary.json's
-- "pauses" is null and the report has no pauses.csv.
-- backends: lua54 luajit
-- host-args: --frames 10
-- expect report rows: 10
-- expect stdout: (pauses: not observable on
function update()
    local t = {}
    for i = 1, 1000 do t[i] = { i } end
end
