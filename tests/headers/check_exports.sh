#!/usr/bin/env bash
# check_exports.sh — are Tide's public headers (runtime/include) complete
# and faithful, measured against Debian's stock Lua 5.4?
#
#   tests/headers/check_exports.sh [path/to/liblua5.4.so]
#
# 1. exports    every lua_*, luaL_*, luaopen_* symbol the stock shared
#               library exports is declared in runtime/include/*.h, as a
#               function, a variable or a macro;
# 2. prototypes every function declared by both stock's headers and Tide's
#               has the same prototype (gcc -aux-info on each, compared);
# 3. types      the API's typedefs name the same C types in both;
# 4. constants  the API's integer constants have the same values in both
#               (except the release number, which is Tide's own);
# 5. coverage   tests/headers/headers_compile.c mentions every function and
#               macro Tide's headers define, so its compile-only check
#               covers all of them.
# Prints what it checked and names everything missing or different; exits
# non-zero if anything is. Needs nm, gcc and Debian's liblua5.4-dev.
set -euo pipefail
cd "$(dirname "$0")/../.."
export LC_ALL=C # plain quotes in compiler messages, byte order in sort

LIB=${1:-/usr/lib/x86_64-linux-gnu/liblua5.4.so}
TIDE_INC=runtime/include
STOCK_INC=$(pkg-config --cflags-only-I lua5.4 2>/dev/null | sed 's/-I//g; s/ *$//')
STOCK_INC=${STOCK_INC:-/usr/include/lua5.4}
CC=${CC:-gcc}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

fail() { echo "  FAIL: $*"; failed=1; }

for f in "$LIB" "$STOCK_INC/lua.h"; do
    [ -e "$f" ] || { echo "check_exports: $f not found (install liblua5.4-dev)" >&2; exit 2; }
done

printf '#include "lua.h"\n#include "lauxlib.h"\n#include "lualib.h"\n' > "$work/all.h"

# ---------------------------------------------------------------- 1. exports
echo "1. exports of $LIB declared in $TIDE_INC"
nm -D --defined-only "$LIB" | awk '{ sub(/@.*/, "", $3); print $3 }' |
    grep -E '^(lua_|luaL_|luaopen_)' | sort -u > "$work/exports"
{
    cat "$work/all.h"
    echo "void check_exports(void);"
    echo "void check_exports(void) {"
    while read -r sym; do
        printf '#ifndef %s\n(void)sizeof(&%s);\n#endif\n' "$sym" "$sym"
    done < "$work/exports"
    echo "}"
} > "$work/exports.c"
if ! $CC -std=c11 -fsyntax-only -I"$TIDE_INC" "$work/exports.c" 2> "$work/exports.err"; then
    grep -oE "'(lua_|luaL_|luaopen_)[A-Za-z0-9_]+' undeclared" "$work/exports.err" |
        tr -d "'" | awk '{print $1}' | sort -u > "$work/missing" || true
    if [ -s "$work/missing" ]; then
        while read -r sym; do fail "$sym is exported by stock Lua but not declared"; done < "$work/missing"
    else
        fail "the generated check did not compile:"; sed 's/^/    /' "$work/exports.err" | head -20
    fi
fi
echo "  $(wc -l < "$work/exports") symbols checked"

# ------------------------------------------------------------- 2. prototypes
echo "2. prototypes shared with $STOCK_INC"
printf '#include "all.h"\n' > "$work/proto.c"
prototypes() { # include-dir output
    $CC -std=c11 -fsyntax-only -aux-info "$work/$2.raw" -I"$1" -I"$work" "$work/proto.c"
    sed -n 's|^/\* [^*]*\*/ *||p' "$work/$2.raw" | sed 's/^extern //; s/  */ /g' |
        grep -E '[ *](lua_|luaL_|luaopen_)[A-Za-z0-9_]+ \(' |
        sed -E 's/^(.*[ *])((lua_|luaL_|luaopen_)[A-Za-z0-9_]+) \(/\2\t\1(/' | sort -u > "$work/$2"
}
prototypes "$TIDE_INC" tide
prototypes "$STOCK_INC" stock
join -t "$(printf '\t')" "$work/tide" "$work/stock" > "$work/both"
shared=0
while IFS="$(printf '\t')" read -r name mine theirs; do
    shared=$((shared + 1))
    [ "$mine" = "$theirs" ] || fail "$name: Tide has '$mine', stock has '$theirs'"
done < "$work/both"
echo "  $shared prototypes compared"
only_tide=$(join -t "$(printf '\t')" -v 1 "$work/tide" "$work/stock" | cut -f1 | tr '\n' ' ')
only_stock=$(join -t "$(printf '\t')" -v 2 "$work/tide" "$work/stock" | cut -f1 | tr '\n' ' ')
echo "  functions only Tide declares: ${only_tide:-none}"
echo "  functions only stock declares: ${only_stock:-none}"
[ -z "$only_stock" ] || fail "stock declares functions Tide does not: $only_stock"

# ------------------------------------------------------------------ 3. types
echo "3. typedefs"
cat > "$work/types.c" <<'EOF'
#include "all.h"
#include <stdint.h>
#define SAME(t, u) _Static_assert(__builtin_types_compatible_p(t, u), #t " is " #u)
SAME(lua_Number, double);
SAME(lua_Integer, long long);
SAME(lua_Unsigned, unsigned long long);
SAME(lua_KContext, intptr_t);
SAME(lua_CFunction, int (*)(lua_State *));
SAME(lua_KFunction, int (*)(lua_State *, int, intptr_t));
SAME(lua_Reader, const char *(*)(lua_State *, void *, size_t *));
SAME(lua_Writer, int (*)(lua_State *, const void *, size_t, void *));
SAME(lua_Alloc, void *(*)(void *, void *, size_t, size_t));
SAME(lua_WarnFunction, void (*)(void *, const char *, int));
SAME(lua_Hook, void (*)(lua_State *, struct lua_Debug *));
SAME(luaL_Reg, struct luaL_Reg);
SAME(luaL_Buffer, struct luaL_Buffer);
SAME(luaL_Stream, struct luaL_Stream);
EOF
for inc in "$TIDE_INC" "$STOCK_INC"; do
    $CC -std=c11 -fsyntax-only -I"$inc" -I"$work" "$work/types.c" 2> "$work/types.err" ||
        { fail "typedefs under $inc:"; sed 's/^/    /' "$work/types.err" | grep -E 'error' | head -10; }
done
echo "  14 typedefs checked against both header sets"

# -------------------------------------------------------------- 4. constants
echo "4. integer constants"
CONSTANTS="LUA_OK LUA_YIELD LUA_ERRRUN LUA_ERRSYNTAX LUA_ERRMEM LUA_ERRERR LUA_ERRFILE
LUA_TNONE LUA_TNIL LUA_TBOOLEAN LUA_TLIGHTUSERDATA LUA_TNUMBER LUA_TSTRING LUA_TTABLE
LUA_TFUNCTION LUA_TUSERDATA LUA_TTHREAD LUA_NUMTYPES LUA_OPADD LUA_OPSUB LUA_OPMUL
LUA_OPMOD LUA_OPPOW LUA_OPDIV LUA_OPIDIV LUA_OPBAND LUA_OPBOR LUA_OPBXOR LUA_OPSHL
LUA_OPSHR LUA_OPUNM LUA_OPBNOT LUA_OPEQ LUA_OPLT LUA_OPLE LUA_GCSTOP LUA_GCRESTART
LUA_GCCOLLECT LUA_GCCOUNT LUA_GCCOUNTB LUA_GCSTEP LUA_GCSETPAUSE LUA_GCSETSTEPMUL
LUA_GCISRUNNING LUA_GCGEN LUA_GCINC LUA_HOOKCALL LUA_HOOKRET LUA_HOOKLINE LUA_HOOKCOUNT
LUA_HOOKTAILCALL LUA_MASKCALL LUA_MASKRET LUA_MASKLINE LUA_MASKCOUNT LUA_MULTRET
LUA_REGISTRYINDEX LUA_MINSTACK LUA_RIDX_MAINTHREAD LUA_RIDX_GLOBALS LUA_RIDX_LAST
LUA_NOREF LUA_REFNIL LUA_IDSIZE LUAI_MAXSTACK LUAL_BUFFERSIZE LUA_EXTRASPACE
LUAL_NUMSIZES LUA_VERSION_NUM LUA_MAXINTEGER LUA_MININTEGER"
{
    cat "$work/all.h"
    echo "#include <stdio.h>"
    echo "int main(void) {"
    for c in $CONSTANTS; do printf '    printf("%%s %%lld\\n", "%s", (long long)(%s));\n' "$c" "$c"; done
    echo "    return 0;"
    echo "}"
} > "$work/constants.c"
for side in tide stock; do
    inc=$TIDE_INC; [ "$side" = stock ] && inc=$STOCK_INC
    $CC -std=c11 -I"$inc" "$work/constants.c" -o "$work/constants-$side" && "$work/constants-$side" > "$work/constants-$side.txt"
done
if ! diff "$work/constants-tide.txt" "$work/constants-stock.txt" > "$work/constants.diff"; then
    fail "constants differ (< Tide, > stock):"; sed 's/^/    /' "$work/constants.diff"
fi
echo "  $(wc -l < "$work/constants-tide.txt") constants compared"

# --------------------------------------------------------------- 5. coverage
echo "5. tests/headers/headers_compile.c covers every name in $TIDE_INC"
{
    # functions: "(name)(" declarations and tide_* prototypes
    grep -ohE '\((lua|luaL|luaopen)_[A-Za-z0-9_]+\)\(' "$TIDE_INC"/*.h | tr -d '()'
    grep -ohE '^TIDE_API [^(]*[ *](tide_[a-z_]+)\(' "$TIDE_INC"/tide.h | grep -oE 'tide_[a-z_]+\($' | tr -d '('
    # macros, except include guards
    grep -ohE '^#define [A-Za-z_][A-Za-z0-9_]*' "$TIDE_INC"/*.h | awk '{print $2}' |
        grep -vE '^(LUA_H|LAUXLIB_H|LUALIB_H|LUACONF_H|TIDE_H)$'
} | sort -u > "$work/names"
covered=0
while read -r name; do
    if grep -qw "$name" tests/headers/headers_compile.c; then covered=$((covered + 1))
    else fail "$name is not used by tests/headers/headers_compile.c"; fi
done < "$work/names"
echo "  $covered of $(wc -l < "$work/names") names covered"

if [ "$failed" -ne 0 ]; then
    echo "check_exports: FAILED"
    exit 1
fi
echo "check_exports: all checks passed"
