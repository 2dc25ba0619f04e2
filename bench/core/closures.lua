-- bench/core/closures.lua — creating closures (fresh upvalues each time,
-- shared upvalues, nested levels) and calling them, plus higher-order
-- functions. Prints nothing; asserts a checksum.

local function make_counter(start)
    local n = start
    return function(step)
        n = n + step
        return n
    end
end

local function make_pair()
    local shared = 0
    local function inc() shared = shared + 1 return shared end
    local function get() return shared end
    return inc, get
end

local function compose(f, g) return function(x) return f(g(x)) end end
local function map(t, f)
    local out = {}
    for i = 1, #t do out[i] = f(t[i]) end
    return out
end

local function run()
    local sum = 0
    for i = 1, 300000 do
        local c = make_counter(i)
        c(1)
        sum = sum + c(2)
        local inc, get = make_pair()
        inc() inc()
        sum = sum + get()
        local add_i = function(x) return x + i end
        local twice = compose(add_i, add_i)
        sum = sum + twice(i % 17)
    end

    -- Calls only: one closure called many times.
    local c = make_counter(0)
    for _ = 1, 2000000 do c(3) end
    sum = sum + c(0)

    local data = {}
    for i = 1, 100 do data[i] = i end
    for round = 1, 2000 do
        local r = map(data, function(x) return x * round % 97 end)
        sum = sum + r[#r]
    end

    return sum
end

local total = 0
for _ = 1, 4 do total = total + run() end
assert(total == 540041783548, total)
