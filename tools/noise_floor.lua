-- tools/noise_floor.lua — how steady this machine is for memory-bound work:
-- the same slice of work (random reads over a 128 MiB array, about 0.4 ms
-- with stock Lua 5.4 on an idle x86-64 machine) timed over and over, with the collector
-- stopped. On a quiet machine every slice takes about as long as the
-- median; on a shared virtual machine some take several times as long,
-- and a GC pause of the same work would too. The comparison
-- (tools/compare.lua) prints this next to its table.
--
--   bin/Release/tidehost-lua54 --exec tools/noise_floor.lua [-- SECONDS]
--
-- Prints one line: slices, the median and the slowest slice in ms, and how
-- many slices took more than 2x and 5x the median.
local seconds = tonumber(arg and arg[1]) or 10
collectgarbage("stop")
local N = 8 * 1024 * 1024
local a = {}
for i = 1, N do a[i] = i end
local clock = require("engine").clock
local times = {}
local x, sink = 1, 0
local start = clock()
while clock() - start < seconds do
    local t = clock()
    for _ = 1, 2000 do
        x = (x * 1103515245 + 12345) % 2147483648
        sink = sink + a[x % N + 1]
    end
    times[#times + 1] = clock() - t
end
table.sort(times)
local median = times[(#times + 1) // 2]
local over2, over5 = 0, 0
for _, t in ipairs(times) do
    if t > 2 * median then over2 = over2 + 1 end
    if t > 5 * median then over5 = over5 + 1 end
end
print(string.format("noise floor: %d slices of the same memory-bound work, median %.3f ms, "
    .. "slowest %.3f ms; %d (%.2f%%) over 2x the median, %d (%.2f%%) over 5x",
    #times, median * 1e3, times[#times] * 1e3, over2, 100 * over2 / #times, over5, 100 * over5 / #times))
assert(sink ~= 0.5)
