-- API test (libtide only, white-box): a coroutine whose stack holds
-- nothing young when its resume returns is clean at once and off the
-- dirty list, so that nursery collections do not visit it
-- (gc_thread_stopped, gc/minor.c); one that holds anything young — a
-- local, a value it yields, an open upvalue — stays listed, and its
-- objects survive the collections that follow. Under the test runner's
-- debug columns (verify, poison, tiny nursery) a stack left clean with
-- something young on it, or with a dead object's address above its live
-- slots, is reported by the verifier or breaks the checks.
local st = require("stopped_threads")
-- (the cases are about young objects: none is born old here)
require("pretenure").set(false)
local create, resume, yield, status = coroutine.create, coroutine.resume, coroutine.yield, coroutine.status

-- garbage: enough for several nursery collections
local function churn(n)
    local keep
    for i = 1, n or 2000 do keep = { i, tostring(i) } end
    return keep
end

-- The bodies of the coroutines below: made before the collections that
-- make them old, so that only what a body makes is young on its stack.
local function keeper_body()
    local t = { "kept", 42 }
    yield()
    return t[1], t[2]
end
local function giver_body()
    yield({ "given" })
    yield(setmetatable({}, { __index = { k = "also given" } }))
end
local holder = {}
local function upper_body()
    local x = 0
    holder.bump = function() x = x + 1; return x end
    yield()
    return x
end
local fill, wide -- (case 5)
local function stale_body()
    while true do
        local n = fill()
        yield(n)
        n = wide()
        yield(n)
    end
end

-- 1. Coroutines that hold only numbers and old objects when they yield.
local function counter()
    local n = 0
    while true do
        n = n + 1
        yield(n)
    end
end
local cos = {}
for i = 1, 500 do cos[i] = create(counter) end
collectgarbage()
collectgarbage() -- the coroutines and their bodies are old, and clean
local listed_before = st.listed()
local all_clean, all_counted = true, true
for round = 1, 3 do
    for i = 1, #cos do
        local ok, n = resume(cos[i])
        local clean = st.clean(cos[i]) -- before anything else allocates
        all_clean = all_clean and clean
        all_counted = all_counted and ok and n == round
        -- a scheduler asks for the status: that only reads the stack
        all_clean = all_clean and status(cos[i]) == "suspended" and st.clean(cos[i])
    end
end
print("clean after yield", all_clean)                       -- expect: clean after yield	true
print("counted", all_counted)                               -- expect: counted	true
-- each resume listed its coroutine and each yield took it off again: the
-- list did not grow by the 1,500 resumes (-1 would mean it was lost)
local listed_after = st.listed()
print("list kept short", listed_before >= 0 and listed_after >= 0 and listed_after <= listed_before + 2)
-- expect: list kept short	true

-- 2. A young table in a local at the yield: listed, and the table
-- survives the collections the coroutine sleeps through.
local keeper = create(keeper_body)
resume(keeper)
local keeper_clean = st.clean(keeper)
print("young local listed", keeper_clean)                   -- expect: young local listed	false
churn()
collectgarbage()
churn()
print("young local kept", select(2, resume(keeper)))        -- expect: young local kept	kept	42

-- 3. A young value yielded: on the stack when the resume returns, popped
-- by the resumer; the coroutine stays listed until a collection.
local giver = create(giver_body)
local _, given = resume(giver)
local giver_clean = st.clean(giver)
print("yielded young listed", giver_clean)                  -- expect: yielded young listed	false
churn()
print("yielded value", given[1])                            -- expect: yielded value	given
_, given = resume(giver)
churn()
print("yielded value", given.k)                             -- expect: yielded value	also given

-- 4. A young open upvalue (the closure is not on the stack, only the
-- upvalue of its local is): listed; stores through the closure reach the
-- coroutine's slot across collections.
local upper = create(upper_body)
resume(upper)
local upper_clean = st.clean(upper)
print("young upvalue listed", upper_clean)                  -- expect: young upvalue listed	false
for _ = 1, 5 do
    holder.bump()
    churn(500)
end
collectgarbage()
holder.bump()
print("upvalue slot", select(2, resume(upper)))             -- expect: upvalue slot	6

-- 5. Dead young objects above the live slots: a deep frame fills many
-- registers with fresh tables and returns; the coroutine yields from a
-- shallow frame with nothing young live, and is clean. Collections free
-- those tables. Resumed, it calls a function whose frame covers the same
-- registers and collects before writing them: a stack left with the dead
-- tables' addresses there would hand them to the collection.
function fill()
    local a1, a2, a3, a4, a5, a6, a7, a8 = {}, {}, {}, {}, {}, {}, {}, {}
    local b1, b2, b3, b4, b5, b6, b7, b8 = {}, {}, {}, {}, {}, {}, {}, {}
    local c1, c2, c3, c4, c5, c6, c7, c8 = {}, {}, {}, {}, {}, {}, {}, {}
    return #a1 + #a8 + #b1 + #b8 + #c1 + #c8
end
function wide()
    local sum = 0
    for i = 1, 3000 do sum = sum + #{ i } end -- collections, registers unwritten
    local a1, a2, a3, a4, a5, a6, a7, a8 = 1, 2, 3, 4, 5, 6, 7, 8
    local b1, b2, b3, b4, b5, b6, b7, b8 = {}, {}, {}, {}, {}, {}, {}, {}
    local c1, c2, c3, c4, c5, c6, c7, c8 = {}, {}, {}, {}, {}, {}, {}, {}
    return sum + a1 + a8 + #b1 + #c8
end
local stale = create(stale_body)
collectgarbage()
local stale_clean, wide_ok = true, true
for _ = 1, 20 do
    resume(stale)
    stale_clean = stale_clean and st.clean(stale)
    churn(500)
    local _, n = resume(stale)
    wide_ok = wide_ok and n == 3000 + 1 + 8
end
print("clean above dead tables", stale_clean)               -- expect: clean above dead tables	true
print("wide frames", wide_ok)                               -- expect: wide frames	true

-- 6. Finished and failed coroutines hold their last values: a young
-- result or error object keeps them listed; once collected, they are
-- clean and their values readable.
local done = create(function() return { "result" } end)
local _, result = resume(done)
local done_clean = st.clean(done)
print("finished", status(done), result[1], done_clean)      -- expect: finished	dead	result	false
local failed = create(function() error({ code = 7 }) end)
local ok, err = resume(failed)
local failed_clean = st.clean(failed)
print("failed", ok, err.code, failed_clean)                -- expect: failed	false	7	false
churn()
collectgarbage()
print("dead and clean", st.clean(done), st.clean(failed))  -- expect: dead and clean	true	true

-- 7. A coroutine left listed (young locals) is still made ready for the
-- collection when its resume returns, while its stack is in the cache:
-- cleared above its live slots (a deep call had used 200 of them) and its
-- floor raised to its frame, so that the collection reads only its live
-- slots. Its young objects survive the collections that follow.
local function deep(n)
    if n == 0 then return 0 end
    return deep(n - 1) + 1
end
local function starter_body()
    local depth = deep(200)
    local mine = { "mine", depth }
    yield()
    return mine[1], mine[2]
end
local starter = create(starter_body)
collectgarbage()
collectgarbage() -- (the body and the coroutine are old)
resume(starter)
local above, floor = st.shape(starter)
print("listed, cleared above, floor raised", st.clean(starter), above, floor > 0)
-- expect: listed, cleared above, floor raised	false	0	true
churn()
print("its locals", select(2, resume(starter)))            -- expect: its locals	mine	200
