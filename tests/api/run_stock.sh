#!/usr/bin/env bash
# run_stock.sh — proves the API test pairs (tests/api/NAME.c + NAME.lua)
# against stock Lua 5.4, and checks that their C compiles against Tide's
# headers.
#
#   tests/api/run_stock.sh [NAME...]
#
# 1. every module and the driver (main.c) compile with gcc and clang,
#    -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only, against
#    runtime/include (libtide does not exist yet, so nothing is linked);
# 2. the same sources are built against Debian's Lua 5.4 (pkg-config
#    lua5.4) into one driver, which runs every NAME.lua; its stdout must be
#    exactly the script's "-- expect: TEXT" lines, in order (the rule
#    tests/run.lua applies), and a script with "-- expect error: TEXT"
#    must fail with TEXT on stderr.
# Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C

CFLAGS="-std=c11 -Wall -Wextra -pedantic -Werror"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

if [ $# -gt 0 ]; then names=("$@"); else
    names=()
    for lua in tests/api/*.lua; do
        name=$(basename "$lua" .lua)
        [ -f "tests/api/$name.c" ] && names+=("$name")
    done
fi
sources=(tests/api/main.c)
for name in "${names[@]}"; do sources+=("tests/api/$name.c"); done

echo "1. against runtime/include (syntax only)"
for cc in gcc clang; do
    if $cc $CFLAGS -fsyntax-only -Iruntime/include "${sources[@]}"; then
        echo "  ok   $cc: ${sources[*]}"
    else
        echo "  FAIL $cc"; failed=1
    fi
done

echo "2. against stock Lua 5.4 ($(pkg-config --modversion lua5.4))"
# shellcheck disable=SC2046
gcc $CFLAGS $(pkg-config --cflags lua5.4) "${sources[@]}" \
    $(pkg-config --libs lua5.4) -lm -o "$work/api-stock"
for name in "${names[@]}"; do
    script=tests/api/$name.lua
    # The expectation lines, each the text after the first "-- expect: ".
    sed -n 's/-- expect: \(.*\)$/\n\1/; T; s/^.*\n//p' "$script" > "$work/$name.expected"
    errors=$(sed -n 's/.*-- expect error: \(.*\)$/\1/p' "$script")
    set +e
    "$work/api-stock" "$script" > "$work/$name.out" 2> "$work/$name.err"
    status=$?
    set -e
    problems=""
    if [ -n "$errors" ]; then
        [ $status -ne 0 ] || problems+="expected an error, but the run succeeded; "
        while read -r want; do
            grep -qF -- "$want" "$work/$name.err" || problems+="stderr lacks: $want; "
        done <<< "$errors"
    elif [ $status -ne 0 ]; then
        problems+="exit status $status; "
    fi
    if ! diff "$work/$name.expected" "$work/$name.out" > "$work/$name.diff"; then
        problems+="stdout differs from the expectations (< expected, > got)"
    fi
    if [ -z "$problems" ]; then
        echo "  ok   $name ($(wc -l < "$work/$name.expected") expectations)"
    else
        echo "  FAIL $name: $problems"
        sed 's/^/       | /' "$work/$name.diff" | head -20
        sed 's/^/       stderr: /' "$work/$name.err" | head -10
        failed=1
    fi
done

if [ $failed -ne 0 ]; then echo "run_stock: FAILED"; exit 1; fi
echo "run_stock: all passed"
