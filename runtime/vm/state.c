/*
 * state.c — states and threads: lua_newstate and lua_close, coroutine
 * threads (lua_newthread, lua_closethread), and the CallInfo list of a
 * thread.
 *
 * The main thread and the GlobalState share one block that comes straight
 * from the state's allocator, because the collector does not exist before
 * gc_init and cannot be asked for them. The main thread nonetheless has a
 * valid object header (type VTHREAD), so that values can hold it like any
 * other thread; the collector treats it as a root and never frees or moves
 * it (state.h). Other threads are objects of the pinned space: they never
 * move, and the collector frees them through state_freethread.
 *
 * A thread owns two kinds of plain memory (gc_raw): its stack, one block of
 * stacksize + EXTRA_STACK slots, and its CallInfos after base_ci, a doubly
 * linked list that grows as calls nest and is kept for reuse.
 */
#include <string.h>

#include "api.h"
#include "calls.h"
#include "compiler.h"
#include "funcs.h"
#include "metamethods.h"
#include "strings.h"
#include "tables.h"
#include "../gc/gc.h"

/* The string hash seed: fixed, so that runs are reproducible (a table's
 * traversal order depends on it). */
#define TIDE_HASH_SEED 0x2545F491u

/* Zeroed memory is nil: stacks are cleared with memset. */
_Static_assert(VNIL == 0, "a zeroed TValue must be nil");

typedef struct MainBlock {
    lua_State l; /* first: the block's address is the main thread's */
    GlobalState g;
} MainBlock;

/* ==========================================================================
 * Stacks and CallInfos
 */

/* Every field of [L1] but its header, for a thread that has no stack yet.
 * The collector may see the thread in this state (an allocation for its
 * stack can collect): stack NULL means "nothing to scan". */
static void preinit_thread(lua_State *L1, GlobalState *g)
{
    L1->status = LUA_OK;
    L1->allowhook = 1;
    L1->nci = 0;
    L1->top = NULL;
    L1->l_G = g;
    L1->ci = &L1->base_ci;
    L1->stack_last = NULL;
    L1->stack = NULL;
    L1->openupval = NULL;
    L1->tbclist = NULL;
    L1->gclist = NULL;
    L1->errorJmp = NULL;
    memset(&L1->base_ci, 0, sizeof L1->base_ci);
    L1->hook = NULL;
    L1->errfunc = 0;
    L1->nCcalls = 0;
    L1->young_floor = L1->young_gap_lo = L1->young_gap_hi = 0;
    L1->stack_hwm = 0;
    L1->oldpc = 0;
    L1->basehookcount = 0;
    L1->hookcount = 0;
    L1->hookmask = 0;
    memset(L1->extraspace, 0, LUA_EXTRASPACE);
}

/* Give [L1] its first stack and its base frame: a C frame whose function
 * slot (slot 0) holds nil. Allocates through [L] (errors go there). */
static void stack_init(lua_State *L1, lua_State *L)
{
    size_t nslots = BASIC_STACK_SIZE + EXTRA_STACK;
    StkId stack = gc_raw_newvector(L, nslots, StackValue);
    memset(stack, 0, nslots * sizeof(StackValue)); /* nil values, no tbc links */
    /* Nothing below allocates: the collector sees the finished stack. */
    L1->stack = stack;
    L1->stack_last = stack + BASIC_STACK_SIZE;
    L1->tbclist = stack; /* the empty list of to-be-closed slots */
    CallInfo *ci = &L1->base_ci;
    ci->next = ci->previous = NULL;
    ci->callstatus = CIST_C;
    ci->func = stack;
    ci->u.c.k = NULL;
    ci->nresults = 0;
    L1->top = stack + 1;
    ci->top = L1->top + LUA_MINSTACK;
    stack_note_top(L1, ci->top);
    L1->ci = ci;
}

/* Free the CallInfos after base_ci. */
static void free_ci_list(lua_State *L, lua_State *L1)
{
    CallInfo *ci = L1->base_ci.next;
    L1->base_ci.next = NULL;
    while (ci != NULL) {
        CallInfo *next = ci->next;
        gc_raw_free(L, ci, sizeof(CallInfo));
        L1->nci--;
        ci = next;
    }
}

static void free_stack(lua_State *L, lua_State *L1)
{
    if (L1->stack == NULL) return; /* never built */
    L1->ci = &L1->base_ci;
    free_ci_list(L, L1);
    gc_raw_free(L, L1->stack, (size_t)(stacksize(L1) + EXTRA_STACK) * sizeof(StackValue));
    L1->stack = NULL;
    L1->stack_last = NULL;
    L1->top = NULL;
    L1->tbclist = NULL;
}

CallInfo *state_extendci(lua_State *L)
{
    lua_assert(L->ci->next == NULL);
    CallInfo *ci = (CallInfo *)gc_raw_alloc_nocollect(L, sizeof(CallInfo));
    lua_assert(L->ci->next == NULL); /* an emergency collection never touches the list */
    L->ci->next = ci;
    ci->previous = L->ci;
    ci->next = NULL;
    ci->u.l.trap = 0;
    L->nci++; /* wraps past 65535 frames, as in Lua: only an estimate */
    return ci;
}

/* Give back half of the CallInfos past the running one: a list that grew
 * in a deep recursion shrinks over a few collections, while a shallow
 * call pattern keeps its spare frames. */
void state_shrinkci(lua_State *L)
{
    CallInfo *ci = L->ci->next; /* the first spare one, kept */
    if (ci == NULL) return;
    CallInfo *next;
    while ((next = ci->next) != NULL) { /* free every second spare */
        CallInfo *after = next->next;
        ci->next = after;
        gc_raw_free(L, next, sizeof(CallInfo));
        L->nci--;
        if (after == NULL) break;
        after->previous = ci;
        ci = after;
    }
}

size_t state_threadsize(lua_State *L1)
{
    size_t n = (size_t)L1->nci * sizeof(CallInfo);
    if (L1->stack != NULL) n += (size_t)(stacksize(L1) + EXTRA_STACK) * sizeof(StackValue);
    return n;
}

/* ==========================================================================
 * Threads
 */

lua_State *state_newthread(lua_State *L)
{
    GlobalState *g = G(L);
    lua_State *L1 = (lua_State *)gc_new_pinned(L, withvariant(VTHREAD), sizeof(lua_State));
    preinit_thread(L1, g);
    /* a new thread inherits the hooks of its creator */
    L1->hookmask = L->hookmask;
    L1->basehookcount = L->basehookcount;
    L1->hook = L->hook;
    L1->hookcount = L1->basehookcount;
    memcpy(L1->extraspace, g->mainthread->extraspace, LUA_EXTRASPACE);
    stack_init(L1, L); /* L1 is held by this frame's locals meanwhile */
    return L1;
}

LUA_API lua_State *lua_newthread(lua_State *L)
{
    thread_touch(L);
    gc_check(L);
    lua_State *L1 = state_newthread(L);
    setthvalue(L, s2v(L->top), L1);
    api_incr_top(L);
    return L1;
}

void state_freethread(lua_State *L, lua_State *L1)
{
    if (L1->stack != NULL) func_closeupval(L1, L1->stack); /* closures may outlive it */
    lua_assert(L1->openupval == NULL);
    free_stack(L, L1);
}

int state_resetthread(lua_State *L, int status)
{
    gc_stack_return(L, &L->base_ci);
    CallInfo *ci = L->ci = &L->base_ci; /* unwind every frame */
    setnilvalue(s2v(L->stack));
    ci->func = L->stack;
    ci->callstatus = CIST_C;
    if (status == LUA_YIELD) status = LUA_OK;
    L->status = LUA_OK; /* so that __close metamethods can run */
    L->errfunc = 0;     /* any handler's slot is gone with the frames */
    status = call_closeprotected(L, stack_save(L, L->stack + 1), status);
    if (status != LUA_OK)
        call_seterrorobj(L, status, L->stack + 1); /* the error object stays on top */
    else
        L->top = L->stack + 1;
    ci->top = L->top + LUA_MINSTACK;
    stack_note_top(L, ci->top);
    call_reallocstack(L, (int)(ci->top - L->stack), 0); /* shrink; failing is fine */
    return status;
}

LUA_API int lua_closethread(lua_State *L, lua_State *from)
{
    thread_touch(L);
    L->nCcalls = from != NULL ? getCcalls(from) : 0;
    return state_resetthread(L, L->status);
}

LUA_API int lua_resetthread(lua_State *L)
{
    thread_touch(L);
    return lua_closethread(L, NULL);
}

/* ==========================================================================
 * States
 */

static void init_global(GlobalState *g, lua_State *L, lua_Alloc f, void *ud)
{
    g->frealloc = f;
    g->ud = ud;
    g->gc_debt = 0;
    g->gc = NULL;
    g->strt.hash = NULL;
    g->strt.nuse = 0;
    g->strt.size = 0;
    setnilvalue(&g->l_registry);
    g->seed = TIDE_HASH_SEED;
    g->next_identity = 0;
    g->mainthread = L;
    g->memerrmsg = NULL;
    for (int i = 0; i < TM_COUNT; i++) g->tmname[i] = NULL;
    for (int i = 0; i < LUA_NUMTYPES; i++) g->mt[i] = NULL;
    g->panic = NULL;
    g->warnf = NULL;
    g->ud_warn = NULL;
    g->warn_state = 0;
    g->stack_windows = NULL;
    g->unanchored_callers = 0;
}

/* The registry: [LUA_RIDX_MAINTHREAD] the main thread, [LUA_RIDX_GLOBALS]
 * a new, empty global table. */
static void init_registry(lua_State *L)
{
    Table *registry = tab_new(L);
    sethvalue(L, &G(L)->l_registry, registry); /* a root from now on */
    tab_resize(L, registry, LUA_RIDX_LAST, 0);
    TValue v;
    setthvalue(L, &v, L);
    tab_setint(L, registry, LUA_RIDX_MAINTHREAD, &v);
    sethvalue(L, &v, tab_new(L));
    tab_setint(L, registry, LUA_RIDX_GLOBALS, &v);
}

/* Everything of a new state that allocates, in protected mode. */
static void build_state(lua_State *L, void *ud)
{
    (void)ud;
    stack_init(L, L);
    str_init(L);
    init_registry(L);
    tm_init(L);
    lex_init(L);
}

/* Free what [L]'s state still holds and the main block. [complete]: the
 * state was fully built (its to-be-closed variables are closed first). */
static void close_state(lua_State *L, int complete)
{
    GlobalState *g = G(L);
    if (complete) {
        L->ci = &L->base_ci; /* unwind: lua_close may be called from anywhere */
        L->errfunc = 0;
        L->nCcalls = 0;
        call_closeprotected(L, stack_save(L, L->stack + 1), LUA_OK);
    }
    /* Every object (finalizers run first), and the collector itself. What
     * the state owns outside objects goes after it, through gc_raw_free,
     * which keeps working after gc_freeall (gc.h). */
    gc_freeall(L);
    if (g->strt.hash != NULL) {
        gc_raw_freevector(L, g->strt.hash, g->strt.size, TString *);
        g->strt.hash = NULL;
    }
    free_stack(L, L);
    lua_Alloc f = g->frealloc;
    void *ud = g->ud;
    f(ud, L, sizeof(MainBlock), 0);
}

LUA_API lua_State *lua_newstate(lua_Alloc f, void *ud)
{
    /* Tide passes 0, not a type tag, as osize of a new block (lua.h). */
    MainBlock *block = (MainBlock *)f(ud, NULL, 0, sizeof(MainBlock));
    if (block == NULL) return NULL;
    memset(block, 0, sizeof *block);
    lua_State *L = &block->l;
    GlobalState *g = &block->g;
    L->hdr.tt = withvariant(VTHREAD); /* a valid object header; never collected */
    init_global(g, L, f, ud);
    preinit_thread(L, g);
    if (!gc_init(L)) {
        f(ud, block, sizeof(MainBlock), 0);
        return NULL;
    }
    if (call_rawrunprotected(L, build_state, NULL) != LUA_OK) {
        close_state(L, 0);
        return NULL;
    }
    gc_start_nursery(L); /* everything made so far is old (and some fixed) */
    return L;
}

LUA_API void lua_close(lua_State *L)
{
    thread_touch(L);
    L = G(L)->mainthread; /* only the main thread closes a state */
    close_state(L, 1);
}
