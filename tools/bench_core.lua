-- tools/bench_core.lua — time the core benchmarks (bench/core/*.lua) on the
-- `tide` interpreter and on stock lua5.4, interleaved, and write
-- reports/bench-core.md. Stock Lua 5.4 only.
--
--   lua5.4 tools/bench_core.lua [--runs N] [--tide PATH] [--lua PATH] [--out FILE] [FILTER]
--
-- Each program runs N times on each interpreter, alternating (tide, lua,
-- tide, lua, ...) so that machine noise falls on both alike; the table
-- shows the median wall time and the median peak RSS of each, and their
-- ratios (tide / lua5.4: below 1 means Tide is faster or smaller), then the
-- geometric means of the ratios. See tools/README.md.

-- Paths are relative to the project root, found from arg[0].
local ROOT = ((arg[0] or ""):match("^tools/") and ".") or (arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
local lib = dofile(ROOT .. "/tools/benchlib.lua")
local shquote, read_file, file_exists, capture, median = lib.shquote, lib.read_file, lib.file_exists, lib.capture, lib.median

---------------------------------------------------------------------------
-- Utilities

local function usage(message)
    if message then io.stderr:write("bench_core.lua: ", message, "\n") end
    io.stderr:write("usage: lua5.4 tools/bench_core.lua [--runs N] [--tide PATH] [--lua PATH] " ..
                    "[--out FILE] [FILTER]\n")
    os.exit(2)
end

---------------------------------------------------------------------------
-- Options

local options = { runs = 3, tide = ROOT .. "/bin/Release/tide", lua = "lua5.4",
                  out = ROOT .. "/reports/bench-core.md", filter = nil }
do
    local i = 1
    while i <= #arg do
        local a = arg[i]
        local function value()
            i = i + 1
            if arg[i] == nil then usage(a .. " needs a value") end
            return arg[i]
        end
        if a == "--runs" then
            options.runs = math.tointeger(tonumber(value()))
            if not options.runs or options.runs < 1 then usage("--runs needs a positive integer") end
        elseif a == "--tide" then options.tide = value()
        elseif a == "--lua" then options.lua = value()
        elseif a == "--out" then options.out = value()
        elseif a:sub(1, 1) == "-" then usage("unknown option " .. a)
        elseif options.filter then usage("only one FILTER")
        else options.filter = a
        end
        i = i + 1
    end
end

if not file_exists(lib.TIME) then
    io.stderr:write("bench_core.lua: needs ", lib.TIME, " (GNU time) for the peak RSS: " ..
                    "apt-get install time (./build.sh deps installs it)\n")
    os.exit(1)
end
if options.tide:find("/") and not file_exists(options.tide) then
    io.stderr:write("bench_core.lua: no tide interpreter at ", options.tide,
                    " (./build.sh build release builds it; --tide PATH picks another)\n")
    os.exit(1)
end

local programs = {}
for path in capture("ls -1 " .. shquote(ROOT .. "/bench/core") .. "/*.lua 2>/dev/null"):gmatch("[^\n]+") do
    local name = path:match("([^/]+)%.lua$")
    if not options.filter or name:find(options.filter, 1, true) then
        programs[#programs + 1] = { name = name, path = path }
    end
end
table.sort(programs, function(a, b) return a.name < b.name end)
if #programs == 0 then usage("no program in bench/core matches " .. tostring(options.filter)) end

---------------------------------------------------------------------------
-- One timed run

local scratch = capture("mktemp -d")
assert(scratch ~= "", "mktemp -d failed")

---------------------------------------------------------------------------
-- The runs, interleaved per program

local started = os.time()
local results = lib.run_programs(scratch, programs, options.runs, options.tide, options.lua)
os.execute("rm -rf " .. shquote(scratch))

---------------------------------------------------------------------------
-- The table

local HEADER = lib.RATIO_HEADER
local rows, geo_time, geo_mem, counted = lib.ratio_rows(results)

local function print_table()
    lib.text_table(HEADER, rows)
    print(string.format("geometric mean of the ratios (%d programs): time %s, peak RSS %s",
        counted, geo_time, geo_mem))
end

local function markdown()
    local out = {}
    local function add(s) out[#out + 1] = s end
    local cmdline = { "lua5.4 tools/bench_core.lua" }
    for _, a in ipairs(arg) do cmdline[#cmdline + 1] = a:match("^[%w%-%./=_]+$") and a or shquote(a) end
    add("# Core benchmarks: tide vs lua5.4")
    add("")
    add("- date: " .. os.date("%Y-%m-%d %H:%M:%S %Z"))
    add(string.format("- machine: %s, %s CPUs, %s", capture("uname -m"), capture("nproc"),
        (read_file("/proc/cpuinfo") or ""):match("model name%s*:%s*([^\n]+)") or "unknown CPU"))
    add("- command: `" .. table.concat(cmdline, " ") .. "`")
    add(string.format("- tide: `%s` (%s)", options.tide, capture(shquote(options.tide) .. " -v 2>&1 </dev/null")))
    add(string.format("- lua5.4: `%s` (%s)", options.lua, capture(shquote(options.lua) .. " -v 2>&1 </dev/null")))
    add(string.format("- %d runs of each program on each interpreter, interleaved; medians of " ..
        "wall time and peak RSS; ratios are tide / lua5.4 (below 1: tide faster or smaller); " ..
        "%d s in all", options.runs, os.time() - started))
    add("")
    add("| " .. table.concat(HEADER, " | ") .. " |")
    add("|---|" .. string.rep("---:|", #HEADER - 1))
    for _, row in ipairs(rows) do add("| " .. table.concat(row, " | ") .. " |") end
    add(string.format("| **geometric mean** (%d) | | | **%s** | | | **%s** |", counted, geo_time, geo_mem))
    add("")
    return table.concat(out, "\n")
end

print_table()
local dir = options.out:match("^(.*)/[^/]*$")
if dir then os.execute("mkdir -p " .. shquote(dir)) end
local f = assert(io.open(options.out, "wb"))
f:write(markdown())
f:close()
print("written: " .. options.out)
