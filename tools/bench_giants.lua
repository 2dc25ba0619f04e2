-- tools/bench_giants.lua — issue 5, item 3: does any "indivisible giant"
-- make a pause long? Runs bench/gc/giants.lua (a 2M-entry table rewritten
-- while marked; a 990,000-node list moved onto the stack while marked; 100,000
-- live coroutines) on the Release `tide` with TIDE_GC_TRACE, and prints,
-- per case, the count and the longest pause of each kind. The runs are in
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
print(string.format("%-11s %-13s %6s %10s", "case", "pause", "count", "max ms"))
for _, case in ipairs(cases) do
    local cmd = string.format("TIDE_GC_DEBUG=low-latency TIDE_GC_TRACE=%s %s %s %s >/dev/null", lib.shquote(trace), lib.shquote(tide),
                              lib.shquote(ROOT .. "/bench/gc/giants.lua"), lib.shquote(case))
    assert(os.execute(cmd), "the run failed: " .. cmd)
    local doc = cjson.decode(assert(lib.read_file(trace)))
    local kinds, order = {}, {}
    for _, e in ipairs(doc.traceEvents) do
        if e.ph == "X" and e.cat == "gc" and e.tid ~= nil and e.args and e.args.frame ~= nil then
            local k = kinds[e.name]
            if not k then k = { n = 0, max = 0 }; kinds[e.name] = k; order[#order + 1] = e.name end
            k.n = k.n + 1
            if e.dur > k.max then k.max = e.dur end
        end
    end
    table.sort(order)
    for _, name in ipairs(order) do
        print(string.format("%-11s %-13s %6d %10.3f", case, name, kinds[name].n, kinds[name].max / 1000))
    end
end
os.remove(trace)
