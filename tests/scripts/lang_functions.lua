-- lua: 5.4
-- §3.4.10-§3.4.11 function calls and definitions: varargs, adjusting
-- multiple results, tail calls (deep, constant stack), method calls and
-- definitions, call syntax sugar, recursion of local functions.

-- arguments are adjusted to the parameters
local function params(a, b, c) return a, b, c end
print(params(1), params(1, 2, 3, 4)) -- expect: 1	1	2	3
print(select("#", params())) -- expect: 3

-- varargs
local function va(...)
    local a, b = ...
    return select("#", ...), a, b, ...
end
print(va()) -- expect: 0	nil	nil
print(va(nil)) -- expect: 1	nil	nil	nil
print(va(1, nil, 3)) -- expect: 3	1	nil	1	nil	3
print(va(nil, nil)) -- expect: 2	nil	nil	nil	nil
local function count_nils(...)
    local n = 0
    for i = 1, select("#", ...) do if select(i, ...) == nil then n = n + 1 end end
    return n
end
print(count_nils(nil, 1, nil, nil)) -- expect: 3
local function pass(...) return ... end
print(pass(1, 2, 3), pass(4, 5)) -- expect: 1	4	5
print((pass(1, 2, 3))) -- expect: 1
local function packed(...) local t = table.pack(...) return t.n, t[3], #{ ... } > 0 end -- # of {1,nil,3,nil}: any border
print(packed(1, nil, 3, nil)) -- expect: 4	3	true
print(select(-1, 1, 2, 3), select(2, "a", "b", "c")) -- expect: 3	b	c
print(pcall(select, 0, 1)) -- expect: false	bad argument #1 to 'select' (index out of range)
local function fixed_and_var(a, ...) return a, select("#", ...) end
print(fixed_and_var(1, 2, 3), fixed_and_var()) -- expect: 1	nil	0
-- many results and many arguments
local function range(n) local r = {} for i = 1, n do r[i] = i end return table.unpack(r) end
print(select("#", range(250)), select(250, range(250))) -- expect: 250	250
local function sum(...) local s = 0 for i = 1, select("#", ...) do s = s + select(i, ...) end return s end
print(sum(range(200))) -- expect: 20100

-- results are adjusted: one value in the middle of a list, all at the end
local function two() return "x", "y" end
print(two(), two()) -- expect: x	x	y
print(two(), "last") -- expect: x	last
local a, b, c, d = two(), two()
print(a, b, c, d) -- expect: x	x	y	nil
local t = { two(), two() }
print(#t) -- expect: 3
print(#{ (two()) }, (two())) -- expect: 1	x
-- no results in an expression become nil
local function nothing() end
print(nothing(), (nothing()), select("#", nothing()), select("#", (nothing()))) -- expect: nil	nil	0	1

-- tail calls do not grow the stack
local function countdown(n) if n == 0 then return "done" end return countdown(n - 1) end
print(countdown(1000000)) -- expect: done
local is_even, is_odd
function is_even(n) if n == 0 then return true end return is_odd(n - 1) end
function is_odd(n) if n == 0 then return false end return is_even(n - 1) end
print(is_even(100001), is_odd(100001)) -- expect: false	true
-- a tail call through a method and a vararg function
local obj = { n = 0 }
function obj:step(k, ...) if k == 0 then return self.n, select("#", ...) end self.n = self.n + 1 return self:step(k - 1, ...) end
print(obj:step(200000, "a", "b")) -- expect: 200000	2
-- a tail call to a C function and to a callable table
local callable = setmetatable({}, { __call = function(_, x) return "called " .. x end })
local function tail_c(s) return string.upper(s) end
local function tail_callable(x) return callable(x) end
print(tail_c("abc"), tail_callable(5)) -- expect: ABC	called 5
-- tail calls show in tracebacks as "(...tail calls...)"
local function inner_tb() return debug.traceback("tb", 1) end
local function outer_tb() return inner_tb() end
print((outer_tb():find("(...tail calls...)", 1, true)) ~= nil) -- expect: true
-- deep non-tail recursion works up to a limit, then overflows cleanly
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
print(depth(10000)) -- expect: 10000
local ok, err = pcall(depth, 1e7)
print(ok, err:find("stack overflow", 1, true) ~= nil) -- expect: false	true

-- method calls and definitions
local Account = { balance = 0 }
Account.__index = Account
function Account.new(b) return setmetatable({ balance = b }, Account) end
function Account:deposit(v) self.balance = self.balance + v return self end
function Account.withdraw(self, v) self.balance = self.balance - v return self end
local acc = Account.new(100)
acc:deposit(50):withdraw(30)
print(acc.balance, Account.balance) -- expect: 120	0
print(acc.deposit == Account.deposit, pcall(Account.deposit, nil, 1)) -- expect: true	false	tests/scripts/lang_functions.lua:84: attempt to index a nil value (local 'self')
-- nested names in function definitions
local ns = { sub = { deeper = {} } }
function ns.sub.deeper.f(x) return x * 2 end
function ns.sub.deeper:m(x) return self == ns.sub.deeper, x end
print(ns.sub.deeper.f(21), ns.sub.deeper:m(1)) -- expect: 42	true	1
-- the object expression is evaluated once
local evaluations = 0
local function get_obj() evaluations = evaluations + 1 return acc end
get_obj():deposit(1)
print(evaluations, acc.balance) -- expect: 1	121

-- call sugar: strings and tables as the only argument
local function echo(x) return type(x), x end
print(echo"str") -- expect: string	str
print(echo[[long]]) -- expect: string	long
print((echo{ 1, 2 })) -- expect: table
print(("%d-%d"):format(1, 2), #("abc"):rep(3)) -- expect: 1-2	9
local s = "text"
print(s:upper(), s:len(), s:sub(2, 3)) -- expect: TEXT	4	ex

-- local function is visible in its own body; local f = function is not
local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
print(fact(20), fact(21) < 0) -- expect: 2432902008176640000	true
local notrec = function() return notrec end
print(notrec()) -- expect: nil
local g = 1
local g = function() return g end
print(g()) -- expect: 1

-- functions are closures: each evaluation of a function expression makes a
-- new closure over the current upvalues
local function adder(x) return function(y) return x + y end end
local add2, add10 = adder(2), adder(10)
print(add2(1), add10(1), add2 ~= add10) -- expect: 3	11	true
-- returning a function and calling it immediately
print((function(...) return select("#", ...) end)(1, 2, 3)) -- expect: 3
-- recursion through a global
function global_fib(n) if n < 2 then return n end return global_fib(n - 1) + global_fib(n - 2) end
print(global_fib(20)) -- expect: 6765
