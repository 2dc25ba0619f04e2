-- tests/run.lua — Tide's test runner. Run with stock Lua 5.4:
--
--   lua5.4 tests/run.lua [--bin DIR]... [--filter TEXT] [--verbose]
--                        [--gc-debug SPEC] [--jobs N]
--
-- Each --bin names a build output folder (bin/Debug, bin/address-Debug, ...);
-- every suite runs against every one. The test processes run N at a time
-- (--jobs, default: the number of CPUs), each with a TMPDIR of its own; the
-- results print in the same order whatever N is, each with its wall time,
-- and the slowest ten are listed at the end. Suites:
--   unit     the C unit-test binaries (tide-unit-tests; tide-gc-unit-tests,
--            the collector's major heap and large-object space), one result
--            per TEST
--   scripts  tests/scripts/*.lua on every interpreter target, checked against
--            their expectation comments, and on stock lua5.4 (the oracle)
--            when they use no extension; the `tide` interpreter runs them
--            three times — the collector's matrix: default settings; with
--            TIDE_GC_DEBUG=SPEC (by default collect-every=1000,verify,poison,
--            pretenure: a collection every 1000 allocations, every eighth a
--            full one, the heap verified around each, freed memory poisoned,
--            the first 16 KiB allocated after each born old); and with
--            TIDE_GC_DEBUG=tiny-nursery,cycles,verify-marks,poison (the
--            smallest nursery: a nursery collection every 64 KiB; major
--            cycles back to back, marking in small steps while the script
--            runs, each checked against a stop-the-world mark). The stress run is
--            --gc-debug collect-every=1,verify,poison --filter gc-debug
--            (README.md, "Tests")
--   host     tests/host/*.lua games run by every host, checked against their
--            expectation comments
--   api      the C API test pairs tests/api/NAME.c + NAME.lua (on libtide
--            also under TIDE_GC_DEBUG, as the scripts, and with the pairs
--            of tests/api/tide/, which test tide.h)
--   headers  Tide's public headers: they compile with every name used, and
--            declare everything stock liblua5.4 exports (once, not per --bin)
--   exports  libtide.so exports the whole API and nothing else
--   observe  the collector seen from outside (runtime/README.md): the USDT
--            probes (provider tide) are in libtide.so and `tide` (readelf
--            -n); TIDE_GC_TRACE makes `tide` write a trace file, and
--            --gc-trace the tide host, that is JSON with the pauses (and
--            frames) in it; the stock hosts refuse --gc-trace
--   cli      the hosts' command line: usage errors, a missing game
--   tide-cli the `tide` interpreter's command line, when a --bin folder has
--            it: the cases of tests/tide_cli_cases.lua (options, arg,
--            LUA_INIT, errors, the REPL, Ctrl-C, --memory-limit), each also
--            run on stock lua5.4 (the oracle) unless it tests a Tide
--            extension; the two must then print the same, modulo the
--            program name
--   window   each host in a real window on Xvfb for 30 frames
--   samples  every samples/*/main.lua for a few hundred headless frames on
--            every host, with its report checked
-- Prints one line a result, "PASS NAME (1.2 s)", and closes with "N passed,
-- N failed"; exits non-zero when anything failed. (A process that gives
-- several results, a unit-test binary, has its time on the last of them.)
--
-- Expectation comments (scripts and host tests):
--   -- expect: TEXT            the next stdout line is TEXT (anywhere on a line;
--                              scripts: stdout is exactly these lines; host
--                              tests: these lines, in order, among the rest)
--   -- expect error: TEXT      the run fails and stderr contains TEXT
--   -- requires: engine        uses the engine module: hosts only, not the oracle
--   -- requires: tide          tests a Tide behaviour stock Lua lacks (e.g. it
--                              survives a corrupt binary chunk): tide targets only
--   -- lua: 5.4                needs Lua 5.4: not run on LuaJIT targets
-- Host tests only:
--   -- host-args: ARGS         extra host arguments (e.g. --frames 5), shell
--                              words: ${TMPDIR:-/tmp} is the run's own folder
--   -- expect exit: N          exit status (default 0, or 1 with expect error)
--   -- expect stdout: TEXT     stdout contains TEXT
--   -- expect stderr: TEXT     stderr contains TEXT
--   -- expect report rows: N   the report's frames.csv has N data rows
--   -- expect report positive: KEY.FIELD
--                              summary.json's KEY.FIELD (e.g. gc_ms.max) is a
--                              number above 0
--   -- expect report positive: FILE.csv:COLUMN
--                              some row of the report's FILE.csv (frames.csv,
--                              pauses.csv) has COLUMN above 0
--   -- backends: NAME ...      run only on these hosts (lua54, luajit, tide)

local TIMEOUT_SECONDS = 300
local SAMPLE_FRAMES = 300

local options = { bins = {}, filter = nil, verbose = false, jobs = nil,
                  gc_debug = "collect-every=1000,verify,poison,pretenure",
                  tiny_nursery = "tiny-nursery,cycles,verify-marks,poison" }
do
    local i = 1
    while i <= #arg do
        local a = arg[i]
        if a == "--bin" then
            i = i + 1
            options.bins[#options.bins + 1] = arg[i]
        elseif a == "--filter" then
            i = i + 1
            options.filter = arg[i]
        elseif a == "--verbose" then
            options.verbose = true
        elseif a == "--gc-debug" then
            i = i + 1
            options.gc_debug = arg[i]
        elseif a == "--jobs" and math.tointeger(tonumber(arg[i + 1])) and tonumber(arg[i + 1]) > 0 then
            i = i + 1
            options.jobs = math.tointeger(tonumber(arg[i]))
        else
            io.stderr:write("usage: lua5.4 tests/run.lua [--bin DIR]... [--filter TEXT] [--verbose] " ..
                "[--gc-debug SPEC] [--jobs N]\n")
            os.exit(2)
        end
        i = i + 1
    end
    if #options.bins == 0 then options.bins = { "bin/Debug" } end
    if not options.jobs then
        local p = io.popen("nproc 2>/dev/null")
        options.jobs = math.tointeger(tonumber(p:read("l") or "")) or 1
        p:close()
    end
end
io.stdout:setvbuf("line") -- results show as they come, also through a pipe

---------------------------------------------------------------------------
-- Small helpers

local function shell_quote(s)
    return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

local function read_file(path)
    local f = io.open(path, "rb")
    if not f then return nil end
    local s = f:read("a")
    f:close()
    return s
end

local function file_exists(path)
    local f = io.open(path, "rb")
    if f then f:close() return true end
    return false
end

local function list(pattern)
    local out = {}
    local p = io.popen("ls -1 " .. pattern .. " 2>/dev/null")
    for line in p:lines() do out[#out + 1] = line end
    p:close()
    table.sort(out)
    return out
end

local scratch = os.getenv("TMPDIR") or "/tmp"
scratch = scratch .. "/tide-tests-" .. tostring(os.time()) .. "-" .. tostring(math.random(1 << 30))
assert(os.execute("mkdir -p " .. shell_quote(scratch)))

-- A fresh path in the scratch folder: [stem] and a number.
local scratch_counter = 0
local function scratch_path(stem)
    scratch_counter = scratch_counter + 1
    return scratch .. "/" .. stem .. scratch_counter
end

local function lines_of(text)
    local out = {}
    if text == "" then return out end
    if text:sub(-1) ~= "\n" then text = text .. "\n" end
    for line in text:gmatch("(.-)\n") do out[#out + 1] = line end
    return out
end

---------------------------------------------------------------------------
-- Test processes and results
--
-- The suites do not wait for their processes: spawn() queues a command with
-- the function that checks its outcome, and run_jobs() then runs the queue
-- [options.jobs] processes at a time. Each runs in the background under
-- `timeout`, with a TMPDIR of its own and its stdout and stderr in files,
-- and ends by writing "ID STATUS START END" (times from /proc/uptime) to a
-- FIFO that the runner reads (opened read-write: that write never waits,
-- not even when the runner is gone). The checks run, and their results
-- print, in the order the processes were queued: the output does not depend
-- on the number of jobs, and a check may use what an earlier one kept (a
-- tide-cli case's oracle run is compared with tide's run).
--
-- One of the N processes at a time is always the next in the queue, so that
-- results keep coming; the other N - 1 start the heavy processes first, by
-- a rough estimate of their weight (a sanitizer build's runs weigh four
-- times as much), so that no long one starts near the end.

local jobs = {}
local results = nil -- the current check's results: { name =, problems = }...

-- Queues [command] (a simple shell command; nil: nothing to run), whose
-- check(status, stdout, stderr) calls report(). [label] names the process in
-- the list of the slowest. [opts]: stdin (a file to read as standard input;
-- default /dev/null), exclusive (a name: two processes of one name never run
-- at the same time), weight (above 1: a heavy process, to start early; see
-- weight()).
local function spawn(label, command, check, opts)
    opts = opts or {}
    jobs[#jobs + 1] = { id = #jobs + 1, label = label, command = command, check = check,
                        stdin = opts.stdin or "/dev/null", exclusive = opts.exclusive,
                        weight = opts.weight or 1 }
end

-- The weight of a process that takes [base] times as long as most on a
-- build without sanitizers, when it runs a binary of [bin].
local function weight(base, bin)
    local sanitized = bin:find("address", 1, true) or bin:find("thread", 1, true)
    return sanitized and 4 * base or base
end

local function report(name, problems)
    if options.filter and not name:find(options.filter, 1, true) then return end
    results[#results + 1] = { name = name, problems = problems }
end

-- A result without a process (a missing binary, say), in its place in the order.
local function report_now(name, problems)
    spawn(name, nil, function() report(name, problems) end)
end

local function uptime()
    local f = assert(io.open("/proc/uptime"))
    local seconds = f:read("n")
    f:close()
    return seconds
end

local passed, failed = 0, 0
local failures = {}

local function print_results(job)
    for i, r in ipairs(job.results) do
        local time = ""
        if job.seconds and i == #job.results then
            time = #job.results == 1 and string.format(" (%.1f s)", job.seconds) or
                string.format(" (%.1f s: one process gave these %d results)", job.seconds, #job.results)
        end
        if #r.problems == 0 then
            passed = passed + 1
            print("PASS " .. r.name .. time)
        else
            failed = failed + 1
            print("FAIL " .. r.name .. time)
            for _, p in ipairs(r.problems) do print("     " .. p) end
            failures[#failures + 1] = r.name
        end
    end
end

local function start(job, fifo)
    local dir = scratch .. "/job" .. job.id
    job.out, job.err = dir .. ".out", dir .. ".err"
    assert(os.execute(string.format("(mkdir %s; TMPDIR=%s; export TMPDIR; read t0 _ </proc/uptime; " ..
        "timeout -k 5 %d %s >%s 2>%s <%s; " ..
        "st=$?; read t1 _ </proc/uptime; echo \"%d $st $t0 $t1\" 1<>%s) &",
        shell_quote(dir), shell_quote(dir), TIMEOUT_SECONDS, job.command, shell_quote(job.out),
        shell_quote(job.err), shell_quote(job.stdin), job.id, shell_quote(fifo))))
end

-- Runs the queue (see above) and prints the results.
local function run_jobs()
    local fifo = scratch .. "/done"
    assert(os.execute("mkfifo " .. shell_quote(fifo)))
    -- read and write: the opening waits for no writer, a read never meets the end of the file
    local done = assert(io.open(fifo, "r+"))
    local in_order, heavy = {}, {} -- not started yet, in the order to start them
    for _, job in ipairs(jobs) do
        if job.command then
            in_order[#in_order + 1] = job
            if job.weight > 1 then heavy[#heavy + 1] = job end
        end
    end
    table.sort(heavy, function(a, b) return a.weight > b.weight or a.weight == b.weight and a.id < b.id end)
    local busy = {} -- exclusive names in use
    -- the first job of [list] that may start now, removed from it
    local function take(list)
        local i = 1
        while i <= #list do
            local job = list[i]
            if job.started then
                table.remove(list, i)
            elseif job.exclusive and busy[job.exclusive] then
                i = i + 1
            else
                table.remove(list, i)
                return job
            end
        end
    end
    local running, heavy_running, next_check = 0, 0, 1
    while next_check <= #jobs do
        while running < options.jobs do
            local job = heavy_running < options.jobs - 1 and take(heavy) or take(in_order) or take(heavy)
            if not job then break end
            job.started = true
            start(job, fifo)
            running = running + 1
            if job.weight > 1 then heavy_running = heavy_running + 1 end
            if job.exclusive then busy[job.exclusive] = true end
        end
        if running > 0 then
            local line = assert(done:read("l"))
            local id, status, t0, t1 = line:match("^(%d+) (%d+) ([%d.]+) ([%d.]+)$")
            local job = jobs[assert(tonumber(id), line)]
            job.status, job.seconds = tonumber(status), tonumber(t1) - tonumber(t0)
            running = running - 1
            if job.weight > 1 then heavy_running = heavy_running - 1 end
            if job.exclusive then busy[job.exclusive] = nil end
        end
        -- check, in the queue's order, the jobs that are done
        while next_check <= #jobs and (jobs[next_check].status or not jobs[next_check].command) do
            local job = jobs[next_check]
            results = {}
            if job.command then
                job.check(job.status, read_file(job.out) or "", read_file(job.err) or "")
                os.remove(job.out)
                os.remove(job.err)
            else
                job.check()
            end
            job.results = results
            print_results(job)
            next_check = next_check + 1
        end
    end
    done:close()
end

-- The [n] processes that took longest.
local function print_slowest(n, seconds)
    local timed = {}
    for _, job in ipairs(jobs) do
        if job.seconds then timed[#timed + 1] = job end
    end
    table.sort(timed, function(a, b) return a.seconds > b.seconds end)
    print("")
    print(string.format("%d processes, %d at a time, in %.1f s; the slowest:", #timed, options.jobs, seconds))
    for i = 1, math.min(n, #timed) do
        print(string.format("  %6.1f s  %s", timed[i].seconds, timed[i].label))
    end
end

local function selected(name)
    return not options.filter or name:find(options.filter, 1, true) ~= nil
end

local function excerpt(text)
    text = text:gsub("%s+$", "")
    if #text > 1500 then text = text:sub(1, 1500) .. "\n[...]" end
    return (text:gsub("\n", "\n     | "))
end

---------------------------------------------------------------------------
-- Expectation comments

local function parse_expectations(path)
    local source = assert(read_file(path), "cannot read " .. path)
    local e = {
        stdout_lines = {}, errors = {}, stdout_has = {}, stderr_has = {},
        requires = {}, lua54_only = false, host_args = "", exit = nil,
        report_rows = nil, backends = nil, report_positive = {},
    }
    for line in source:gmatch("[^\n]*") do
        local text = line:match("%-%- expect: (.*)$")
        if text then e.stdout_lines[#e.stdout_lines + 1] = text end
        text = line:match("%-%- expect error: (.*)$")
        if text then e.errors[#e.errors + 1] = text end
        text = line:match("^%-%- expect stdout: (.*)$")
        if text then e.stdout_has[#e.stdout_has + 1] = text end
        text = line:match("^%-%- expect stderr: (.*)$")
        if text then e.stderr_has[#e.stderr_has + 1] = text end
        text = line:match("^%-%- expect exit: (%d+)")
        if text then e.exit = tonumber(text) end
        text = line:match("^%-%- expect report rows: (%d+)")
        if text then e.report_rows = tonumber(text) end
        text = line:match("^%-%- expect report positive: (%S+)")
        if text then e.report_positive[#e.report_positive + 1] = text end
        text = line:match("^%-%- requires: (.*)$")
        if text then e.requires[#e.requires + 1] = text end
        if line:match("^%-%- lua: 5%.4") then e.lua54_only = true end
        text = line:match("^%-%- host%-args: (.*)$")
        if text then e.host_args = e.host_args .. " " .. text end
        text = line:match("^%-%- backends: (.*)$")
        if text then
            e.backends = {}
            for b in text:gmatch("%S+") do e.backends[b] = true end
        end
    end
    if e.exit == nil then e.exit = (#e.errors > 0) and 1 or 0 end
    return e
end

-- Checks one run against the expectations; returns a list of problems.
-- [exact_stdout]: stdout must be exactly the `-- expect:` lines (scripts);
-- host runs print a summary, so they are checked by substrings only.
local function check_run(e, status, stdout, stderr, exact_stdout)
    local problems = {}
    if #e.errors > 0 then
        if status == 0 then problems[#problems + 1] = "expected an error, but the run succeeded" end
        for _, want in ipairs(e.errors) do
            if not stderr:find(want, 1, true) then
                problems[#problems + 1] = "stderr lacks: " .. want
            end
        end
    end
    if status ~= e.exit then
        problems[#problems + 1] = string.format("exit status %d, expected %d", status, e.exit)
    end
    local got = lines_of(stdout)
    local n = exact_stdout and math.max(#got, #e.stdout_lines) or 0
    for i = 1, n do
        if got[i] ~= e.stdout_lines[i] then
            problems[#problems + 1] = string.format("stdout line %d: got %q, expected %q",
                i, tostring(got[i]), tostring(e.stdout_lines[i]))
            break
        end
    end
    if not exact_stdout then
        -- A host also prints its summary: the expected lines, in order, among the rest.
        local at = 1
        for _, want in ipairs(e.stdout_lines) do
            while at <= #got and got[at] ~= want do at = at + 1 end
            if at > #got then
                problems[#problems + 1] = string.format("stdout lacks the line %q (in order)", want)
                break
            end
            at = at + 1
        end
    end
    for _, want in ipairs(e.stdout_has) do
        if not stdout:find(want, 1, true) then problems[#problems + 1] = "stdout lacks: " .. want end
    end
    for _, want in ipairs(e.stderr_has) do
        if not stderr:find(want, 1, true) then problems[#problems + 1] = "stderr lacks: " .. want end
    end
    if #problems > 0 and stderr ~= "" then
        problems[#problems + 1] = "stderr was:\n     | " .. excerpt(stderr)
    end
    return problems
end

---------------------------------------------------------------------------
-- Targets: the hosts each --bin folder holds

local HOSTS = {
    { name = "lua54", binary = "tidehost-lua54", lua54 = true },
    { name = "luajit", binary = "tidehost-luajit", lua54 = false },
    { name = "tide", binary = "tidehost-tide", lua54 = true },
}

local function hosts_in(bin)
    local found = {}
    for _, h in ipairs(HOSTS) do
        local path = bin .. "/" .. h.binary
        if file_exists(path) then
            found[#found + 1] = { name = h.name, path = path, lua54 = h.lua54 }
        end
    end
    return found
end

-- Interpreters that run plain scripts: the hosts (with `engine`) through
-- --exec, the `tide` interpreter, and tide-libcheck (Tide's libraries on
-- stock Lua's core).
local function interpreters_in(bin)
    local found = {}
    for _, h in ipairs(hosts_in(bin)) do
        found[#found + 1] = { path = h.path, command = shell_quote(h.path) .. " --exec",
                              lua54 = h.lua54, features = { engine = true, tide = h.name == "tide" } }
    end
    local tide = bin .. "/tide"
    if file_exists(tide) then
        found[#found + 1] = { path = tide, command = shell_quote(tide), lua54 = true, features = { tide = true } }
        found[#found + 1] = { path = tide .. " gc-debug", lua54 = true, features = { tide = true }, debug_modes = true,
                              command = "env TIDE_GC_DEBUG=" .. shell_quote(options.gc_debug) .. " " .. shell_quote(tide) }
        -- the smallest nursery: a nursery collection every 64 KiB
        found[#found + 1] = { path = tide .. " tiny-nursery", lua54 = true, features = { tide = true }, debug_modes = true,
                              command = "env TIDE_GC_DEBUG=" .. shell_quote(options.tiny_nursery) .. " " .. shell_quote(tide) }
    end
    local libcheck = bin .. "/tide-libcheck"
    if file_exists(libcheck) then
        found[#found + 1] = { path = libcheck, command = shell_quote(libcheck),
                              lua54 = true, features = {} }
    end
    return found
end

---------------------------------------------------------------------------
-- Suites

-- [program]: tide-unit-tests (host and bindings) or tide-gc-unit-tests (the
-- collector's self-contained spaces); both print PASS/FAIL NAME lines.
local function suite_unit(bin, program)
    local binary = bin .. "/" .. program
    if not file_exists(binary) then
        report_now("unit [" .. bin .. "]", { "missing " .. binary .. " (build it first)" })
        return
    end
    spawn(binary, shell_quote(binary), function(status, stdout, stderr)
        local seen = 0
        local details = {}
        for line in stdout:gmatch("[^\n]*") do
            local verdict, name = line:match("^(%u%u%u%u) (%S+)$")
            if verdict == "PASS" or verdict == "FAIL" then
                seen = seen + 1
                report("unit " .. name .. " [" .. bin .. "]", verdict == "PASS" and {} or details)
                details = {}
            elseif line:match("^  ") then
                details[#details + 1] = line:gsub("^%s+", "")
            end
        end
        if seen == 0 or (status ~= 0 and not stdout:find("failed")) then
            report("unit [" .. bin .. "]", { "the unit-test binary exited " .. status ..
                " without results", "stderr:\n     | " .. excerpt(stderr) })
        end
    end)
end

local oracle_checked = {}

-- Queues [command] as the test [name]: its run must meet the expectations [e].
-- [heft]: its weight (see weight()).
local function spawn_expecting(name, command, e, heft)
    spawn(name, command, function(status, stdout, stderr)
        report(name, check_run(e, status, stdout, stderr, true))
    end, { weight = heft })
end

local function suite_scripts(bin)
    for _, path in ipairs(list("tests/scripts/*.lua")) do
        local e = parse_expectations(path)
        local uses_extension = #e.requires > 0
        if not uses_extension and not oracle_checked[path] and selected(path .. " [oracle lua5.4]") then
            oracle_checked[path] = true
            spawn_expecting(path .. " [oracle lua5.4]", "lua5.4 " .. shell_quote(path), e)
        end
        for _, target in ipairs(interpreters_in(bin)) do
            local name = path .. " [" .. target.path .. "]"
            local runs_here = target.lua54 or not e.lua54_only
            for _, feature in ipairs(e.requires) do
                runs_here = runs_here and target.features[feature]
            end
            if runs_here and selected(name) then
                spawn_expecting(name, target.command .. " " .. shell_quote(path), e,
                    weight(target.debug_modes and 2 or 1, bin))
            end
        end
    end
end

-- API test pairs: NAME.lua run by the driver that has every NAME.c module.
local API_DRIVERS = { "tide-api-tests", "tide-api-tests-tide" }

local function suite_api(bin)
    for _, driver in ipairs(API_DRIVERS) do
        local path = bin .. "/" .. driver
        if file_exists(path) then
            local runs = { { label = path, prefix = "" } }
            local scripts = list("tests/api/*.lua")
            if driver:find("tide$") then -- on libtide: once more under the collector's debug modes
                runs[2] = { label = path .. " gc-debug", debug_modes = true,
                            prefix = "env TIDE_GC_DEBUG=" .. shell_quote(options.gc_debug) .. " " }
                for _, s in ipairs(list("tests/api/tide/*.lua")) do scripts[#scripts + 1] = s end
            end
            for _, r in ipairs(runs) do
                for _, script in ipairs(scripts) do
                    local name = script .. " [" .. r.label .. "]"
                    if selected(name) then
                        -- the tests of tide.h make big heaps: the debug modes verify them often
                        local base = r.debug_modes and (script:find("^tests/api/tide/") and 20 or 2) or 1
                        spawn_expecting(name, r.prefix .. shell_quote(path) .. " " .. shell_quote(script),
                            parse_expectations(script), weight(base, bin))
                    end
                end
            end
        end
    end
end

-- Queues [command] as the test [name]: it must exit 0.
local function spawn_succeeding(name, command)
    spawn(name, command, function(status, stdout, stderr)
        report(name, status == 0 and {} or
            { "exit status " .. status, "output:\n     | " .. excerpt(stdout .. stderr) })
    end)
end

local function suite_headers()
    local checks = {
        { "headers compile (gcc)", "gcc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only " ..
            "-Iruntime/include tests/headers/headers_compile.c" },
        { "headers compile (clang)", "clang -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only " ..
            "-Iruntime/include tests/headers/headers_compile.c" },
        { "headers declare every stock export", "bash tests/headers/check_exports.sh" },
    }
    for _, c in ipairs(checks) do
        if selected(c[1]) then spawn_succeeding(c[1], c[2]) end
    end
end

-- libtide.so exports the API and nothing else (per --bin: it is built).
local function suite_exports(bin)
    local lib = bin .. "/libtide.so"
    local name = "libtide exports only and all of the API [" .. bin .. "]"
    if file_exists(lib) and selected(name) then
        spawn_succeeding(name, "bash tests/headers/check_libtide_exports.sh " .. shell_quote(lib))
    end
end

-- The collector seen from outside. Each probe with its argument count.
local PROBES = { gc__begin = 1, gc__end = 3, phase__change = 2, heap__limit = 1 }
local TRACE_PHASES = { idle = true, ["initial-mark"] = true, marking = true, ["final-mark"] = true,
                       sweeping = true, ["sync-major"] = true }
local TRACE_PAUSES = { minor = true, ["initial-mark"] = true, ["final-mark"] = true,
                       ["sync-major"] = true, emergency = true, ["mark-step"] = true, ["sweep-step"] = true,
                       ["stack-step"] = true }

local function probe_problems(status, stdout, stderr)
    if status ~= 0 then return { "readelf -n failed (binutils):\n     | " .. excerpt(stderr) } end
    local found = {}
    for provider, name, args in stdout:gmatch("Provider: (%S+)%s+Name: (%S+)%s+Location:[^\n]*\n%s*Arguments:([^\n]*)") do
        if provider == "tide" then found[name] = select(2, args:gsub("%S+", "")) end
    end
    local problems = {}
    for name, nargs in pairs(PROBES) do
        if found[name] == nil then
            problems[#problems + 1] = "no stapsdt note tide:" .. name .. " (sys/sdt.h missing? " ..
                "./build.sh deps installs systemtap-sdt-dev; then rebuild)"
        elseif found[name] ~= nargs then
            problems[#problems + 1] = string.format("tide:%s has %d arguments, expected %d", name, found[name], nargs)
        end
    end
    table.sort(problems)
    return problems
end

-- Problems of the trace file at [path]: JSON (lua-cjson), with complete
-- events for pauses of every kind in [want_pauses] (a positive duration
-- each) and [frames] frame spans (nil: not checked), and phase changes
-- between valid phases.
local function trace_problems(path, want_pauses, frames)
    local ok, cjson = pcall(require, "cjson")
    if not ok then return { "lua-cjson is missing (./build.sh deps installs it)" } end
    local text = read_file(path)
    if text == nil then return { "no trace file " .. path } end
    local decoded, doc = pcall(cjson.decode, text)
    if not decoded or type(doc) ~= "table" or type(doc.traceEvents) ~= "table" then
        return { "the trace is not {\"traceEvents\":[...]} JSON: " .. tostring(doc) }
    end
    local problems, pauses, frame_spans = {}, {}, 0
    for _, e in ipairs(doc.traceEvents) do
        if e.ph == "X" and e.tid == 2 then
            if not TRACE_PAUSES[e.name] then problems[#problems + 1] = "unknown pause kind " .. tostring(e.name) end
            if not (e.dur > 0) then problems[#problems + 1] = "a " .. tostring(e.name) .. " pause of no duration" end
            pauses[e.name] = (pauses[e.name] or 0) + 1
        elseif e.ph == "X" and e.name == "frame" then
            frame_spans = frame_spans + 1
        elseif e.name == "phase-change" and not (TRACE_PHASES[e.args.from] and TRACE_PHASES[e.args.to]) then
            problems[#problems + 1] = "a phase change between unknown phases"
        end
    end
    for _, kind in ipairs(want_pauses) do
        if not pauses[kind] then problems[#problems + 1] = "no " .. kind .. " pause in the trace" end
    end
    if frames and frame_spans ~= frames then
        problems[#problems + 1] = string.format("%d frame spans, expected %d", frame_spans, frames)
    end
    return problems
end

local function suite_observe(bin)
    for _, file in ipairs({ "libtide.so", "tide" }) do
        local binary = bin .. "/" .. file
        local name = "observe USDT probes [" .. binary .. "]"
        if file_exists(binary) and selected(name) then
            spawn(name, "readelf -n " .. shell_quote(binary), function(status, stdout, stderr)
                report(name, probe_problems(status, stdout, stderr))
            end)
        end
    end
    local tide = bin .. "/tide"
    local name = "observe TIDE_GC_TRACE [" .. tide .. "]"
    if file_exists(tide) and selected(name) then
        local stem = scratch_path("trace")
        local script, trace = stem .. ".lua", stem .. ".json"
        local f = assert(io.open(script, "wb"))
        f:write("local keep = {}\nfor i = 1, 300000 do keep[i % 64 + 1] = { i, tostring(i) } end\n",
                "collectgarbage()\nprint('done')\n")
        f:close()
        spawn(name, "env TIDE_GC_TRACE=" .. shell_quote(trace) .. " " .. shell_quote(tide) .. " " .. shell_quote(script),
            function(status, stdout, stderr)
                local problems = trace_problems(trace, { "minor", "sync-major" })
                if status ~= 0 or stdout ~= "done\n" then
                    problems[#problems + 1] = "exit status " .. status .. ", stdout " ..
                        string.format("%q", stdout) .. "\n     | " .. excerpt(stderr)
                end
                report(name, problems)
            end)
    end
    for _, host in ipairs(hosts_in(bin)) do
        local name = "observe --gc-trace [" .. host.path .. "]"
        if selected(name) then
            local trace = scratch_path("host-trace") .. ".json"
            spawn(name, string.format("%s --headless --quiet --frames 60 --gc-trace %s %s",
                shell_quote(host.path), shell_quote(trace), shell_quote("tests/host/gc_pauses_tide.lua")),
                function(status, _, stderr)
                    local problems = {}
                    if host.name == "tide" then
                        problems = trace_problems(trace, { "minor" }, 60)
                        if status ~= 0 then
                            problems[#problems + 1] = "exit status " .. status .. "\n     | " .. excerpt(stderr)
                        end
                    elseif status ~= 2 or not stderr:find("only the tide backend writes a collector trace", 1, true) then
                        problems[#problems + 1] = "expected a usage error (exit 2), got exit " .. status ..
                            "\n     | " .. excerpt(stderr)
                    end
                    report(name, problems)
                end)
        end
    end
end

local function count_csv_rows(path)
    local text = read_file(path)
    if not text then return nil end
    local rows = #lines_of(text) - 1
    return rows < 0 and 0 or rows
end

-- The value an `expect report positive:` names (see the header), or nil.
local function report_value(report_dir, name)
    local file, column = name:match("^([%w_]+%.csv):(.+)$")
    if column then
        local text = read_file(report_dir .. "/" .. file)
        if not text then return nil end
        local rows = lines_of(text)
        local index
        local i = 0
        for field in (rows[1] or ""):gmatch("[^,]+") do
            i = i + 1
            if field == column then index = i end
        end
        if not index then return nil end
        local largest
        for r = 2, #rows do
            local fields = {}
            for field in rows[r]:gmatch("[^,]+") do fields[#fields + 1] = field end
            local v = tonumber(fields[index])
            if v and (not largest or v > largest) then largest = v end
        end
        return largest
    end
    local key, field = name:match("^([%w_]+)%.([%w_]+)$")
    local summary = read_file(report_dir .. "/summary.json")
    if not key or not summary then return nil end
    local object = summary:match('"' .. key .. '"%s*:%s*(%b{})')
    return object and tonumber(object:match('"' .. field .. '"%s*:%s*([-%d.eE+]+)'))
end

local function suite_host(bin)
    for _, path in ipairs(list("tests/host/*.lua")) do
        local e = parse_expectations(path)
        for _, host in ipairs(hosts_in(bin)) do
            local name = path .. " [" .. host.path .. "]"
            local wanted = not e.backends or e.backends[host.name]
            if wanted and (host.lua54 or not e.lua54_only) and selected(name) then
                local report_dir = scratch_path("report")
                local command = string.format("%s --headless --report %s%s %s",
                    shell_quote(host.path), shell_quote(report_dir), e.host_args, shell_quote(path))
                spawn(name, command, function(status, stdout, stderr)
                    local problems = check_run(e, status, stdout, stderr, false)
                    if e.report_rows then
                        local rows = count_csv_rows(report_dir .. "/frames.csv")
                        if rows ~= e.report_rows then
                            problems[#problems + 1] = string.format("report has %s rows, expected %d",
                                tostring(rows), e.report_rows)
                        end
                        if not file_exists(report_dir .. "/summary.json") then
                            problems[#problems + 1] = "no summary.json in the report"
                        end
                    end
                    for _, key in ipairs(e.report_positive) do
                        local value = report_value(report_dir, key)
                        if not value or value <= 0 then
                            problems[#problems + 1] = string.format("report's %s is %s, expected above 0",
                                key, tostring(value))
                        end
                    end
                    report(name, problems)
                end)
            end
        end
    end
end

local function suite_cli(bin)
    for _, host in ipairs(hosts_in(bin)) do
        local h = shell_quote(host.path)
        local cases = {
            { "unknown option", h .. " --no-such-option samples/shooter", 2, "usage" },
            { "bad option value", h .. " --frames many samples/shooter", 2, "usage" },
            { "no game", h, 2, "usage" },
            { "missing game", h .. " --headless tests/no-such-game.lua", 1, "no-such-game.lua" },
        }
        for _, c in ipairs(cases) do
            local name = "cli " .. c[1] .. " [" .. host.path .. "]"
            if selected(name) then
                spawn(name, c[2], function(status, _, stderr)
                    local problems = {}
                    if status ~= c[3] then
                        problems[#problems + 1] = string.format("exit status %d, expected %d", status, c[3])
                    end
                    if not stderr:lower():find(c[4], 1, true) then
                        problems[#problems + 1] = "stderr lacks '" .. c[4] .. "':\n     | " .. excerpt(stderr)
                    end
                    report(name, problems)
                end)
            end
        end
    end
end

-- The `tide` interpreter, case by case (tests/tide_cli_cases.lua documents
-- the fields). Each case runs in a fresh folder under `sh -c`, without the
-- LUA_INIT/LUA_PATH/LUA_CPATH variables of the caller.
local CLI_CLEAN_ENV = "env -u LUA_INIT -u LUA_INIT_5_4 -u LUA_PATH -u LUA_PATH_5_4 " ..
    "-u LUA_CPATH -u LUA_CPATH_5_4"
local cli_oracle_done = false

local function replace_plain(text, from, to)
    local out, start = {}, 1
    while true do
        local i, j = text:find(from, start, true)
        if not i then break end
        out[#out + 1] = text:sub(start, i - 1) .. to
        start = j + 1
    end
    return table.concat(out) .. text:sub(start)
end

local function write_file(path, content)
    local f = assert(io.open(path, "wb"))
    f:write(content)
    f:close()
end

-- Queues [case] run by [program] as the process [label]; check as spawn's.
local function spawn_cli_case(label, case, program, check)
    local dir = scratch_path("cli")
    assert(os.execute("mkdir -p " .. shell_quote(dir)))
    for name, content in pairs(case.files or {}) do write_file(dir .. "/" .. name, content) end
    local stdin_path = dir .. ".stdin"
    write_file(stdin_path, case.stdin or "")
    local words = { "cd", shell_quote(dir), "&&", "exec", CLI_CLEAN_ENV }
    local names = {}
    for k in pairs(case.env or {}) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do words[#words + 1] = k .. "=" .. shell_quote(case.env[k]) end
    words[#words + 1] = shell_quote(program)
    for _, a in ipairs(case.args or {}) do words[#words + 1] = shell_quote(a) end
    spawn(label, "sh -c " .. shell_quote(table.concat(words, " ")), check, { stdin = stdin_path })
end

local function check_cli_case(case, program, status, stdout, stderr)
    local function expand(text) return replace_plain(text, "PROG", program) end
    local problems = {}
    if status ~= (case.exit or 0) then
        problems[#problems + 1] = string.format("exit status %d, expected %d", status, case.exit or 0)
    end
    local function check(stream, got, exact, has)
        if exact and got ~= expand(exact) then
            problems[#problems + 1] = string.format("%s: got %q, expected %q", stream, got, expand(exact))
        end
        for _, want in ipairs(has or {}) do
            if not got:find(expand(want), 1, true) then
                problems[#problems + 1] = string.format("%s lacks %q", stream, expand(want))
            end
        end
    end
    check("stdout", stdout, case.stdout, case.stdout_has)
    check("stderr", stderr, case.no_stderr and "" or case.stderr, case.stderr_has)
    if #problems > 0 then
        problems[#problems + 1] = "stdout was:\n     | " .. excerpt(stdout)
        problems[#problems + 1] = "stderr was:\n     | " .. excerpt(stderr)
    end
    return problems
end

local function suite_tide_cli(bin)
    local tide = bin .. "/tide"
    if not file_exists(tide) then return end
    local pwd = io.popen("cd " .. shell_quote(bin) .. " && pwd")
    tide = pwd:read("l") .. "/tide"  -- absolute: each case runs in its own folder
    pwd:close()
    local with_oracle = not cli_oracle_done
    cli_oracle_done = true
    for _, case in ipairs(dofile("tests/tide_cli_cases.lua")) do
        local name = "tide-cli " .. case.name .. " [" .. bin .. "/tide]"
        local oracle_name = "tide-cli " .. case.name .. " [oracle lua5.4]"
        local uses_oracle = case.oracle ~= false and with_oracle and selected(oracle_name)
        if selected(name) or uses_oracle then
            local stdout, stderr -- tide's, for the oracle's check (which comes after)
            spawn_cli_case(name, case, tide, function(status, out, err)
                stdout, stderr = out, err
                report(name, check_cli_case(case, tide, status, stdout, stderr))
            end)
            if uses_oracle then
                spawn_cli_case(oracle_name, case, "lua5.4", function(ostatus, ostdout, ostderr)
                    local problems = check_cli_case(case, "lua5.4", ostatus, ostdout, ostderr)
                    if case.same ~= false then
                        local function neutral(text, program) return replace_plain(text, program, "PROG") end
                        if neutral(stdout, tide) ~= neutral(ostdout, "lua5.4") then
                            problems[#problems + 1] = "stdout differs from tide's:\n     | " .. excerpt(stdout)
                        end
                        if neutral(stderr, tide) ~= neutral(ostderr, "lua5.4") then
                            problems[#problems + 1] = "stderr differs from tide's:\n     | " .. excerpt(stderr)
                        end
                    end
                    report(oracle_name, problems)
                end)
            end
        end
    end
end

-- A real window on a virtual X server: the SDL path that headless runs skip.
-- LeakSanitizer is off here: the X11 and Mesa libraries leak at exit.
local function suite_window(bin)
    local have_xvfb = os.execute("command -v xvfb-run >/dev/null 2>&1")
    for _, host in ipairs(hosts_in(bin)) do
        local name = "window 30 frames under Xvfb [" .. host.path .. "]"
        if selected(name) then
            if not have_xvfb then
                report_now(name, { "xvfb-run is missing (Debian package xvfb; ./build.sh deps installs it)" })
            else
                local report_dir = scratch_path("window")
                -- one at a time: two `xvfb-run -a` started together can pick the same display
                spawn(name, string.format(
                    "env ASAN_OPTIONS=detect_leaks=0 xvfb-run -a %s --window --frames 30 --report %s samples/shooter",
                    shell_quote(host.path), shell_quote(report_dir)), function(status, _, stderr)
                        local problems = {}
                        if status ~= 0 then
                            problems[#problems + 1] = "exit status " .. status .. "\n     | " .. excerpt(stderr)
                        end
                        local rows = count_csv_rows(report_dir .. "/frames.csv")
                        if rows ~= 30 then problems[#problems + 1] = "frames.csv has " .. tostring(rows) .. " rows" end
                        report(name, problems)
                    end, { exclusive = "xvfb" })
            end
        end
    end
end

local function suite_samples(bin)
    for _, main in ipairs(list("samples/*/main.lua")) do
        local folder = main:match("^(.*)/main%.lua$")
        for _, host in ipairs(hosts_in(bin)) do
            local name = folder .. " headless " .. SAMPLE_FRAMES .. " frames [" .. host.path .. "]"
            if selected(name) then
                local report_dir = scratch_path("sample")
                spawn(name, string.format("%s --headless --frames %d --seed 3 --report %s %s",
                    shell_quote(host.path), SAMPLE_FRAMES, shell_quote(report_dir), shell_quote(folder)),
                    function(status, stdout, stderr)
                        local problems = {}
                        if status ~= 0 then
                            problems[#problems + 1] = "exit status " .. status .. "\n     | " .. excerpt(stderr)
                        end
                        local rows = count_csv_rows(report_dir .. "/frames.csv")
                        if rows ~= SAMPLE_FRAMES then
                            problems[#problems + 1] = "frames.csv has " .. tostring(rows) .. " rows"
                        end
                        local summary = read_file(report_dir .. "/summary.json") or ""
                        if not summary:find('"frames"%s*:%s*' .. SAMPLE_FRAMES) then
                            problems[#problems + 1] = "summary.json does not record " .. SAMPLE_FRAMES .. " frames"
                        end
                        if not stdout:find("p99", 1, true) then
                            problems[#problems + 1] = "no frame-time summary on stdout"
                        end
                        report(name, problems)
                    end, { weight = weight(5, bin) })
            end
        end
    end
end

---------------------------------------------------------------------------

suite_headers()
for _, bin in ipairs(options.bins) do
    if #hosts_in(bin) == 0 then
        report_now("build [" .. bin .. "]", { "no host binary in " .. bin .. " (build it first)" })
    end
    suite_unit(bin, "tide-unit-tests")
    suite_unit(bin, "tide-gc-unit-tests")
    suite_exports(bin)
    suite_observe(bin)
    suite_scripts(bin)
    suite_api(bin)
    suite_host(bin)
    suite_cli(bin)
    suite_tide_cli(bin)
    suite_window(bin)
    suite_samples(bin)
end

local began = uptime()
run_jobs()
if #jobs > 0 then print_slowest(10, uptime() - began) end
os.execute("rm -rf " .. shell_quote(scratch))

if #failures > 0 then
    print("")
    print("failed:")
    for _, name in ipairs(failures) do print("  " .. name) end
end
print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and passed > 0)
