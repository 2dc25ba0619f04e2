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

local TIME = "/usr/bin/time"   -- GNU time (Debian package `time`): peak RSS

---------------------------------------------------------------------------
-- Utilities

local function shquote(s)
    return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

local function read_file(path)
    local f = io.open(path, "rb")
    if not f then return nil end
    local s = f:read("a")
    f:close()
    return s
end

local function file_exists(path) return read_file(path) ~= nil end

local function capture(command)
    local p = io.popen(command, "r")
    local s = p:read("a") or ""
    p:close()
    return (s:gsub("%s+$", ""))
end

local function usage(message)
    if message then io.stderr:write("bench_core.lua: ", message, "\n") end
    io.stderr:write("usage: lua5.4 tools/bench_core.lua [--runs N] [--tide PATH] [--lua PATH] " ..
                    "[--out FILE] [FILTER]\n")
    os.exit(2)
end

local function median(values)
    local t = {}
    for i, v in ipairs(values) do t[i] = v end
    table.sort(t)
    local n = #t
    if n == 0 then return nil end
    if n % 2 == 1 then return t[(n + 1) // 2] end
    return (t[n // 2] + t[n // 2 + 1]) / 2
end

---------------------------------------------------------------------------
-- Options; paths are relative to the project root, found from arg[0]

local ROOT = (arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
if (arg[0] or ""):match("^tools/") then ROOT = "." end

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

if not file_exists(TIME) then
    io.stderr:write("bench_core.lua: needs ", TIME, " (GNU time) for the peak RSS: " ..
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

-- Runs [interpreter] on [path]; returns seconds, peak MiB, or nil and why.
-- bash's `time` gives milliseconds of wall time (GNU time's %e only
-- hundredths); GNU time, run inside it, gives the peak RSS.
local function timed_run(interpreter, path)
    local wall, mem, err = scratch .. "/wall", scratch .. "/mem", scratch .. "/err"
    local inner = string.format("TIMEFORMAT=%%3R; { time %s -f %%M -o %s %s %s >/dev/null 2>%s ; } 2>%s",
        TIME, shquote(mem), shquote(interpreter), shquote(path), shquote(err), shquote(wall))
    local ok, how, code = os.execute("bash -c " .. shquote(inner))
    if not ok then
        local first = (read_file(err) or ""):match("[^\n]+")
        local why = (how == "signal" and "signal " or "exit status ") .. tostring(code)
        return nil, first and (why .. ": " .. first:gsub("|", "/")) or why
    end
    local seconds = tonumber((read_file(wall) or ""):match("([%d%.]+)%s*$"))
    local kib = tonumber((read_file(mem) or ""):match("(%d+)%s*$"))
    if not seconds or not kib then return nil, "could not read the measurements" end
    return seconds, kib / 1024
end

---------------------------------------------------------------------------
-- The runs, interleaved per program

local SIDES = { { key = "tide", path = options.tide }, { key = "lua", path = options.lua } }

local started = os.time()
local results = {}
for _, program in ipairs(programs) do
    local r = { name = program.name, tide = { s = {}, mib = {} }, lua = { s = {}, mib = {} } }
    for run = 1, options.runs do
        for _, side in ipairs(SIDES) do
            local seconds, mib = timed_run(side.path, program.path)
            if seconds then
                table.insert(r[side.key].s, seconds)
                table.insert(r[side.key].mib, mib)
                io.stderr:write(string.format("%-14s %-5s run %d: %7.3f s %8.1f MiB\n",
                    program.name, side.key, run, seconds, mib))
            else
                r[side.key].error = r[side.key].error or string.format("run %d: %s", run, mib)
                io.stderr:write(string.format("%-14s %-5s run %d: ERROR %s\n", program.name, side.key, run, mib))
            end
        end
    end
    results[#results + 1] = r
end
os.execute("rm -rf " .. shquote(scratch))

---------------------------------------------------------------------------
-- The table

local HEADER = { "program", "tide s", "lua5.4 s", "time ratio", "tide MiB", "lua5.4 MiB", "RSS ratio" }

local function ratio_text(a, b)
    if not a or not b or b == 0 then return "n/a" end
    return string.format("%.2f", a / b)
end

local rows, log_time, log_mem, counted = {}, 0, 0, 0
for _, r in ipairs(results) do
    local ts, ls = median(r.tide.s), median(r.lua.s)
    local tm, lm = median(r.tide.mib), median(r.lua.mib)
    -- A program that failed on a side does not count in the means.
    local complete = not r.tide.error and not r.lua.error and ts and ls and ls > 0 and lm > 0
    if complete then
        log_time = log_time + math.log(ts / ls)
        log_mem = log_mem + math.log(tm / lm)
        counted = counted + 1
    end
    local function cell(side, v, fmt)
        if r[side].error then return "ERROR " .. r[side].error end
        return v and string.format(fmt, v) or "n/a"
    end
    rows[#rows + 1] = { r.name, cell("tide", ts, "%.3f"), cell("lua", ls, "%.3f"),
                        complete and ratio_text(ts, ls) or "n/a",
                        cell("tide", tm, "%.1f"), cell("lua", lm, "%.1f"),
                        complete and ratio_text(tm, lm) or "n/a" }
end
local geo_time = counted > 0 and string.format("%.3f", math.exp(log_time / counted)) or "n/a"
local geo_mem = counted > 0 and string.format("%.3f", math.exp(log_mem / counted)) or "n/a"

local function print_table()
    local widths = {}
    for c, h in ipairs(HEADER) do widths[c] = #h end
    for _, row in ipairs(rows) do
        for c, v in ipairs(row) do widths[c] = math.max(widths[c], #v) end
    end
    local function line(row)
        local cells = {}
        for c, v in ipairs(row) do
            cells[c] = c == 1 and v .. string.rep(" ", widths[c] - #v) or string.rep(" ", widths[c] - #v) .. v
        end
        print(table.concat(cells, "  "))
    end
    line(HEADER)
    for _, row in ipairs(rows) do line(row) end
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
