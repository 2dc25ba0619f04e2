-- bench/core/coroutines.lua — coroutine ping-pong: two coroutines passing a
-- value back and forth through resume/yield, generators through
-- coroutine.wrap, and many short-lived coroutines. Prints nothing; asserts
-- a checksum.

local resume, yield, create, wrap = coroutine.resume, coroutine.yield, coroutine.create, coroutine.wrap

-- Ping-pong: the main thread drives `pong`, which answers every ball.
local pong = create(function(ball)
    while true do ball = yield(ball + 1) end
end)
local ball = 0
for _ = 1, 5000000 do
    local _, b = resume(pong, ball)
    ball = b
end

-- A generator pipeline: numbers -> squares -> filtered sum.
local function numbers(n)
    return wrap(function() for i = 1, n do yield(i) end end)
end
local function squares(source)
    return wrap(function()
        for v in source do yield(v * v) end
    end)
end
local total = 0
for v in squares(numbers(1200000)) do
    if v % 3 == 1 then total = total + v end
end

-- Many short-lived coroutines.
local made = 0
for i = 1, 300000 do
    local co = create(function(a, b) local c = yield(a + b) return c * 2 end)
    local _, s = resume(co, i, 1)
    local _, d = resume(co, s)
    made = made + d
end

assert(ball .. " " .. total .. " " .. made == "5000000 383999999999600000 90000900000", ball .. " " .. total .. " " .. made)
