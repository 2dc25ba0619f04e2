-- sched.lua — the scheduler: every actor is a coroutine that yields the
-- number of frames it wants to sleep (1 = resume me next frame). Sleepers
-- sit in a bucket per wake-up frame (a timing wheel keyed by frame
-- number), so a frame only touches the actors that are due; an alarm or a
-- message can wake a sleeper early (its old bucket entry is then skipped).
--
-- Each actor's coroutine is made with coroutine.create when it is born and
-- simply dropped when it finishes or its actor is killed mid-script (a
-- suspended coroutine nobody will resume): the collector reclaims it. No
-- coroutine is ever reused or pooled — that churn is this sample's point.

local sched = {}

local create, resume, status = coroutine.create, coroutine.resume, coroutine.status

function sched.new()
    return {
        frame = 0,
        buckets = {},        -- frame -> array of actors due then
        resumes = 0,         -- resumes in the current frame
        created = 0,         -- coroutines created, all time (actors + helpers)
        finished = 0,        -- actor scripts that returned
    }
end

local function put(s, a, frame)
    a.wake = frame
    local b = s.buckets[frame]
    if not b then b = {}; s.buckets[frame] = b end
    b[#b + 1] = a
end

-- Starts [script](a) as a new coroutine, first resumed next frame.
function sched.spawn(s, a, script)
    a.co = create(script)
    s.created = s.created + 1
    put(s, a, s.frame + 1)
end

-- Wakes a sleeping actor next frame (no-op if it is due sooner anyway).
function sched.wake(s, a)
    if a.wake > s.frame + 1 then put(s, a, s.frame + 1) end
end

-- Resumes every actor due this frame, in the order they went to sleep.
function sched.run(s)
    local frame = s.frame + 1
    s.frame = frame
    s.resumes = 0
    local due = s.buckets[frame]
    s.buckets[frame] = nil
    if not due then return end
    for i = 1, #due do
        local a = due[i]
        -- (an actor woken early and put back to sleep until the frame it
        -- first asked for can be in a bucket twice: run it once)
        if not a.dead and a.wake == frame and a.ran ~= frame then
            a.ran = frame
            local ok, sleep = resume(a.co, a)
            s.resumes = s.resumes + 1
            if not ok then error(debug.traceback(a.co, tostring(sleep)), 0) end
            if status(a.co) == "dead" then
                a.dead = true
                a.co = nil
                s.finished = s.finished + 1
            else
                put(s, a, frame + (sleep or 1))
            end
        end
    end
end

return sched
