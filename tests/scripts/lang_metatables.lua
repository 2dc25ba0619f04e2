-- lua: 5.4
-- §2.4 metatables and metamethods: every event, which operand's
-- metamethod is used, how results are adjusted, and the raw functions.

local log = {}
local function note(s) log[#log + 1] = s end
local function flush() local s = table.concat(log, " ") log = {} return s end

local function named(name)
    local mt = {}
    for _, e in ipairs({ "add", "sub", "mul", "div", "mod", "pow", "unm", "idiv",
                         "band", "bor", "bxor", "shl", "shr", "bnot", "concat" }) do
        mt["__" .. e] = function(a, b)
            local function n(v) return type(v) == "table" and v.name or tostring(v) end
            note(e .. "(" .. n(a) .. "," .. n(b) .. ")")
            return e
        end
    end
    mt.__index = function(_, k) return name .. "." .. tostring(k) end
    return setmetatable({ name = name }, mt)
end

local A, B = named("A"), named("B")
-- arithmetic and bitwise events: the first operand with a handler wins
print(A + 1, 1 + A, A - B, B * A, A / 2, A % 2, A ^ 2, A // 2) -- expect: add	add	sub	mul	div	mod	pow	idiv
print(flush()) -- expect: add(A,1) add(1,A) sub(A,B) mul(B,A) div(A,2) mod(A,2) pow(A,2) idiv(A,2)
print(A & 1, 1 | A, A ~ B, A << 1, 1 >> A, ~A, -A) -- expect: band	bor	bxor	shl	shr	bnot	unm
print(flush()) -- expect: band(A,1) bor(1,A) bxor(A,B) shl(A,1) shr(1,A) bnot(A,A) unm(A,A)
print(A .. "s", "s" .. A, 1 .. A, A .. B) -- expect: concat	concat	concat	concat
print(flush()) -- expect: concat(A,s) concat(s,A) concat(1,A) concat(A,B)
-- only one operand needs a metamethod
local plain = {}
print(pcall(function() return plain + plain end)) -- expect: false	tests/scripts/lang_metatables.lua:33: attempt to perform arithmetic on a table value (upvalue 'plain')
print(2 + setmetatable({}, { __add = function(a, b) return type(a) .. "+" .. type(b) end })) -- expect: number+table
-- results are adjusted to one value
local multi = setmetatable({}, { __add = function() return 1, 2, 3 end })
print(multi + 1) -- expect: 1
-- strings in arithmetic: converted by the string metamethods
print("10" + 1, "3" * "4", "2" ^ 2, -"2", "10" // "3", "7" % "2", "0x10" + 0) -- expect: 11	12	4.0	-2	3	1	16
print(math.type("10" + 1), math.type("10.0" + 1), math.type("1e1" * 1)) -- expect: integer	float	float
-- bitwise on strings is not converted
print(pcall(function() return "3" & 1 end)) -- expect: false	tests/scripts/lang_metatables.lua:42: attempt to perform bitwise operation on a string value (constant '3')
-- floats with exact integer values take part in bitwise operations
print(3.0 | 0, 2^62 | 0, pcall(function() return 2^63 | 0 end)) -- expect: 3	4611686018427387904	false	tests/scripts/lang_metatables.lua:44: number has no integer representation

-- __unm and __bnot receive the operand twice
local mt_un = { __unm = function(a, b) return rawequal(a, b) end, __bnot = function(a, b) return rawequal(a, b) end }
local u = setmetatable({}, mt_un)
print(-u, ~u) -- expect: true	true

-- __len
local sized = setmetatable({ 1, 2, 3 }, { __len = function(t) return 42 end })
print(#sized, rawlen(sized)) -- expect: 42	3
print(#setmetatable({}, { __len = function() return "not a number" end })) -- expect: not a number

-- __eq: only for two tables (or two userdata), never for primitive values,
-- not called when the operands are raw-equal; result converted to boolean
local eq_calls = 0
local eqmt = { __eq = function(a, b) eq_calls = eq_calls + 1 return a.id == b.id end }
local e1, e2, e3 = setmetatable({ id = 1 }, eqmt), setmetatable({ id = 1 }, eqmt), setmetatable({ id = 2 }, eqmt)
print(e1 == e2, e1 == e3, e1 ~= e2, e1 == e1, eq_calls) -- expect: true	false	false	true	3
print(e1 == 1, 1 == e1, e1 == "x", eq_calls) -- expect: false	false	false	3
local other = setmetatable({ id = 1 }, { __eq = function() return "yes" end })
print(other == e1, e1 == other, {} == other) -- expect: true	true	true
print(rawequal(e1, e2)) -- expect: false

-- __lt and __le; no __le fallback to __lt in 5.4
local cmt = {
    __lt = function(a, b) note("lt") return a.v < b.v end,
    __le = function(a, b) note("le") return a.v <= b.v end,
}
local c1, c2 = setmetatable({ v = 1 }, cmt), setmetatable({ v = 2 }, cmt)
print(c1 < c2, c1 > c2, c1 <= c2, c1 >= c2, flush()) -- expect: true	false	true	false	lt lt le le
local only_lt = { __lt = function() return true end }
print(pcall(function() return setmetatable({}, only_lt) <= setmetatable({}, only_lt) end)) -- expect: true	false
print(setmetatable({}, { __lt = function() return 1 end }) < {}) -- expect: true
-- mixed: a number and a table with __lt
print(pcall(function() return 1 < setmetatable({}, { __lt = function(a, b) return type(a) end }) end)) -- expect: true	true

-- __index: a function or a table, followed in chains
local base = { greet = function(self) return "hello " .. self.name end, kind = "base" }
local mid = setmetatable({ kind = "mid" }, { __index = base })
local obj = setmetatable({ name = "obj" }, { __index = mid })
print(obj:greet(), obj.kind, obj.missing, rawget(obj, "kind")) -- expect: hello obj	mid	nil	nil
local calls = 0
local lazy = setmetatable({}, { __index = function(t, k) calls = calls + 1 rawset(t, k, k * 2) return k * 2 end })
print(lazy[5], lazy[5], calls) -- expect: 10	10	1
-- __index is not consulted for present keys, even false ones
local present = setmetatable({ f = false }, { __index = function() return "dflt" end })
print(present.f, present.g) -- expect: false	dflt

-- __newindex: only for absent keys; a table target receives the assignment
local store = {}
local guarded = setmetatable({ existing = 1 }, { __newindex = store })
guarded.existing = 2
guarded.new = 3
print(guarded.existing, rawget(guarded, "new"), store.new) -- expect: 2	nil	3
local logger = setmetatable({}, { __newindex = function(t, k, v) note(k .. "=" .. tostring(v)) rawset(t, k, v) end })
logger.a = 1
logger.a = 2
logger.b = nil
print(flush(), logger.a) -- expect: a=1 b=nil	2
-- chains of __newindex tables
local inner = {}
local outer = setmetatable({}, { __newindex = setmetatable({}, { __newindex = inner }) })
outer.deep = "value"
print(rawget(outer, "deep"), inner.deep) -- expect: nil	value

-- __call: extra arguments, multiple results, call chains
local callable = setmetatable({}, { __call = function(self, a, b) return type(self), a, b end })
print(callable(1, 2)) -- expect: table	1	2
print(pcall(callable, "x")) -- expect: true	table	x	nil
local counter = setmetatable({ n = 0 }, { __call = function(self) self.n = self.n + 1 return self.n end })
counter() counter()
print(counter()) -- expect: 3
print(pcall(setmetatable({}, { __call = 42 }))) -- expect: false	attempt to call a number value

-- __concat with numbers and chains
local cc = setmetatable({}, { __concat = function(a, b)
    local function s(v) return type(v) == "table" and "T" or tostring(v) end
    return s(a) .. s(b)
end })
print(cc .. 1, 1 .. cc, "a" .. "b" .. cc, cc .. 1.5) -- expect: T1	1T	abT	T1.5

-- __tostring and __name
print(tostring(setmetatable({}, { __tostring = function() return "I am T" end }))) -- expect: I am T
print(pcall(tostring, setmetatable({}, { __tostring = function() return 1 end }))) -- expect: true	1
print(tostring(setmetatable({}, { __name = "MyType" })):match("^MyType: ") ~= nil) -- expect: true
print(string.format("%s", setmetatable({}, { __tostring = function() return "fmt" end }))) -- expect: fmt

-- __close (to-be-closed variables)
do
    local a <close> = setmetatable({}, { __close = function(_, err) note("close a " .. tostring(err)) end })
    local b <close> = setmetatable({}, { __close = function(_, err) note("close b " .. tostring(err)) end })
    note("body")
end
print(flush()) -- expect: body close b nil close a nil

-- __pairs
local pp = setmetatable({}, { __pairs = function(t)
    local i = 0
    return function() i = i + 1 if i <= 3 then return i, i * 10 end end, t, nil
end })
for k, v in pairs(pp) do note(k .. ":" .. v) end
print(flush()) -- expect: 1:10 2:20 3:30

-- __metatable protects and hides the metatable
local prot = setmetatable({}, { __metatable = "hidden", __index = { x = 1 } })
print(getmetatable(prot), prot.x, pcall(setmetatable, prot, {})) -- expect: hidden	1	false	cannot change a protected metatable

-- metamethods are looked up raw in the metatable, and when the event happens
local late = setmetatable({}, {})
print(pcall(function() return late + 1 end)) -- expect: false	tests/scripts/lang_metatables.lua:153: attempt to perform arithmetic on a table value (upvalue 'late')
getmetatable(late).__add = function() return "late add" end
print(late + 1) -- expect: late add
local indirect = setmetatable({}, setmetatable({}, { __index = { __add = function() return "via index" end } }))
print(pcall(function() return indirect + 1 end)) -- expect: false	tests/scripts/lang_metatables.lua:157: attempt to perform arithmetic on a table value (upvalue 'indirect')

-- __index on strings: the string library
print(("abc"):upper(), ("x"):rep(3), #("abc"), ("%d"):format(7)) -- expect: ABC	xxx	3	7
local smt = getmetatable("")
print(smt.__index == string) -- expect: true

-- rawset/rawget bypass everything
local raw = setmetatable({}, { __index = function() return "mm" end, __newindex = function() error("no") end })
rawset(raw, "k", "v")
print(raw.k, rawget(raw, "other"), raw.other) -- expect: v	nil	mm
