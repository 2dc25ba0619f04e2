-- requires: engine
-- Text widths come from stb_easy_font's advances, times the scale.
local engine = require("engine")

local function w(...) return string.format("%g", engine.text_width(...)) end

print(w("Hi"))             -- expect: 9
print(w("Hi", 2))          -- expect: 18
print(w("Hi", 0.5))        -- expect: 4.5
print(w(""))               -- expect: 0
print(w("Hi\n!"))          -- expect: 9
print(w("!\nHi"))          -- expect: 9
print(w("ab"), w(12))      -- expect: 12	12
print(w("score: 100") == w("score: 100", 1))  -- expect: true
-- engine.text draws and returns the same width
print(string.format("%g", engine.text(10, 20, "Hi", 3)))  -- expect: 27
