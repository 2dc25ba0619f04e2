-- tools/bench_final_pause.lua — does a major cycle's final pause grow
-- with the heap? (issue 5: it must not.) Runs bench/gc/final_pause_world.lua
-- on the `tide` interpreter with a small and a ten times larger live heap
-- (100 MB and 1 GB by default), reads every cycle's initial and final
-- pause from TIDE_GC_DEBUG=trace, and prints their median and maximum per
-- size, with the ratio large / small. Stock Lua 5.4 only.
--
--   lua5.4 tools/bench_final_pause.lua [--tide PATH] [--small MB] [--large MB] [--frames N]
local ROOT = ((arg[0] or ""):match("^tools/") and ".") or (arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
local lib = dofile(ROOT .. "/tools/benchlib.lua")
local shquote, median = lib.shquote, lib.median

local opts = { tide = ROOT .. "/bin/Release/tide", small = 100, large = 1000, frames = 400 }
lib.parse_options(arg, opts, "lua5.4 tools/bench_final_pause.lua [--tide PATH] [--small MB] [--large MB] [--frames N]")

local function run(mb)
    local cmd = string.format("TIDE_GC_DEBUG=trace %s %s %d %d 2>&1 >/dev/null", shquote(opts.tide),
                              shquote(ROOT .. "/bench/gc/final_pause_world.lua"), mb, opts.frames)
    local p = assert(io.popen(cmd))
    local r = { initial = {}, final = {}, cycles = 0 }
    for line in p:lines() do
        local ms = line:match("initial pause: ([%d.]+) ms")
        if ms then r.initial[#r.initial + 1] = tonumber(ms) end
        ms = line:match("final pause: ([%d.]+) ms")
        if ms then r.final[#r.final + 1] = tonumber(ms); r.cycles = r.cycles + 1 end
    end
    p:close()
    return r
end

local function max(t)
    local m = 0
    for _, v in ipairs(t) do if v > m then m = v end end
    return m
end

local rows = {}
for _, mb in ipairs({ opts.small, opts.large }) do
    io.stderr:write(string.format("bench_final_pause: %d MB live ...\n", mb))
    rows[#rows + 1] = { mb = mb, r = run(mb) }
end
print(string.format("%-10s %7s %14s %14s %14s %14s", "live heap", "cycles", "initial p50", "initial max",
                    "final p50", "final max"))
for _, row in ipairs(rows) do
    local r = row.r
    print(string.format("%-10s %7d %11.3f ms %11.3f ms %11.3f ms %11.3f ms", row.mb .. " MB", r.cycles,
                        median(r.initial) or 0, max(r.initial), median(r.final) or 0, max(r.final)))
end
local s, l = rows[1].r, rows[2].r
if #s.final > 0 and #l.final > 0 then
    print(string.format("final pause, large / small: p50 %.2fx, max %.2fx",
                        (median(l.final) or 0) / math.max(median(s.final) or 0, 1e-6), max(l.final) / math.max(max(s.final), 1e-6)))
end
