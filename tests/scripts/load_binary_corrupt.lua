-- load with damaged binary chunks: every truncation and thousands of byte
-- flips of a real chunk are rejected with an error or load cleanly; none
-- crashes the interpreter. Stock Lua does not promise this (it trusts
-- binary chunks), so this runs on Tide only.
-- requires: tide
local function sample(a, b, ...)
    local t = { a, b, n = select("#", ...) }
    for i = 1, 3 do t[#t + 1] = ("%d:%s"):format(i, tostring(b)) end
    return function() return t, a // 2, b .. "!" end
end
local chunk = string.dump(sample)
local stripped = string.dump(sample, true)
print(type(load(chunk, "c", "b")), type(load(stripped, "c", "b")))  -- expect: function	function

local truncated_rejected = 0
for n = 0, #chunk - 1 do
    local f, err = load(chunk:sub(1, n), "=c", "b")
    if f == nil and type(err) == "string" then truncated_rejected = truncated_rejected + 1 end
end
print(truncated_rejected == #chunk)  -- expect: true

-- A deterministic generator, so failures reproduce.
local state = 12345
local function next_random(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return state % n
end

local loaded, rejected = 0, 0
for _ = 1, 4000 do
    local pos = 1 + next_random(#chunk)
    local byte = string.char(next_random(256))
    local damaged = chunk:sub(1, pos - 1) .. byte .. chunk:sub(pos + 1)
    local f, err = load(damaged, "=c", "b")
    if f then loaded = loaded + 1
    elseif type(err) == "string" then rejected = rejected + 1 end
end
print(loaded + rejected)  -- expect: 4000
print(rejected > 0)  -- expect: true
