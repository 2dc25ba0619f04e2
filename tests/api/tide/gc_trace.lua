-- API test (libtide only): trace files (gc_trace.c): tide_gc_trace_open and
-- tide_gc_trace_close write Chrome trace-event JSON that Perfetto opens.
local gc_trace = require("gc_trace")
local cjson = require("cjson")

local function read(path)
    local f = assert(io.open(path, "rb"))
    local text = f:read("a")
    f:close()
    return text
end

local function decode(path)
    local ok, doc = pcall(cjson.decode, read(path))
    if not ok then error("not JSON: " .. path .. ": " .. tostring(doc)) end
    return doc
end

-- Short-lived tables, enough for several nursery collections (the nursery
-- is 4 MiB by default).
local function churn()
    local keep = {}
    for i = 1, 300000 do keep[i % 64 + 1] = { i, i + 1, tostring(i) } end
end

local PHASES = { idle = true, ["initial-mark"] = true, marking = true, ["final-mark"] = true,
                 sweeping = true, ["sync-major"] = true }
local PAUSES = { minor = true, ["initial-mark"] = true, ["final-mark"] = true, ["sync-major"] = true,
                 emergency = true, ["mark-step"] = true, ["sweep-step"] = true,
                 ["stack-step"] = true }

-- What the trace holds, checked: pauses by kind (each a complete event
-- with a positive duration and heap sizes), phase changes (valid names).
local function summarize(doc)
    assert(type(doc.traceEvents) == "table", "no traceEvents array")
    local s = { pauses = {}, phase_changes = 0, phase_spans = 0, process_named = false }
    for _, e in ipairs(doc.traceEvents) do
        assert(type(e.name) == "string" and type(e.ph) == "string", "an event without name or ph")
        if e.ph == "M" and e.name == "process_name" then s.process_named = true end
        if e.ph ~= "M" then assert(type(e.ts) == "number" and e.ts > 0, "bad ts in " .. e.name) end
        if e.ph == "X" and e.tid == 2 then
            assert(PAUSES[e.name], "unknown pause kind " .. e.name)
            assert(e.dur > 0, "a pause of no duration")
            assert(e.args.heap_before > 0 and e.args.heap_after > 0, "pause without heap sizes")
            assert(e.args.frame == 0, "a pause in a frame")
            -- the thread's processor time in it: at most the pause
            assert(type(e.args.cpu_us) == "number" and e.args.cpu_us >= 0 and e.args.cpu_us <= e.dur,
                   "a pause's processor time is not within it")
            if e.args.cpu_us > 0 then s.cpu_timed = (s.cpu_timed or 0) + 1 end
            s.pauses[e.name] = (s.pauses[e.name] or 0) + 1
        elseif e.ph == "X" and e.tid == 3 then
            assert(PHASES[e.name] and e.name ~= "idle", "bad phase span " .. e.name)
            s.phase_spans = s.phase_spans + 1
        elseif e.name == "phase-change" then
            assert(e.ph == "i", "phase-change is not an instant")
            assert(PHASES[e.args.from] and PHASES[e.args.to], "bad phase names")
            assert(e.args.from ~= e.args.to, "a change to the same phase")
            s.phase_changes = s.phase_changes + 1
        end
    end
    return s
end

-- Opening what cannot be created fails with an errno value.
print(gc_trace.open("/nonexistent-dir/trace.json") ~= 0) -- expect: true
print(gc_trace.einval() ~= 0)                             -- expect: true

local first, second = os.tmpname(), os.tmpname()
print(gc_trace.open(first))                               -- expect: 0
-- Right after opening, the file is already a complete document.
local doc = decode(first)
print(#doc.traceEvents > 0, summarize(doc).process_named) -- expect: true	true

churn()
collectgarbage()
-- Opening another trace completes the first.
print(gc_trace.open(second))                              -- expect: 0
local s = summarize(decode(first))
print((s.pauses.minor or 0) >= 2, s.pauses["sync-major"] ~= nil) -- expect: true	true
print((s.cpu_timed or 0) > 0)                             -- expect: true
print(s.phase_changes >= 2, s.phase_spans >= 1)           -- expect: true	true

-- A failed open leaves the open trace recording.
print(gc_trace.open("/nonexistent-dir/again.json") ~= 0)  -- expect: true
collectgarbage()
gc_trace.close()
gc_trace.close() -- closing twice is harmless
s = summarize(decode(second))
print(s.pauses["sync-major"] ~= nil)                      -- expect: true

-- After close, nothing more is written.
local size = #read(second)
churn()
collectgarbage()
print(#read(second) == size)                              -- expect: true

os.remove(first)
os.remove(second)
