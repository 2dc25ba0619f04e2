/* Unit tests of host/recorder.c: nearest-rank percentiles on known data,
 * over-budget counts, and the CSV/JSON report written to a temporary
 * folder and read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "recorder.h"

static recorder_Frame frame_of(double frame_ms)
{
    recorder_Frame f = { .frame_ms = frame_ms, .update_ms = frame_ms / 2,
                         .draw_ms = frame_ms / 4, .present_ms = frame_ms / 4 };
    return f;
}

/* 1..n in a scrambled order (a stride coprime to n), so sorting matters. */
static double *scrambled_1_to_n(size_t n, size_t stride)
{
    double *values = malloc(n * sizeof *values);
    for (size_t i = 0; i < n; i++) values[i] = (double)((i * stride) % n + 1);
    return values;
}

TEST(recorder_percentile_of_nothing_is_zero)
{
    recorder_Stats s = recorder_stats(NULL, 0);
    CHECK_NEAR(s.p50, 0, 0);
    CHECK_NEAR(s.p999, 0, 0);
    CHECK_NEAR(s.max, 0, 0);
    CHECK_NEAR(s.mean, 0, 0);
    CHECK_NEAR(recorder_percentile(NULL, 0, 500), 0, 0);
}

TEST(recorder_one_frame_is_every_percentile)
{
    double one = 7.25;
    recorder_Stats s = recorder_stats(&one, 1);
    CHECK_NEAR(s.p50, 7.25, 0);
    CHECK_NEAR(s.p99, 7.25, 0);
    CHECK_NEAR(s.p999, 7.25, 0);
    CHECK_NEAR(s.max, 7.25, 0);
    CHECK_NEAR(s.mean, 7.25, 0);
}

TEST(recorder_nearest_rank_small_sets)
{
    double two[] = { 2, 1 };
    recorder_Stats s = recorder_stats(two, 2);
    CHECK_NEAR(s.p50, 1, 0);     /* rank ceil(0.5 * 2) = 1 */
    CHECK_NEAR(s.p99, 2, 0);     /* rank ceil(1.98) = 2 */
    CHECK_NEAR(s.mean, 1.5, 1e-12);
    double sorted[] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
    CHECK_NEAR(recorder_percentile(sorted, 10, 500), 50, 0);
    CHECK_NEAR(recorder_percentile(sorted, 10, 510), 60, 0);   /* ceil(5.1) = 6 */
    CHECK_NEAR(recorder_percentile(sorted, 10, 990), 100, 0);
    CHECK_NEAR(recorder_percentile(sorted, 10, 0), 10, 0);     /* rank clamps to 1 */
}

TEST(recorder_percentiles_of_100)
{
    double *values = scrambled_1_to_n(100, 37);
    recorder_Stats s = recorder_stats(values, 100);
    CHECK_NEAR(s.p50, 50, 0);
    CHECK_NEAR(s.p99, 99, 0);
    CHECK_NEAR(s.p999, 100, 0);  /* ceil(99.9) = 100 */
    CHECK_NEAR(s.max, 100, 0);
    CHECK_NEAR(s.mean, 50.5, 1e-12);
    CHECK_NEAR(values[1], 38, 0);   /* the input is left as it was */
    free(values);
}

TEST(recorder_p999_of_1000_is_second_largest)
{
    double *values = scrambled_1_to_n(1000, 357);
    recorder_Stats s = recorder_stats(values, 1000);
    CHECK_NEAR(s.p50, 500, 0);
    CHECK_NEAR(s.p99, 990, 0);
    CHECK_NEAR(s.p999, 999, 0);
    CHECK_NEAR(s.max, 1000, 0);
    CHECK_NEAR(s.mean, 500.5, 1e-9);
    free(values);
}

TEST(recorder_over_budget_counts)
{
    recorder_Recorder rec;
    recorder_init(&rec);
    const double times[] = { 1.0, 16.7, 16.701, 20.0, 33.3, 33.31, 50.0 };
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        recorder_Frame f = frame_of(times[i]);
        CHECK(recorder_add(&rec, &f));
    }
    recorder_Summary s;
    recorder_summarize(&rec, &s);
    CHECK_INT(s.frames, 7);
    CHECK_INT(s.over_16_7, 5);   /* strictly greater: 16.7 itself is on budget */
    CHECK_INT(s.over_33_3, 2);
    CHECK_NEAR(s.frame_ms.max, 50.0, 0);
    CHECK_NEAR(s.update_ms.max, 25.0, 0);
    recorder_free(&rec);
}

TEST(recorder_grows_past_first_block)
{
    recorder_Recorder rec;
    recorder_init(&rec);
    for (int i = 0; i < 3000; i++) {
        recorder_Frame f = frame_of(i);
        recorder_add(&rec, &f);
    }
    CHECK_INT(recorder_count(&rec), 3000);
    CHECK_NEAR(recorder_frame(&rec, 2999)->frame_ms, 2999, 0);
    CHECK_NEAR(recorder_frame(&rec, 1024)->frame_ms, 1024, 0);
    CHECK(recorder_frame(&rec, 3000) == NULL);
    recorder_free(&rec);
    CHECK_INT(recorder_count(&rec), 0);
}

/* ---------------------------------------------------------------- pauses */

static recorder_Pause pause_of(int64_t frame, int kind, uint64_t duration_ns)
{
    recorder_Pause p = { .frame = frame, .start_ns = 1000000 + (uint64_t)frame * 1000000,
                         .duration_ns = duration_ns, .heap_bytes = 4096, .kind = kind };
    return p;
}

TEST(recorder_pauses_grow_past_chunks)
{
    recorder_Recorder rec;
    recorder_init(&rec);
    CHECK(!rec.pauses.observable);
    CHECK(recorder_observe_pauses(&rec.pauses, 0));
    size_t n = 3 * RECORDER_PAUSE_CHUNK + 5;
    for (size_t i = 0; i < n; i++) {
        recorder_Pause p = pause_of((int64_t)i, RECORDER_PAUSE_MINOR, i + 1);
        recorder_add_pause(&rec.pauses, &p);
        if (i % 700 == 0) recorder_reserve_pauses(&rec.pauses);
    }
    CHECK_INT(rec.pauses.count, n);
    CHECK_INT(rec.pauses.lost, 0);
    CHECK_INT(recorder_pause(&rec.pauses, 0)->duration_ns, 1);
    CHECK_INT(recorder_pause(&rec.pauses, RECORDER_PAUSE_CHUNK)->frame, RECORDER_PAUSE_CHUNK);
    CHECK_INT(recorder_pause(&rec.pauses, n - 1)->duration_ns, n);
    CHECK(recorder_pause(&rec.pauses, n) == NULL);
    recorder_free(&rec);
    CHECK_INT(rec.pauses.count, 0);
}

TEST(recorder_pause_stats_per_kind)
{
    recorder_Recorder rec;
    recorder_init(&rec);
    recorder_observe_pauses(&rec.pauses, 0);
    /* minor: 1..100 ms scrambled; sync-major: 50 ms once; a kind this
     * host does not know counts as "other". */
    double *ms = scrambled_1_to_n(100, 37);
    for (int i = 0; i < 100; i++) {
        recorder_Pause p = pause_of(i, RECORDER_PAUSE_MINOR, (uint64_t)(ms[i] * 1e6));
        recorder_add_pause(&rec.pauses, &p);
    }
    free(ms);
    recorder_Pause major = pause_of(7, RECORDER_PAUSE_SYNC_MAJOR, 50000000);
    recorder_add_pause(&rec.pauses, &major);
    recorder_Pause odd = pause_of(8, 42, 1000000);
    recorder_add_pause(&rec.pauses, &odd);
    recorder_PauseStats stats[RECORDER_PAUSE_KIND_COUNT];
    recorder_pause_stats(&rec.pauses, rec.pauses.count, stats);
    CHECK_INT(stats[RECORDER_PAUSE_MINOR].count, 100);
    CHECK_NEAR(stats[RECORDER_PAUSE_MINOR].p50, 50.0, 1e-9);
    CHECK_NEAR(stats[RECORDER_PAUSE_MINOR].p99, 99.0, 1e-9);
    CHECK_NEAR(stats[RECORDER_PAUSE_MINOR].max, 100.0, 1e-9);
    CHECK_NEAR(stats[RECORDER_PAUSE_MINOR].total_ms, 5050.0, 1e-6);
    CHECK_INT(stats[RECORDER_PAUSE_SYNC_MAJOR].count, 1);
    CHECK_NEAR(stats[RECORDER_PAUSE_SYNC_MAJOR].p99, 50.0, 1e-9);
    CHECK_INT(stats[RECORDER_PAUSE_INITIAL_MARK].count, 0);
    CHECK_INT(stats[RECORDER_PAUSE_OTHER].count, 1);
    CHECK_STR(recorder_pause_kind_name(RECORDER_PAUSE_FINAL_MARK), "final-mark");
    CHECK_STR(recorder_pause_kind_name(42), "other");
    /* Only the first [count]: what the watchdog's snapshot covers. */
    recorder_pause_stats(&rec.pauses, 10, stats);
    CHECK_INT(stats[RECORDER_PAUSE_MINOR].count, 10);
    CHECK_INT(stats[RECORDER_PAUSE_SYNC_MAJOR].count, 0);
    recorder_free(&rec);
}

/* ---------------------------------------------------------------- files */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    size_t got = fread(text, 1, (size_t)size, f);
    text[got] = '\0';
    fclose(f);
    return text;
}

static int count_lines(const char *text)
{
    int lines = 0;
    for (; *text; text++) lines += *text == '\n';
    return lines;
}

static void remove_report(const char *root, const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/frames.csv", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/pauses.csv", dir);
    unlink(path);
    rmdir(dir);
    snprintf(path, sizeof path, "%s/nested", root);
    rmdir(path);
    rmdir(root);
}

static recorder_RunInfo sample_info(void)
{
    recorder_RunInfo info = {
        .backend = "lua5.4", .game = "samples/x/main.lua", .gc_mode = "idle-stepped",
        .seed = 7, .gc_reported = 1, .total_s = 1.5, .peak_mem_kb = 123.4,
        .alloc_total_kb = 999.5, .peak_rss_kb = 4567, .zone_count = 1,
    };
    snprintf(info.zones[0].name, sizeof info.zones[0].name, "physics");
    info.zones[0].total_ms = 12.5;
    info.zones[0].calls = 3;
    return info;
}

TEST(recorder_report_files)
{
    char root[] = "/tmp/tide-recorder-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/nested/report", root);   /* parents do not exist yet */

    recorder_Recorder rec;
    recorder_init(&rec);
    const double times[] = { 1.5, 20.0, 40.0 };
    for (int i = 0; i < 3; i++) {
        recorder_Frame f = frame_of(times[i]);
        f.gc_ms = 0.25;
        f.mem_kb = 100 + i;
        recorder_add(&rec, &f);
    }
    recorder_RunInfo info = sample_info();
    info.error = "main.lua:3: bad \"x\"\nstack traceback:\n\t[C]: in ?";
    char err[256] = "";
    CHECK(recorder_write_report(dir, &rec, &info, err, sizeof err));

    char path[512];
    snprintf(path, sizeof path, "%s/frames.csv", dir);
    char *csv = read_file(path);
    CHECK(csv != NULL);
    if (csv) {
        CHECK_INT(count_lines(csv), 4);   /* header + one row a frame */
        const char *header = "frame,frame_ms,update_ms,draw_ms,present_ms,gc_ms,idle_gc_ms,"
                             "mem_kb,alloc_kb\n";
        CHECK(strncmp(csv, header, strlen(header)) == 0);
        CHECK(strstr(csv, "\n0,1.500,0.750,0.375,0.375,0.250,0.000,100.0,0.0\n") != NULL);
        CHECK(strstr(csv, "\n2,40.000,20.000,") != NULL);
    }
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *json = read_file(path);
    CHECK(json != NULL);
    if (json) {
        CHECK(strstr(json, "\"backend\": \"lua5.4\"") != NULL);
        CHECK(strstr(json, "\"gc_mode\": \"idle-stepped\"") != NULL);
        CHECK(strstr(json, "\"seed\": 7,") != NULL);
        CHECK(strstr(json, "\"frames\": 3,") != NULL);
        CHECK(strstr(json, "\"frame_ms\": {\"p50\": 20.000, \"p99\": 40.000, \"p999\": 40.000, "
                     "\"max\": 40.000, \"mean\": 20.500}") != NULL);
        CHECK(strstr(json, "\"over_16_7\": 2,") != NULL);
        CHECK(strstr(json, "\"over_33_3\": 1,") != NULL);
        CHECK(strstr(json, "\"peak_rss_kb\": 4567,") != NULL);
        CHECK(strstr(json, "\"gc_reported\": true,") != NULL);
        CHECK(strstr(json, "\"zones\": {\"physics\": {\"total_ms\": 12.500, \"calls\": 3}}") != NULL);
        CHECK(strstr(json, "\"error\": \"main.lua:3: bad \\\"x\\\"\\nstack traceback:\\n\\t[C]: in ?\"")
              != NULL);
        CHECK(strstr(json, "\"pauses\": null,") != NULL);   /* a stock backend */
    }
    snprintf(path, sizeof path, "%s/pauses.csv", dir);
    CHECK(read_file(path) == NULL);
    free(csv);
    free(json);
    recorder_free(&rec);
    remove_report(root, dir);
}

TEST(recorder_report_with_pauses)
{
    char root[] = "/tmp/tide-recorder-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/nested/report", root);
    recorder_Recorder rec;
    recorder_init(&rec);
    recorder_Frame f = frame_of(2.0);
    recorder_add(&rec, &f);
    recorder_observe_pauses(&rec.pauses, 1000000);
    recorder_Pause loading = pause_of(-1, RECORDER_PAUSE_SYNC_MAJOR, 3000000);
    recorder_Pause minor = pause_of(0, RECORDER_PAUSE_MINOR, 250000);
    minor.in_idle = 1;
    minor.low_latency = 1;
    minor.heap_bytes = 123456789;
    minor.cpu_ns = 240000;
    minor.start_ns = 2000000;   /* 1 ms after the origin */
    recorder_add_pause(&rec.pauses, &loading);
    recorder_add_pause(&rec.pauses, &minor);
    recorder_RunInfo info = sample_info();
    info.backend = "tide";
    info.pause_count = rec.pauses.count;
    char err[256] = "";
    CHECK(recorder_write_report(dir, &rec, &info, err, sizeof err));
    char path[512];
    snprintf(path, sizeof path, "%s/pauses.csv", dir);
    char *csv = read_file(path);
    CHECK(csv != NULL);
    if (csv) {
        CHECK_INT(count_lines(csv), 3);
        CHECK(strncmp(csv, "frame,kind,in_idle,start_ms,duration_ns,heap_bytes,low_latency,cpu_ns\n", 70) == 0);
        CHECK(strstr(csv, "\n-1,sync-major,0,0.000,3000000,4096,0,0\n") != NULL);
        CHECK(strstr(csv, "\n0,minor,1,1.000,250000,123456789,1,240000\n") != NULL);
    }
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *json = read_file(path);
    CHECK(json != NULL);
    if (json) {
        CHECK(strstr(json, "\"pauses\": {\"minor\": {\"count\": 1, \"p50\": 0.250, \"p99\": 0.250, "
                     "\"max\": 0.250, \"total_ms\": 0.250}, \"sync-major\": {\"count\": 1, "
                     "\"p50\": 3.000, \"p99\": 3.000, \"max\": 3.000, \"total_ms\": 3.000}},") != NULL);
    }
    free(csv);
    free(json);
    recorder_free(&rec);
    remove_report(root, dir);
}

TEST(recorder_report_without_frames_or_error)
{
    char root[] = "/tmp/tide-recorder-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/nested", root);
    recorder_Recorder rec;
    recorder_init(&rec);
    recorder_RunInfo info = sample_info();
    info.zone_count = 0;
    info.peak_rss_kb = -1;
    info.gc_reported = 0;
    info.error = "bad byte \xff here";
    char err[256] = "";
    CHECK(recorder_write_report(dir, &rec, &info, err, sizeof err));
    char path[512];
    snprintf(path, sizeof path, "%s/frames.csv", dir);
    char *csv = read_file(path);
    CHECK(csv != NULL && count_lines(csv) == 1);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *json = read_file(path);
    CHECK(json != NULL);
    if (json) {
        CHECK(strstr(json, "\"frames\": 0,") != NULL);
        CHECK(strstr(json, "\"p50\": 0.000") != NULL);
        CHECK(strstr(json, "\"peak_rss_kb\": null,") != NULL);
        CHECK(strstr(json, "\"gc_reported\": false,") != NULL);
        CHECK(strstr(json, "\"zones\": {},") != NULL);
        CHECK(strstr(json, "\"error\": \"bad byte \\ufffd here\"") != NULL);  /* valid UTF-8 out */
    }
    free(csv);
    free(json);
    recorder_free(&rec);
    snprintf(path, sizeof path, "%s/frames.csv", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    unlink(path);
    rmdir(dir);
    rmdir(root);
}

TEST(recorder_make_dirs_refuses_a_file)
{
    char root[] = "/tmp/tide-recorder-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    char file[256], below[300];
    snprintf(file, sizeof file, "%s/plain", root);
    FILE *f = fopen(file, "w");
    CHECK(f != NULL);
    if (f) fclose(f);
    CHECK(!recorder_make_dirs(file));
    snprintf(below, sizeof below, "%s/sub", file);
    CHECK(!recorder_make_dirs(below));
    CHECK(recorder_make_dirs(root));       /* an existing folder is fine */
    unlink(file);
    rmdir(root);
}

TEST(recorder_peak_rss_is_known_on_linux)
{
    long kb = recorder_peak_rss_kb();
    CHECK(kb > 0);
}
