-- tools/bench_final_pause.lua — does a major cycle's final pause grow
-- with the heap? (issue 5: it must not.) Runs bench/gc/final_pause_world.lua
-- on the `tide` interpreter with a small and a ten times larger live heap
-- (100 MB and 1 GB by default), reads every cycle's initial and final
-- pause from TIDE_GC_DEBUG=trace, and prints their median, 90th
-- percentile and maximum per size, in microseconds, with the ratios large
-- / small. The pauses are microseconds long, where a run's few cycles and
-- the machine's preemptions make the ratio of two single runs noise: the
-- sizes are run in turn, --rounds times each, and every size's cycles are
-- pooled. The median is the pause's time; the maximum is a preemption's
-- as often as not. Stock Lua 5.4 only.
--
--   lua5.4 tools/bench_final_pause.lua [--tide PATH] [--small MB] [--large MB] [--frames N] [--rounds N]
local ROOT = ((arg[0] or ""):match("^tools/") and ".") or (arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
local lib = dofile(ROOT .. "/tools/benchlib.lua")
local shquote = lib.shquote

local opts = { tide = ROOT .. "/bin/Release/tide", small = 100, large = 1000, frames = 400, rounds = 3 }
lib.parse_options(arg, opts, "lua5.4 tools/bench_final_pause.lua [--tide PATH] [--small MB] [--large MB] [--frames N] [--rounds N]")

-- Appends the initial and final pauses (microseconds) of one run to [r].
local function run(mb, r)
    local cmd = string.format("TIDE_GC_DEBUG=trace %s %s %d %d 2>&1 >/dev/null", shquote(opts.tide),
                              shquote(ROOT .. "/bench/gc/final_pause_world.lua"), mb, opts.frames)
    local p = assert(io.popen(cmd))
    for line in p:lines() do
        local ms = line:match("initial pause: ([%d.]+) ms")
        if ms then r.initial[#r.initial + 1] = tonumber(ms) * 1000 end
        ms = line:match("final pause: ([%d.]+) ms")
        if ms then r.final[#r.final + 1] = tonumber(ms) * 1000 end
    end
    p:close()
end

-- The [q]-quantile of [values] (nearest rank), 0 if none.
local function quantile(values, q)
    if #values == 0 then return 0 end
    local t = {}
    for i, v in ipairs(values) do t[i] = v end
    table.sort(t)
    return t[math.max(1, math.ceil(q * #t))]
end

local sizes = { opts.small, opts.large }
local results = {}
for _, mb in ipairs(sizes) do results[mb] = { initial = {}, final = {} } end
for round = 1, opts.rounds do
    for _, mb in ipairs(sizes) do
        io.stderr:write(string.format("bench_final_pause: round %d of %d, %d MB live ...\n", round, opts.rounds, mb))
        run(mb, results[mb])
    end
end

print(string.format("%-10s %7s %13s %13s %13s %13s %13s", "live heap", "cycles", "initial p50", "initial max",
                    "final p50", "final p90", "final max"))
for _, mb in ipairs(sizes) do
    local r = results[mb]
    print(string.format("%-10s %7d %10.1f us %10.1f us %10.1f us %10.1f us %10.1f us", mb .. " MB", #r.final,
                        quantile(r.initial, 0.5), quantile(r.initial, 1), quantile(r.final, 0.5),
                        quantile(r.final, 0.9), quantile(r.final, 1)))
end
local s, l = results[opts.small].final, results[opts.large].final
if #s > 0 and #l > 0 then
    local function ratio(q) return quantile(l, q) / math.max(quantile(s, q), 1e-3) end
    print(string.format("final pause, large / small: p50 %.2fx, p90 %.2fx, max %.2fx", ratio(0.5), ratio(0.9), ratio(1)))
end
