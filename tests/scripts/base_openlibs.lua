-- lua: 5.4
-- luaL_openlibs: every standard library is a global and an entry of
-- package.loaded (the base library's is _G), and require returns it.

local names = { "_G", "package", "coroutine", "table", "io", "os", "string", "math", "utf8", "debug" }
for _, name in ipairs(names) do
    local global = name == "_G" and _G or _G[name]
    io.write(name, "=", tostring(type(global) == "table" and package.loaded[name] == global and require(name) == global), " ")
end
print()                                    -- expect: _G=true package=true coroutine=true table=true io=true os=true string=true math=true utf8=true debug=true 
print(_G._G == _G, _ENV == _G)             -- expect: true	true
local count = 0
for _ in pairs(package.loaded) do count = count + 1 end
print(count)                               -- expect: 10
-- the base functions
local base = { "assert", "collectgarbage", "dofile", "error", "getmetatable", "ipairs", "load",
               "loadfile", "next", "pairs", "pcall", "print", "rawequal", "rawget", "rawlen",
               "rawset", "select", "setmetatable", "tonumber", "tostring", "type", "warn", "xpcall" }
local missing = {}
for _, name in ipairs(base) do if type(_G[name]) ~= "function" then missing[#missing + 1] = name end end
print(#missing, table.concat(missing, ","))  -- expect: 0	
-- library contents
local function keys(t) local k = {} for name in pairs(t) do k[#k + 1] = name end table.sort(k) return table.concat(k, " ") end
print(keys(coroutine))                     -- expect: close create isyieldable resume running status wrap yield
print(keys(table))                         -- expect: concat insert move pack remove sort unpack
print(keys(utf8))                          -- expect: char charpattern codepoint codes len offset
print(keys(math))                          -- expect: abs acos asin atan atan2 ceil cos cosh deg exp floor fmod frexp huge ldexp log log10 max maxinteger min mininteger modf pi pow rad random randomseed sin sinh sqrt tan tanh tointeger type ult
print(math.atan2 == math.atan, pairs({}) == next) -- expect: true	true
