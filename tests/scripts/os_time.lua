-- lua: 5.4
-- os.time (with and without a table: defaults, normalization of the
-- table's fields, every error), os.difftime and os.clock. Results that
-- depend on the time zone are compared, never printed.

print(math.type(os.time())) -- expect: integer

-- differences between local times do not depend on the zone (away from
-- daylight-saving changes, which happen in neither January nor July)
local function at(y, m, d, h, min, s)
    return os.time{ year = y, month = m, day = d, hour = h, min = min, sec = s }
end
print(at(2000, 1, 2, 0, 0, 0) - at(2000, 1, 1, 0, 0, 0)) -- expect: 86400
print(at(2000, 1, 1, 13, 0, 0) - at(2000, 1, 1, 12, 0, 0)) -- expect: 3600
print(at(2021, 7, 10, 10, 30, 5) - at(2021, 7, 10, 10, 29, 0)) -- expect: 65
print(at(2001, 1, 1, 0, 0, 0) - at(2000, 1, 1, 0, 0, 0)) -- expect: 31622400
print(at(2000, 1, 1, 0, 0, 0) - at(1999, 1, 1, 0, 0, 0)) -- expect: 31536000

-- hour defaults to 12, min and sec to 0
print(os.time{ year = 2000, month = 1, day = 1 } == at(2000, 1, 1, 12, 0, 0)) -- expect: true
print(os.time{ year = 2000, month = 1, day = 1, hour = 0 } == at(2000, 1, 1, 0, 0, 0)) -- expect: true

-- os.time agrees with os.date in local time
local t = os.time{ year = 2020, month = 1, day = 15, hour = 8, min = 9, sec = 10 }
print(os.date("%Y-%m-%d %H:%M:%S", t)) -- expect: 2020-01-15 08:09:10

-- fields out of their usual ranges are normalized, in the table as well
local date = { year = 2000, month = 14, day = -3, hour = 25, min = 61, sec = -1 }
local normalized = os.time(date)
print(date.year, date.month, date.day, date.hour, date.min, date.sec, date.wday, date.yday) -- expect: 2001	1	29	2	0	59	2	29
print(normalized == at(2001, 1, 29, 2, 0, 59)) -- expect: true
date = { year = 2000, month = 3, day = 0 }
os.time(date)
print(date.month, date.day, date.yday, date.hour, date.min, date.sec) -- expect: 2	29	60	12	0	0
print(type(date.isdst)) -- expect: boolean
date = { year = 2023, month = 1, day = 1, sec = 86400 * 31 }
os.time(date)
print(date.month, date.day, date.hour) -- expect: 2	1	12

-- fields given as strings that are numbers, and floats with integer
-- values; fields read through __index
print(os.time{ year = "2000", month = 1.0, day = "1" } == os.time{ year = 2000, month = 1, day = 1 }) -- expect: true
print(os.time{ year = "2000.0", month = 1, day = 1 } == os.time{ year = 2000, month = 1, day = 1 }) -- expect: true
local proxied = setmetatable({}, { __index = { year = 2000, month = 1, day = 1 } })
print(os.time(proxied) == os.time{ year = 2000, month = 1, day = 1 }) -- expect: true
print(rawget(proxied, "year"), rawget(proxied, "yday")) -- expect: 2000	1

-- isdst: any value but nil counts by its truth
print((pcall(os.time, { year = 2000, month = 1, day = 1, isdst = "x" }))) -- expect: true
print(select("#", os.time{ year = 2000, month = 1, day = 1, isdst = false })) -- expect: 1

-- errors: missing fields (year first), non-integers, out-of-range values
local function try(fields)
    local ok, err = pcall(os.time, fields)
    print(ok and "ok" or err)
end
try{} -- expect: field 'year' missing in date table
try{ year = 2000 } -- expect: field 'month' missing in date table
try{ year = 2000, month = 1 } -- expect: field 'day' missing in date table
try{ month = 1, day = 1 } -- expect: field 'year' missing in date table
try{ year = 2000, month = 1, day = 1.5 } -- expect: field 'day' is not an integer
try{ year = 2000, month = 1, day = "x" } -- expect: field 'day' is not an integer
try{ year = 2000, month = 1, day = {} } -- expect: field 'day' is not an integer
try{ year = 2000, month = 1, day = 1, sec = true } -- expect: field 'sec' is not an integer
try{ year = 2000, month = 1, day = 1, hour = "1.5" } -- expect: field 'hour' is not an integer
try{ year = 2000, month = 1, day = 1, min = 2^53 + 0.5 } -- expect: field 'min' is out-of-bound
try{ year = 2000, month = 2^40, day = 1 } -- expect: field 'month' is out-of-bound
try{ year = 2^40, month = 1, day = 1 } -- expect: field 'year' is out-of-bound
try{ year = -2^40, month = 1, day = 1 } -- expect: field 'year' is out-of-bound
try{ year = 2000, month = 1, day = 1, hour = 2^31 } -- expect: field 'hour' is out-of-bound
try{ year = 2000, month = 1, day = 1, min = -2^31 - 1 } -- expect: field 'min' is out-of-bound
try{ year = 2000, month = 1, day = 1, sec = math.mininteger } -- expect: field 'sec' is out-of-bound
try{ year = 2000, month = 1, day = -2^31 } -- expect: ok
try{ year = 2000, month = 1, day = 1, min = -2^31 } -- expect: ok
-- year and month are counted from 1900 and 1 inside: their bounds move
try{ year = 2^31 - 1 + 1900, month = 1, day = 1 } -- expect: ok
try{ year = 2^31 + 1900, month = 1, day = 1 } -- expect: field 'year' is out-of-bound
try{ year = -2^31 + 1900, month = 1, day = 1 } -- expect: ok
try{ year = -2^31 + 1899, month = 1, day = 1 } -- expect: field 'year' is out-of-bound
try{ year = 2000, month = 2^31, day = 1 } -- expect: ok
try{ year = 2000, month = 2^31 + 1, day = 1 } -- expect: field 'month' is out-of-bound
try{ year = 2000, month = -2^31 + 1, day = 1 } -- expect: ok
try{ year = 2000, month = -2^31, day = 1 } -- expect: field 'month' is out-of-bound
print(pcall(os.time, 3)) -- expect: false	bad argument #1 to 'os.time' (table expected, got number)
print(pcall(os.time, "x")) -- expect: false	bad argument #1 to 'os.time' (table expected, got string)
print(os.time(nil) >= at(2020, 1, 1, 0, 0, 0)) -- expect: true

-- the one second mktime cannot tell from an error
local minus_one = os.date("*t", -1)
print(pcall(os.time, minus_one)) -- expect: false	time result cannot be represented in this installation

-- os.difftime
print(os.difftime(10, 3), os.difftime(3, 10), os.difftime(0, 0)) -- expect: 7.0	-7.0	0.0
print(math.type(os.difftime(at(2000, 1, 2, 0, 0, 0), at(2000, 1, 1, 0, 0, 0)))) -- expect: float
print(os.difftime(at(2000, 1, 2, 0, 0, 0), at(2000, 1, 1, 0, 0, 0))) -- expect: 86400.0
print(os.difftime("10", 2.0)) -- expect: 8.0
print(pcall(os.difftime, 10)) -- expect: false	bad argument #2 to 'os.difftime' (number expected, got no value)
print(pcall(os.difftime)) -- expect: false	bad argument #1 to 'os.difftime' (number expected, got no value)
print(pcall(os.difftime, 1.5, 1)) -- expect: false	bad argument #1 to 'os.difftime' (number has no integer representation)
print(pcall(os.difftime, 1, {})) -- expect: false	bad argument #2 to 'os.difftime' (number expected, got table)

-- os.clock: processor time as a float that grows with work
local c1 = os.clock()
local x = 0
for i = 1, 3e6 do x = x + i % 7 end
local c2 = os.clock()
print(math.type(c1), c1 >= 0, c2 > c1, c2 - c1 < 60) -- expect: float	true	true	true
