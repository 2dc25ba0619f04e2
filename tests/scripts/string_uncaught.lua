-- lua: 5.4
-- An error raised by the string library that nothing catches ends the
-- script with the message and its position.
print(("x"):rep(2), ("%d"):format(3))  -- expect: xx	3
local ok = pcall(string.rep)
print(ok)  -- expect: false
print(("abc"):find("b", 1, true))  -- expect: 2	2
string.format("%d", "x")  -- expect error: string_uncaught.lua:8: bad argument #2 to 'format' (number expected, got string)
print("not reached")
