-- API test (libtide only): tide.h's GC handles (handles.c).
local handles = require("handles")

-- Collect until weak handle [h] is cleared, a few cycles at most: a stale
-- word on the C stack (Tide scans it conservatively; seen under
-- AddressSanitizer) may keep an object alive a while longer.
local function collect_until_cleared(h)
    for _ = 1, 6 do
        collectgarbage()
        if handles.get(h) == nil then return end
        local junk = {}
        for j = 1, 10000 do junk[j] = { j } end
    end
end

-- A strong handle keeps a table alive with nothing else referring to it.
local strong = handles.strong({ name = "kept" })
collectgarbage()
collectgarbage()
print(handles.get(strong).name)            -- expect: kept

-- A weak handle follows its target while it lives...
local target = { 1, 2, 3 }
local weak = handles.weak(target)
collectgarbage()
print(handles.get(weak) == target)         -- expect: true
-- ...and gives nil once it is gone.
target = nil
collect_until_cleared(weak)
print(handles.get(weak))                   -- expect: nil

-- Values that are never collected, and strings, stay in weak handles.
local w_number = handles.weak(42)
local w_string = handles.weak("a string " .. 7)
collectgarbage()
print(handles.get(w_number), handles.get(w_string)) -- expect: 42	a string 7

-- An object with a finalizer that resurrects it: the plain weak handle is
-- cleared as soon as the object is found unreachable, before the finalizer
-- runs; the tracking one still gives the object, and keeps it while the
-- finalizer has made it reachable again.
local saved
local phoenix = setmetatable({ tag = "phoenix" }, { __gc = function(o) saved = o end })
local w_plain = handles.weak(phoenix)
local w_track = handles.tracking(phoenix)
phoenix = nil
collectgarbage()
print(saved and saved.tag, handles.get(w_plain), handles.get(w_track) == saved) -- expect: phoenix	nil	true
-- Once nothing refers to it any more (its finalizer has run), it is freed
-- and the tracking handle is cleared too.
saved = nil
collect_until_cleared(w_track)
print(handles.get(w_track))                -- expect: nil

-- Freed numbers are given out again.
handles.free(strong)
local again = handles.strong(true)
print(again == strong)                     -- expect: true
handles.free(again)
for _, h in ipairs({ weak, w_number, w_string, w_plain, w_track }) do handles.free(h) end

-- Four threads free 4 x 2000 handles while this thread collects.
print(handles.free_concurrently(2000))     -- expect: 8000	8000
