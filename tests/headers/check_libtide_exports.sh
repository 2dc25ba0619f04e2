#!/usr/bin/env bash
# check_libtide_exports.sh — does libtide.so export the API and nothing else?
#
#   tests/headers/check_libtide_exports.sh path/to/libtide.so [path/to/liblua5.4.so]
#
# 1. only the API: every defined dynamic symbol is lua_*, luaL_*, luaopen_*
#    or tide_* (internals are TIDE_INTERNAL, hidden);
# 2. all of it: every lua_*, luaL_*, luaopen_* symbol stock liblua5.4
#    exports is exported by libtide too, and every tide_* function tide.h
#    declares.
# Exits non-zero, naming the symbols, if either fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C

TIDE_LIB=${1:?usage: check_libtide_exports.sh libtide.so [liblua5.4.so]}
STOCK_LIB=${2:-/usr/lib/x86_64-linux-gnu/liblua5.4.so}
failed=0

exports() { nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sed 's/@.*//' | sort -u; }

tide_syms=$(exports "$TIDE_LIB")
# (the linker's own symbols, and AddressSanitizer's __odr_asan.* markers of
# exported variables, are no API)
stray=$(grep -Ev '^(lua_|luaL_|luaopen_|tide_)' <<<"$tide_syms" |
        grep -Ev '^(_init|_fini|_edata|_end|__bss_start|__odr_asan\.(lua_|luaL_|tide_).*)$' || true)
if [ -n "$stray" ]; then
    echo "FAIL: libtide exports symbols outside the API:"; sed 's/^/    /' <<<"$stray"; failed=1
fi

wanted=$( (exports "$STOCK_LIB" | grep -E '^(lua_|luaL_|luaopen_)';
           grep -oE '^TIDE_API [^(]*\(?\**[ ]*tide_[a-z_0-9]+' runtime/include/tide.h | grep -oE 'tide_[a-z_0-9]+$') | sort -u)
missing=$(comm -23 <(echo "$wanted") <(echo "$tide_syms"))
if [ -n "$missing" ]; then
    echo "FAIL: libtide does not export:"; sed 's/^/    /' <<<"$missing"; failed=1
fi
echo "libtide exports $(wc -l <<<"$tide_syms") symbols; checked against $(wc -l <<<"$wanted") wanted"
exit $failed
