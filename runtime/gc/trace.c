/*
 * trace.c — the collector's trace file: Chrome trace-event JSON, which
 * Perfetto (ui.perfetto.dev) and chrome://tracing open. tide.h's
 * tide_gc_trace_open / tide_gc_trace_close, and TIDE_GC_TRACE=PATH, read by
 * gc_init (control.c).
 *
 * What it holds, on one process (the OS process id) with three rows:
 *   "frames"     a span per frame (tide_frame_begin .. tide_frame_end) and
 *                per tide_gc_idle call ("idle", the time it spent);
 *   "gc pauses"  a span per world-stopping pause, named by its kind
 *                ("minor", "sync-major", ...), args: frame, heap bytes
 *                before and after, in_idle; an instant "heap-limit" each
 *                time an allocation reaches the heap limit;
 *   "gc phases"  a span per phase of a major cycle other than "idle", and
 *                an instant "phase-change" (args: from, to) per change;
 * and a counter "heap" (bytes in use) before and after every pause.
 * Timestamps are CLOCK_MONOTONIC microseconds, as the format wants, so they
 * line up with perf's and bpftrace's.
 *
 * Writing. Events are formatted into a buffer of the trace's own; the
 * buffer goes to the file when it is full, when a second has passed since
 * the last write, and at close. Each write ends with the closing "]}" and
 * then steps back over it (fseek), so the file on disk is a complete JSON
 * document between writes: a program that exits without lua_close loses
 * the events since the last write, not the file. (On a file that cannot
 * seek, a pipe, the closing text comes at close only.) A failed write
 * stops the trace: later events are dropped, and the file is left as it
 * was.
 *
 * Mutator only; it calls no Lua and allocates with malloc, outside the
 * state's heap (and its limit). Called from frames.c's event functions,
 * which may run inside an allocation, so nothing here may collect.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gc_internal.h"

#define TRACE_BUFFER_SIZE ((size_t)64 * 1024)
/* Room one event needs at most (the longest is a pause, ~300 bytes). */
#define TRACE_EVENT_MAX 512
#define TRACE_WRITE_INTERVAL_NS ((uint64_t)1000 * 1000 * 1000)

#define TRACE_HEADER "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"runtime\":\"" TIDE_VERSION "\"},\"traceEvents\":[\n"
#define TRACE_TRAILER "\n]}\n"

/* Rows (trace-event thread ids). */
#define ROW_FRAMES 1
#define ROW_PAUSES 2
#define ROW_PHASES 3

struct GCTraceFile {
    FILE *f;
    int seekable;           /* the trailer is written and stepped back over */
    int failed;             /* a write failed: drop everything from here */
    long pid;
    uint64_t events;        /* written so far: the first has no comma */
    uint64_t last_write_ns;
    uint64_t frame_begin_ns; /* of the open frame, 0 = none */
    int phase;              /* the phase the trace last saw, and since when */
    uint64_t phase_since_ns;
    size_t used;
    char buf[TRACE_BUFFER_SIZE];
};

static const char *pause_name(int pause_kind)
{
    switch (pause_kind) {
    case TIDE_GC_PAUSE_MINOR: return "minor";
    case TIDE_GC_PAUSE_INITIAL_MARK: return "initial-mark";
    case TIDE_GC_PAUSE_FINAL_MARK: return "final-mark";
    case TIDE_GC_PAUSE_SYNC_MAJOR: return "sync-major";
    case TIDE_GC_PAUSE_EMERGENCY: return "emergency";
    case TIDE_GC_PAUSE_MARK_STEP: return "mark-step";
    case TIDE_GC_PAUSE_SWEEP_STEP: return "sweep-step";
    case TIDE_GC_PAUSE_STACK_STEP: return "stack-step";
    default: return "pause";
    }
}

/* --- the file ------------------------------------------------------------------ */

/* Hand the buffer to the file, then (seekable) the trailer, stepping back
 * over it. [final]: the trailer stays. */
static void write_out(GCTraceFile *t, int final)
{
    if (t->failed) return;
    size_t n = t->used;
    t->used = 0;
    if (n != 0 && fwrite(t->buf, 1, n, t->f) != n) goto fail;
    if (t->seekable || final) {
        size_t tn = sizeof TRACE_TRAILER - 1;
        if (fwrite(TRACE_TRAILER, 1, tn, t->f) != tn || fflush(t->f) != 0) goto fail;
        if (!final && fseek(t->f, -(long)tn, SEEK_CUR) != 0) goto fail;
    }
    t->last_write_ns = gc_now_ns();
    return;
fail:
    t->failed = 1;
}

/* Append one event (the text inside its braces). */
static void event(GCTraceFile *t, const char *fmt, ...)
{
    if (t->failed) return;
    if (TRACE_BUFFER_SIZE - t->used < TRACE_EVENT_MAX) write_out(t, 0);
    char *p = t->buf + t->used;
    size_t room = TRACE_BUFFER_SIZE - t->used;
    int n = snprintf(p, room, "%s{", t->events != 0 ? ",\n" : "");
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(p + n, room - (size_t)n, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n + 2 > room) return; /* cannot happen: events are short */
    p[n++] = '}';
    t->used += (size_t)n;
    t->events++;
}

static void maybe_write_out(GCTraceFile *t)
{
    if (gc_now_ns() - t->last_write_ns >= TRACE_WRITE_INTERVAL_NS) write_out(t, 0);
}

/* A timestamp or duration in microseconds, exactly: "%llu.%03u". */
typedef struct Micros {
    unsigned long long whole;
    unsigned frac;
} Micros;

static Micros us(uint64_t ns)
{
    Micros m = {(unsigned long long)(ns / 1000), (unsigned)(ns % 1000)};
    return m;
}

#define US "%llu.%03u"
#define US_ARG(m) (m).whole, (m).frac

static void row_name(GCTraceFile *t, int row, const char *name)
{
    event(t, "\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%ld,\"tid\":%d,\"args\":{\"name\":\"%s\"}", t->pid, row,
          name);
    event(t, "\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%ld,\"tid\":%d,\"args\":{\"sort_index\":%d}", t->pid,
          row, row);
}

static GCTraceFile *trace_create(const char *path, int *err)
{
    GCTraceFile *t = malloc(sizeof *t);
    if (t == NULL) {
        *err = ENOMEM;
        return NULL;
    }
    memset(t, 0, offsetof(GCTraceFile, buf));
    t->f = fopen(path, "w");
    if (t->f == NULL) {
        *err = errno != 0 ? errno : EIO;
        free(t);
        return NULL;
    }
    t->seekable = fseek(t->f, 0, SEEK_END) == 0;
    t->pid = (long)getpid();
    t->phase = TIDE_GC_PHASE_IDLE;
    size_t hn = sizeof TRACE_HEADER - 1;
    memcpy(t->buf, TRACE_HEADER, hn);
    t->used = hn;
    event(t, "\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%ld,\"args\":{\"name\":\"tide\"}", t->pid);
    row_name(t, ROW_FRAMES, "frames");
    row_name(t, ROW_PAUSES, "gc pauses");
    row_name(t, ROW_PHASES, "gc phases");
    write_out(t, 0);
    if (t->failed) {
        fclose(t->f);
        free(t);
        *err = EIO;
        return NULL;
    }
    return t;
}

static void trace_destroy(GCTraceFile *t)
{
    write_out(t, 1);
    fclose(t->f);
    free(t);
}

/* --- events (frames.c calls these when gc->trace_file is set) ------------------------ */

void gc_trace_pause(GCState *gc, int pause_kind, uint64_t start_ns, uint64_t duration_ns, uint64_t cpu_ns,
                    size_t heap_before, size_t heap_after)
{
    GCTraceFile *t = gc->trace_file;
    Micros ts = us(start_ns), dur = us(duration_ns), end = us(start_ns + duration_ns), cpu = us(cpu_ns);
    event(t, "\"name\":\"heap\",\"ph\":\"C\",\"ts\":" US ",\"pid\":%ld,\"args\":{\"bytes\":%zu}", US_ARG(ts), t->pid,
          heap_before);
    event(t,
          "\"name\":\"%s\",\"cat\":\"gc\",\"ph\":\"X\",\"ts\":" US ",\"dur\":" US ",\"pid\":%ld,\"tid\":%d,"
          "\"args\":{\"frame\":%llu,\"heap_before\":%zu,\"heap_after\":%zu,\"in_idle\":%d,\"cpu_us\":" US "}",
          pause_name(pause_kind), US_ARG(ts), US_ARG(dur), t->pid, ROW_PAUSES, (unsigned long long)gc->frame,
          heap_before, heap_after, gc->in_idle, US_ARG(cpu));
    event(t, "\"name\":\"heap\",\"ph\":\"C\",\"ts\":" US ",\"pid\":%ld,\"args\":{\"bytes\":%zu}", US_ARG(end), t->pid,
          heap_after);
    maybe_write_out(t);
}

void gc_trace_phase(GCState *gc, int from, int to, uint64_t at_ns)
{
    GCTraceFile *t = gc->trace_file;
    Micros ts = us(at_ns);
    if (t->phase != TIDE_GC_PHASE_IDLE && at_ns >= t->phase_since_ns) {
        Micros since = us(t->phase_since_ns), dur = us(at_ns - t->phase_since_ns);
        event(t, "\"name\":\"%s\",\"cat\":\"gc\",\"ph\":\"X\",\"ts\":" US ",\"dur\":" US ",\"pid\":%ld,\"tid\":%d",
              tide_gc_phase_name(t->phase), US_ARG(since), US_ARG(dur), t->pid, ROW_PHASES);
    }
    event(t,
          "\"name\":\"phase-change\",\"cat\":\"gc\",\"ph\":\"i\",\"s\":\"t\",\"ts\":" US ",\"pid\":%ld,\"tid\":%d,"
          "\"args\":{\"from\":\"%s\",\"to\":\"%s\",\"frame\":%llu}",
          US_ARG(ts), t->pid, ROW_PHASES, tide_gc_phase_name(from), tide_gc_phase_name(to),
          (unsigned long long)gc->frame);
    t->phase = to;
    t->phase_since_ns = at_ns;
}

void gc_trace_heap_limit(GCState *gc, uint64_t at_ns, size_t heap_bytes)
{
    GCTraceFile *t = gc->trace_file;
    Micros ts = us(at_ns);
    event(t,
          "\"name\":\"heap-limit\",\"cat\":\"gc\",\"ph\":\"i\",\"s\":\"p\",\"ts\":" US ",\"pid\":%ld,\"tid\":%d,"
          "\"args\":{\"frame\":%llu,\"heap_bytes\":%zu}",
          US_ARG(ts), t->pid, ROW_PAUSES, (unsigned long long)gc->frame, heap_bytes);
}

void gc_trace_frame_begin(GCState *gc)
{
    gc->trace_file->frame_begin_ns = gc_now_ns();
}

void gc_trace_frame_end(GCState *gc)
{
    GCTraceFile *t = gc->trace_file;
    if (t->frame_begin_ns == 0) return; /* the trace was opened inside the frame */
    uint64_t now = gc_now_ns();
    Micros ts = us(t->frame_begin_ns), dur = us(now - t->frame_begin_ns);
    event(t, "\"name\":\"frame\",\"cat\":\"frame\",\"ph\":\"X\",\"ts\":" US ",\"dur\":" US ",\"pid\":%ld,\"tid\":%d,"
             "\"args\":{\"frame\":%llu}",
          US_ARG(ts), US_ARG(dur), t->pid, ROW_FRAMES, (unsigned long long)gc->frame);
    t->frame_begin_ns = 0;
    maybe_write_out(t); /* at a frame's end, where a write costs the frame nothing */
}

void gc_trace_idle(GCState *gc, uint64_t start_ns, uint64_t budget_ns)
{
    GCTraceFile *t = gc->trace_file;
    uint64_t now = gc_now_ns();
    Micros ts = us(start_ns), dur = us(now - start_ns), budget = us(budget_ns);
    event(t, "\"name\":\"idle\",\"cat\":\"frame\",\"ph\":\"X\",\"ts\":" US ",\"dur\":" US ",\"pid\":%ld,\"tid\":%d,"
             "\"args\":{\"frame\":%llu,\"budget_us\":" US "}",
          US_ARG(ts), US_ARG(dur), t->pid, ROW_FRAMES, (unsigned long long)gc->frame, US_ARG(budget));
}

/* --- opening and closing ---------------------------------------------------------------- */

int gc_trace_open(GCState *gc, const char *path)
{
    int err = 0;
    GCTraceFile *t = trace_create(path, &err);
    if (t == NULL) return err;
    gc_trace_close(gc);
    gc->trace_file = t;
    return 0;
}

void gc_trace_close(GCState *gc)
{
    if (gc->trace_file == NULL) return;
    trace_destroy(gc->trace_file);
    gc->trace_file = NULL;
}

TIDE_API int tide_gc_trace_open(lua_State *L, const char *path)
{
    thread_touch(L);
    if (path == NULL) return EINVAL;
    return gc_trace_open(gc_state(L), path);
}

TIDE_API void tide_gc_trace_close(lua_State *L)
{
    thread_touch(L);
    gc_trace_close(gc_state(L));
}
