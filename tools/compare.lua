-- tools/compare.lua — run every sample headless on every backend and
-- collector setting, interleaved, and write reports/compare/comparison.md
-- and a self-contained report.html.  Stock Lua 5.4 and lua-cjson.
--
--   lua5.4 tools/compare.lua [--frames N] [--runs R] [--samples a,b] [--settings a,b]
--                            [--out DIR] [--reuse]
--
-- --reuse runs nothing: it writes the report again from the runs already
-- in DIR (after a change to the report itself).
--
-- See tools/README.md.

local SEED = 1
-- The project root, whatever the current directory: this script's
-- folder's parent (Lua has no chdir, so paths below are made from it).
local ROOT = (arg[0] or ""):match("^(.*)/tools/[^/]*$") or "."
if ROOT == "" then ROOT = "." end
local BIN = (ROOT == "." and "" or ROOT .. "/") .. "bin/Release/"
local lib = dofile(ROOT .. "/tools/benchlib.lua")
local shquote, file_exists, read_file, capture = lib.shquote, lib.file_exists, lib.read_file, lib.capture

-- The settings, in table order.  A setting whose binary is missing is
-- skipped (and said so).  "tide stop-the-world" is tide's generational
-- collector without concurrency (TIDE_GC_DEBUG=no-cycles: nursery
-- collections, and full collections that stop the world): the throughput
-- baseline of issue 5.
local SETTINGS = {
  { name = "lua5.4 incremental",  bin = "tidehost-lua54",  args = { "--gc", "incremental" } },
  { name = "lua5.4 generational", bin = "tidehost-lua54",  args = { "--gc", "generational" } },
  { name = "lua5.4 idle-stepped", bin = "tidehost-lua54",  args = { "--gc", "idle-stepped" } },
  { name = "luajit default",      bin = "tidehost-luajit", args = { "--gc", "default" } },
  { name = "luajit idle-stepped", bin = "tidehost-luajit", args = { "--gc", "idle-stepped" } },
  { name = "tide default",        bin = "tidehost-tide",   args = { "--gc", "default" } },
  { name = "tide low-latency",    bin = "tidehost-tide",   args = { "--gc", "low-latency" } },
  { name = "tide stop-the-world", bin = "tidehost-tide",   args = { "--gc", "default" }, env = "TIDE_GC_DEBUG=no-cycles" },
}

local BUCKETS = { 1, 2, 4, 8, 16.7, 33.3 }  -- upper bounds; last bucket is >33.3
local BUCKET_NAMES = { "<1", "1–2", "2–4", "4–8", "8–16.7", "16.7–33.3", ">33.3" }

---------------------------------------------------------------- utilities

local function write_file(p, s)
  local f = assert(io.open(p, "wb"))
  f:write(s)
  f:close()
end

local function slug(s) return (s:gsub("[^%w%.%-]+", "-")) end

local function now() -- wall clock with sub-second resolution where possible
  local s = capture("date +%s.%N 2>/dev/null")
  return tonumber(s) or os.time()
end

---------------------------------------------------------------- JSON writer

local function json_encode(v)
  local t = type(v)
  if v == nil then return "null"
  elseif t == "boolean" then return tostring(v)
  elseif t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return "null" end
    if math.type(v) == "integer" then return tostring(v) end
    local s = ("%.2f"):format(v):gsub("0+$", ""):gsub("%.$", "")
    return s
  elseif t == "string" then
    return '"' .. v:gsub('[%c"\\]', function(c)
      local m = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
      return m[c] or ("\\u%04x"):format(c:byte())
    end):gsub("</", "<\\/") .. '"'
  elseif t == "table" then
    local out = {}
    if #v > 0 or next(v) == nil then
      for i = 1, #v do out[i] = json_encode(v[i]) end
      return "[" .. table.concat(out, ",") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    for _, k in ipairs(keys) do out[#out + 1] = json_encode(tostring(k)) .. ":" .. json_encode(v[k]) end
    return "{" .. table.concat(out, ",") .. "}"
  end
  return "null"
end

---------------------------------------------------------------- arguments

local opts = { frames = 1800, runs = 2, samples = nil, out = "reports/compare" }
do
  local i = 1
  local function usage(msg)
    io.stderr:write("compare.lua: ", msg, "\n",
      "usage: lua5.4 tools/compare.lua [--frames N] [--runs R] [--samples a,b] [--settings a,b] [--out DIR] [--reuse]\n")
    os.exit(2)
  end
  while i <= #arg do
    local a = arg[i]
    if a == "--reuse" then
      opts.reuse = true
    else
      local k, v = a:match("^%-%-([%w-]+)=(.*)$")
      if not k then
        k = a:match("^%-%-([%w-]+)$")
        if k == "help" then usage("help") end
        if not k then usage("unexpected argument " .. a) end
        i = i + 1
        v = arg[i]
        if v == nil then usage("--" .. k .. " needs a value") end
      end
      if k == "frames" or k == "runs" then
        local n = tonumber(v)
        if not n or n ~= math.floor(n) or n < 1 then usage("--" .. k .. " wants a positive integer") end
        opts[k] = math.tointeger(n)
      elseif k == "samples" then
        opts.samples = {}
        for s in v:gmatch("[^,%s]+") do opts.samples[#opts.samples + 1] = s end
      elseif k == "settings" then
        opts.settings = {}
        for name in v:gmatch("[^,]+") do opts.settings[name:match("^%s*(.-)%s*$")] = true end
      elseif k == "out" then
        opts.out = v
      else
        usage("unknown option --" .. k)
      end
    end
    i = i + 1
  end
  if opts.runs < 2 then
    io.stderr:write("compare.lua: note: --runs ", opts.runs, " < 2; a single max is noise-prone (DESIGN §6)\n")
  end
end

local cmdline = "lua5.4 tools/compare.lua"
for _, a in ipairs(arg) do cmdline = cmdline .. " " .. a end

---------------------------------------------------------------- discovery

local samples = {}
if opts.samples then
  for _, s in ipairs(opts.samples) do samples[#samples + 1] = s end
else
  local list = capture("ls -1 " .. shquote(ROOT .. "/samples") .. " 2>/dev/null")
  for name in list:gmatch("[^\n]+") do
    if file_exists(ROOT .. "/samples/" .. name .. "/main.lua") then samples[#samples + 1] = name end
  end
end
if #samples == 0 then
  io.stderr:write("compare.lua: no samples found (samples/*/main.lua)\n")
  os.exit(1)
end

local settings, skipped = {}, {}
for _, st in ipairs(SETTINGS) do
  if opts.settings and not opts.settings[st.name] then
    -- (not asked for)
  elseif file_exists(BIN .. st.bin) then settings[#settings + 1] = st
  else skipped[#skipped + 1] = st end
  if opts.settings then opts.settings[st.name] = nil end
end
for name in pairs(opts.settings or {}) do
  io.stderr:write("compare.lua: no setting named '", name, "'\n")
  os.exit(2)
end
if #settings == 0 then
  io.stderr:write("compare.lua: no host binaries in ", BIN, "; run ./build.sh build release\n")
  os.exit(1)
end
for _, st in ipairs(skipped) do
  print(("skipping %-20s (%s%s not built)"):format(st.name, BIN, st.bin))
end

local has_timeout = os.execute("command -v timeout >/dev/null 2>&1")

os.execute("mkdir -p " .. shquote(opts.out .. "/runs"))

---------------------------------------------------------------- running

local function read_frames(path)
  local s = read_file(path)
  if not s then return nil end
  local header, cols = nil, {}
  local frame_ms, gc_ms, idle_ms = {}, {}, {}
  for line in s:gmatch("[^\r\n]+") do
    if not header then
      header = line
      local i = 0
      for c in line:gmatch("[^,]+") do i = i + 1; cols[c] = i end
    else
      local f = {}
      for c in line:gmatch("[^,]*") do f[#f + 1] = c end
      -- gmatch "[^,]*" yields empty matches between fields on some Lua
      -- versions; split robustly instead:
      f = {}
      local start = 1
      while true do
        local j = line:find(",", start, true)
        f[#f + 1] = line:sub(start, (j or 0) - 1)
        if not j then break end
        start = j + 1
      end
      local n = #frame_ms + 1
      frame_ms[n] = tonumber(f[cols.frame_ms or 2]) or 0
      gc_ms[n] = tonumber(f[cols.gc_ms or 6]) or 0
      idle_ms[n] = tonumber(f[cols.idle_gc_ms or 7]) or 0
    end
  end
  return { frame_ms = frame_ms, gc_ms = gc_ms, idle_gc_ms = idle_ms }
end

-- The in-frame pauses of one run (pauses.csv, written by the tide backend:
-- pauses in frames, not in idle time or before the first frame), in two
-- groups: those with low-latency mode on (synchronous majors forbidden:
-- the pauses the 1 ms limit is about) and the rest (a mode that allows
-- them, or a loading screen that switched low-latency off). Each group:
-- its count, the longest and its kind, how many took over 1 ms, and how
-- many of those had over 1 ms of the game's thread's processor time (the
-- cpu_ns column, when the report has it; the rest of such a pause is the
-- machine's: another thread ran in the game's place).
local function read_pauses(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local function group() return { count = 0, over_1ms = 0, over_1ms_cpu = nil, max_ms = 0, max_kind = "" } end
  local p = { low_latency = group(), other = group() }
  f:read("l") -- header: frame,kind,in_idle,start_ms,duration_ns,heap_bytes,low_latency[,cpu_ns]
  for line in f:lines() do
    local frame, kind, in_idle, _, ns, _, ll, cpu = line:match("^(%-?%d+),([^,]*),(%d+),([^,]*),(%d+),(%d+),(%d),?(%d*)")
    if frame and tonumber(frame) >= 1 and in_idle == "0" then
      local g = ll == "1" and p.low_latency or p.other
      local ms = tonumber(ns) / 1e6
      g.count = g.count + 1
      if ms > 1 then g.over_1ms = g.over_1ms + 1 end
      if cpu ~= "" then
        g.over_1ms_cpu = (g.over_1ms_cpu or 0) + (tonumber(cpu) > 1e6 and 1 or 0)
      end
      if ms > g.max_ms then g.max_ms, g.max_kind = ms, kind end
    end
  end
  f:close()
  return p
end

-- What a run left in [dir]; [ok, how, code] are os.execute's.
local function collect_run(dir, ok, how, code, wall)
  local errf = dir .. "/stderr.txt"
  local res = { dir = dir, wall = wall }
  local stderr = read_file(errf) or ""
  local first = stderr:match("[^\r\n]*%S[^\r\n]*") -- first non-blank line
  local js = read_file(dir .. "/summary.json")
  if js then
    local okj, sum = pcall(lib.json_decode, js)
    if okj and type(sum) == "table" then res.summary = sum
    else res.error = "unreadable summary.json: " .. tostring(sum) end
  end
  if not ok then
    local msg = first or (res.summary and type(res.summary.error) == "string" and res.summary.error:match("[^\n]*"))
    if how == "exit" and code == 124 and has_timeout then msg = "timed out" end
    local status = how == "signal" and ("killed by signal " .. tostring(code)) or ("exit status " .. tostring(code))
    res.error = ("%s: %s"):format(status, msg or "(no stderr)")
  elseif res.summary and type(res.summary.error) == "string" then
    res.error = res.summary.error:match("[^\n]*")
  elseif not res.summary and not res.error then
    res.error = "no summary.json written" .. (first and (": " .. first) or "")
  end
  if not res.error then
    res.frames = read_frames(dir .. "/frames.csv")
    res.pauses = read_pauses(dir .. "/pauses.csv")
  end
  res.steal = tonumber(read_file(dir .. "/steal.txt") or "")
  return res
end

-- The processor time the hypervisor took from this machine (the steal
-- count of /proc/stat's first line) and all its busy time, in ticks; nil
-- where there is no /proc/stat. A run during which a tenth of the busy
-- time was stolen ran on a contended machine, whatever it measured.
local function cpu_ticks()
  local line = (read_file("/proc/stat") or ""):match("^cpu%s+([^\n]*)")
  if not line then return nil end
  local v = {}
  for x in line:gmatch("%d+") do v[#v + 1] = tonumber(x) end
  if #v < 8 then return nil end
  -- user nice system idle iowait irq softirq steal
  return { busy = v[1] + v[2] + v[3] + v[6] + v[7] + v[8], steal = v[8] }
end

local function steal_percent(before, after)
  if not before or not after then return nil end
  local busy = after.busy - before.busy
  if busy <= 0 then return nil end
  return 100 * (after.steal - before.steal) / busy
end

local function run_one(sample, st, r)
  local dir = ("%s/runs/%s/%s/run%d"):format(opts.out, slug(sample), slug(st.name), r)
  if opts.reuse then return collect_run(dir, true, nil, nil, 0) end
  os.execute("rm -rf " .. shquote(dir) .. " && mkdir -p " .. shquote(dir))
  local game = sample:find("/") and sample or (ROOT .. "/samples/" .. sample)
  local parts = { BIN .. st.bin, "--headless", "--quiet", "--frames", tostring(opts.frames),
                  "--seed", tostring(SEED) }
  for _, a in ipairs(st.args) do parts[#parts + 1] = a end
  parts[#parts + 1] = "--report"; parts[#parts + 1] = dir
  parts[#parts + 1] = game
  local q = {}
  for i, p in ipairs(parts) do q[i] = shquote(p) end
  local cmd = table.concat(q, " ")
  if has_timeout then cmd = "timeout 1800 " .. cmd end
  if st.env then cmd = "env " .. st.env .. " " .. cmd end
  local errf = dir .. "/stderr.txt"
  local t0, ticks0 = now(), cpu_ticks()
  local ok, how, code = os.execute(cmd .. " >" .. shquote(dir .. "/stdout.txt") .. " 2>" .. shquote(errf))
  local wall, steal = now() - t0, steal_percent(ticks0, cpu_ticks())
  if steal then write_file(dir .. "/steal.txt", ("%.1f\n"):format(steal)) end
  return collect_run(dir, ok, how, code, wall)
end

-- results[sample][setting name][run] = res
local results = {}
for _, s in ipairs(samples) do results[s] = {} for _, st in ipairs(settings) do results[s][st.name] = {} end end

-- The machine's own steadiness, before and after the runs
-- (tools/noise_floor.lua): on a shared virtual machine a slice of
-- memory-bound work sometimes takes several times its usual time, and so
-- does any GC pause.
local function noise_floor()
  local probe = BIN .. "tidehost-lua54"
  if not file_exists(probe) then return "not measured (" .. probe .. " missing)" end
  local line = capture(shquote(probe) .. " --quiet --exec " .. shquote(ROOT .. "/tools/noise_floor.lua") .. " -- 10 2>&1")
  return line:match("noise floor: (.*)") or ("not measured: " .. line)
end
-- (what --reuse needs to write the report again: when the runs were made,
-- how long they took, the noise floor before and after, the frames a run)
local info_file = opts.out .. "/run_info.txt"
local noise, reused = {}, {}
if opts.reuse then
  for line in (read_file(info_file) or ""):gmatch("[^\n]+") do reused[#reused + 1] = line end
  noise[1], noise[2] = reused[3] or "not measured", reused[4] or "not measured"
  opts.frames = math.tointeger(tonumber(reused[5])) or opts.frames
else
  os.execute("mkdir -p " .. shquote(opts.out))
  noise[1] = noise_floor()
  print("noise floor before: " .. noise[1])
end

local total = opts.runs * #samples * #settings
local n = 0
local T0 = now()
local started = os.date("%Y-%m-%d %H:%M:%S %Z")
print(("compare: %d sample(s) x %d setting(s) x %d run(s), %d frames each, seed %d, interleaved (every other round reversed)")
  :format(#samples, #settings, opts.runs, opts.frames, SEED))
for r = 1, opts.runs do
  for _, s in ipairs(samples) do
    -- every other round in reverse order: a setting's neighbours in time
    -- (the machine's slow and fast stretches) change sides
    for k = 1, #settings do
      local st = settings[r % 2 == 1 and k or #settings + 1 - k]
      n = n + 1
      local res = run_one(s, st, r)
      results[s][st.name][r] = res
      local line
      if res.error then
        line = "ERROR " .. res.error
      else
        local f = res.summary.frame_ms or {}
        line = ("p50 %.3f  p99 %.3f  max %.3f ms"):format(tonumber(f.p50) or 0, tonumber(f.p99) or 0, tonumber(f.max) or 0)
      end
      if res.steal then line = line .. ("  steal %.1f%%"):format(res.steal) end
      print(("[%3d/%d] run %d  %-12s %-20s %6.1f s  %s"):format(n, total, r, s, st.name, res.wall, line))
      io.stdout:flush()
    end
  end
end
local elapsed = now() - T0
if not opts.reuse then
  noise[2] = noise_floor()
  print("noise floor after: " .. noise[2])
end

---------------------------------------------------------------- statistics

local function median(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  if #c == 0 then return nil end
  table.sort(c)
  local m = (#c + 1) // 2
  if #c % 2 == 1 then return c[m] end
  return (c[m] + c[m + 1]) / 2
end

local function num(v) return type(v) == "number" and v or nil end

local function fmt(v, p)
  if v == nil then return "n/a" end
  if p == "auto" then p = math.abs(v) < 10 and 2 or 1 end
  return ("%." .. (p or 2) .. "f"):format(v)
end

-- One row per setting; returns a table of display strings plus raw data.
local function row_for(sample, st)
  local runs = results[sample][st.name]
  local row = { name = st.name, errors = {} }
  local good = {}
  for r, res in ipairs(runs) do
    if res.error then row.errors[#row.errors + 1] = ("run %d: %s"):format(r, res.error)
    else good[#good + 1] = res end
  end
  row.good = good
  if #good == 0 then return row end
  local p50, p99, p999, maxes, o16, o33, gcw, tot, rss, longest = {}, {}, {}, {}, {}, {}, {}, {}, {}, {}
  local gc_reported = false
  for _, res in ipairs(good) do
    local s = res.summary
    local f = s.frame_ms or {}
    p50[#p50 + 1] = num(f.p50); p99[#p99 + 1] = num(f.p99); p999[#p999 + 1] = num(f.p999)
    maxes[#maxes + 1] = fmt(num(f.max), "auto")
    o16[#o16 + 1] = tostring(num(s.over_16_7) or "?"); o33[#o33 + 1] = tostring(num(s.over_33_3) or "?")
    -- over because of the collector: over 16.7 ms, and not without its time
    if s.gc_reported == true and res.frames then
      local by_gc = 0
      for k, ms in ipairs(res.frames.frame_ms) do
        if ms > 16.7 and ms - res.frames.gc_ms[k] <= 16.7 then by_gc = by_gc + 1 end
      end
      o16[#o16] = o16[#o16] .. " (GC " .. by_gc .. ")"
    end
    if s.gc_reported == true then
      gc_reported = true
      local g = fmt(num((s.gc_ms or {}).max), 2)
      local idle = num((s.idle_gc_ms or {}).max)
      if idle and idle > 0 then g = g .. " (idle " .. fmt(idle, 2) .. ")" end
      gcw[#gcw + 1] = g
    end
    if res.pauses then
      local function show(g)
        local cpu = g.over_1ms_cpu and (", %d with over 1 ms of processor time"):format(g.over_1ms_cpu) or ""
        return ("%s %s (%d of %d over 1 ms%s)"):format(fmt(g.max_ms, 2), g.max_kind, g.over_1ms, g.count, cpu)
      end
      local ll, other = res.pauses.low_latency, res.pauses.other
      if ll.count == 0 and other.count == 0 then
        longest[#longest + 1] = "none"
      elseif ll.count == 0 then
        longest[#longest + 1] = show(other)
      elseif other.count == 0 then
        longest[#longest + 1] = show(ll)
      else
        longest[#longest + 1] = show(ll) .. "; low-latency off: " .. show(other)
      end
    end
    tot[#tot + 1] = fmt(num(s.total_s), "auto")
    if num(s.peak_rss_kb) then rss[#rss + 1] = s.peak_rss_kb / 1024 end
  end
  row.cells = {
    fmt(median(p50), 3), fmt(median(p99), 2), fmt(median(p999), 2),
    table.concat(maxes, " / "), table.concat(o16, " / "), table.concat(o33, " / "),
    gc_reported and table.concat(gcw, " / ") or "n/a",
    #longest > 0 and table.concat(longest, " / ") or "n/a",
    table.concat(tot, " / "),
    #rss > 0 and fmt(math.max(table.unpack(rss)), 1) or "n/a",
  }
  row.p99 = median(p99)
  return row
end

local HEADERS = { "setting", "p50 ms", "p99 ms", "p99.9 ms", "max ms (each run)",
  "> 16.7 ms (each run)", "> 33.3 ms (each run)", "worst GC ms in a frame (each run)",
  "longest GC pause in a frame, ms (each run)", "total s (each run)", "peak RSS MiB (max)", "p99 ratio to " .. settings[1].name }

local function histogram(good)
  local h = { 0, 0, 0, 0, 0, 0, 0 }
  for _, res in ipairs(good) do
    if res.frames then
      for _, v in ipairs(res.frames.frame_ms) do
        local b = #BUCKETS + 1
        for i, ub in ipairs(BUCKETS) do if v < ub then b = i break end end
        h[b] = h[b] + 1
      end
    end
  end
  return h
end

---------------------------------------------------------------- machine

local machine = {
  arch = capture("uname -m"),
  nproc = capture("nproc"),
  cpu = (read_file("/proc/cpuinfo") or ""):match("model name%s*:%s*([^\n]+)") or "unknown",
  date = started, -- (when the runs began)
}
if opts.reuse then
  machine.date = reused[1] or machine.date
  elapsed = tonumber(reused[2]) or elapsed
else
  write_file(info_file, ("%s\n%.0f\n%s\n%s\n%d\n"):format(machine.date, elapsed, noise[1], noise[2], opts.frames))
end

---------------------------------------------------------------- markdown

local md = {}
local function add(s) md[#md + 1] = s end
add("# Tide GC comparison\n")
add(("- date: %s (the runs' start)"):format(machine.date))
add(("- machine: %s, %s CPUs, %s"):format(machine.arch, machine.nproc, machine.cpu))
add(("- command: `%s`"):format(cmdline))
add(("- %d frames per run, seed %d, %d runs per setting, interleaved round-robin (every other round in reverse order); %.0f s in all")
  :format(opts.frames, SEED, opts.runs, elapsed))
add(("- the machine's noise floor (`tools/noise_floor.lua`, 10 s before and after the runs): %s; %s")
  :format(noise[1], noise[2]))
if #skipped > 0 then
  local names = {}
  for _, st in ipairs(skipped) do names[#names + 1] = st.name .. " (" .. st.bin .. " missing)" end
  add("- skipped: " .. table.concat(names, ", "))
end
add("")
add("p50/p99/p99.9 are the median across runs; max, frame counts, worst GC and total time list each run")
add("(\"a / b\"); peak RSS is the largest across runs. Frames over 16.7 ms are followed, where the backend")
add("times its collector, by \"(GC n)\": the n of them that are over because of it (under 16.7 ms without")
add("their collector time). Worst GC is the longest collector time inside one")
add("frame, shown only where the backend times its collector (`gc_reported`); \"n/a\" otherwise — stock")
add("collectors run inside allocation, untimed, and their pauses are part of the frame times. \"(idle X)\"")
add("is the most collector time given in the idle time after one frame (idle-stepped), outside the frame.")
add("The longest GC pause is the longest single world-stopping pause inside a frame, of the kind named, with")
add("how many of the run's in-frame pauses took over 1 ms, where the backend lists its pauses (tide), and")
add("how many of those had over 1 ms of the game's thread's processor time (the rest of such a pause is")
add("the machine running something else in the thread's place). Where")
add("a game switches low-latency mode off for a while (samples/streaming's loading screens), the pauses")
add("of those frames are shown apart, after \"low-latency off:\": the 1 ms limit is for low-latency mode.")
add("Absolute times move between runs on shared machines; compare settings within one report, by the")
add("ratio column (median p99 of the setting / median p99 of the first setting).\n")

local rows_by_sample = {}
for _, s in ipairs(samples) do
  add("## " .. s .. "\n")
  add("| " .. table.concat(HEADERS, " | ") .. " |")
  local sep = { "---" }
  for i = 2, #HEADERS do sep[i] = "---:" end
  add("| " .. table.concat(sep, " | ") .. " |")
  local rows = {}
  for _, st in ipairs(settings) do rows[#rows + 1] = row_for(s, st) end
  local base = rows[1].p99
  for _, row in ipairs(rows) do
    if row.cells then
      row.cells[#row.cells + 1] = (base and base > 0 and row.p99) and ("%.2f×"):format(row.p99 / base) or "n/a"
    end
  end
  for _, row in ipairs(rows) do
    if row.cells then
      add("| " .. row.name .. " | " .. table.concat(row.cells, " | ") .. " |")
    end
    for _, e in ipairs(row.errors) do
      local cells = { row.name, "**ERROR** " .. e:gsub("|", "\\|") }
      for _ = 3, #HEADERS do cells[#cells + 1] = "" end
      add("| " .. table.concat(cells, " | ") .. " |")
    end
  end
  rows_by_sample[s] = rows
  -- Throughput against issue 5's baseline, round by round: the two runs of
  -- one round are neighbours in time, so their ratio keeps less of the
  -- machine's drift than the ratio of two medians.
  local ll, stw = results[s]["tide low-latency"], results[s]["tide stop-the-world"]
  if ll and stw then
    local ratios, shown = {}, {}
    for r = 1, opts.runs do
      local a, b = ll[r], stw[r]
      local ta = a and not a.error and num(a.summary.total_s)
      local tb = b and not b.error and num(b.summary.total_s)
      if ta and tb and tb > 0 then
        ratios[#ratios + 1] = ta / tb
        shown[#shown + 1] = ("%.2f"):format(ta / tb)
      end
    end
    if #ratios > 0 then
      add("")
      add(("Throughput: total time of tide low-latency over tide stop-the-world's in the same round: %s; median %.2f.")
          :format(table.concat(shown, ", "), median(ratios)))
    end
  end
  -- how contended the machine was while this sample ran
  local lo, hi, hi_at
  for _, st in ipairs(settings) do
    for r, res in ipairs(results[s][st.name]) do
      if res.steal then
        if not lo or res.steal < lo then lo = res.steal end
        if not hi or res.steal > hi then hi, hi_at = res.steal, ("%s, run %d"):format(st.name, r) end
      end
    end
  end
  if lo then
    add("")
    add(("Processor time the hypervisor took during these runs (steal, `/proc/stat`): %.1f%% to %.1f%% (%s) of the busy time.")
        :format(lo, hi, hi_at))
  end
  add("")
end
write_file(opts.out .. "/comparison.md", table.concat(md, "\n") .. "\n")

---------------------------------------------------------------- HTML

local function r2(v) return math.floor(v * 100 + 0.5) / 100 end

local data = { machine = machine, command = cmdline, frames = opts.frames, runs = opts.runs,
  seed = SEED, elapsed = elapsed, headers = HEADERS, buckets = BUCKET_NAMES, samples = {} }
for _, s in ipairs(samples) do
  local sd = { name = s, settings = {} }
  for _, row in ipairs(rows_by_sample[s]) do
    local e = { name = row.name, cells = row.cells, errors = row.errors }
    local first = row.good[1]
    if first and first.frames then
      local f, g, i = {}, {}, {}
      local any_idle = false
      for k, v in ipairs(first.frames.frame_ms) do
        f[k] = r2(v)
        g[k] = r2(first.frames.gc_ms[k])
        i[k] = r2(first.frames.idle_gc_ms[k])
        if i[k] > 0 then any_idle = true end
      end
      e.frame_ms, e.gc_ms = f, g
      if any_idle then e.idle_gc_ms = i end
      e.gc_reported = first.summary.gc_reported == true
      e.hist = histogram(row.good)
      e.hist_runs = #row.good
    end
    sd.settings[#sd.settings + 1] = e
  end
  data.samples[#data.samples + 1] = sd
end

local HTML = [==[<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Tide GC comparison</title>
<style>
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#f7f8fa}
h1{margin:0 0 6px}h2{margin:32px 0 8px;border-bottom:2px solid #c9d0dc;padding-bottom:4px}
.meta{color:#555;margin-bottom:8px}.meta code{background:#eceff4;padding:1px 4px;border-radius:3px}
table{border-collapse:collapse;background:#fff;margin:8px 0 16px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d5dae3;padding:4px 8px;text-align:right;white-space:nowrap}
th{background:#eef1f6;font-weight:600;white-space:normal;max-width:110px;vertical-align:bottom}
td:first-child,th:first-child{text-align:left}
tr.err td{background:#fdecec;color:#9b1c1c;text-align:left;white-space:normal}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(620px,1fr));gap:14px}
.card{background:#fff;border:1px solid #d5dae3;border-radius:6px;padding:10px 12px}
.card h3{margin:0 0 6px;font-size:15px}.card .sub{color:#666;font-weight:400;font-size:12px}
.row{display:flex;gap:10px;align-items:flex-start}
canvas{display:block}
.legend{font-size:12px;color:#444;margin:4px 0 0}.legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:middle}
.note{color:#555;font-size:13px;max-width:1100px}
</style></head><body>
<h1>Tide GC comparison</h1>
<div class="meta" id="meta"></div>
<p class="note">p50/p99/p99.9: median across runs. Max, frames over budget, worst GC and total time: each run, “a / b”. Peak RSS: largest across runs.
Worst GC: longest collector time inside one frame, only where the backend times its collector; stock collectors run inside allocation, untimed, so their pauses show only as frame time.
Charts show run 1 of each setting (the largest frame per pixel column); histograms count the frames of all runs. Charts in one sample share their y scale.</p>
<div id="out"></div>
<script id="data" type="application/json">@@DATA@@</script>
<script>
(function(){
"use strict";
var D=JSON.parse(document.getElementById("data").textContent);
function el(tag,attrs,text){var e=document.createElement(tag);if(attrs)for(var k in attrs)e.setAttribute(k,attrs[k]);if(text!=null)e.textContent=text;return e;}
var m=D.machine;
var meta=document.getElementById("meta");
meta.appendChild(document.createTextNode(m.date+" · "+m.arch+", "+m.nproc+" CPUs, "+m.cpu+" · "+D.frames+" frames × "+D.runs+" runs, seed "+D.seed+", interleaved · "+Math.round(D.elapsed)+" s · "));
meta.appendChild(el("code",null,D.command));
var COL={over:"#c77d1a",frame:"#4a78c2",gc:"#e0452b",idle:"#f0a030",budget:"#2a9d4a",b33:"#b02a8a",grid:"#e3e7ee",text:"#333"};
var out=document.getElementById("out");
function setupCanvas(c,w,h){var r=window.devicePixelRatio||1;c.width=w*r;c.height=h*r;c.style.width=w+"px";c.style.height=h+"px";var x=c.getContext("2d");x.scale(r,r);return x;}
function niceMax(v){var steps=[5,10,20,25,40,50,100,200,250,500,1000,2000,5000,10000];for(var i=0;i<steps.length;i++)if(v<=steps[i])return steps[i];return Math.ceil(v/10000)*10000;}
function chart(s,ymax){
  var W=430,H=190,L=40,R=8,T=8,B=22,c=el("canvas"),x=setupCanvas(c,W,H),pw=W-L-R,ph=H-T-B;
  var f=s.frame_ms,g=s.gc_ms,idl=s.idle_gc_ms,n=f.length;
  function Y(v){return T+ph-Math.min(v,ymax)/ymax*ph;}
  x.font="11px system-ui,sans-serif";x.fillStyle=COL.text;x.strokeStyle=COL.grid;x.lineWidth=1;
  var tick=ymax/5;for(var t=0;t<=ymax+1e-9;t+=tick){var yy=Math.round(Y(t))+.5;x.beginPath();x.moveTo(L,yy);x.lineTo(L+pw,yy);x.stroke();x.textAlign="right";x.textBaseline="middle";x.fillText((Math.round(t*10)/10)+"",L-4,yy);}
  x.textAlign="center";x.textBaseline="top";
  for(var k=0;k<=4;k++){var fr=Math.round(n*k/4);x.fillText(fr+"",L+pw*k/4,T+ph+4);}
  var cols=Math.max(1,Math.min(pw,n)),cw=pw/cols;
  for(var ci=0;ci<cols;ci++){
    var a=Math.floor(ci*n/cols),b=Math.max(a+1,Math.floor((ci+1)*n/cols)),mf=0,mg=0,mi=0;
    for(var j=a;j<b;j++){if(f[j]>mf)mf=f[j];if(g[j]>mg)mg=g[j];if(idl&&idl[j]>mi)mi=idl[j];}
    var x0=L+ci*cw,w=Math.max(cw-(cw>2?0.5:0),0.8);
    x.fillStyle=COL.frame;x.fillRect(x0,Y(mf),w,T+ph-Y(mf));
    if(mg>0){x.fillStyle=COL.gc;x.fillRect(x0,Y(mg),w,T+ph-Y(mg));}
    if(mi>0){x.fillStyle=COL.idle;x.fillRect(x0,Y(mf+mi),w,Y(mf)-Y(mf+mi));}
    if(mf>ymax){x.fillStyle=COL.gc;x.fillRect(x0,T,w,3);}
  }
  [[16.7,COL.budget],[33.3,COL.b33]].forEach(function(p){if(p[0]<=ymax){var yy=Math.round(Y(p[0]))+.5;x.strokeStyle=p[1];x.setLineDash([5,3]);x.beginPath();x.moveTo(L,yy);x.lineTo(L+pw,yy);x.stroke();x.setLineDash([]);var lbl=p[0]+" ms",tw=x.measureText(lbl).width;x.fillStyle="rgba(255,255,255,.85)";x.fillRect(L+pw-tw-5,yy-13,tw+4,12);x.fillStyle=p[1];x.textAlign="right";x.textBaseline="bottom";x.fillText(lbl,L+pw-3,yy-1);}});
  x.strokeStyle="#999";x.strokeRect(L+.5,T+.5,pw,ph);
  x.save();x.fillStyle=COL.text;x.translate(10,T+ph/2);x.rotate(-Math.PI/2);x.textAlign="center";x.textBaseline="middle";x.fillText("frame ms",0,0);x.restore();
  return c;
}
function hist(s){
  var W=190,H=190,L=62,R=40,T=18,B=6,c=el("canvas"),x=setupCanvas(c,W,H),pw=W-L-R,ph=H-T-B,h=s.hist,tot=0,mx=0,i;
  for(i=0;i<h.length;i++){tot+=h[i];if(h[i]>mx)mx=h[i];}
  var rh=ph/h.length;x.font="11px system-ui,sans-serif";x.fillStyle=COL.text;x.textAlign="left";x.textBaseline="top";
  x.fillText("frames per bucket (ms)",0,0);
  for(i=0;i<h.length;i++){
    var y0=T+i*rh,bl=h[i]>0?Math.max(2,h[i]/mx*pw):0;
    x.fillStyle=i==6?COL.b33:(i==5?COL.over:COL.frame);x.fillRect(L,y0+2,bl,rh-4);
    x.fillStyle=COL.text;x.textBaseline="middle";x.textAlign="right";x.fillText(D.buckets[i],L-5,y0+rh/2);
    x.textAlign="left";x.fillText(h[i]+"",L+bl+4,y0+rh/2);
  }
  x.strokeStyle="#999";x.beginPath();x.moveTo(L+.5,T);x.lineTo(L+.5,T+ph);x.stroke();
  return c;
}
D.samples.forEach(function(S){
  out.appendChild(el("h2",null,S.name));
  var tb=el("table"),tr=el("tr");D.headers.forEach(function(h){tr.appendChild(el("th",null,h));});tb.appendChild(tr);
  S.settings.forEach(function(s){
    if(s.cells){tr=el("tr");tr.appendChild(el("td",null,s.name));s.cells.forEach(function(v){tr.appendChild(el("td",null,v));});tb.appendChild(tr);}
    s.errors.forEach(function(e){tr=el("tr",{"class":"err"});tr.appendChild(el("td",null,s.name));var td=el("td",{colspan:D.headers.length-1},"ERROR "+e);tr.appendChild(td);tb.appendChild(tr);});
  });
  out.appendChild(tb);
  var ymax=0;S.settings.forEach(function(s){if(s.frame_ms)for(var i=0;i<s.frame_ms.length;i++){var v=s.frame_ms[i]+(s.idle_gc_ms?s.idle_gc_ms[i]:0);if(v>ymax)ymax=v;}});
  ymax=niceMax(Math.max(ymax*1.05,20));
  var grid=el("div",{"class":"grid"});
  S.settings.forEach(function(s){
    var card=el("div",{"class":"card"}),h3=el("h3",null,s.name+" ");
    if(!s.frame_ms){h3.appendChild(el("span",{"class":"sub"},"no data"));card.appendChild(h3);s.errors.forEach(function(e){card.appendChild(el("div",{"class":"note"},"ERROR "+e));});grid.appendChild(card);return;}
    h3.appendChild(el("span",{"class":"sub"},"run 1, "+s.frame_ms.length+" frames · histogram: "+s.hist_runs+" run(s)"+(s.gc_reported?"":" · GC not timed by this backend")));
    card.appendChild(h3);
    var row=el("div",{"class":"row"});row.appendChild(chart(s,ymax));row.appendChild(hist(s));card.appendChild(row);
    var lg=el("div",{"class":"legend"});
    function item(col,txt){var sp=el("span");sp.style.background=col;lg.appendChild(sp);lg.appendChild(document.createTextNode(txt));}
    item(COL.frame,"frame ms");item(COL.gc,"GC ms in frame");if(s.idle_gc_ms)item(COL.idle,"idle GC ms (after frame)");item(COL.budget,"16.7 ms");
    card.appendChild(lg);grid.appendChild(card);
  });
  out.appendChild(grid);
});
// Read by tools/check_report.sh through headless Chromium: proof the
// charts were drawn, not just that the page loaded.
document.body.setAttribute("data-charts-drawn", String(document.querySelectorAll("canvas").length));
})();
</script></body></html>
]==]

local payload = json_encode(data)
write_file(opts.out .. "/report.html", (HTML:gsub("@@DATA@@", function() return payload end)))

print(("compare: %d runs in %.0f s"):format(total, elapsed))
print("wrote " .. opts.out .. "/comparison.md")
print("wrote " .. opts.out .. "/report.html")
