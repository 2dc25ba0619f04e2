/*
 * probes.h — the collector's USDT probes (provider "tide"), for bpftrace,
 * perf and SystemTap to watch a running program (runtime/README.md, "Watching
 * the collector"):
 *
 *   gc__begin(int kind)                        a pause starts
 *   gc__end(int kind, uint64 duration_ns, uint64 heap_bytes)
 *                                              a pause ended; heap after it
 *   phase__change(int from, int to)            the major cycle's phase changed
 *   heap__limit(uint64 heap_bytes)             an allocation reached the limit
 *
 * [kind] is a tide_GcPauseKind, [from] and [to] are tide_GcPhase values
 * (tide.h). A probe is one no-op instruction until a tracer attaches; its
 * arguments are computed either way, so they must stay cheap.
 *
 * The probes need <sys/sdt.h> (Debian's systemtap-sdt-dev, which build.sh
 * installs). Without it, or with TIDE_NO_PROBES defined, they compile to
 * nothing and the build goes on. Only frames.c fires them.
 */
#ifndef TIDE_GC_PROBES_H
#define TIDE_GC_PROBES_H

#if !defined(TIDE_NO_PROBES) && defined(__has_include)
#if __has_include(<sys/sdt.h>)
#include <sys/sdt.h>
#define TIDE_HAVE_PROBES 1
#endif
#endif

#ifdef TIDE_HAVE_PROBES
#define TIDE_PROBE_GC_BEGIN(kind) DTRACE_PROBE1(tide, gc__begin, (int)(kind))
#define TIDE_PROBE_GC_END(kind, duration_ns, heap_bytes) \
    DTRACE_PROBE3(tide, gc__end, (int)(kind), (uint64_t)(duration_ns), (uint64_t)(heap_bytes))
#define TIDE_PROBE_PHASE_CHANGE(from, to) DTRACE_PROBE2(tide, phase__change, (int)(from), (int)(to))
#define TIDE_PROBE_HEAP_LIMIT(heap_bytes) DTRACE_PROBE1(tide, heap__limit, (uint64_t)(heap_bytes))
#else
#define TIDE_PROBE_GC_BEGIN(kind) ((void)(kind))
#define TIDE_PROBE_GC_END(kind, duration_ns, heap_bytes) ((void)(kind), (void)(duration_ns), (void)(heap_bytes))
#define TIDE_PROBE_PHASE_CHANGE(from, to) ((void)(from), (void)(to))
#define TIDE_PROBE_HEAP_LIMIT(heap_bytes) ((void)(heap_bytes))
#endif

#endif
