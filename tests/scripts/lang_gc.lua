-- lua: 5.4
-- §2.5 garbage collection: weak tables (values, keys, ephemerons),
-- finalizers (marking, order, resurrection, running at close), and the
-- collectgarbage options.
--
-- Garbage is made inside helper functions so that no live register still
-- refers to it; counts allow a few survivors, since a collector may keep
-- an object a stale reference pins (Tide scans the C stack conservatively).

local function count(t) local n = 0 for _ in pairs(t) do n = n + 1 end return n end

-- weak values: tables and closures go; strings, numbers, booleans stay
local wv = setmetatable({}, { __mode = "v" })
local kept = {}
local function fill_values()
    for i = 1, 100 do wv[i] = {} end
    for i = 101, 110 do wv[i] = function() return i end end
    wv.s = "a string" .. 1
    wv.n = 42
    wv.b = true
    wv.kept = kept
end
fill_values()
collectgarbage()
collectgarbage()
print(count(wv) < 20, wv.s, wv.n, wv.b, wv.kept == kept) -- expect: true	a string1	42	true	true

-- weak keys
local wk = setmetatable({}, { __mode = "k" })
local function fill_keys()
    for i = 1, 100 do wk[{}] = i end
    wk.str = "string keys stay"
    wk[kept] = "kept"
end
fill_keys()
collectgarbage()
collectgarbage()
print(count(wk) < 20, wk.str, wk[kept]) -- expect: true	string keys stay	kept

-- ephemerons: a value that refers to its own key does not keep it alive
local eph = setmetatable({}, { __mode = "k" })
local function fill_ephemerons()
    for _ = 1, 100 do
        local k = {}
        eph[k] = { owner = k }
    end
    eph[kept] = { owner = kept }
end
fill_ephemerons()
collectgarbage()
collectgarbage()
print(count(eph) < 20, eph[kept].owner == kept) -- expect: true	true

-- strong tables keep everything
local strong = {}
for i = 1, 10 do strong[i] = {} end
collectgarbage()
print(#strong) -- expect: 10

-- finalizers of objects collected together run in the reverse order of
-- marking (setmetatable with __gc); with the collector stopped while they
-- are made, one collection finds them all (under
-- TIDE_GC_DEBUG=collect-every=1 too)
local order = {}
local function make_finalized(n)
    for i = 1, n do
        setmetatable({}, { __gc = function() order[#order + 1] = i end })
    end
end
collectgarbage("stop")
make_finalized(5)
collectgarbage("restart")
collectgarbage()
collectgarbage()
print(table.concat(order, " ")) -- expect: 5 4 3 2 1

-- a __gc added after setmetatable does not mark the object...
local fin_log = {}
local function unmarked()
    local mt = {}
    setmetatable({}, mt)
    mt.__gc = function() fin_log[#fin_log + 1] = "unmarked" end
end
unmarked()
-- ...but a placeholder present at setmetatable time does; the function
-- found at collection time is the one called
local function placeholder()
    local mt = { __gc = true }
    setmetatable({}, mt)
    mt.__gc = function() fin_log[#fin_log + 1] = "placeholder" end
end
placeholder()
-- a __gc that is not a function is ignored
local function not_a_function() setmetatable({}, { __gc = 42 }) end
not_a_function()
collectgarbage()
collectgarbage()
print(table.concat(fin_log, " ")) -- expect: placeholder

-- resurrection: the finalizer may store the object; it is not finalized twice
resurrected = nil
local finalized_times = 0
local function make_phoenix()
    setmetatable({ name = "phoenix" }, { __gc = function(o)
        finalized_times = finalized_times + 1
        resurrected = o
    end })
end
make_phoenix()
collectgarbage()
collectgarbage()
print(resurrected and resurrected.name, finalized_times) -- expect: phoenix	1
resurrected = nil
collectgarbage()
collectgarbage()
print(finalized_times) -- expect: 1

-- objects being finalized are removed from weak values before their
-- finalizers run, and from weak keys only after (twenty of them: a stale
-- word on the C stack may keep one or two alive for a while, and those are
-- then simply not finalized yet, still in both tables)
local wvals = setmetatable({}, { __mode = "v" })
local wkeys = setmetatable({}, { __mode = "k" })
local seen = {}
local function weak_and_finalized(i)
    local o = setmetatable({ i = i }, { __gc = function(o)
        seen[#seen + 1] = tostring(wvals[o.i] == o) .. " " .. tostring(wkeys[o])
    end })
    wvals[i] = o
    wkeys[o] = "k"
end
for i = 1, 20 do weak_and_finalized(i) end
collectgarbage()
collectgarbage()
local all_saw_the_order = true
for _, s in ipairs(seen) do if s ~= "false k" then all_saw_the_order = false end end
local left = 0
for _ in pairs(wvals) do left = left + 1 end
print(#seen >= 17, all_saw_the_order, left == 20 - #seen) -- expect: true	true	true

-- errors in finalizers do not stop the collection (they become warnings)
local after_error = false
local function bad_finalizers()
    setmetatable({}, { __gc = function() after_error = true end })
    setmetatable({}, { __gc = function() error("finalizer failed") end })
end
bad_finalizers()
collectgarbage()
collectgarbage()
print(after_error) -- expect: true

-- collectgarbage options
print(collectgarbage("collect"), collectgarbage()) -- expect: 0	0
print(math.type(collectgarbage("count")), collectgarbage("count") > 0) -- expect: float	true
print(type(collectgarbage("step")), type(collectgarbage("step", 0))) -- expect: boolean	boolean
print(collectgarbage("isrunning")) -- expect: true
collectgarbage("stop")
print(collectgarbage("isrunning")) -- expect: false
collectgarbage("restart")
print(collectgarbage("isrunning")) -- expect: true
collectgarbage("incremental")
print(collectgarbage("generational"), collectgarbage("incremental"), collectgarbage("incremental")) -- expect: incremental	generational	incremental
print(pcall(collectgarbage, "no such option")) -- expect: false	bad argument #1 to 'collectgarbage' (invalid option 'no such option')
local before = collectgarbage("count")
local big = {}
for i = 1, 100000 do big[i] = i end
print(collectgarbage("count") > before) -- expect: true
big = nil

-- an object alive at the end has its finalizer run when the state closes
print("end of script") -- expect: end of script
closing = setmetatable({}, { __gc = function() print("finalized at close") end }) -- expect: finalized at close
