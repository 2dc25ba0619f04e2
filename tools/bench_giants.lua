-- tools/bench_giants.lua — issue 5, item 3: does any "indivisible giant"
-- make a pause long? Runs bench/gc/giants.lua (a 2M-entry table rewritten
-- while marked; a 990,000-node list moved onto the stack while marked; 100,000
-- live coroutines) on the Release `tide` with TIDE_GC_TRACE, and prints,
-- per case, the count and the longest pause of each kind, the most
-- processor time the game's thread had in one (a pause longer than that
-- was the machine's: another thread ran in the game's place), and how
-- many took over 1 ms, and had over 1 ms of processor time. The runs are in
-- low-latency mode (TIDE_GC_DEBUG=low-latency), whose pause limit issue 5
-- sets. Needs lua-cjson
-- (Debian lua-cjson, installed by build.sh). Stock Lua 5.4 only.
--
--   lua5.4 tools/bench_giants.lua [--tide PATH] [CASE...]
local ROOT = ((arg[0] or ""):match("^tools/") and ".") or (arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
local lib = dofile(ROOT .. "/tools/benchlib.lua")
local cjson = require("cjson")
local tide = ROOT .. "/bin/Release/tide"
local cases = {}
local i = 1
while i <= #arg do
    if arg[i] == "--tide" then tide = arg[i + 1]; i = i + 2 else cases[#cases + 1] = arg[i]; i = i + 1 end
end
if #cases == 0 then cases = { "table", "stack", "coroutines" } end

local trace = os.tmpname()
print(string.format("%-11s %-13s %6s %10s %10s %8s %8s", "case", "pause", "count", "max ms", "max cpu", ">1 ms", ">1 cpu"))
for _, case in ipairs(cases) do
    local cmd = string.format("TIDE_GC_DEBUG=low-latency TIDE_GC_TRACE=%s %s %s %s >/dev/null", lib.shquote(trace), lib.shquote(tide),
                              lib.shquote(ROOT .. "/bench/gc/giants.lua"), lib.shquote(case))
    assert(os.execute(cmd), "the run failed: " .. cmd)
    local doc = cjson.decode(assert(lib.read_file(trace)))
    local kinds, order = {}, {}
    for _, e in ipairs(doc.traceEvents) do
        if e.ph == "X" and e.cat == "gc" and e.tid ~= nil and e.args and e.args.frame ~= nil then
            local k = kinds[e.name]
            if not k then k = { n = 0, max = 0, max_cpu = 0, over = 0, over_cpu = 0 }; kinds[e.name] = k; order[#order + 1] = e.name end
            local cpu = e.args.cpu_us or 0
            k.n = k.n + 1
            if e.dur > k.max then k.max = e.dur end
            if cpu > k.max_cpu then k.max_cpu = cpu end
            if e.dur > 1000 then k.over = k.over + 1 end
            if cpu > 1000 then k.over_cpu = k.over_cpu + 1 end
        end
    end
    table.sort(order)
    for _, name in ipairs(order) do
        local k = kinds[name]
        print(string.format("%-11s %-13s %6d %10.3f %10.3f %8d %8d", case, name, k.n, k.max / 1000, k.max_cpu / 1000,
                            k.over, k.over_cpu))
    end
end
os.remove(trace)
