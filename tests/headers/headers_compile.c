/*
 * headers_compile.c — a compile-only test of Tide's public headers.
 *
 * Includes lua.h, lauxlib.h, lualib.h, luaconf.h and tide.h and uses every
 * function, type, macro and constant they declare, so that a compiler in
 * its strictest mode checks them all:
 *
 *     gcc   -std=c11 -Wall -Wextra -pedantic -fsyntax-only -Iruntime/include tests/headers/headers_compile.c
 *     clang -std=c11 -Wall -Wextra -pedantic -fsyntax-only -Iruntime/include tests/headers/headers_compile.c
 *     (and the same with -DLUA_COMPAT_5_3 for the compatibility macros
 *     and with -DLUA_LIB for the libraries' short names)
 *
 * Every function is assigned to a pointer whose type is written here from
 * the reference manual's prototype, independently of the header, so a
 * header prototype that strays from the manual fails to compile. Every
 * macro is expanded in a function that is compiled but never called. The
 * file is never linked (it needs no library); tests/headers/check_exports.sh
 * checks that it mentions every name the headers define.
 */
#include <stdio.h>
#include <string.h>

#include "luaconf.h"
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "tide.h"

/* Compile-time facts the manual states. */
_Static_assert(LUA_OK == 0, "the manual fixes LUA_OK at 0");
_Static_assert(LUA_VERSION_NUM == 504, "Lua 5.4");
_Static_assert(LUA_VERSION_RELEASE_NUM / 100 == LUA_VERSION_NUM, "release of 5.4");
_Static_assert(LUA_MINSTACK == 20, "the manual fixes LUA_MINSTACK at 20");
_Static_assert(LUA_NUMTYPES == LUA_TTHREAD + 1, "type tags are 0..LUA_NUMTYPES-1");
_Static_assert(LUA_NUMTAGS == LUA_NUMTYPES, "the 5.3 name");
_Static_assert(LUA_TNONE < LUA_TNIL, "lua_isnoneornil relies on it");
_Static_assert(LUA_ERRFILE > LUA_ERRERR, "LUA_ERRFILE is a status of its own");
_Static_assert(LUA_REGISTRYINDEX < -LUAI_MAXSTACK, "pseudo-indices lie below stack indices");
_Static_assert(lua_upvalueindex(1) < LUA_REGISTRYINDEX, "upvalue pseudo-indices");
_Static_assert(lua_upvalueindex(256) < lua_upvalueindex(255), "256 upvalue indices");
_Static_assert(LUA_NOREF != LUA_REFNIL, "distinct reference sentinels");
_Static_assert(sizeof(lua_Integer) == 8, "64-bit integers round-trip");
_Static_assert(sizeof(lua_Number) == sizeof(double), "double floats");
_Static_assert(sizeof(lua_Unsigned) == sizeof(lua_Integer), "unsigned counterpart");
_Static_assert(sizeof(lua_KContext) >= sizeof(void *), "a context holds a pointer");
_Static_assert(LUA_MAXINTEGER == 9223372036854775807LL, "64-bit maximum");
_Static_assert(LUA_MININTEGER == -LUA_MAXINTEGER - 1, "two's complement minimum");
_Static_assert(LUA_MAXUNSIGNED == 18446744073709551615ULL, "64-bit unsigned maximum");
_Static_assert(LUAL_BUFFERSIZE > 0, "a buffer has inline space");
_Static_assert(LUA_IDSIZE >= 60, "room for short_src");
_Static_assert(LUA_EXTRASPACE >= sizeof(void *), "extra space holds a pointer");
_Static_assert(LUAL_NUMSIZES == sizeof(lua_Integer) * 16 + sizeof(lua_Number), "packing");
_Static_assert(LUA_INT_TYPE == LUA_INT_LONGLONG && LUA_INT_INT != LUA_INT_LONG, "int selectors");
_Static_assert(LUA_FLOAT_TYPE == LUA_FLOAT_DOUBLE && LUA_FLOAT_FLOAT != LUA_FLOAT_LONGDOUBLE,
               "float selectors");
_Static_assert(LUA_MASKCALL == (1 << LUA_HOOKCALL) && LUA_MASKRET == (1 << LUA_HOOKRET) &&
                   LUA_MASKLINE == (1 << LUA_HOOKLINE) && LUA_MASKCOUNT == (1 << LUA_HOOKCOUNT),
               "hook masks are event bits");
_Static_assert(LUA_RIDX_LAST >= LUA_RIDX_GLOBALS && LUA_RIDX_GLOBALS != LUA_RIDX_MAINTHREAD,
               "registry indices");
_Static_assert(TIDE_VERSION_NUM == 100, "Tide 0.1.0");
_Static_assert(TIDE_HANDLE_NONE == 0, "0 is never a handle");
_Static_assert(sizeof(tide_Handle) == 4, "handles are 32-bit");
_Static_assert(TIDE_GC_NURSERY_MIN_SIZE <= TIDE_GC_NURSERY_DEFAULT_SIZE, "nursery sizes");
_Static_assert(TIDE_GC_MINOR_PAUSE_TARGET_DEFAULT_NS > 0, "a pause target by default");
_Static_assert(TIDE_GC_PHASE_IDLE == 0 && TIDE_GC_PHASE_COUNT > TIDE_GC_PHASE_SYNC_MAJOR,
               "phases");

/* The integer constants of the API, all distinct where they must be. */
static const int status_codes[] = {
    LUA_OK, LUA_YIELD, LUA_ERRRUN, LUA_ERRSYNTAX, LUA_ERRMEM, LUA_ERRERR, LUA_ERRFILE,
};
static const int type_tags[] = {
    LUA_TNONE, LUA_TNIL, LUA_TBOOLEAN, LUA_TLIGHTUSERDATA, LUA_TNUMBER, LUA_TSTRING,
    LUA_TTABLE, LUA_TFUNCTION, LUA_TUSERDATA, LUA_TTHREAD, LUA_NUMTYPES, LUA_NUMTAGS,
};
static const int arith_ops[] = {
    LUA_OPADD, LUA_OPSUB, LUA_OPMUL, LUA_OPMOD, LUA_OPPOW, LUA_OPDIV, LUA_OPIDIV,
    LUA_OPBAND, LUA_OPBOR, LUA_OPBXOR, LUA_OPSHL, LUA_OPSHR, LUA_OPUNM, LUA_OPBNOT,
};
static const int compare_ops[] = { LUA_OPEQ, LUA_OPLT, LUA_OPLE };
static const int gc_options[] = {
    LUA_GCSTOP, LUA_GCRESTART, LUA_GCCOLLECT, LUA_GCCOUNT, LUA_GCCOUNTB, LUA_GCSTEP,
    LUA_GCSETPAUSE, LUA_GCSETSTEPMUL, LUA_GCISRUNNING, LUA_GCGEN, LUA_GCINC,
};
static const int hooks[] = {
    LUA_HOOKCALL, LUA_HOOKRET, LUA_HOOKLINE, LUA_HOOKCOUNT, LUA_HOOKTAILCALL,
    LUA_MASKCALL, LUA_MASKRET, LUA_MASKLINE, LUA_MASKCOUNT,
};
static const int misc_ints[] = {
    LUA_MULTRET, LUA_REGISTRYINDEX, LUA_MINSTACK, LUA_RIDX_MAINTHREAD, LUA_RIDX_GLOBALS,
    LUA_RIDX_LAST, LUA_NOREF, LUA_REFNIL, LUA_IDSIZE, LUAI_MAXSTACK, LUAL_BUFFERSIZE,
    LUA_VERSION_NUM, LUA_VERSION_RELEASE_NUM, TIDE_VERSION_NUM, LUA_INT_INT, LUA_INT_LONG,
    LUA_INT_LONGLONG, LUA_INT_TYPE, LUA_FLOAT_FLOAT, LUA_FLOAT_DOUBLE, LUA_FLOAT_LONGDOUBLE,
    LUA_FLOAT_TYPE, (int)LUA_EXTRASPACE, (int)LUAL_NUMSIZES,
};
static const int tide_enums[] = {
    TIDE_GC_PHASE_IDLE, TIDE_GC_PHASE_INITIAL_MARK, TIDE_GC_PHASE_MARKING,
    TIDE_GC_PHASE_FINAL_MARK, TIDE_GC_PHASE_SWEEPING, TIDE_GC_PHASE_SYNC_MAJOR,
    TIDE_GC_PHASE_COUNT, TIDE_GC_EVENT_PAUSE, TIDE_GC_EVENT_PHASE, TIDE_GC_EVENT_HEAP_LIMIT,
    TIDE_GC_PAUSE_NONE, TIDE_GC_PAUSE_MINOR, TIDE_GC_PAUSE_INITIAL_MARK,
    TIDE_GC_PAUSE_FINAL_MARK, TIDE_GC_PAUSE_SYNC_MAJOR, TIDE_GC_PAUSE_EMERGENCY,
};
static const size_t tide_sizes[] = { TIDE_GC_NURSERY_DEFAULT_SIZE, TIDE_GC_NURSERY_MIN_SIZE };

/* The string constants. */
static const char *const strings[] = {
    LUA_VERSION_MAJOR, LUA_VERSION_MINOR, LUA_VERSION_RELEASE, LUA_VERSION, LUA_RELEASE,
    LUA_COPYRIGHT, LUA_AUTHORS, LUA_SIGNATURE, LUA_GNAME, LUA_LOADED_TABLE,
    LUA_PRELOAD_TABLE, LUA_FILEHANDLE, LUA_VERSUFFIX, LUA_COLIBNAME, LUA_TABLIBNAME,
    LUA_IOLIBNAME, LUA_OSLIBNAME, LUA_STRLIBNAME, LUA_UTF8LIBNAME, LUA_MATHLIBNAME,
    LUA_DBLIBNAME, LUA_LOADLIBNAME, LUA_NUMBER_FMT, LUA_NUMBER_FRMLEN, LUA_INTEGER_FMT,
    LUA_INTEGER_FRMLEN, LUA_PATH_SEP, LUA_PATH_MARK, LUA_EXEC_DIR, LUA_DIRSEP, LUA_VDIR,
    LUA_ROOT, LUA_LDIR, LUA_CDIR, LUA_PATH_DEFAULT, LUA_CPATH_DEFAULT, TIDE_VERSION,
    TIDE_VERSION_STRING,
};

/* The numeric types luaconf.h names. */
static LUA_NUMBER a_number = 0.5;
static LUAI_UACNUMBER a_promoted_number = 0.5;
static LUA_INTEGER an_integer = LUA_MAXINTEGER;
static LUAI_UACINT a_promoted_integer = LUA_MININTEGER;
static LUA_UNSIGNED an_unsigned = LUA_MAXUNSIGNED;
static LUA_KCONTEXT a_context = 0;
static union { LUAI_MAXALIGN; } an_aligned;

/* Visibility macros, applied as the runtime will apply them. */
TIDE_INTERNAL int headers_compile_internal_variable;
TIDE_INTERNAL void headers_compile_internal(void);
LUA_API int headers_compile_api(lua_State *L);
LUALIB_API int headers_compile_lib(lua_State *L);
LUAMOD_API int luaopen_headers_compile(lua_State *L);
TIDE_API int headers_compile_tide(lua_State *L);
extern TIDE_VISIBLE int headers_compile_visible_variable;

/*-------------------------------------------------------------------------
 * Every function, with its prototype from the manual (§4, §5, §6) and
 * tide.h's contract.
 */
typedef void (*any_function)(void);
/* A compile error ("no association matches") unless [name] has exactly
 * the function type [type]. */
#define FN(name, type) _Generic((name), type: (any_function)(name))

static const any_function functions[] = {
    /* §4: states */
    FN(lua_newstate, lua_State *(*)(lua_Alloc, void *)),
    FN(lua_close, void (*)(lua_State *)),
    FN(lua_newthread, lua_State *(*)(lua_State *)),
    FN(lua_closethread, int (*)(lua_State *, lua_State *)),
    FN(lua_resetthread, int (*)(lua_State *)),
    FN(lua_atpanic, lua_CFunction (*)(lua_State *, lua_CFunction)),
    FN(lua_version, lua_Number (*)(lua_State *)),
    /* §4: the stack */
    FN(lua_absindex, int (*)(lua_State *, int)),
    FN(lua_gettop, int (*)(lua_State *)),
    FN(lua_settop, void (*)(lua_State *, int)),
    FN(lua_pushvalue, void (*)(lua_State *, int)),
    FN(lua_rotate, void (*)(lua_State *, int, int)),
    FN(lua_copy, void (*)(lua_State *, int, int)),
    FN(lua_checkstack, int (*)(lua_State *, int)),
    FN(lua_xmove, void (*)(lua_State *, lua_State *, int)),
    /* §4: access */
    FN(lua_isnumber, int (*)(lua_State *, int)),
    FN(lua_isstring, int (*)(lua_State *, int)),
    FN(lua_iscfunction, int (*)(lua_State *, int)),
    FN(lua_isinteger, int (*)(lua_State *, int)),
    FN(lua_isuserdata, int (*)(lua_State *, int)),
    FN(lua_type, int (*)(lua_State *, int)),
    FN(lua_typename, const char *(*)(lua_State *, int)),
    FN(lua_tonumberx, lua_Number (*)(lua_State *, int, int *)),
    FN(lua_tointegerx, lua_Integer (*)(lua_State *, int, int *)),
    FN(lua_toboolean, int (*)(lua_State *, int)),
    FN(lua_tolstring, const char *(*)(lua_State *, int, size_t *)),
    FN(lua_rawlen, lua_Unsigned (*)(lua_State *, int)),
    FN(lua_tocfunction, lua_CFunction (*)(lua_State *, int)),
    FN(lua_touserdata, void *(*)(lua_State *, int)),
    FN(lua_tothread, lua_State *(*)(lua_State *, int)),
    FN(lua_topointer, const void *(*)(lua_State *, int)),
    /* §4: arithmetic and comparison */
    FN(lua_arith, void (*)(lua_State *, int)),
    FN(lua_rawequal, int (*)(lua_State *, int, int)),
    FN(lua_compare, int (*)(lua_State *, int, int, int)),
    /* §4: push */
    FN(lua_pushnil, void (*)(lua_State *)),
    FN(lua_pushnumber, void (*)(lua_State *, lua_Number)),
    FN(lua_pushinteger, void (*)(lua_State *, lua_Integer)),
    FN(lua_pushlstring, const char *(*)(lua_State *, const char *, size_t)),
    FN(lua_pushstring, const char *(*)(lua_State *, const char *)),
    FN(lua_pushvfstring, const char *(*)(lua_State *, const char *, va_list)),
    FN(lua_pushfstring, const char *(*)(lua_State *, const char *, ...)),
    FN(lua_pushcclosure, void (*)(lua_State *, lua_CFunction, int)),
    FN(lua_pushboolean, void (*)(lua_State *, int)),
    FN(lua_pushlightuserdata, void (*)(lua_State *, void *)),
    FN(lua_pushthread, int (*)(lua_State *)),
    /* §4: get */
    FN(lua_getglobal, int (*)(lua_State *, const char *)),
    FN(lua_gettable, int (*)(lua_State *, int)),
    FN(lua_getfield, int (*)(lua_State *, int, const char *)),
    FN(lua_geti, int (*)(lua_State *, int, lua_Integer)),
    FN(lua_rawget, int (*)(lua_State *, int)),
    FN(lua_rawgeti, int (*)(lua_State *, int, lua_Integer)),
    FN(lua_rawgetp, int (*)(lua_State *, int, const void *)),
    FN(lua_createtable, void (*)(lua_State *, int, int)),
    FN(lua_newuserdatauv, void *(*)(lua_State *, size_t, int)),
    FN(lua_getmetatable, int (*)(lua_State *, int)),
    FN(lua_getiuservalue, int (*)(lua_State *, int, int)),
    /* §4: set */
    FN(lua_setglobal, void (*)(lua_State *, const char *)),
    FN(lua_settable, void (*)(lua_State *, int)),
    FN(lua_setfield, void (*)(lua_State *, int, const char *)),
    FN(lua_seti, void (*)(lua_State *, int, lua_Integer)),
    FN(lua_rawset, void (*)(lua_State *, int)),
    FN(lua_rawseti, void (*)(lua_State *, int, lua_Integer)),
    FN(lua_rawsetp, void (*)(lua_State *, int, const void *)),
    FN(lua_setmetatable, int (*)(lua_State *, int)),
    FN(lua_setiuservalue, int (*)(lua_State *, int, int)),
    /* §4: load and call */
    FN(lua_callk, void (*)(lua_State *, int, int, lua_KContext, lua_KFunction)),
    FN(lua_pcallk, int (*)(lua_State *, int, int, int, lua_KContext, lua_KFunction)),
    FN(lua_load, int (*)(lua_State *, lua_Reader, void *, const char *, const char *)),
    FN(lua_dump, int (*)(lua_State *, lua_Writer, void *, int)),
    /* §4: coroutines */
    FN(lua_yieldk, int (*)(lua_State *, int, lua_KContext, lua_KFunction)),
    FN(lua_resume, int (*)(lua_State *, lua_State *, int, int *)),
    FN(lua_status, int (*)(lua_State *)),
    FN(lua_isyieldable, int (*)(lua_State *)),
    /* §4: warnings, gc, miscellaneous */
    FN(lua_setwarnf, void (*)(lua_State *, lua_WarnFunction, void *)),
    FN(lua_warning, void (*)(lua_State *, const char *, int)),
    FN(lua_gc, int (*)(lua_State *, int, ...)),
    FN(lua_error, int (*)(lua_State *)),
    FN(lua_next, int (*)(lua_State *, int)),
    FN(lua_concat, void (*)(lua_State *, int)),
    FN(lua_len, void (*)(lua_State *, int)),
    FN(lua_stringtonumber, size_t (*)(lua_State *, const char *)),
    FN(lua_getallocf, lua_Alloc (*)(lua_State *, void **)),
    FN(lua_setallocf, void (*)(lua_State *, lua_Alloc, void *)),
    FN(lua_toclose, void (*)(lua_State *, int)),
    FN(lua_closeslot, void (*)(lua_State *, int)),
    FN(lua_setcstacklimit, int (*)(lua_State *, unsigned int)),
    FN(lua_getextraspace, void *(*)(lua_State *)),
    /* §4.7: the debug interface */
    FN(lua_getstack, int (*)(lua_State *, int, lua_Debug *)),
    FN(lua_getinfo, int (*)(lua_State *, const char *, lua_Debug *)),
    FN(lua_getlocal, const char *(*)(lua_State *, const lua_Debug *, int)),
    FN(lua_setlocal, const char *(*)(lua_State *, const lua_Debug *, int)),
    FN(lua_getupvalue, const char *(*)(lua_State *, int, int)),
    FN(lua_setupvalue, const char *(*)(lua_State *, int, int)),
    FN(lua_upvalueid, void *(*)(lua_State *, int, int)),
    FN(lua_upvaluejoin, void (*)(lua_State *, int, int, int, int)),
    FN(lua_sethook, void (*)(lua_State *, lua_Hook, int, int)),
    FN(lua_gethook, lua_Hook (*)(lua_State *)),
    FN(lua_gethookmask, int (*)(lua_State *)),
    FN(lua_gethookcount, int (*)(lua_State *)),
    /* §5: the auxiliary library */
    FN(luaL_checkversion_, void (*)(lua_State *, lua_Number, size_t)),
    FN(luaL_getmetafield, int (*)(lua_State *, int, const char *)),
    FN(luaL_callmeta, int (*)(lua_State *, int, const char *)),
    FN(luaL_tolstring, const char *(*)(lua_State *, int, size_t *)),
    FN(luaL_argerror, int (*)(lua_State *, int, const char *)),
    FN(luaL_typeerror, int (*)(lua_State *, int, const char *)),
    FN(luaL_checklstring, const char *(*)(lua_State *, int, size_t *)),
    FN(luaL_optlstring, const char *(*)(lua_State *, int, const char *, size_t *)),
    FN(luaL_checknumber, lua_Number (*)(lua_State *, int)),
    FN(luaL_optnumber, lua_Number (*)(lua_State *, int, lua_Number)),
    FN(luaL_checkinteger, lua_Integer (*)(lua_State *, int)),
    FN(luaL_optinteger, lua_Integer (*)(lua_State *, int, lua_Integer)),
    FN(luaL_checkstack, void (*)(lua_State *, int, const char *)),
    FN(luaL_checktype, void (*)(lua_State *, int, int)),
    FN(luaL_checkany, void (*)(lua_State *, int)),
    FN(luaL_newmetatable, int (*)(lua_State *, const char *)),
    FN(luaL_setmetatable, void (*)(lua_State *, const char *)),
    FN(luaL_testudata, void *(*)(lua_State *, int, const char *)),
    FN(luaL_checkudata, void *(*)(lua_State *, int, const char *)),
    FN(luaL_where, void (*)(lua_State *, int)),
    FN(luaL_error, int (*)(lua_State *, const char *, ...)),
    FN(luaL_checkoption, int (*)(lua_State *, int, const char *, const char *const[])),
    FN(luaL_fileresult, int (*)(lua_State *, int, const char *)),
    FN(luaL_execresult, int (*)(lua_State *, int)),
    FN(luaL_ref, int (*)(lua_State *, int)),
    FN(luaL_unref, void (*)(lua_State *, int, int)),
    FN(luaL_loadfilex, int (*)(lua_State *, const char *, const char *)),
    FN(luaL_loadbufferx, int (*)(lua_State *, const char *, size_t, const char *, const char *)),
    FN(luaL_loadstring, int (*)(lua_State *, const char *)),
    FN(luaL_newstate, lua_State *(*)(void)),
    FN(luaL_len, lua_Integer (*)(lua_State *, int)),
    FN(luaL_addgsub, void (*)(luaL_Buffer *, const char *, const char *, const char *)),
    FN(luaL_gsub, const char *(*)(lua_State *, const char *, const char *, const char *)),
    FN(luaL_setfuncs, void (*)(lua_State *, const luaL_Reg *, int)),
    FN(luaL_getsubtable, int (*)(lua_State *, int, const char *)),
    FN(luaL_traceback, void (*)(lua_State *, lua_State *, const char *, int)),
    FN(luaL_requiref, void (*)(lua_State *, const char *, lua_CFunction, int)),
    FN(luaL_buffinit, void (*)(lua_State *, luaL_Buffer *)),
    FN(luaL_prepbuffsize, char *(*)(luaL_Buffer *, size_t)),
    FN(luaL_addlstring, void (*)(luaL_Buffer *, const char *, size_t)),
    FN(luaL_addstring, void (*)(luaL_Buffer *, const char *)),
    FN(luaL_addvalue, void (*)(luaL_Buffer *)),
    FN(luaL_pushresult, void (*)(luaL_Buffer *)),
    FN(luaL_pushresultsize, void (*)(luaL_Buffer *, size_t)),
    FN(luaL_buffinitsize, char *(*)(lua_State *, luaL_Buffer *, size_t)),
    /* §6: the standard libraries */
    FN(luaL_openlibs, void (*)(lua_State *)),
    FN(luaopen_base, lua_CFunction),
    FN(luaopen_coroutine, lua_CFunction),
    FN(luaopen_table, lua_CFunction),
    FN(luaopen_io, lua_CFunction),
    FN(luaopen_os, lua_CFunction),
    FN(luaopen_string, lua_CFunction),
    FN(luaopen_utf8, lua_CFunction),
    FN(luaopen_math, lua_CFunction),
    FN(luaopen_debug, lua_CFunction),
    FN(luaopen_package, lua_CFunction),
    /* tide.h */
    FN(tide_gc_allow_synchronous_major, int (*)(lua_State *, int)),
    FN(tide_frame_begin, void (*)(lua_State *)),
    FN(tide_frame_end, void (*)(lua_State *)),
    FN(tide_gc_idle, void (*)(lua_State *, uint64_t)),
    FN(tide_gc_phase_name, const char *(*)(int)),
    FN(tide_gc_frame_stats, int (*)(lua_State *, tide_FrameStats *)),
    FN(tide_gc_pacing, int (*)(lua_State *, tide_GcPacing *)),
    FN(tide_handle_new, tide_Handle (*)(lua_State *, int)),
    FN(tide_handle_new_weak, tide_Handle (*)(lua_State *, int, int)),
    FN(tide_handle_push, int (*)(lua_State *, tide_Handle)),
    FN(tide_handle_free, void (*)(lua_State *, tide_Handle)),
    FN(tide_gc_set_nursery_size, int (*)(lua_State *, size_t)),
    FN(tide_gc_set_minor_pause_target, uint64_t (*)(lua_State *, uint64_t)),
    FN(tide_gc_set_heap_limit, void (*)(lua_State *, size_t)),
    FN(tide_gc_set_event_callback, void (*)(lua_State *, tide_GcEventFn, void *)),
    FN(tide_gc_trace_open, int (*)(lua_State *, const char *)),
    FN(tide_gc_trace_close, void (*)(lua_State *)),
};

/* lua_ident is the one variable. */
static const char *const ident = lua_ident;

/*-------------------------------------------------------------------------
 * The callback types, implemented.
 */
static int a_cfunction(lua_State *L)
{
    return lua_gettop(L);
}

static int a_continuation(lua_State *L, int status, lua_KContext ctx)
{
    return status == LUA_YIELD ? (int)ctx : lua_gettop(L);
}

static const char *a_reader(lua_State *L, void *data, size_t *size)
{
    (void)L;
    *size = strlen((const char *)data);
    return (const char *)data;
}

static int a_writer(lua_State *L, const void *p, size_t sz, void *ud)
{
    (void)L;
    return fwrite(p, 1, sz, (FILE *)ud) == sz ? 0 : 1;
}

static void *an_allocator(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)ptr;
    (void)osize;
    (void)nsize;
    return NULL;
}

static void a_warning_function(void *ud, const char *msg, int tocont)
{
    (void)ud;
    (void)msg;
    (void)tocont;
}

static void a_hook(lua_State *L, lua_Debug *ar)
{
    /* every documented field of lua_Debug */
    (void)L;
    (void)ar->event;
    (void)ar->name;
    (void)ar->namewhat;
    (void)ar->what;
    (void)ar->source;
    (void)ar->srclen;
    (void)ar->currentline;
    (void)ar->linedefined;
    (void)ar->lastlinedefined;
    (void)ar->nups;
    (void)ar->nparams;
    (void)ar->isvararg;
    (void)ar->istailcall;
    (void)ar->ftransfer;
    (void)ar->ntransfer;
    (void)ar->short_src[LUA_IDSIZE - 1];
}

static void an_event_callback(void *ud, const tide_GcEvent *event)
{
    (void)ud;
    (void)event->kind;
    (void)event->pause_kind;
    (void)event->phase;
    (void)event->previous_phase;
    (void)event->in_idle;
    (void)event->start_ns;
    (void)event->duration_ns;
    (void)event->frame;
    (void)event->heap_bytes;
}

static const luaL_Reg a_library[] = {
    { "f", a_cfunction },
    { "placeholder", NULL },
    { NULL, NULL },
};

/*-------------------------------------------------------------------------
 * Every macro, expanded. Compiled, never called.
 */
void headers_compile_macros(lua_State *L);

void headers_compile_macros(lua_State *L)
{
    lua_Integer i = 0;
    lua_Number n = 1.0;
    size_t len = 0;
    luaL_Buffer b;
    luaL_Stream *stream;
    lua_Debug ar;
    tide_FrameStats stats;
    tide_GcPacing pacing;
    tide_Handle h;
    static const char *const options[] = { "one", "two", NULL };

    /* the callback types, as the API takes them */
    lua_KFunction k = a_continuation;
    lua_Reader reader = a_reader;
    lua_Writer writer = a_writer;
    lua_Alloc alloc = an_allocator;
    lua_WarnFunction warnf = a_warning_function;
    lua_Hook hook = a_hook;
    tide_GcEventFn on_event = an_event_callback;
    (void)k, (void)reader, (void)writer, (void)alloc, (void)warnf, (void)hook, (void)on_event;

    /* lua.h */
    lua_call(L, 0, LUA_MULTRET);
    (void)lua_pcall(L, 0, 0, 0);
    (void)lua_yield(L, 0);
    n = lua_tonumber(L, 1);
    i = lua_tointeger(L, 1);
    lua_pop(L, 1);
    lua_newtable(L);
    lua_register(L, "f", a_cfunction);
    lua_pushcfunction(L, a_cfunction);
    (void)lua_isfunction(L, 1);
    (void)lua_istable(L, 1);
    (void)lua_islightuserdata(L, 1);
    (void)lua_isnil(L, 1);
    (void)lua_isboolean(L, 1);
    (void)lua_isthread(L, 1);
    (void)lua_isnone(L, 1);
    (void)lua_isnoneornil(L, 1);
    (void)lua_pushliteral(L, "literal");
    lua_pushglobaltable(L);
    (void)lua_tostring(L, -1);
    lua_insert(L, 1);
    lua_remove(L, 1);
    lua_replace(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    (void)lua_newuserdata(L, 16);
    (void)lua_getuservalue(L, -1);
    (void)lua_setuservalue(L, -2);
    (void)lua_numbertointeger(n, &i);
    lua_assert(i >= 0);
    luai_apicheck(L, i >= 0);
    if (luai_likely(i > 0) || luai_unlikely(i < 0)) n = 0;
#if defined(LUA_CORE) || defined(LUA_LIB)
    if (l_likely(i > 0) || l_unlikely(i < 0)) n = 0;
#endif

    /* lauxlib.h */
    luaL_checkversion(L);
    luaL_newlibtable(L, a_library);
    luaL_newlib(L, a_library);
    luaL_argcheck(L, i > 0, 1, "must be positive");
    luaL_argexpected(L, lua_isinteger(L, 1), 1, "integer");
    (void)luaL_checkstring(L, 1);
    (void)luaL_optstring(L, 2, "default");
    (void)luaL_typename(L, 1);
    (void)luaL_dofile(L, "file.lua");
    (void)luaL_dostring(L, "return 1");
    (void)luaL_getmetatable(L, "type");
    i = luaL_opt(L, luaL_checkinteger, 3, 42);
    (void)luaL_loadbuffer(L, "return 1", 8, "=chunk");
    (void)luaL_loadfile(L, "file.lua");
    i = luaL_intop(+, i, 1);
    luaL_pushfail(L);
    (void)luaL_checkoption(L, 1, "one", options);
    luaL_buffinit(L, &b);
    luaL_addchar(&b, 'x');
    (void)luaL_prepbuffer(&b);
    luaL_addsize(&b, 0);
    luaL_buffsub(&b, 1);
    len = luaL_bufflen(&b);
    (void)luaL_buffaddr(&b);
    luaL_pushresult(&b);
    stream = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    (void)stream->f;
    (void)stream->closef;
    (void)lua_writestring("text", 4);
    (void)lua_writeline();
    (void)lua_writestringerror("%s\n", "message");

    /* lualib.h */
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);

    /* the debug interface */
    if (lua_getstack(L, 1, &ar)) (void)lua_getinfo(L, "nSltur", &ar);
    a_hook(L, &ar);

    /* tide.h */
    (void)tide_gc_frame_stats(L, &stats);
    (void)stats.frame, (void)stats.pauses, (void)stats.minor_pauses, (void)stats.pause_ns;
    (void)stats.max_pause_ns, (void)stats.idle_gc_ns, (void)stats.allocated_bytes;
    (void)stats.promoted_bytes, (void)stats.heap_bytes, (void)stats.finalizers_run;
    (void)tide_gc_phase_name(stats.phase);
    (void)tide_gc_pacing(L, &pacing);
    (void)pacing.old_bytes, (void)pacing.live_bytes, (void)pacing.target_bytes, (void)pacing.trigger_bytes;
    (void)pacing.hard_limit_bytes, (void)pacing.grow_bytes_per_s, (void)pacing.mark_bytes_per_s;
    (void)pacing.frame_ns, (void)pacing.measured;
    h = tide_handle_new(L, -1);
    if (h != TIDE_HANDLE_NONE) tide_handle_free(L, h);

#if defined(LUA_COMPAT_5_3) && defined(LUA_COMPAT_APIINTCASTS)
    /* the Lua 5.3 compatibility names */
    lua_pushunsigned(L, 1u);
    (void)lua_tounsignedx(L, 1, NULL);
    (void)lua_tounsigned(L, 1);
    (void)luaL_checkunsigned(L, 1);
    (void)luaL_optunsigned(L, 2, 7u);
    (void)lua_strlen(L, 1);
    (void)lua_objlen(L, 1);
    (void)lua_equal(L, 1, 2);
    (void)lua_lessthan(L, 1, 2);
#if !defined(LUA_COMPAT_MATHLIB) || !defined(LUA_COMPAT_LT_LE)
#error "LUA_COMPAT_5_3 implies LUA_COMPAT_MATHLIB and LUA_COMPAT_LT_LE"
#endif
#endif

    (void)n, (void)len;
}

/* Keeps the tables above "used" for -Wunused. */
void headers_compile_tables(void);

void headers_compile_tables(void)
{
    (void)status_codes, (void)type_tags, (void)arith_ops, (void)compare_ops;
    (void)gc_options, (void)hooks, (void)misc_ints, (void)tide_enums, (void)tide_sizes;
    (void)strings, (void)functions, (void)ident;
    (void)a_number, (void)a_promoted_number, (void)an_integer, (void)a_promoted_integer;
    (void)an_unsigned, (void)a_context, (void)an_aligned;
}
