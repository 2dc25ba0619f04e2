/*
 * recorder.c — per-frame records, their distributions, the terminal summary,
 * frames.csv and summary.json (see recorder.h for the percentile method).
 *
 * Records live in one array grown by doubling, so adding a frame is
 * amortised O(1) and a long run costs 64 bytes a frame. Pauses live in
 * fixed chunks that never move (recorder.h, recorder_PauseLog), appended
 * to from the collector's event callback. Everything here runs
 * on the main thread between frames, except when the watchdog stops a run
 * that cannot be interrupted: then the report is written from the watchdog
 * thread while the main thread is stuck in the script and adds no frames.
 */
#include "recorder.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

void recorder_init(recorder_Recorder *rec)
{
    memset(rec, 0, sizeof *rec);
}

void recorder_free(recorder_Recorder *rec)
{
    free(rec->frames);
    recorder_PauseChunk *chunk = rec->pauses.head;
    while (chunk != NULL) {
        recorder_PauseChunk *next = chunk->next;
        free(chunk);
        chunk = next;
    }
    free(rec->pauses.spare);
    memset(rec, 0, sizeof *rec);
}

int recorder_add(recorder_Recorder *rec, const recorder_Frame *frame)
{
    if (rec->count == rec->capacity) {
        size_t capacity = rec->capacity ? rec->capacity * 2 : 1024;
        recorder_Frame *grown = realloc(rec->frames, capacity * sizeof *grown);
        if (grown == NULL) return 0;
        rec->frames = grown;
        rec->capacity = capacity;
    }
    rec->frames[rec->count++] = *frame;
    return 1;
}

size_t recorder_count(const recorder_Recorder *rec)
{
    return rec->count;
}

const recorder_Frame *recorder_frame(const recorder_Recorder *rec, size_t i)
{
    return i < rec->count ? &rec->frames[i] : NULL;
}

/* ---------------------------------------------------------------- statistics */

double recorder_percentile(const double *sorted, size_t n, int permille)
{
    if (n == 0) return 0;
    /* rank = ceil(permille * n / 1000) in integers: 0.999 * 1000 is not
     * exactly 999 in floating point. */
    size_t rank = ((size_t)permille * n + 999) / 1000;
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return sorted[rank - 1];
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

recorder_Stats recorder_stats(const double *values, size_t n)
{
    recorder_Stats stats = { 0, 0, 0, 0, 0 };
    if (n == 0) return stats;
    double *sorted = malloc(n * sizeof *sorted);
    if (sorted == NULL) return stats;
    memcpy(sorted, values, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_doubles);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += sorted[i];
    stats.p50 = recorder_percentile(sorted, n, 500);
    stats.p99 = recorder_percentile(sorted, n, 990);
    stats.p999 = recorder_percentile(sorted, n, 999);
    stats.max = sorted[n - 1];
    stats.mean = sum / (double)n;
    free(sorted);
    return stats;
}

/* Stats of one field of every record, the field given by its offset. */
static recorder_Stats column_stats(const recorder_Recorder *rec, size_t field_offset)
{
    double *values = malloc((rec->count ? rec->count : 1) * sizeof *values);
    recorder_Stats stats = { 0, 0, 0, 0, 0 };
    if (values == NULL) return stats;
    for (size_t i = 0; i < rec->count; i++)
        memcpy(&values[i], (const char *)&rec->frames[i] + field_offset, sizeof values[i]);
    stats = recorder_stats(values, rec->count);
    free(values);
    return stats;
}

void recorder_summarize(const recorder_Recorder *rec, recorder_Summary *out)
{
    memset(out, 0, sizeof *out);
    out->frames = rec->count;
    out->frame_ms = column_stats(rec, offsetof(recorder_Frame, frame_ms));
    out->update_ms = column_stats(rec, offsetof(recorder_Frame, update_ms));
    out->draw_ms = column_stats(rec, offsetof(recorder_Frame, draw_ms));
    out->present_ms = column_stats(rec, offsetof(recorder_Frame, present_ms));
    out->gc_ms = column_stats(rec, offsetof(recorder_Frame, gc_ms));
    out->idle_gc_ms = column_stats(rec, offsetof(recorder_Frame, idle_gc_ms));
    for (size_t i = 0; i < rec->count; i++) {
        if (rec->frames[i].frame_ms > RECORDER_BUDGET_60HZ_MS) out->over_16_7++;
        if (rec->frames[i].frame_ms > RECORDER_BUDGET_30HZ_MS) out->over_33_3++;
    }
}

/* ---------------------------------------------------------------- pauses */

static recorder_PauseChunk *new_pause_chunk(void)
{
    recorder_PauseChunk *chunk = malloc(sizeof *chunk);
    if (chunk != NULL) chunk->next = NULL;
    return chunk;
}

int recorder_observe_pauses(recorder_PauseLog *log, uint64_t origin_ns)
{
    log->observable = 1;
    log->origin_ns = origin_ns;
    if (log->head == NULL) {
        log->head = log->tail = new_pause_chunk();
        if (log->head == NULL) return 0;
    }
    recorder_reserve_pauses(log);
    return log->spare != NULL;
}

void recorder_reserve_pauses(recorder_PauseLog *log)
{
    if (log->observable && log->spare == NULL) log->spare = new_pause_chunk();
}

/* Runs inside the collector's event callback: touches no Lua state. The
 * entry is written before the count that publishes it. */
void recorder_add_pause(recorder_PauseLog *log, const recorder_Pause *pause)
{
    size_t slot = log->count % RECORDER_PAUSE_CHUNK;
    if (log->tail == NULL || (slot == 0 && log->count > 0)) {
        recorder_PauseChunk *chunk = log->spare;
        if (chunk != NULL) log->spare = NULL;
        else chunk = new_pause_chunk();
        if (chunk == NULL) {
            log->lost++;
            return;
        }
        if (log->tail == NULL) log->head = chunk;
        else log->tail->next = chunk;
        log->tail = chunk;
    }
    log->tail->pauses[slot] = *pause;
    log->count++;
}

const recorder_Pause *recorder_pause(const recorder_PauseLog *log, size_t i)
{
    if (i >= log->count) return NULL;
    const recorder_PauseChunk *chunk = log->head;
    for (size_t c = i / RECORDER_PAUSE_CHUNK; c > 0; c--) chunk = chunk->next;
    return &chunk->pauses[i % RECORDER_PAUSE_CHUNK];
}

const char *recorder_pause_kind_name(int kind)
{
    static const char *const names[RECORDER_PAUSE_KIND_COUNT] = {
        "minor", "initial-mark", "final-mark", "sync-major", "emergency", "mark-step", "sweep-step", "stack-step", "other",
    };
    return kind >= 0 && kind < RECORDER_PAUSE_KIND_COUNT ? names[kind] : "other";
}

/* Walks the pauses in order; the caller stops below the count it read.
 * A chunk's next pointer is followed only to reach such a pause, which was
 * linked before that count was read (the watchdog's thread reads while the
 * main thread may still append). */
typedef struct pause_Walk {
    const recorder_PauseChunk *chunk;
    size_t next;
} pause_Walk;

static const recorder_Pause *walk_next(pause_Walk *w, const recorder_PauseLog *log)
{
    size_t i = w->next++;
    if (i == 0) w->chunk = log->head;
    else if (i % RECORDER_PAUSE_CHUNK == 0) w->chunk = w->chunk->next;
    return &w->chunk->pauses[i % RECORDER_PAUSE_CHUNK];
}

static int pause_kind_of(const recorder_Pause *p)
{
    return p->kind >= 0 && p->kind < RECORDER_PAUSE_KIND_COUNT ? p->kind : RECORDER_PAUSE_OTHER;
}

void recorder_pause_stats(const recorder_PauseLog *log, size_t count,
                          recorder_PauseStats out[RECORDER_PAUSE_KIND_COUNT])
{
    memset(out, 0, RECORDER_PAUSE_KIND_COUNT * sizeof *out);
    if (count > log->count) count = log->count;
    if (count == 0) return;
    double *ms = malloc(count * sizeof *ms);
    if (ms == NULL) return;
    for (int kind = 0; kind < RECORDER_PAUSE_KIND_COUNT; kind++) {
        size_t n = 0;
        double total = 0;
        pause_Walk walk = { NULL, 0 };
        for (size_t i = 0; i < count; i++) {
            const recorder_Pause *p = walk_next(&walk, log);
            if (pause_kind_of(p) != kind) continue;
            ms[n++] = (double)p->duration_ns / 1e6;
            total += (double)p->duration_ns / 1e6;
        }
        if (n == 0) continue;
        qsort(ms, n, sizeof *ms, compare_doubles);
        out[kind].count = n;
        out[kind].p50 = recorder_percentile(ms, n, 500);
        out[kind].p99 = recorder_percentile(ms, n, 990);
        out[kind].max = ms[n - 1];
        out[kind].total_ms = total;
    }
    free(ms);
}

/* ---------------------------------------------------------------- terminal */

static void print_stats_row(FILE *to, const char *name, const recorder_Stats *s)
{
    fprintf(to, "  %-8s %9.3f %9.3f %9.3f %9.3f %9.3f\n",
            name, s->p50, s->p99, s->p999, s->max, s->mean);
}

/* One line per kind of pause seen; or why there are none. */
static void print_pauses(FILE *to, const recorder_Recorder *rec, const recorder_RunInfo *info)
{
    const recorder_PauseLog *log = &rec->pauses;
    if (!log->observable) {
        fprintf(to, "  (pauses: not observable on %s; its collector does not report them)\n",
                info->backend);
        return;
    }
    recorder_PauseStats stats[RECORDER_PAUSE_KIND_COUNT];
    recorder_pause_stats(log, info->pause_count, stats);
    size_t count = info->pause_count < log->count ? info->pause_count : log->count;
    if (count == 0) fputs("  pauses: none\n", to);
    else fprintf(to, "  %-12s %7s %9s %9s %9s %10s\n", "pauses (ms)", "count", "p50", "p99",
                 "max", "total");
    for (int kind = 0; kind < RECORDER_PAUSE_KIND_COUNT; kind++) {
        const recorder_PauseStats *k = &stats[kind];
        if (k->count == 0) continue;
        fprintf(to, "  %-12s %7zu %9.3f %9.3f %9.3f %10.3f\n", recorder_pause_kind_name(kind),
                k->count, k->p50, k->p99, k->max, k->total_ms);
    }
    if (log->lost > 0)
        fprintf(to, "  (%llu pauses not recorded: out of memory)\n", (unsigned long long)log->lost);
}

void recorder_print_summary(FILE *to, const recorder_Recorder *rec,
                            const recorder_RunInfo *info)
{
    recorder_Summary s;
    recorder_summarize(rec, &s);
    fprintf(to, "%s: %zu frames in %.3f s (backend %s, gc %s, seed %llu)%s\n",
            info->game, s.frames, info->total_s, info->backend, info->gc_mode,
            (unsigned long long)info->seed, info->error ? ", stopped by an error" : "");
    fprintf(to, "  %-8s %9s %9s %9s %9s %9s\n", "ms", "p50", "p99", "p99.9", "max", "mean");
    print_stats_row(to, "frame", &s.frame_ms);
    print_stats_row(to, "update", &s.update_ms);
    print_stats_row(to, "draw", &s.draw_ms);
    print_stats_row(to, "present", &s.present_ms);
    print_stats_row(to, "gc", &s.gc_ms);
    print_stats_row(to, "idle gc", &s.idle_gc_ms);
    if (!info->gc_reported)
        fprintf(to, "  (gc: engine.gc calls only; %s collects inside allocation in %s mode, untimed)\n",
                info->backend, info->gc_mode);
    print_pauses(to, rec, info);
    const recorder_Pacing *pc = &info->pacing;
    if (pc->known)
        fprintf(to, "  pacer: next cycle at %.1f MiB of old generation (now %.1f, live %.1f, target %.1f); "
                    "growing %.1f MB/s, marking %.1f MB/s%s\n",
                pc->trigger_mib, pc->old_mib, pc->live_mib, pc->target_mib, pc->grow_mb_s, pc->mark_mb_s,
                pc->measured ? "" : " (halfway: rates not measured yet)");
    fprintf(to, "  over %.1f ms: %zu frames, over %.1f ms: %zu frames\n",
            RECORDER_BUDGET_60HZ_MS, s.over_16_7, RECORDER_BUDGET_30HZ_MS, s.over_33_3);
    fprintf(to, "  memory: script peak %.1f KiB, allocated %.1f KiB in all",
            info->peak_mem_kb, info->alloc_total_kb);
    if (info->peak_rss_kb >= 0) fprintf(to, ", process peak RSS %ld KiB", info->peak_rss_kb);
    fputc('\n', to);
    for (int i = 0; i < info->zone_count; i++)
        fprintf(to, "  zone %-20s %10.3f ms in %llu calls\n", info->zones[i].name,
                info->zones[i].total_ms, (unsigned long long)info->zones[i].calls);
}

/* ---------------------------------------------------------------- CSV */

int recorder_write_csv(FILE *to, const recorder_Recorder *rec)
{
    fputs("frame,frame_ms,update_ms,draw_ms,present_ms,gc_ms,idle_gc_ms,mem_kb,alloc_kb\n", to);
    for (size_t i = 0; i < rec->count; i++) {
        const recorder_Frame *f = &rec->frames[i];
        fprintf(to, "%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f\n", i, f->frame_ms,
                f->update_ms, f->draw_ms, f->present_ms, f->gc_ms, f->idle_gc_ms,
                f->mem_kb, f->alloc_kb);
    }
    return !ferror(to);
}

int recorder_write_pauses_csv(FILE *to, const recorder_Recorder *rec, size_t count)
{
    const recorder_PauseLog *log = &rec->pauses;
    if (count > log->count) count = log->count;
    fputs("frame,kind,in_idle,start_ms,duration_ns,heap_bytes,low_latency,cpu_ns\n", to);
    pause_Walk walk = { NULL, 0 };
    for (size_t i = 0; i < count; i++) {
        const recorder_Pause *p = walk_next(&walk, log);
        double start_ms = p->start_ns > log->origin_ns
                        ? (double)(p->start_ns - log->origin_ns) / 1e6 : 0.0;
        fprintf(to, "%lld,%s,%d,%.3f,%llu,%llu,%d,%llu\n", (long long)p->frame,
                recorder_pause_kind_name(p->kind), p->in_idle, start_ms,
                (unsigned long long)p->duration_ns, (unsigned long long)p->heap_bytes, p->low_latency,
                (unsigned long long)p->cpu_ns);
    }
    return !ferror(to);
}

/* ---------------------------------------------------------------- JSON */

/* Length of the valid UTF-8 sequence at [s] (at most [left] bytes), or 0. */
static size_t utf8_sequence_length(const unsigned char *s, size_t left)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2
               : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || len > left) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    unsigned cp = len == 1 ? s[0] : s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) cp = (cp << 6) | (s[i] & 0x3F);
    static const unsigned smallest[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < smallest[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

/* A JSON string. Error messages may carry any bytes a script produced, so
 * invalid UTF-8 becomes U+FFFD rather than an unreadable file. */
static void write_json_string(FILE *to, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t left = strlen(text);
    fputc('"', to);
    while (left > 0) {
        size_t len = utf8_sequence_length(s, left);
        if (len == 0) {
            fputs("\\ufffd", to);
            len = 1;
        } else if (*s == '"' || *s == '\\') {
            fprintf(to, "\\%c", *s);
        } else if (*s == '\n') {
            fputs("\\n", to);
        } else if (*s == '\t') {
            fputs("\\t", to);
        } else if (*s < 0x20 || *s == 0x7F) {
            fprintf(to, "\\u%04x", *s);
        } else {
            fwrite(s, 1, len, to);
        }
        s += len;
        left -= len;
    }
    fputc('"', to);
}

static void write_json_stats(FILE *to, const char *key, const recorder_Stats *s)
{
    fprintf(to, "  \"%s\": {\"p50\": %.3f, \"p99\": %.3f, \"p999\": %.3f, "
            "\"max\": %.3f, \"mean\": %.3f},\n", key, s->p50, s->p99, s->p999, s->max, s->mean);
}

static void write_json_zones(FILE *to, const recorder_RunInfo *info)
{
    fputs("  \"zones\": {", to);
    for (int i = 0; i < info->zone_count; i++) {
        fputs(i ? ", " : "", to);
        write_json_string(to, info->zones[i].name);
        fprintf(to, ": {\"total_ms\": %.3f, \"calls\": %llu}", info->zones[i].total_ms,
                (unsigned long long)info->zones[i].calls);
    }
    fputs("},\n", to);
}

/* "pauses": per kind seen, {count, p50, p99, max, total_ms}; null where the
 * backend cannot see its pauses. */
static void write_json_pauses(FILE *to, const recorder_Recorder *rec, const recorder_RunInfo *info)
{
    if (!rec->pauses.observable) {
        fputs("  \"pauses\": null,\n", to);
        return;
    }
    recorder_PauseStats stats[RECORDER_PAUSE_KIND_COUNT];
    recorder_pause_stats(&rec->pauses, info->pause_count, stats);
    fputs("  \"pauses\": {", to);
    int first = 1;
    for (int kind = 0; kind < RECORDER_PAUSE_KIND_COUNT; kind++) {
        const recorder_PauseStats *k = &stats[kind];
        if (k->count == 0) continue;
        fprintf(to, "%s\"%s\": {\"count\": %zu, \"p50\": %.3f, \"p99\": %.3f, \"max\": %.3f, "
                "\"total_ms\": %.3f}", first ? "" : ", ", recorder_pause_kind_name(kind),
                k->count, k->p50, k->p99, k->max, k->total_ms);
        first = 0;
    }
    fputs("},\n", to);
}

int recorder_write_json(FILE *to, const recorder_Recorder *rec, const recorder_RunInfo *info)
{
    recorder_Summary s;
    recorder_summarize(rec, &s);
    fputs("{\n  \"backend\": ", to);
    write_json_string(to, info->backend);
    fputs(",\n  \"game\": ", to);
    write_json_string(to, info->game);
    fputs(",\n  \"gc_mode\": ", to);
    write_json_string(to, info->gc_mode);
    fprintf(to, ",\n  \"seed\": %llu,\n  \"frames\": %zu,\n",
            (unsigned long long)info->seed, s.frames);
    write_json_stats(to, "frame_ms", &s.frame_ms);
    write_json_stats(to, "update_ms", &s.update_ms);
    write_json_stats(to, "draw_ms", &s.draw_ms);
    write_json_stats(to, "present_ms", &s.present_ms);
    write_json_stats(to, "gc_ms", &s.gc_ms);
    write_json_stats(to, "idle_gc_ms", &s.idle_gc_ms);
    fprintf(to, "  \"over_16_7\": %zu,\n  \"over_33_3\": %zu,\n", s.over_16_7, s.over_33_3);
    fprintf(to, "  \"total_s\": %.3f,\n  \"peak_mem_kb\": %.1f,\n", info->total_s,
            info->peak_mem_kb);
    if (info->peak_rss_kb >= 0) fprintf(to, "  \"peak_rss_kb\": %ld,\n", info->peak_rss_kb);
    else fputs("  \"peak_rss_kb\": null,\n", to);
    fprintf(to, "  \"alloc_total_kb\": %.1f,\n  \"gc_reported\": %s,\n",
            info->alloc_total_kb, info->gc_reported ? "true" : "false");
    write_json_zones(to, info);
    write_json_pauses(to, rec, info);
    const recorder_Pacing *pc = &info->pacing;
    if (pc->known)
        fprintf(to, "  \"pacing\": {\"old_mib\": %.3f, \"live_mib\": %.3f, \"trigger_mib\": %.3f, "
                    "\"target_mib\": %.3f, \"grow_mb_s\": %.3f, \"mark_mb_s\": %.3f, \"measured\": %s},\n",
                pc->old_mib, pc->live_mib, pc->trigger_mib, pc->target_mib, pc->grow_mb_s, pc->mark_mb_s,
                pc->measured ? "true" : "false");
    else
        fputs("  \"pacing\": null,\n", to);
    fputs("  \"error\": ", to);
    if (info->error) write_json_string(to, info->error);
    else fputs("null", to);
    fputs("\n}\n", to);
    return !ferror(to);
}

/* ---------------------------------------------------------------- files */

int recorder_make_dirs(const char *path)
{
    size_t len = strlen(path);
    char *partial = malloc(len + 1);
    if (partial == NULL) return 0;
    memcpy(partial, path, len + 1);
    int ok = 1;
    /* Create each prefix ending before a '/', then the whole path. */
    for (size_t i = 1; ok && i <= len; i++) {
        if (partial[i] != '/' && partial[i] != '\0') continue;
        char saved = partial[i];
        partial[i] = '\0';
        if (mkdir(partial, 0777) != 0 && errno != EEXIST) ok = 0;
        partial[i] = saved;
    }
    struct stat st;
    if (ok && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))) ok = 0;
    free(partial);
    return ok;
}

typedef int (*report_Writer)(FILE *to, const recorder_Recorder *rec,
                             const recorder_RunInfo *info);

static int write_csv_file(FILE *to, const recorder_Recorder *rec, const recorder_RunInfo *info)
{
    (void)info;
    return recorder_write_csv(to, rec);
}

static int write_pauses_file(FILE *to, const recorder_Recorder *rec, const recorder_RunInfo *info)
{
    return recorder_write_pauses_csv(to, rec, info->pause_count);
}

static int write_report_file(const char *dir, const char *name, report_Writer write,
                             const recorder_Recorder *rec, const recorder_RunInfo *info,
                             char *err, size_t err_size)
{
    size_t path_size = strlen(dir) + strlen(name) + 2;
    char *path = malloc(path_size);
    if (path == NULL) {
        snprintf(err, err_size, "out of memory");
        return 0;
    }
    snprintf(path, path_size, "%s/%s", dir, name);
    FILE *file = fopen(path, "w");
    int ok = file != NULL && write(file, rec, info);
    if (file != NULL && fclose(file) != 0) ok = 0;
    if (!ok) snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
    free(path);
    return ok;
}

int recorder_write_report(const char *dir, const recorder_Recorder *rec,
                          const recorder_RunInfo *info, char *err, size_t err_size)
{
    if (!recorder_make_dirs(dir)) {
        snprintf(err, err_size, "cannot create folder %s: %s", dir, strerror(errno));
        return 0;
    }
    return write_report_file(dir, "frames.csv", write_csv_file, rec, info, err, err_size)
        && (!rec->pauses.observable
            || write_report_file(dir, "pauses.csv", write_pauses_file, rec, info, err, err_size))
        && write_report_file(dir, "summary.json", recorder_write_json, rec, info, err, err_size);
}

long recorder_peak_rss_kb(void)
{
    FILE *status = fopen("/proc/self/status", "r");
    if (status == NULL) return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(status);
    return kb;
}
