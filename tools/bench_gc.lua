-- tools/bench_gc.lua — the collector benchmarks: allocation-heavy programs
-- (bench/gc/*.lua) on the `tide` interpreter and on stock lua5.4,
-- interleaved, then a world game (bench/gc/world_old_young) on the hosts —
-- tidehost-tide and tidehost-lua54 (incremental and generational) — with
-- its frame times and, on tide, its pauses by kind. Writes
-- reports/bench-gc.md. Stock Lua 5.4 and lua-cjson.
--
--   lua5.4 tools/bench_gc.lua [--quick] [--runs N] [--world-runs N] [--frames N]
--                             [--seed N] [--tide PATH] [--lua PATH] [--bin DIR]
--                             [--out FILE] [FILTER]
--
-- Programs: each runs N times on each interpreter, alternating (tide, lua,
-- tide, lua, ...); the table shows median wall time and median peak RSS,
-- their ratios (tide / lua5.4) and the geometric means, as
-- tools/bench_core.lua does. World: each setting runs R times, the
-- settings interleaved (run 1 of each, then run 2 of each, ...); each
-- run's numbers are shown, "a / b", since a maximum from one run is noise
-- (DESIGN §6). See tools/README.md.

local WORLD_GAME = "world_old_young"

-- The world benchmark's settings: host binary (in --bin) and its flags.
local WORLD_SETTINGS = {
    { name = "tide default", binary = "tidehost-tide", args = { "--gc", "default" }, tide = true },
    { name = "lua5.4 incremental", binary = "tidehost-lua54", args = { "--gc", "incremental" } },
    { name = "lua5.4 generational", binary = "tidehost-lua54", args = { "--gc", "generational" } },
}
-- The pause kinds tide reports (host/README.md, "Pauses"), in this order.
local PAUSE_KINDS = { "minor", "initial-mark", "final-mark", "sync-major", "emergency", "mark-step", "sweep-step", "stack-step", "other" }

---------------------------------------------------------------------------
-- Utilities

local ROOT = ((arg[0] or ""):match("^tools/") and ".") or (arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
local lib = dofile(ROOT .. "/tools/benchlib.lua")
local shquote, read_file, file_exists, capture, median = lib.shquote, lib.read_file, lib.file_exists, lib.capture, lib.median

local function now() -- wall clock with sub-second resolution
    return tonumber(capture("date +%s.%N 2>/dev/null")) or os.time()
end

local USAGE = "usage: lua5.4 tools/bench_gc.lua [--quick] [--runs N] [--world-runs N] [--frames N] " ..
              "[--seed N] [--tide PATH] [--lua PATH] [--bin DIR] [--out FILE] [FILTER]\n"

local function usage(message)
    if message then io.stderr:write("bench_gc.lua: ", message, "\n") end
    io.stderr:write(USAGE)
    os.exit(2)
end

-- Nearest rank, as the host computes its percentiles (host/README.md).
local function percentile(sorted, p)
    local n = #sorted
    if n == 0 then return nil end
    local rank = math.max(1, math.min(n, math.ceil(p / 100 * n - 1e-9)))
    return sorted[rank]
end

---------------------------------------------------------------------------
-- Options; paths are relative to the project root, found from arg[0]

local options = { runs = nil, world_runs = nil, frames = nil, seed = 1,
                  tide = ROOT .. "/bin/Release/tide", lua = "lua5.4", bin = ROOT .. "/bin/Release",
                  out = ROOT .. "/reports/bench-gc.md", filter = nil, quick = false }
do
    local i = 1
    while i <= #arg do
        local a = arg[i]
        local function value()
            i = i + 1
            if arg[i] == nil then usage(a .. " needs a value") end
            return arg[i]
        end
        local function count(min)
            local n = math.tointeger(tonumber(value()))
            if not n or n < min then usage(a .. " needs an integer of at least " .. min) end
            return n
        end
        if a == "--runs" then options.runs = count(1)
        elseif a == "--world-runs" then options.world_runs = count(0)
        elseif a == "--frames" then options.frames = count(1)
        elseif a == "--seed" then options.seed = count(0)
        elseif a == "--tide" then options.tide = value()
        elseif a == "--lua" then options.lua = value()
        elseif a == "--bin" then options.bin = value()
        elseif a == "--out" then options.out = value()
        elseif a == "--quick" then options.quick = true
        elseif a == "--help" or a == "-h" then io.stdout:write(USAGE) os.exit(0)
        elseif a:sub(1, 1) == "-" then usage("unknown option " .. a)
        elseif options.filter then usage("only one FILTER")
        else options.filter = a
        end
        i = i + 1
    end
    -- --quick: one run of each program, one 150-frame run of each world
    -- setting (about a minute); explicit options still win.
    options.runs = options.runs or (options.quick and 1 or 3)
    options.world_runs = options.world_runs or (options.quick and 1 or 2)
    options.frames = options.frames or (options.quick and 150 or 600)
end

if not file_exists(lib.TIME) then
    io.stderr:write("bench_gc.lua: needs ", lib.TIME, " (GNU time) for the peak RSS: " ..
                    "apt-get install time (./build.sh deps installs it)\n")
    os.exit(1)
end

local function selected(name)
    return not options.filter or name:find(options.filter, 1, true) ~= nil
end

local programs = {}
for path in capture("ls -1 " .. shquote(ROOT .. "/bench/gc") .. "/*.lua 2>/dev/null"):gmatch("[^\n]+") do
    local name = path:match("([^/]+)%.lua$")
    if selected(name) then programs[#programs + 1] = { name = name, path = path } end
end
table.sort(programs, function(a, b) return a.name < b.name end)
local world_wanted = selected(WORLD_GAME) and options.world_runs > 0
if #programs == 0 and not world_wanted then
    usage("nothing in bench/gc matches " .. tostring(options.filter))
end
if #programs > 0 and options.tide:find("/") and not file_exists(options.tide) then
    io.stderr:write("bench_gc.lua: no tide interpreter at ", options.tide,
                    " (./build.sh build release builds it; --tide PATH picks another)\n")
    os.exit(1)
end

local scratch = capture("mktemp -d")
assert(scratch ~= "", "mktemp -d failed")
local started = now()

---------------------------------------------------------------------------
-- Part 1: the programs, as tools/bench_core.lua runs bench/core

local results = lib.run_programs(scratch, programs, options.runs, options.tide, options.lua)

local HEADER = lib.RATIO_HEADER
local rows, geo_time, geo_mem, counted = lib.ratio_rows(results)

---------------------------------------------------------------------------
-- Part 2: the world game on the hosts

-- pauses.csv (host/README.md, "Pauses") split into the pauses of the
-- frames (frame >= 0: in a frame or in the idle time after it) and those of
-- loading (frame -1, while the main chunk built the world): per kind, the
-- sorted durations in ms.
local function read_pauses(path)
    local text = read_file(path)
    if not text then return nil end
    local play, loading = {}, {}
    local columns
    for line in text:gmatch("[^\r\n]+") do
        local fields = {}
        for field in (line .. ","):gmatch("([^,]*),") do fields[#fields + 1] = field end
        if not columns then
            columns = {}
            for i, name in ipairs(fields) do columns[name] = i end
        else
            local frame = tonumber(fields[columns.frame or 1])
            local kind = fields[columns.kind or 2]
            local ms = (tonumber(fields[columns.duration_ns or 5]) or 0) / 1e6
            local into = frame and frame >= 0 and play or loading
            into[kind] = into[kind] or {}
            table.insert(into[kind], ms)
        end
    end
    for _, by_kind in ipairs({ play, loading }) do
        for _, list in pairs(by_kind) do table.sort(list) end
    end
    return { play = play, loading = loading }
end

local has_timeout = os.execute("command -v timeout >/dev/null 2>&1")
local report_dir = (options.out:match("^(.*)/[^/]*$") or ".") .. "/bench-gc"

local world = { settings = {}, skipped = {} }
if world_wanted then
    for _, s in ipairs(WORLD_SETTINGS) do
        local path = options.bin .. "/" .. s.binary
        if file_exists(path) then
            world.settings[#world.settings + 1] = { name = s.name, path = path, args = s.args,
                                                    tide = s.tide, runs = {} }
        else
            world.skipped[#world.skipped + 1] = string.format("%s (%s not built)", s.name, path)
            io.stderr:write(string.format("%s: skipped, %s not built (./build.sh build release)\n",
                s.name, path))
        end
    end
end

local function slug(s) return (s:gsub("[^%w%.%-]+", "-")) end

-- One headless run of the world game; returns a result table (with
-- .error when the run failed).
local function world_run(setting, r)
    local dir = string.format("%s/%s/%s/run%d", report_dir, WORLD_GAME, slug(setting.name), r)
    os.execute("rm -rf " .. shquote(dir) .. " && mkdir -p " .. shquote(dir))
    local parts = { setting.path, "--headless", "--quiet", "--frames", tostring(options.frames),
                    "--seed", tostring(options.seed), "--watchdog-ms", "0" }
    for _, a in ipairs(setting.args) do parts[#parts + 1] = a end
    parts[#parts + 1] = "--report"
    parts[#parts + 1] = dir
    parts[#parts + 1] = ROOT .. "/bench/gc/" .. WORLD_GAME
    local quoted = {}
    for i, p in ipairs(parts) do quoted[i] = shquote(p) end
    local command = table.concat(quoted, " ")
    if has_timeout then command = "timeout 900 " .. command end
    local t0 = now()
    local ok, how, code = os.execute(command .. " >" .. shquote(dir .. "/stdout.txt") ..
                                     " 2>" .. shquote(dir .. "/stderr.txt"))
    local res = { dir = dir, wall = now() - t0 }
    local first = (read_file(dir .. "/stderr.txt") or ""):match("[^\r\n]*%S[^\r\n]*")
    local js = read_file(dir .. "/summary.json")
    if js then
        local okj, summary = pcall(lib.json_decode, js)
        if okj and type(summary) == "table" then res.summary = summary
        else res.error = "unreadable summary.json: " .. tostring(summary) end
    end
    if not ok then
        local why = how == "signal" and ("signal " .. tostring(code)) or ("exit status " .. tostring(code))
        if how == "exit" and code == 124 and has_timeout then why = "timed out" end
        res.error = why .. ": " .. (first or "(no stderr)")
    elseif res.summary and type(res.summary.error) == "string" then
        res.error = res.summary.error:match("[^\n]*")
    elseif not res.summary and not res.error then
        res.error = "no summary.json written" .. (first and (": " .. first) or "")
    end
    if not res.error and setting.tide then
        res.pauses = read_pauses(dir .. "/pauses.csv")
        if not res.pauses then res.error = "no pauses.csv in the report" end
    end
    if res.error then res.error = res.error:gsub("|", "/") end
    return res
end

for r = 1, world_wanted and options.world_runs or 0 do
    for _, setting in ipairs(world.settings) do
        local res = world_run(setting, r)
        setting.runs[r] = res
        if res.error then
            io.stderr:write(string.format("%-14s %-20s run %d: ERROR %s\n", WORLD_GAME, setting.name, r, res.error))
        else
            local f = res.summary.frame_ms or {}
            io.stderr:write(string.format("%-14s %-20s run %d: %6.1f s, frame p50 %.2f p99 %.2f max %.2f ms\n",
                WORLD_GAME, setting.name, r, res.wall, f.p50 or 0, f.p99 or 0, f.max or 0))
        end
    end
end
os.execute("rm -rf " .. shquote(scratch))

-- "a / b" over the runs of [setting] of the value [get] returns.
local function per_run(setting, fmt, get)
    local cells = {}
    for r = 1, options.world_runs do
        local res = setting.runs[r]
        local v = res and not res.error and get(res)
        cells[#cells + 1] = v and string.format(fmt, v) or (res and res.error and "ERROR" or "n/a")
    end
    return table.concat(cells, " / ")
end

local WORLD_HEADER = { "setting", "frame p50 ms", "frame p99 ms", "frame max ms", "worst GC in a frame ms",
                       "frames > 16.7 ms", "run s", "peak RSS MiB" }
local world_rows = {}
for _, setting in ipairs(world.settings) do
    local function stat(key, field)
        return function(res) return type(res.summary[key]) == "table" and res.summary[key][field] end
    end
    world_rows[#world_rows + 1] = {
        setting.name,
        per_run(setting, "%.2f", stat("frame_ms", "p50")),
        per_run(setting, "%.2f", stat("frame_ms", "p99")),
        per_run(setting, "%.1f", stat("frame_ms", "max")),
        setting.tide and per_run(setting, "%.1f", stat("gc_ms", "max")) or "n/a (untimed)",
        per_run(setting, "%d", function(res) return res.summary.over_16_7 end),
        per_run(setting, "%.1f", function(res) return res.summary.total_s end),
        per_run(setting, "%.0f", function(res)
            return type(res.summary.peak_rss_kb) == "number" and res.summary.peak_rss_kb / 1024 end),
    }
end

-- Tide's pauses by kind, during play and while loading.
local PAUSE_HEADER = { "pauses (tide)", "count", "p50 ms", "p99 ms", "max ms", "total ms" }
local pause_rows = {}
local run_errors = {}
for _, setting in ipairs(world.settings) do
    for r = 1, options.world_runs do
        local res = setting.runs[r]
        if res and res.error then
            run_errors[#run_errors + 1] = string.format("%s run %d: %s", setting.name, r, res.error)
        end
    end
    if setting.tide then
        for _, phase in ipairs({ "play", "loading" }) do
            for _, kind in ipairs(PAUSE_KINDS) do
                local seen = false
                for r = 1, options.world_runs do
                    local res = setting.runs[r]
                    if res and res.pauses and res.pauses[phase][kind] then seen = true end
                end
                if seen then
                    local function of(fn)
                        return function(res)
                            local list = res.pauses[phase][kind]
                            return fn(list or {})
                        end
                    end
                    local label = string.format("%s %s", kind, phase == "play" and "(frames)" or "(loading)")
                    pause_rows[#pause_rows + 1] = {
                        label,
                        per_run(setting, "%d", of(function(l) return #l end)),
                        per_run(setting, "%.2f", of(function(l) return percentile(l, 50) or 0 end)),
                        per_run(setting, "%.2f", of(function(l) return percentile(l, 99) or 0 end)),
                        per_run(setting, "%.2f", of(function(l) return l[#l] or 0 end)),
                        per_run(setting, "%.1f", of(function(l)
                            local sum = 0
                            for _, v in ipairs(l) do sum = sum + v end
                            return sum
                        end)),
                    }
                end
            end
        end
        if #pause_rows == 0 then pause_rows[1] = { "(no pauses reported)", "", "", "", "", "" } end
    end
end

---------------------------------------------------------------------------
-- Output

local function md_table(add, header, body)
    add("| " .. table.concat(header, " | ") .. " |")
    add("|---|" .. string.rep("---:|", #header - 1))
    for _, row in ipairs(body) do add("| " .. table.concat(row, " | ") .. " |") end
end

local world_title = string.format("%s: %d frames, seed %d, %d run%s of each setting, interleaved " ..
    "(values per run: run 1 / run 2 ...)", WORLD_GAME, options.frames, options.seed,
    options.world_runs, options.world_runs == 1 and "" or "s")

if #rows > 0 then
    lib.text_table(HEADER, rows)
    print(string.format("geometric mean of the ratios (%d programs): time %s, peak RSS %s",
        counted, geo_time, geo_mem))
end
if #world.settings > 0 then
    if #rows > 0 then print("") end
    print(world_title)
    lib.text_table(WORLD_HEADER, world_rows)
    if #pause_rows > 0 then
        print("")
        lib.text_table(PAUSE_HEADER, pause_rows)
    end
end
for _, e in ipairs(run_errors) do print("ERROR " .. e) end
for _, s in ipairs(world.skipped) do print("skipped: " .. s) end

local function markdown()
    local out = {}
    local function add(s) out[#out + 1] = s end
    local cmdline = { "lua5.4 tools/bench_gc.lua" }
    for _, a in ipairs(arg) do cmdline[#cmdline + 1] = a:match("^[%w%-%./=_]+$") and a or shquote(a) end
    add("# Collector benchmarks: tide vs lua5.4")
    add("")
    add("- date: " .. os.date("%Y-%m-%d %H:%M:%S %Z"))
    add(string.format("- machine: %s, %s CPUs, %s", capture("uname -m"), capture("nproc"),
        (read_file("/proc/cpuinfo") or ""):match("model name%s*:%s*([^\n]+)") or "unknown CPU"))
    add("- command: `" .. table.concat(cmdline, " ") .. "`")
    add(string.format("- %d s in all", math.floor(now() - started + 0.5)))
    if #rows > 0 then
        add("")
        add("## Allocation-heavy programs (bench/gc)")
        add("")
        add(string.format("- tide: `%s` (%s)", options.tide, capture(shquote(options.tide) .. " -v 2>&1 </dev/null")))
        add(string.format("- lua5.4: `%s` (%s)", options.lua, capture(shquote(options.lua) .. " -v 2>&1 </dev/null")))
        add(string.format("- %d run%s of each program on each interpreter, interleaved; medians of " ..
            "wall time and peak RSS; ratios are tide / lua5.4 (below 1: tide faster or smaller)",
            options.runs, options.runs == 1 and "" or "s"))
        add("")
        md_table(add, HEADER, rows)
        add(string.format("| **geometric mean** (%d) | | | **%s** | | | **%s** |", counted, geo_time, geo_mem))
    end
    if #world.settings > 0 or #world.skipped > 0 then
        add("")
        add("## World: old objects, fresh tables (bench/gc/" .. WORLD_GAME .. ")")
        add("")
        add("- " .. world_title)
        add("- 1.2M live objects built before the first frame; every frame 20,000 fresh tables " ..
            "stored into random old entities (and as many dropped)")
        add(string.format("- hosts from `%s`, headless, `--watchdog-ms 0`; run folders (frames.csv, " ..
            "summary.json, pauses.csv on tide) in `%s/%s/`", options.bin, report_dir, WORLD_GAME))
        add("- worst GC in a frame: the host's `gc_ms.max`, exact on tide; stock Lua 5.4 collects " ..
            "inside allocation, untimed (its pauses show only in frame time)")
        add("")
        if #world.settings > 0 then md_table(add, WORLD_HEADER, world_rows) end
        if #pause_rows > 0 then
            add("")
            add("Tide's pauses by kind (from `pauses.csv`; \"frames\": in a frame or the idle time " ..
                "after it; \"loading\": while the main chunk built the world), nearest-rank percentiles:")
            add("")
            md_table(add, PAUSE_HEADER, pause_rows)
        end
        for _, e in ipairs(run_errors) do add("") add("- ERROR " .. e) end
        for _, s in ipairs(world.skipped) do add("") add("- skipped: " .. s) end
    end
    add("")
    return table.concat(out, "\n")
end

local dir = options.out:match("^(.*)/[^/]*$")
if dir then os.execute("mkdir -p " .. shquote(dir)) end
local f = assert(io.open(options.out, "wb"))
f:write(markdown())
f:close()
print("written: " .. options.out)
