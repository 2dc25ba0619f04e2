-- lua: 5.4
-- os.date: every C99 conversion in UTC ("!") at fixed times, "*t" and
-- "!*t" tables, the check of conversion specifiers, and the time
-- argument. Local-time results are only compared with each other, so the
-- machine's time zone does not matter.

local t = 1234567890 -- 2009-02-13 23:31:30 UTC, a Friday

-- each conversion on its own
local conversions = {
    "a", "A", "b", "B", "c", "C", "d", "D", "e", "F", "g", "G", "h", "H", "I", "j", "m", "M",
    "n", "p", "r", "R", "S", "t", "T", "u", "U", "V", "w", "W", "x", "X", "y", "Y", "%",
    "Ec", "EC", "Ex", "EX", "Ey", "EY",
    "Od", "Oe", "OH", "OI", "Om", "OM", "OS", "Ou", "OU", "OV", "Ow", "OW", "Oy",
}
local shown = {}
for i, c in ipairs(conversions) do
    local text = os.date("!%" .. c, t):gsub("[\n\t]", { ["\n"] = "\\n", ["\t"] = "\\t" })
    shown[#shown + 1] = c .. "=[" .. text .. "]"
    if i % 6 == 0 or i == #conversions then
        print(table.concat(shown, " "))
        shown = {}
    end
end
-- expect: a=[Fri] A=[Friday] b=[Feb] B=[February] c=[Fri Feb 13 23:31:30 2009] C=[20]
-- expect: d=[13] D=[02/13/09] e=[13] F=[2009-02-13] g=[09] G=[2009]
-- expect: h=[Feb] H=[23] I=[11] j=[044] m=[02] M=[31]
-- expect: n=[\n] p=[PM] r=[11:31:30 PM] R=[23:31] S=[30] t=[\t]
-- expect: T=[23:31:30] u=[5] U=[06] V=[07] w=[5] W=[06]
-- expect: x=[02/13/09] X=[23:31:30] y=[09] Y=[2009] %=[%] Ec=[Fri Feb 13 23:31:30 2009]
-- expect: EC=[20] Ex=[02/13/09] EX=[23:31:30] Ey=[09] EY=[2009] Od=[13]
-- expect: Oe=[13] OH=[23] OI=[11] Om=[02] OM=[31] OS=[30]
-- expect: Ou=[5] OU=[06] OV=[07] Ow=[5] OW=[06] Oy=[09]

-- conversions among text, the UTC zone, and a format with a zero byte
print(os.date("!%Y-%m-%dT%H:%M:%SZ, day %j of %Y (%A)", 0)) -- expect: 1970-01-01T00:00:00Z, day 001 of 1970 (Thursday)
print(os.date("!%z %Z", t)) -- expect: +0000 GMT
print(os.date("!%e|%I|%p", 86400 * 4 + 3600 * 9)) -- expect:  5|09|AM
print((os.date("!a\0b%Yc", 0):gsub("%z", "<0>"))) -- expect: a<0>b1970c
print(os.date("!", t) == "", os.date("", t) == "", os.date("!plain text", t)) -- expect: true	true	plain text
print(#os.date("!" .. string.rep("%c", 100), 0)) -- expect: 2400
-- ISO weeks around a new year
print(os.date("!%G-W%V-%u %g %U %W", 1230681600)) -- expect: 2009-W01-3 09 52 52
print(os.date("!%G-W%V-%u", 1262217600)) -- expect: 2009-W53-4

-- the check of conversion specifiers
for _, bad in ipairs{"%Ez", "%", "%Q", "abc%", "%E", "%O", "%Oz", "%Ea", "%OY", "%5d", "%-d", "%#x", "%Qabc %Y", "%\0"} do
    local ok, err = pcall(os.date, "!" .. bad, 0)
    print((err:gsub("%z", "<0>")))
end
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%Ez')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%Q')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%E')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%O')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%Oz')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%Ea')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%OY')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%5d')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%-d')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%#x')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%Qabc %Y')
-- expect: bad argument #1 to 'os.date' (invalid conversion specifier '%')

-- "!*t": every field, and nothing else
local d = os.date("!*t", t)
local keys = {}
for k, v in pairs(d) do keys[#keys + 1] = k .. "=" .. tostring(v) end
table.sort(keys)
print(table.concat(keys, " ")) -- expect: day=13 hour=23 isdst=false min=31 month=2 sec=30 wday=6 yday=44 year=2009
d = os.date("!*t", 0)
print(d.year, d.month, d.day, d.hour, d.min, d.sec, d.wday, d.yday, d.isdst) -- expect: 1970	1	1	0	0	0	5	1	false
d = os.date("!*t", -1)
print(d.year, d.month, d.day, d.hour, d.min, d.sec, d.wday, d.yday) -- expect: 1969	12	31	23	59	59	4	365
d = os.date("!*t", 951782400) -- 2000-02-29, a leap day
print(d.year, d.month, d.day, d.yday, math.type(d.year)) -- expect: 2000	2	29	60	integer
print(os.date("!%Y-%m-%d", 2^40)) -- expect: 36812-02-20

-- "*t" in local time agrees with the formats in local time, and goes
-- back to the same time through os.time
local here = os.date("*t", t)
print(os.date("%Y %m %d %H %M %S", t) == string.format("%04d %02d %02d %02d %02d %02d",
    here.year, here.month, here.day, here.hour, here.min, here.sec)) -- expect: true
print(type(here.isdst), os.time(here) == t) -- expect: boolean	true
print(os.date("%c", t) == os.date(nil, t), os.date("%c", t) == os.date("%c", t + 0.0)) -- expect: true	true

-- the local time differs from UTC by the zone's offset, whole minutes
local utc_as_local = os.time(os.date("!*t", t))
print((utc_as_local - t) % 60) -- expect: 0

-- without a time, the current time
local before = os.time()
local now = os.date("*t")
local after = os.time()
local back = os.time(now)
print(back >= before - 1 and back <= after + 1) -- expect: true
print(type(os.date()), os.date("!%Y", nil) == os.date("!%Y")) -- expect: string	true

-- errors in the time argument and results out of range
print(pcall(os.date, "%Y", 1.5)) -- expect: false	bad argument #2 to 'os.date' (number has no integer representation)
print(pcall(os.date, "%Y", "x")) -- expect: false	bad argument #2 to 'os.date' (number expected, got string)
print(pcall(os.date, "%Y", {})) -- expect: false	bad argument #2 to 'os.date' (number expected, got table)
print(pcall(os.date, "!%Y", 2^63)) -- expect: false	bad argument #2 to 'os.date' (number has no integer representation)
print(pcall(os.date, "!*t", 2^60)) -- expect: false	date result cannot be represented in this installation
print(pcall(os.date, "!%Y", math.mininteger)) -- expect: false	date result cannot be represented in this installation
print(pcall(os.date, {})) -- expect: false	bad argument #1 to 'os.date' (string expected, got table)
print(os.date(12, 0) == "12", os.date("!%H", "3600")) -- expect: true	01
