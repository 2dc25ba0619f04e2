-- tools/benchlib.lua — what the benchmark tools (bench_core.lua, bench_gc.lua,
-- compare.lua and the others) share: shell helpers, reading the host's
-- JSON, medians, one timed run (wall time and peak RSS), the interleaved
-- runs of a list of programs on tide and lua5.4, the ratio table with its
-- geometric means, and a plain-text table. Stock Lua 5.4 and lua-cjson
-- (Debian's lua-cjson, which ./build.sh installs); loaded with
-- dofile(ROOT .. "/tools/benchlib.lua").

local lib = {}

lib.TIME = "/usr/bin/time" -- GNU time (Debian package `time`): peak RSS

function lib.shquote(s)
    return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

function lib.read_file(path)
    local f = io.open(path, "rb")
    if not f then return nil end
    local s = f:read("a")
    f:close()
    return s
end

function lib.file_exists(path) return lib.read_file(path) ~= nil end

-- The value of the JSON text [text] (raises on bad JSON). null reads as
-- nil, and a number with no fraction as an integer, as the host wrote it
-- (cjson reads every number as a float: a count would print as 12.0).
function lib.json_decode(text)
    local cjson = require("cjson")
    local function plain(v)
        if v == cjson.null then return nil end
        if math.type(v) == "float" then return math.tointeger(v) or v end
        if type(v) == "table" then
            for k, x in pairs(v) do v[k] = plain(x) end
        end
        return v
    end
    return plain(cjson.decode(text))
end

function lib.capture(command)
    local p = io.popen(command, "r")
    local s = p:read("a") or ""
    p:close()
    return (s:gsub("%s+$", ""))
end

function lib.median(values)
    local t = {}
    for i, v in ipairs(values) do t[i] = v end
    table.sort(t)
    local n = #t
    if n == 0 then return nil end
    if n % 2 == 1 then return t[(n + 1) // 2] end
    return (t[n // 2] + t[n // 2 + 1]) / 2
end

-- Runs [interpreter] on [path] with its files in [scratch]; returns
-- seconds, peak MiB, or nil and why. bash's `time` gives milliseconds of
-- wall time (GNU time's %e only hundredths); GNU time, run inside it,
-- gives the peak RSS.
function lib.timed_run(scratch, interpreter, path)
    local shquote, read_file = lib.shquote, lib.read_file
    local wall, mem, err = scratch .. "/wall", scratch .. "/mem", scratch .. "/err"
    local inner = string.format("TIMEFORMAT=%%3R; { time %s -f %%M -o %s %s %s >/dev/null 2>%s ; } 2>%s",
        lib.TIME, shquote(mem), shquote(interpreter), shquote(path), shquote(err), shquote(wall))
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

-- Every program of [programs] ({name, path}) [runs] times on each of
-- [tide] and [lua], alternating, with a progress line on stderr for each
-- run. Returns one result per program: {name, tide = {s, mib, error},
-- lua = {...}}.
function lib.run_programs(scratch, programs, runs, tide, lua)
    local sides = { { key = "tide", path = tide }, { key = "lua", path = lua } }
    local results = {}
    for _, program in ipairs(programs) do
        local r = { name = program.name, tide = { s = {}, mib = {} }, lua = { s = {}, mib = {} } }
        for run = 1, runs do
            for _, side in ipairs(sides) do
                local seconds, mib = lib.timed_run(scratch, side.path, program.path)
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
    return results
end

lib.RATIO_HEADER = { "program", "tide s", "lua5.4 s", "time ratio", "tide MiB", "lua5.4 MiB", "RSS ratio" }

local function ratio_text(a, b)
    if not a or not b or b == 0 then return "n/a" end
    return string.format("%.2f", a / b)
end

-- The rows of the ratio table (RATIO_HEADER), the geometric means of the
-- time and memory ratios (as text) and how many programs they count (one
-- that failed on a side does not).
function lib.ratio_rows(results)
    local median = lib.median
    local rows, log_time, log_mem, counted = {}, 0, 0, 0
    for _, r in ipairs(results) do
        local ts, ls = median(r.tide.s), median(r.lua.s)
        local tm, lm = median(r.tide.mib), median(r.lua.mib)
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
    return rows, geo_time, geo_mem, counted
end

-- Options "--NAME VALUE" into [defaults] (a table of defaults: numbers
-- stay numbers, strings stay strings); any other argument, or a missing
-- value, prints [usage] and exits with status 2.
function lib.parse_options(args, defaults, usage)
    local i = 1
    while i <= #args do
        local k = args[i]:match("^%-%-(.+)$")
        local v = args[i + 1]
        if not k or defaults[k] == nil or v == nil or (type(defaults[k]) == "number" and not tonumber(v)) then
            io.stderr:write("usage: " .. usage .. "\n")
            os.exit(2)
        end
        defaults[k] = type(defaults[k]) == "number" and tonumber(v) or v
        i = i + 2
    end
    return defaults
end

-- Print [header] and the rows of [body] (lists of strings) as aligned
-- columns: the first left-aligned, the others right-aligned.
function lib.text_table(header, body)
    local widths = {}
    for c, h in ipairs(header) do widths[c] = #h end
    for _, row in ipairs(body) do
        for c, v in ipairs(row) do widths[c] = math.max(widths[c], #v) end
    end
    local function line(row)
        local cells = {}
        for c, v in ipairs(row) do
            cells[c] = c == 1 and v .. string.rep(" ", widths[c] - #v) or string.rep(" ", widths[c] - #v) .. v
        end
        print(table.concat(cells, "  "))
    end
    line(header)
    for _, row in ipairs(body) do line(row) end
end

return lib
