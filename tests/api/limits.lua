-- API test: running out of memory, deep recursion through C, malformed
-- binary chunks (limits.c). Every "expect" line was proven on stock Lua 5.4.
local limits = require("limits")

-- Out of memory inside a script: a Lua error with the manual's message, and
-- the state goes on working (the same state runs the second chunk).
local grow = "local t = {} for i = 1, 1e8 do t[i] = {i} end return 'finished'"
local ok1, msg1, ok2, msg2 = limits.out_of_memory(512 * 1024, grow, "return 'still usable'")
print(ok1, msg1)  -- expect: false	not enough memory
print(ok2, msg2)  -- expect: true	still usable

-- Strings too: a concatenation that cannot fit
ok1, msg1 = limits.out_of_memory(1024 * 1024, "local s = 'x' for i = 1, 30 do s = s .. s end", "return 1")
print(ok1, msg1)  -- expect: false	not enough memory

-- An error caught inside the limited script: pcall sees the memory error
ok1, msg1 = limits.out_of_memory(512 * 1024,
    "local ok, e = pcall(function() local t = {} for i = 1, 1e8 do t[i] = i .. '' end end) return tostring(ok) .. ' ' .. e",
    "return 1")
print(ok1, msg1)  -- expect: true	false not enough memory

-- Deep recursion in Lua alone
local function deep(n) return 1 + deep(n + 1) end
local ok, e = pcall(deep, 1)
print(ok, (string.find(e, "stack overflow", 1, true)) ~= nil)  -- expect: false	true

-- Deep recursion through C functions: Lua -> C -> Lua -> ...
local function through(n) return limits.through_c(through, n + 1) end
ok, e = pcall(through, 1)
print(ok, (string.find(e, "stack overflow", 1, true)) ~= nil)  -- expect: false	true

-- After both, the state still runs code
print(select("#", limits.through_c(function(...) return ... end, 1, 2, 3)))  -- expect: 3

-- Malformed binary chunks are rejected with an error, not a crash
print((limits.load_bytes("\27Lua")))  -- expect: syntax
print((limits.load_bytes("\27Lu")))  -- expect: syntax
print((limits.load_bytes("\27" .. string.rep("\255", 64))))  -- expect: syntax
print((limits.load_bytes("\27Lua\84\0garbage")))  -- expect: syntax
-- and a text chunk of garbage is a syntax error
print((limits.load_bytes("\1\2\3\4")))  -- expect: syntax
