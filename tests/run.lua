-- tests/run.lua — Tide's test runner. Run with stock Lua 5.4:
--
--   lua5.4 tests/run.lua [--bin DIR]... [--filter TEXT] [--verbose]
--                        [--gc-debug SPEC]
--
-- Each --bin names a build output folder (bin/Debug, bin/address-Debug, ...);
-- every suite runs against every one. Suites:
--   unit     the C unit-test binaries (tide-unit-tests; tide-gc-unit-tests,
--            the collector's major heap and large-object space), one result
--            per TEST
--   scripts  tests/scripts/*.lua on every interpreter target, checked against
--            their expectation comments, and on stock lua5.4 (the oracle)
--            when they use no extension; the `tide` interpreter runs them
--            three times — the collector's matrix: default settings; with
--            TIDE_GC_DEBUG=SPEC (by default collect-every=1000,verify,poison:
--            a collection every 1000 allocations, every eighth a full one,
--            the heap verified around each, freed memory poisoned); and with
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
-- Prints one line a result and closes with "N passed, N failed"; exits
-- non-zero when anything failed.
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
--   -- host-args: ARGS         extra host arguments (e.g. --frames 5)
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

local options = { bins = {}, filter = nil, verbose = false,
                  gc_debug = "collect-every=1000,verify,poison",
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
        else
            io.stderr:write("usage: lua5.4 tests/run.lua [--bin DIR]... [--filter TEXT] [--verbose] [--gc-debug SPEC]\n")
            os.exit(2)
        end
        i = i + 1
    end
    if #options.bins == 0 then options.bins = { "bin/Debug" } end
end

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

-- Runs a shell command with a time limit; returns exit status, stdout, stderr.
-- [stdin_path]: the file to read as standard input (default /dev/null).
local run_counter = 0
local function run(command, stdin_path)
    run_counter = run_counter + 1
    local out = scratch .. "/out" .. run_counter
    local err = scratch .. "/err" .. run_counter
    local full = string.format("timeout -k 5 %d %s >%s 2>%s <%s",
        TIMEOUT_SECONDS, command, shell_quote(out), shell_quote(err),
        shell_quote(stdin_path or "/dev/null"))
    local ok, how, code = os.execute(full)
    local status = ok and 0 or code
    if how == "signal" then status = 128 + code end
    local stdout, stderr = read_file(out) or "", read_file(err) or ""
    os.remove(out)
    os.remove(err)
    return status, stdout, stderr
end

local function lines_of(text)
    local out = {}
    if text == "" then return out end
    if text:sub(-1) ~= "\n" then text = text .. "\n" end
    for line in text:gmatch("(.-)\n") do out[#out + 1] = line end
    return out
end

---------------------------------------------------------------------------
-- Results

local passed, failed = 0, 0
local failures = {}

local function report(name, problems)
    if options.filter and not name:find(options.filter, 1, true) then return end
    if #problems == 0 then
        passed = passed + 1
        print("PASS " .. name)
    else
        failed = failed + 1
        print("FAIL " .. name)
        for _, p in ipairs(problems) do print("     " .. p) end
        failures[#failures + 1] = name
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
        found[#found + 1] = { path = tide .. " gc-debug", lua54 = true, features = { tide = true },
                              command = "env TIDE_GC_DEBUG=" .. shell_quote(options.gc_debug) .. " " .. shell_quote(tide) }
        -- the smallest nursery: a nursery collection every 64 KiB
        found[#found + 1] = { path = tide .. " tiny-nursery", lua54 = true, features = { tide = true },
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
        report("unit [" .. bin .. "]", { "missing " .. binary .. " (build it first)" })
        return
    end
    local status, stdout, stderr = run(shell_quote(binary))
    local seen = 0
    local current, details = nil, {}
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
end

local oracle_checked = {}

local function suite_scripts(bin)
    for _, path in ipairs(list("tests/scripts/*.lua")) do
        local e = parse_expectations(path)
        local uses_extension = #e.requires > 0
        if not uses_extension and not oracle_checked[path] and selected(path .. " [oracle lua5.4]") then
            oracle_checked[path] = true
            local status, stdout, stderr = run("lua5.4 " .. shell_quote(path))
            report(path .. " [oracle lua5.4]", check_run(e, status, stdout, stderr, true))
        end
        for _, target in ipairs(interpreters_in(bin)) do
            local name = path .. " [" .. target.path .. "]"
            local runs_here = target.lua54 or not e.lua54_only
            for _, feature in ipairs(e.requires) do
                runs_here = runs_here and target.features[feature]
            end
            if runs_here and selected(name) then
                local status, stdout, stderr = run(target.command .. " " .. shell_quote(path))
                report(name, check_run(e, status, stdout, stderr, true))
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
                runs[2] = { label = path .. " gc-debug",
                            prefix = "env TIDE_GC_DEBUG=" .. shell_quote(options.gc_debug) .. " " }
                for _, s in ipairs(list("tests/api/tide/*.lua")) do scripts[#scripts + 1] = s end
            end
            for _, r in ipairs(runs) do
                for _, script in ipairs(scripts) do
                    local name = script .. " [" .. r.label .. "]"
                    if selected(name) then
                        local e = parse_expectations(script)
                        local status, stdout, stderr = run(r.prefix .. shell_quote(path) .. " " .. shell_quote(script))
                        report(name, check_run(e, status, stdout, stderr, true))
                    end
                end
            end
        end
    end
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
        if selected(c[1]) then
            local status, stdout, stderr = run(c[2])
            report(c[1], status == 0 and {} or
                { "exit status " .. status, "output:\n     | " .. excerpt(stdout .. stderr) })
        end
    end
end

-- libtide.so exports the API and nothing else (per --bin: it is built).
local function suite_exports(bin)
    local lib = bin .. "/libtide.so"
    local name = "libtide exports only and all of the API [" .. bin .. "]"
    if file_exists(lib) and selected(name) then
        local status, stdout, stderr = run("bash tests/headers/check_libtide_exports.sh " .. shell_quote(lib))
        report(name, status == 0 and {} or
            { "exit status " .. status, "output:\n     | " .. excerpt(stdout .. stderr) })
    end
end

-- The collector seen from outside. Each probe with its argument count.
local PROBES = { gc__begin = 1, gc__end = 3, phase__change = 2, heap__limit = 1 }
local TRACE_PHASES = { idle = true, ["initial-mark"] = true, marking = true, ["final-mark"] = true,
                       sweeping = true, ["sync-major"] = true }
local TRACE_PAUSES = { minor = true, ["initial-mark"] = true, ["final-mark"] = true,
                       ["sync-major"] = true, emergency = true, ["mark-step"] = true, ["sweep-step"] = true }

local function probe_problems(binary)
    local status, stdout, stderr = run("readelf -n " .. shell_quote(binary))
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
        if file_exists(binary) and selected(name) then report(name, probe_problems(binary)) end
    end
    local tide = bin .. "/tide"
    local name = "observe TIDE_GC_TRACE [" .. tide .. "]"
    if file_exists(tide) and selected(name) then
        run_counter = run_counter + 1
        local script, trace = scratch .. "/trace" .. run_counter .. ".lua", scratch .. "/trace" .. run_counter .. ".json"
        local f = assert(io.open(script, "wb"))
        f:write("local keep = {}\nfor i = 1, 300000 do keep[i % 64 + 1] = { i, tostring(i) } end\n",
                "collectgarbage()\nprint('done')\n")
        f:close()
        local status, stdout, stderr = run("env TIDE_GC_TRACE=" .. shell_quote(trace) .. " " .. shell_quote(tide) ..
            " " .. shell_quote(script))
        local problems = trace_problems(trace, { "minor", "sync-major" })
        if status ~= 0 or stdout ~= "done\n" then
            problems[#problems + 1] = "exit status " .. status .. ", stdout " .. string.format("%q", stdout) ..
                "\n     | " .. excerpt(stderr)
        end
        report(name, problems)
    end
    for _, host in ipairs(hosts_in(bin)) do
        name = "observe --gc-trace [" .. host.path .. "]"
        if selected(name) then
            run_counter = run_counter + 1
            local trace = scratch .. "/host-trace" .. run_counter .. ".json"
            local status, _, stderr = run(string.format("%s --headless --quiet --frames 60 --gc-trace %s %s",
                shell_quote(host.path), shell_quote(trace), shell_quote("tests/host/gc_pauses_tide.lua")))
            local problems = {}
            if host.name == "tide" then
                problems = trace_problems(trace, { "minor" }, 60)
                if status ~= 0 then problems[#problems + 1] = "exit status " .. status .. "\n     | " .. excerpt(stderr) end
            elseif status ~= 2 or not stderr:find("only the tide backend writes a collector trace", 1, true) then
                problems[#problems + 1] = "expected a usage error (exit 2), got exit " .. status .. "\n     | " ..
                    excerpt(stderr)
            end
            report(name, problems)
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
                local report_dir = scratch .. "/report" .. run_counter
                local command = string.format("%s --headless --report %s%s %s",
                    shell_quote(host.path), shell_quote(report_dir), e.host_args, shell_quote(path))
                local status, stdout, stderr = run(command)
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
                for _, name in ipairs(e.report_positive) do
                    local value = report_value(report_dir, name)
                    if not value or value <= 0 then
                        problems[#problems + 1] = string.format("report's %s is %s, expected above 0",
                            name, tostring(value))
                    end
                end
                report(name, problems)
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
                local status, _, stderr = run(c[2])
                local problems = {}
                if status ~= c[3] then
                    problems[#problems + 1] = string.format("exit status %d, expected %d", status, c[3])
                end
                if not stderr:lower():find(c[4], 1, true) then
                    problems[#problems + 1] = "stderr lacks '" .. c[4] .. "':\n     | " .. excerpt(stderr)
                end
                report(name, problems)
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

local function run_cli_case(case, program)
    run_counter = run_counter + 1
    local dir = scratch .. "/cli" .. run_counter
    assert(os.execute("mkdir -p " .. shell_quote(dir)))
    for name, content in pairs(case.files or {}) do write_file(dir .. "/" .. name, content) end
    local stdin_path = scratch .. "/cli-stdin" .. run_counter
    write_file(stdin_path, case.stdin or "")
    local words = { "cd", shell_quote(dir), "&&", "exec", CLI_CLEAN_ENV }
    local names = {}
    for k in pairs(case.env or {}) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do words[#words + 1] = k .. "=" .. shell_quote(case.env[k]) end
    words[#words + 1] = shell_quote(program)
    for _, a in ipairs(case.args or {}) do words[#words + 1] = shell_quote(a) end
    return run("sh -c " .. shell_quote(table.concat(words, " ")), stdin_path)
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
            local status, stdout, stderr = run_cli_case(case, tide)
            report(name, check_cli_case(case, tide, status, stdout, stderr))
            if uses_oracle then
                local ostatus, ostdout, ostderr = run_cli_case(case, "lua5.4")
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
                report(name, { "xvfb-run is missing (Debian package xvfb; ./build.sh deps installs it)" })
            else
                local report_dir = scratch .. "/window" .. run_counter
                local status, _, stderr = run(string.format(
                    "env ASAN_OPTIONS=detect_leaks=0 xvfb-run -a %s --window --frames 30 --report %s samples/shooter",
                    shell_quote(host.path), shell_quote(report_dir)))
                local problems = {}
                if status ~= 0 then
                    problems[#problems + 1] = "exit status " .. status .. "\n     | " .. excerpt(stderr)
                end
                local rows = count_csv_rows(report_dir .. "/frames.csv")
                if rows ~= 30 then problems[#problems + 1] = "frames.csv has " .. tostring(rows) .. " rows" end
                report(name, problems)
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
                local report_dir = scratch .. "/sample" .. run_counter
                local status, stdout, stderr = run(string.format(
                    "%s --headless --frames %d --seed 3 --report %s %s",
                    shell_quote(host.path), SAMPLE_FRAMES, shell_quote(report_dir), shell_quote(folder)))
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
            end
        end
    end
end

---------------------------------------------------------------------------

suite_headers()
for _, bin in ipairs(options.bins) do
    if #hosts_in(bin) == 0 then
        report("build [" .. bin .. "]", { "no host binary in " .. bin .. " (build it first)" })
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

os.execute("rm -rf " .. shell_quote(scratch))

if #failures > 0 then
    print("")
    print("failed:")
    for _, name in ipairs(failures) do print("  " .. name) end
end
print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and passed > 0)
