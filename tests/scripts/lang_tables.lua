-- lua: 5.4
-- §3.4.9 table constructors: positional, [expr]= and name= fields,
-- separators, multiple results expanded only in the last position, nil
-- values, and large constructors.

local function three() return 1, 2, 3 end
local function none() end
local function keys(t)
    local ks = {}
    for k in pairs(t) do ks[#ks + 1] = tostring(k) end
    table.sort(ks)
    return table.concat(ks, ",")
end

local t = { "a", "b", x = 1, ["y z"] = 2, [10] = "ten", [1.5] = "float", [true] = "t" }
print(t[1], t[2], t.x, t["y z"], t[10], t[1.5], t[true], #t) -- expect: a	b	1	2	ten	float	t	2
print(keys({ 1, 2; 3, n = 4; })) -- expect: 1,2,3,n
print(#{ 1, 2, 3, }, #{ 1; 2; 3; }) -- expect: 3	3
print(#{}, next({})) -- expect: 0	nil

-- a call (or ...) in the last position is expanded; elsewhere truncated
print(#{ three() }, #{ three(), three() }, #{ (three()) }, #{ three(), 10 }) -- expect: 3	4	1	2
print(table.concat({ three(), three() }, " "), table.concat({ 0, three() }, " ")) -- expect: 1 1 2 3	0 1 2 3
print(#{ none() }, #{ none(), 1 }, select("#", table.unpack({ none(), none() }))) -- expect: 0	2	0
local function pack(...) return { ... } end
print(#pack(1, 2, 3), pack(three())[3], #pack()) -- expect: 3	3	0
local function pack_mid(...) return { ..., "end" } end
print(table.concat(pack_mid(1, 2, 3), " ")) -- expect: 1 end
-- only a call in the very last field is expanded, whatever kind of field
-- follows it
local e = { three(), n = "named" }
print(#e, e.n) -- expect: 1	named
local f = { n = "named", three() }
print(#f, f.n) -- expect: 3	named

-- nil values make no entries
local holes = { nil, nil, 3 }
print(holes[1], holes[3], keys(holes)) -- expect: nil	3	3
print(keys({ x = nil, y = false })) -- expect: y

-- expressions as keys are evaluated; float keys with integer values are
-- normalised
local k = "dyn"
local g = { [k .. "amic"] = 1, [2 ^ 1] = "two", [3.0] = "three", [-0.0] = "zero" }
print(g.dynamic, g[2], g[3], math.type(next({ [2.0] = 1 })), g[0]) -- expect: 1	two	three	integer	zero
print(pcall(load("return { [nil] = 1 }"))) -- expect: false	[string "return { [nil] = 1 }"]:1: table index is nil
print(pcall(load("return { [0/0] = 1 }"))) -- expect: false	[string "return { [0/0] = 1 }"]:1: table index is NaN

-- values are evaluated in order
local order = {}
local function v(x) order[#order + 1] = x return x end
local h = { v(1), v(2), k1 = v(3), v(4), [v("key")] = v(5) }
print(table.concat(order, " "), #h) -- expect: 1 2 3 4 key 5	3

-- nested constructors and self-references through locals
local tree = { value = 1, children = { { value = 2 }, { value = 3, children = { { value = 4 } } } } }
print(tree.children[2].children[1].value, #tree.children) -- expect: 4	2

-- big constructors (more items than fit in one instruction batch)
local src = { "return {" }
for n = 1, 1000 do src[#src + 1] = n .. "," end
src[#src + 1] = "}"
local big = load(table.concat(src))()
print(#big, big[1], big[500], big[1000]) -- expect: 1000	1	500	1000
local srch = { "return {" }
for n = 1, 300 do srch[#srch + 1] = "k" .. n .. " = " .. n .. "," end
srch[#srch + 1] = "}"
local bigh = load(table.concat(srch))()
print(bigh.k1, bigh.k150, bigh.k300) -- expect: 1	150	300
local many = { table.unpack((function() local r = {} for n = 1, 500 do r[n] = n end return r end)()) }
print(#many, many[500]) -- expect: 500	500

-- a constructor makes a new table each time it runs
local made = {}
for n = 1, 3 do made[n] = {} end
print(made[1] ~= made[2], made[2] ~= made[3]) -- expect: true	true
