-- lua: 5.4
-- C modules compiled by Debian for stock Lua 5.4 (lua-lpeg, lua-cjson),
-- loaded through package.cpath: Tide's lua.h and lauxlib.h are not only
-- source- but binary-compatible with Lua 5.4's, so a game's existing
-- native modules load unchanged.
local lpeg = require("lpeg")
local re = require("re")
local cjson = require("cjson")

-- an lpeg grammar: comma-separated key=value pairs into a table
local name = lpeg.C(lpeg.R("az", "AZ", "__")^1)
local number = lpeg.C(lpeg.R("09")^1) / tonumber
local pair = lpeg.Cg(name * "=" * number)
local list = lpeg.Cf(lpeg.Ct("") * (pair * (lpeg.P(",") * pair)^0)^-1, rawset)
local t = list:match("hp=100,mp=35,level=7")
print(t.hp, t.mp, t.level)                 -- expect: 100	35	7

-- re, the regex-like front end (a Lua module on top of the C one)
print(re.find("score: 12345 points", "[0-9]+"))   -- expect: 8	12
print(re.gsub("a-b-c", "'-'", "+"))                -- expect: a+b+c

-- cjson: round trips, and errors as Lua errors
local doc = cjson.decode('{"name":"tide","tags":["gc","lua"],"n":3}')
print(doc.name, #doc.tags, doc.tags[2], doc.n) -- expect: tide	2	lua	3.0
print(cjson.encode({ 1, 2, 3 }))                          -- expect: [1,2,3]
local ok, err = pcall(cjson.decode, "{bad json")
print(ok, type(err))                                      -- expect: false	string

-- many values through both, with collections in between: the modules'
-- userdata, metatables and registry references survive the collector
local total = 0
for i = 1, 3000 do
    local s = cjson.encode({ id = i, name = "e" .. i })
    local back = cjson.decode(s)
    total = total + back.id + #lpeg.match(lpeg.C(lpeg.P(1)^0), back.name)
    if i % 500 == 0 then collectgarbage() end
end
-- (cjson decodes every number as a float)
print(total) -- expect: 4515393.0
