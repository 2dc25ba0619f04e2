#!/usr/bin/env bash
# build.sh — one entry point for a fresh Debian/Ubuntu machine.
#
#   ./build.sh play     install what is missing, build, play the shooter
#                       (a window when a display exists, 600 headless frames
#                       otherwise) and print its frame and GC-pause report
#   ./build.sh test     install what is missing, build (debug,
#                       AddressSanitizer+UBSan and ThreadSanitizer) and run
#                       the whole test suite
#   ./build.sh compare [ARGS]  every sample on every backend and GC setting,
#                       interleaved; writes reports/compare/comparison.md and
#                       report.html (tools/README.md; ~10 minutes)
#   ./build.sh bench [ARGS]    the core benchmarks (bench/core) on the tide
#                       interpreter and on lua5.4, interleaved; writes
#                       reports/bench-core.md (tools/README.md; ~2 minutes)
#   ./build.sh bench-gc [ARGS] the collector benchmarks (bench/gc): allocation-heavy
#                       programs on tide and lua5.4, and a world game on the
#                       tide and lua5.4 hosts with tide's pauses by kind;
#                       writes reports/bench-gc.md (tools/README.md; ~4-5
#                       minutes, --quick ~1)
#   ./build.sh tsan     the concurrent collector's programs under ThreadSanitizer
#                       (part of `test`; about 2 minutes with the build)
#   ./build.sh deps     only install what is missing
#   ./build.sh build [debug|release] [address|thread]
#
# Every step is idempotent: packages already installed are not touched and
# make rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build and the tests need, and why:
#   premake4            generates the Makefiles (premake5 is used when present)
#   make gcc clang pkg-config   the toolchain (clang: the headers are checked with both compilers)
#   libsdl2-dev         the host's window, input and software renderer
#   liblua5.4-dev       the stock Lua 5.4 backend
#   lua5.4              the reference interpreter: test oracle and test runner
#   libluajit-5.1-dev   the LuaJIT backend
#   libstb-dev          stb_ds (containers), stb_image_write (PNG), stb_easy_font (text)
#   xvfb                a virtual display for the window-mode tests
#   time                GNU time (/usr/bin/time): peak RSS in ./build.sh bench
#   lua-lpeg lua-cjson  C modules Debian compiled for stock Lua 5.4: the tests
#                       load them into libtide (binary compatibility); cjson
#                       also reads the collector's trace files in the tests
#   systemtap-sdt-dev   sys/sdt.h: libtide's USDT probes for bpftrace and perf
#                       (runtime/README.md); without it they compile to nothing
PACKAGES=(premake4 make gcc clang pkg-config libsdl2-dev liblua5.4-dev lua5.4
          libluajit-5.1-dev libstb-dev xvfb time lua-lpeg lua-cjson systemtap-sdt-dev)

jobs=$(nproc 2>/dev/null || echo 2)

deps() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$p")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null; then
        echo "build.sh: missing packages: ${missing[*]} (install them; apt-get not found)" >&2
        exit 1
    fi
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "build.sh: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

# generate VARIANT: writes build/VARIANT/Makefile (VARIANT: default, address, thread).
generate() {
    local variant=$1 args=()
    [ "$variant" != default ] && args+=("--sanitize=$variant")
    if command -v premake5 >/dev/null; then
        premake5 --file=premake5.lua "${args[@]}" gmake >/dev/null
    else
        premake4 --file=premake5.lua "${args[@]}" gmake >/dev/null
    fi
}

# build CONFIG VARIANT: CONFIG is debug or release.
build() {
    local config=${1:-debug} variant=${2:-default}
    generate "$variant"
    # Progress lines go to /dev/null; warnings and errors (stderr) still show.
    make -s -C "build/$variant" config="$config" -j"$jobs" >/dev/null
}

play() {
    build release default
    local args=(--report reports/shooter-tide)
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        echo "build.sh: playing samples/shooter in a window (close it to get the report)"
    else
        echo "build.sh: no display; running samples/shooter headless for 600 frames"
        args+=(--headless --frames 600)
    fi
    bin/Release/tidehost-tide "${args[@]}" samples/shooter
    echo "build.sh: per-frame data in reports/shooter-tide/frames.csv, summary in summary.json"
}

# The concurrent collector under ThreadSanitizer: the programs that make
# the worker thread mark while the program mutates the heap hardest, with
# cycles back to back on the tiny nursery, and the major heap's unit tests
# (a marker thread beside black allocation). (The whole suite under TSan takes
# over an hour on two cores; these take about a minute.) TSan's report makes
# a program exit 66.
TSAN_PROGRAMS=(
    "tide tests/scripts/gc_cycles.lua"
    "tide tests/scripts/gc_weak_tables.lua"
    "tide tests/scripts/gc_finalizers.lua"
    "tide tests/scripts/gc_moving_identity.lua"
    "tide tests/stress/mutate_during_mark.lua 40"
    "tide-api-tests-tide tests/api/tide/handles.lua"
    "tide-api-tests-tide tests/api/tide/deep_stack.lua"
    "tide-api-tests-tide tests/api/tide/thread_touch.lua"
    "tide-api-tests-tide tests/api/tide/prefault.lua"
    "tide-api-tests-tide tests/api/tide/idle_helper.lua"
    "tide-api-tests-tide tests/api/tide/sweep_idle.lua"
    "tide-gc-unit-tests major_"
)
run_tsan() {
    build debug thread
    local passed=0 failed=0 out
    out=$(mktemp)
    for p in "${TSAN_PROGRAMS[@]}"; do
        # shellcheck disable=SC2086
        if TIDE_GC_DEBUG=cycles,tiny-nursery bin/thread-Debug/$p >"$out" 2>&1; then
            echo "PASS $p [bin/thread-Debug, ThreadSanitizer]"
            passed=$((passed + 1))
        else
            echo "FAIL $p [bin/thread-Debug, ThreadSanitizer]"
            sed 's/^/     | /' "$out" | head -60
            failed=$((failed + 1))
        fi
    done
    rm -f "$out"
    echo "tsan: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

run_tests() {
    build debug default
    build debug address
    run_tsan
    lua5.4 tests/run.lua --bin bin/Debug --bin bin/address-Debug
}

case "${1:-}" in
    deps) deps ;;
    play) deps; play ;;
    test) deps; run_tests ;;
    tsan) deps; run_tsan ;;
    compare) deps; build release default; shift; lua5.4 tools/compare.lua "$@" ;;
    bench) deps; build release default; shift; lua5.4 tools/bench_core.lua "$@" ;;
    bench-gc) deps; build release default; shift; lua5.4 tools/bench_gc.lua "$@" ;;
    build) deps; build "${2:-debug}" "${3:-default}" ;;
    *) sed -n '2,22p' "$0" >&2; exit 2 ;;
esac
