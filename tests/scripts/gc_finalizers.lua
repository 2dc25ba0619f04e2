-- lua: 5.4
-- Finalizers under a moving, generational collector (§2.5.3, §2.5.4, §6.1
-- collectgarbage, §6.1 warn): __gc runs exactly once per marked object, in
-- the reverse order of marking (setmetatable order, not creation order or
-- age) among objects collected in the same cycle; a finalizer sees its
-- object, and everything the object refers to, intact even when it was
-- young; resurrection, and marking again with setmetatable; objects being
-- finalized leave weak values before their finalizer runs and weak keys
-- only in the next cycle; only a __gc present at setmetatable time marks;
-- finalizers run when the state closes (os.exit(code, true) or the end of
-- the script), in reverse marking order; errors in finalizers become
-- warnings ("Lua warning: error in __gc (...)"); the collectgarbage options.
--
-- Garbage is made inside helper functions so that no live register still
-- refers to it. Counts of what must be finalized allow a few survivors,
-- since a collector may keep an object a stale word on the C stack points
-- to (Tide scans it conservatively). Under TIDE_GC_DEBUG tide already
-- collects every few allocations, so churn() allocates less there; the
-- checks and the output are the same.

local GC_DEBUG = os.getenv("TIDE_GC_DEBUG") ~= nil

-- many small tables and strings: the nursery fills, minor collections run
local function churn(n)
    n = n or 50000
    if GC_DEBUG then n = n // 20 end
    local last
    for i = 1, n do
        local t = { i, "churn" .. i }
        last = t
    end
    return last[1]
end

local function full()
    collectgarbage()
    collectgarbage()
end

-- makes what survives old
local function age()
    full()
    full()
end

local function count(t)
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    return n
end

local starting_mode = collectgarbage("incremental")
collectgarbage(starting_mode)

---------------------------------------------------------------------------
-- 1. exactly once, whatever the object's age, in both modes

local function exactly_once(mode)
    collectgarbage(mode)
    local runs = {}
    local alive = setmetatable({}, { __mode = "k" })   -- which objects still exist
    local mt = { __gc = function(o) runs[o.id] = (runs[o.id] or 0) + 1 end }
    local function make(first, last, holder)
        for i = first, last do
            holder[i] = setmetatable({ id = i }, mt)
            alive[holder[i]] = i
        end
    end
    local holder = {}
    make(1, 100, holder)
    age()                              -- the first hundred are old
    make(101, 200, holder)             -- the second hundred are young
    churn()
    holder = nil
    full()
    churn()
    full()
    local n = 0
    for id, c in pairs(runs) do
        n = n + 1
        assert(c == 1, mode .. ": finalizer of " .. id .. " ran " .. c .. " times")
    end
    assert(n >= 190, mode .. ": only " .. n .. " of 200 finalizers ran")
    -- more collections never run them again
    age()
    churn()
    age()
    for id, c in pairs(runs) do assert(c == 1, mode .. ": finalizer of " .. id .. " ran again") end
    -- an object whose finalizer has not run yet still exists
    local pending = {}
    for _, id in pairs(alive) do pending[id] = true end
    for id = 1, 200 do
        assert(runs[id] or pending[id], mode .. ": object " .. id .. " vanished without its finalizer")
    end
    return n >= 190
end
print(exactly_once("incremental"), exactly_once("generational")) -- expect: true	true
collectgarbage(starting_mode)

---------------------------------------------------------------------------
-- 2. reverse order of marking, among objects of mixed ages

local MARKING = { 5, 20, 1, 13, 24, 9, 17, 2, 12, 22, 7, 15, 3, 19, 10, 14, 23, 6, 11, 18, 4, 21, 8, 16 }
local RANK = {}
for j, i in ipairs(MARKING) do RANK[i] = j end

-- Objects 1-12 are old, 13-24 young; they are marked in MARKING's order,
-- with [phase] small tables allocated first (so that collections fall at
-- different points of the run) and, when [move], minor collections between
-- the markings. Then four collections, noted in the log as "|". Returns
-- nil and the log, or a description of what went wrong. A collector may
-- keep an object a stale word points to, so one may be finalized in a later
-- cycle; but within each cycle the order is the reverse of marking, each
-- runs once, and an object that is not finalized still exists.
local function finalization_order(mode, phase, move)
    collectgarbage(mode)
    local log = {}
    local alive = setmetatable({}, { __mode = "k" })
    local mt = { __gc = function(o) log[#log + 1] = o.name end }
    local objs = {}
    for i = 1, 12 do objs[i] = { name = i } end
    age()
    for i = 1, phase do local _ = { i } end
    for i = 13, 24 do objs[i] = { name = i } end
    for j, i in ipairs(MARKING) do
        setmetatable(objs[i], mt)
        alive[objs[i]] = i
        if move and j % 6 == 0 then
            for k = 1, move do local _ = { k, "m" .. k } end
        end
    end
    objs = nil
    for _ = 1, 4 do
        collectgarbage()
        log[#log + 1] = "|"
    end
    local text = table.concat(log, " ")
    local seen, in_first_cycle, cycle, previous = {}, 0, 1, math.huge
    for _, x in ipairs(log) do
        if x == "|" then
            cycle, previous = cycle + 1, math.huge
        else
            if seen[x] then return mode .. " phase " .. phase .. ": " .. x .. " finalized twice: " .. text end
            seen[x] = true
            if RANK[x] > previous then
                return mode .. " phase " .. phase .. ": not in reverse marking order: " .. text
            end
            previous = RANK[x]
            if cycle == 1 then in_first_cycle = in_first_cycle + 1 end
        end
    end
    if in_first_cycle < 20 then
        return mode .. " phase " .. phase .. ": only " .. in_first_cycle .. " finalized by the first collection: " .. text
    end
    local pending = {}
    for _, i in pairs(alive) do pending[i] = true end
    for i = 1, 24 do
        if not seen[i] and not pending[i] then
            return mode .. " phase " .. phase .. ": object " .. i .. " vanished without its finalizer: " .. text
        end
    end
    return nil, text
end

local checked = 0
for _, mode in ipairs({ "incremental", "generational" }) do
    local problem = finalization_order(mode, 0, GC_DEBUG and 1000 or 20000)
    assert(not problem, problem)
    checked = checked + 1
    for phase = 1, 1200, 23 do
        problem = finalization_order(mode, phase, false)
        assert(not problem, problem)
        problem = finalization_order(mode, phase, 1000)
        assert(not problem, problem)
        checked = checked + 2
    end
end
print(checked) -- expect: 214
collectgarbage(starting_mode)

-- objects finalized in the same cycle see each other intact: b is
-- reachable only from a; the later marked runs first
local pair_log = {}
local function make_pair(b_first)
    local b_mt = { __gc = function(o) o.finalized = true; pair_log[#pair_log + 1] = "b" end }
    local b = { data = { "b's data" } }
    local a = { b = b }
    local a_mt = { __gc = function(o)
        pair_log[#pair_log + 1] = "a(b " .. (o.b.finalized and "finalized" or "pending") .. ", " .. o.b.data[1] .. ")"
    end }
    if b_first then
        setmetatable(b, b_mt)
        setmetatable(a, a_mt)
    else
        setmetatable(a, a_mt)
        setmetatable(b, b_mt)
    end
end
make_pair(true)
full()
make_pair(false)
full()
print(table.concat(pair_log, " ")) -- expect: a(b pending, b's data) b b a(b finalized, b's data)

---------------------------------------------------------------------------
-- 3. the object and what it refers to are intact in the finalizer

-- the finalizer closure captures its own object
local self_seen
local function make_self_captured()
    local o = { tag = "self" }
    setmetatable(o, { __gc = function(arg) self_seen = rawequal(arg, o) and arg.tag end })
end
make_self_captured()
churn()
age()
print(self_seen) -- expect: self

-- a young object with young children, and a finalizer that allocates a lot
local alloc_result
local function make_allocating()
    local o = { data = { 1, 2, { 3 } }, s = "data" .. 1 }
    setmetatable(o, { __gc = function(x)
        churn(30000)
        local t = {}
        for i = 1, 1000 do t[i] = { i } end
        alloc_result = x.data[3][1] + #x.s + t[1000][1] + x.data[2]
    end })
end
make_allocating()
age()
print(alloc_result) -- expect: 1010

-- a finalizer marks a new object, which is finalized in a later cycle
local generations = {}
local function spawn(gen)
    setmetatable({ gen = gen }, { __gc = function(o)
        generations[#generations + 1] = o.gen
        if o.gen < 3 then spawn(o.gen + 1) end
    end })
end
spawn(1)
for _ = 1, 8 do collectgarbage() end
print(table.concat(generations, " ")) -- expect: 1 2 3

---------------------------------------------------------------------------
-- 4. resurrection

local LONG = string.rep("resurrected long string ", 4)
local revivals = 0
local revive_mt = {
    __index = { greet = function(self) return "hello " .. self.name end },
    __gc = function(o) revivals = revivals + 1; REVIVED = o end,
}
local function make_revivable(name)
    setmetatable({ name = name, child = { list = { 1, 2, 3 } },
                   f = function() return name .. " closure" end, long = LONG .. name }, revive_mt)
end
local function check_revived(name)
    -- a stale word on the C stack (Tide scans it conservatively; seen under
    -- AddressSanitizer) may keep the object alive a few cycles longer
    for _ = 1, 5 do
        if REVIVED then break end
        churn()
        age()
    end
    local o = REVIVED
    assert(o, name .. " was not resurrected")
    assert(getmetatable(o) == revive_mt, "resurrected object lost its metatable")
    assert(o:greet() == "hello " .. name, "resurrected object's methods")
    assert(o.child.list[3] == 3 and o.f() == name .. " closure" and o.long == LONG .. name,
        "resurrected object's fields")
end

REVIVED = nil
make_revivable("lazarus")
age()
check_revived("lazarus")
churn()
full()
churn()
check_revived("lazarus")              -- usable after more collections
print(revivals, REVIVED.name) -- expect: 1	lazarus
REVIVED = nil
age()
print(revivals, REVIVED) -- expect: 1	nil

-- marked again with setmetatable, it is finalized again (once more only)
make_revivable("phoenix")
age()
check_revived("phoenix")
setmetatable(REVIVED, revive_mt)
REVIVED = nil
age()
check_revived("phoenix")
print(revivals) -- expect: 3
REVIVED = nil
age()
print(revivals, REVIVED) -- expect: 3	nil

---------------------------------------------------------------------------
-- 5. weak tables and objects being finalized (§2.5.4): removed from weak
-- values before the finalizer runs; kept as weak keys until the next
-- cycle, and for good when resurrected

local fwv = setmetatable({}, { __mode = "v" })
local fwk = setmetatable({}, { __mode = "k" })
local fkv = setmetatable({}, { __mode = "kv" })
local in_finalizer = {}
local kept = {}
local watched_mt = { __gc = function(o)
    in_finalizer[#in_finalizer + 1] = string.format("%d:%s,%s,%s,%s", o.id,
        tostring(fwv[o.id] == nil), tostring(fwk[o]), tostring(fkv[o]), tostring(fkv[-o.id] == nil))
    if o.id % 2 == 0 then kept[o.id] = o end     -- the even ones are resurrected
end }
local function watch(first, last, holder)
    for id = first, last do
        local o = setmetatable({ id = id }, watched_mt)
        holder[id] = o
        fwv[id] = o
        fwk[o] = "k" .. id
        fkv[o] = id
        fkv[-id] = o
    end
end
local watched = {}
age()                                 -- the weak tables are old
watch(1, 2, watched)
age()                                 -- objects 1 and 2 are old, 3 and 4 young
watch(3, 4, watched)
churn()
watched = nil
age()
-- (all four are collected in one cycle, in the order 4 3 2 1, unless a stale
-- word kept one for longer: the order is section 2's subject, so sort here)
table.sort(in_finalizer, function(a, b) return a > b end)
print(table.concat(in_finalizer, " ")) -- expect: 4:true,k4,4,true 3:true,k3,3,true 2:true,k2,2,true 1:true,k1,1,true
-- next cycle: the odd ones are gone from the weak keys, the resurrected stay
full()
print(fwk[kept[2]], fwk[kept[4]], fkv[kept[2]], fkv[kept[4]], fwv[2], fwv[4]) -- expect: k2	k4	2	4	nil	nil
assert(count(fwk) <= 3 and count(fkv) <= 3 and count(fwv) <= 1, "dead finalized objects stayed in weak tables")
kept = nil
age()
print(#in_finalizer, count(fwk) <= 1, count(fkv) <= 1) -- expect: 4	true	true

---------------------------------------------------------------------------
-- 6. what marks an object for finalization

local marking_log = {}
local function note(what) return function() marking_log[#marking_log + 1] = what end end
local function marking_cases()
    -- __gc added to the metatable after setmetatable: not marked
    local mt = {}
    setmetatable({}, mt)
    mt.__gc = note("added later")
    -- the same metatable, now with __gc, given to another object: marked
    setmetatable({}, mt)
    -- a placeholder (false) present at setmetatable time marks it; the
    -- function found at collection time is called
    local placeholder = { __gc = false }
    setmetatable({}, placeholder)
    placeholder.__gc = note("placeholder")
    -- marked, then its metatable removed: no __gc is present, nothing runs
    local removed = setmetatable({}, { __gc = note("removed metatable") })
    setmetatable(removed, nil)
    -- marked, then given a metatable with another __gc: that one runs
    local swapped = setmetatable({}, { __gc = note("first metatable") })
    setmetatable(swapped, { __gc = note("second metatable") })
end
marking_cases()
age()
table.sort(marking_log)
print(table.concat(marking_log, ", ")) -- expect: added later, placeholder, second metatable

---------------------------------------------------------------------------
-- 7. errors in finalizers: the collection goes on (and warnings are off)

local survivors_of_error = {}
local function failing_finalizers()
    setmetatable({}, { __gc = function() survivors_of_error[#survivors_of_error + 1] = "first marked" end })
    setmetatable({}, { __gc = function() error("finalizer failure") end })
    setmetatable({}, { __gc = function() error({ "not a string" }) end })
    setmetatable({}, { __gc = function() survivors_of_error[#survivors_of_error + 1] = "last marked" end })
end
-- (made with the collector stopped, so that one collection finds all four:
-- under TIDE_GC_DEBUG=collect-every a collection could otherwise fall
-- between them and finalize the first ones on its own)
collectgarbage("stop")
failing_finalizers()
collectgarbage("restart")
print(pcall(full)) -- expect: true
print(table.concat(survivors_of_error, ", ")) -- expect: last marked, first marked

---------------------------------------------------------------------------
-- 8. child interpreters: warnings from __gc, finalizers at close

-- The command that runs this same interpreter: arg's negative indices, as
-- lua5.4 and tide set them (a host that sets none gets lua5.4).
local function interpreter()
    local first = 0
    while arg and arg[first - 1] ~= nil do first = first - 1 end
    if first == 0 then return "lua5.4" end
    local words = {}
    for i = first, -1 do words[#words + 1] = "'" .. arg[i]:gsub("'", "'\\''") .. "'" end
    return table.concat(words, " ")
end

-- runs [source]; returns its stdout, its stderr and its exit code
local function run_child(source)
    local script, err = os.tmpname(), os.tmpname()
    local f = assert(io.open(script, "w"))
    f:write(source)
    f:close()
    local p = io.popen(interpreter() .. " " .. script .. " 2>" .. err)
    local out = p:read("a")
    local _, _, code = p:close()
    f = assert(io.open(err))
    local errors = f:read("a")
    f:close()
    os.remove(script)
    os.remove(err)
    return out, errors, code
end

local warning_child = [[
local function failing()
    setmetatable({}, { __gc = function() error("first marked fails", 0) end })
    setmetatable({}, { __gc = function() error({}) end })
    setmetatable({}, { __gc = function() print("third runs") end })
    setmetatable({}, { __gc = function() error("last marked fails", 0) end })
end
failing()
collectgarbage()
print("warnings off: nothing on stderr")
io.stdout:flush()
warn("@on")
failing()
collectgarbage()
print("collected")
closing = setmetatable({}, { __gc = function() error("failed at close", 0) end })
]]
do
    local out, errors, code = run_child(warning_child)
    assert(out == "third runs\nwarnings off: nothing on stderr\nthird runs\ncollected\n", out)
    assert(errors == "Lua warning: error in __gc (last marked fails)\n" ..
                     "Lua warning: error in __gc (error object is not a string)\n" ..
                     "Lua warning: error in __gc (first marked fails)\n" ..
                     "Lua warning: error in __gc (failed at close)\n", errors)
    print(code) -- expect: 0
end

local closing_child = [[
local mt = { __gc = function(o) io.write("finalized ", o.name, "\n") end }
A = setmetatable({ name = "a" }, mt)
local b = setmetatable({ name = "b" }, mt)
local function young() return setmetatable({ name = "c" }, mt) end
local c = young()
local t <close> = setmetatable({}, { __close = function() io.write("closed\n") end })
io.write("exiting\n")
os.exit(%s)
]]
do
    local out, errors, code = run_child(closing_child:format("7, true"))
    print((out:gsub("\n", "|")), errors, code) -- expect: exiting|closed|finalized c|finalized b|finalized a|		7
    out, errors, code = run_child(closing_child:format("7, false"))
    print((out:gsub("\n", "|")), errors, code) -- expect: exiting|		7
    -- the end of the script closes the state too
    out, errors, code = run_child((closing_child:gsub("os%.exit%(%%s%)", "")))
    print((out:gsub("\n", "|")), errors, code) -- expect: exiting|closed|finalized c|finalized b|finalized a|		0
end

---------------------------------------------------------------------------
-- 9. collectgarbage

print(collectgarbage("collect"), collectgarbage()) -- expect: 0	0
print(type(collectgarbage("step")), math.type(collectgarbage("count")), select("#", collectgarbage("count"))) -- expect: boolean	float	1

-- count, in KiB, follows a big structure's life (built and dropped in
-- helpers; one more round of collections in case a stale word on the C
-- stack still pointed at it during the first)
local function build_big()
    local big = {}
    for i = 1, 100000 do big[i] = { i } end
    return big
end
local function count_with_big()
    full()
    local before = collectgarbage("count")
    local big = build_big()
    local during = collectgarbage("count")
    assert(#big == 100000 and big[100000][1] == 100000)
    return before, during
end
do
    local before, during = count_with_big()
    full()
    churn(1000)
    full()
    local after = collectgarbage("count")
    print(during > before + 2000, after < during - 2000) -- expect: true	true
end

-- stop: allocation collects nothing (no finalizer runs, no weak entry goes)
-- until restart or an explicit collection
print(collectgarbage("isrunning")) -- expect: true
print(collectgarbage("stop")) -- expect: 0
print(collectgarbage("isrunning")) -- expect: false
local stopped_finalized = 0
local stopped_weak = setmetatable({}, { __mode = "v" })
local function garbage_while_stopped()
    for i = 1, 100 do
        setmetatable({}, { __gc = function() stopped_finalized = stopped_finalized + 1 end })
        stopped_weak[i] = { i }
    end
end
garbage_while_stopped()
churn()
churn()
print(stopped_finalized, count(stopped_weak), collectgarbage("isrunning")) -- expect: 0	100	false
print(type(collectgarbage("step")), collectgarbage("isrunning")) -- expect: boolean	false
print(collectgarbage("restart")) -- expect: 0
print(collectgarbage("isrunning")) -- expect: true
full()
print(stopped_finalized >= 90, count(stopped_weak) < 10) -- expect: true	true

-- step finishes a cycle sooner or later (in incremental mode)
collectgarbage("incremental")
do
    local finished = false
    for _ = 1, 100000 do
        if collectgarbage("step", 0) then finished = true break end
    end
    print(finished) -- expect: true
end

-- the mode switches return the previous mode
print(collectgarbage("generational")) -- expect: incremental
print(collectgarbage("generational")) -- expect: generational
print(collectgarbage("incremental")) -- expect: generational
print(collectgarbage("incremental")) -- expect: incremental
collectgarbage(starting_mode)

---------------------------------------------------------------------------
-- 10. objects alive at the end are finalized when the state closes, in
-- reverse order of marking

CLOSING = {}
for i = 1, 3 do
    CLOSING[i] = setmetatable({ i = i }, { __gc = function(o) print("closing " .. o.i) end })
end
setmetatable(CLOSING, { __gc = function() print("closing the holder") end })
print("end of script") -- expect: end of script
-- expect: closing the holder
-- expect: closing 3
-- expect: closing 2
-- expect: closing 1
