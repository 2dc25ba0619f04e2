/*
 * state.h — threads (lua_State), call frames (CallInfo) and the state they
 * share (GlobalState).
 *
 * A lua_State is a thread: a Lua stack of StackValues, a doubly linked list
 * of CallInfo frames, and the list of its open upvalues. Threads never move
 * (the VM keeps raw pointers into their stacks); the stack itself is a plain
 * allocation owned by the thread and may be reallocated when it grows, which
 * is why code that can grow the stack keeps offsets (stack_save) rather than
 * StkIds across the call.
 */
#ifndef TIDE_VM_STATE_H
#define TIDE_VM_STATE_H

#include <setjmp.h>
#include "object.h"

/* Slots every C function gets beyond its arguments (the manual's
 * LUA_MINSTACK), and the extra slots kept above stack_last for the VM's
 * convenience (metamethod calls push up to 3 values without checking). */
#define EXTRA_STACK 5
#define BASIC_STACK_SIZE (2 * LUA_MINSTACK)

/* Limit of nested C calls and of nested non-yieldable calls, counted in
 * lua_State.nCcalls; past it, "C stack overflow" (error while handling
 * errors allows some headroom, see calls.c). */
#define TIDE_MAXCCALLS 200

/* CallInfo.callstatus bits. */
#define CIST_C (1 << 0)        /* a C function */
#define CIST_FRESH (1 << 1)    /* a Lua function entered from C: vm_execute returns at its return */
#define CIST_HOOKED (1 << 2)   /* running a debug hook */
#define CIST_YPCALL (1 << 3)   /* a yieldable protected call (lua_pcallk) */
#define CIST_TAIL (1 << 4)     /* reached by a tail call */
#define CIST_HOOKYIELD (1 << 5) /* the last hook called yielded */
#define CIST_FIN (1 << 6)      /* running a finalizer */
#define CIST_TRAN (1 << 7)     /* ftransfer/ntransfer are valid (call/return hooks) */
#define CIST_CLSRET (1 << 8)   /* closing to-be-closed variables during a return */
/* Added for calls.c (coroutines; see calls.h for who sets them): */
#define CIST_OAH (1 << 9)      /* lua_pcallk (yieldable): the allowhook value to restore */
#define CIST_RECST 10          /* bits 10-12: error status an unrolled lua_pcallk must report */
#define CIST_LEQ (1 << 13)     /* running __lt in place of a missing __le ("not (b < a)") */
#define ci_getrecst(ci) (((ci)->callstatus >> CIST_RECST) & 7)
#define ci_setrecst(ci, st) \
    ((ci)->callstatus = (unsigned short)(((ci)->callstatus & ~(7u << CIST_RECST)) | ((unsigned)(st) << CIST_RECST)))
#define ci_getoah(ci) (((ci)->callstatus & CIST_OAH) ? 1 : 0)
#define ci_setoah(ci, v) \
    ((ci)->callstatus = (unsigned short)((v) ? ((ci)->callstatus | CIST_OAH) : ((ci)->callstatus & ~CIST_OAH)))

/* A function activation. Called struct tide_CallInfo because lua.h's
 * lua_Debug names it (i_ci) without knowing its contents. */
typedef struct tide_CallInfo {
    StkId func;                      /* the function's stack slot; arguments follow */
    StkId top;                       /* top of this function's stack space */
    struct tide_CallInfo *previous, *next;
    union {
        struct {                     /* Lua functions */
            const Instruction *savedpc;
            volatile int trap;       /* nonzero: the VM must re-check hooks / rebase */
            int nextraargs;          /* vararg functions: extra arguments given */
        } l;
        struct {                     /* C functions */
            lua_KFunction k;         /* continuation after a yield, or NULL */
            ptrdiff_t old_errfunc;
            lua_KContext ctx;
        } c;
    } u;
    union {
        int funcidx;                 /* C functions in a protected call: the function's slot */
        int nyield;                  /* values yielded */
        int nres;                    /* values returned (while closing) */
        struct {                     /* call/return hooks: the values transferred */
            unsigned short ftransfer;
            unsigned short ntransfer;
        } transferinfo;
    } u2;
    short nresults;                  /* results wanted, LUA_MULTRET for all */
    unsigned short callstatus;
} CallInfo;

#define isLua(ci) (!((ci)->callstatus & CIST_C))
#define ci_func(ci) (clLvalue(s2v((ci)->func)))

/* A protected call's recovery point (calls.c). */
struct tide_longjmp;

/* The short-string intern table. strings.c owns insertion and resizing; the
 * collector removes dead strings and rehashes moved ones. */
typedef struct StringTable {
    TString **hash;
    int nuse;  /* strings in the table */
    int size;  /* buckets, a power of two */
} StringTable;

/* Metamethod names, in the order metamethods.h's TM enum lists them. */
#define TM_COUNT 25

/* The collector's state: opaque outside gc/. */
struct GCState;

typedef struct GlobalState {
    lua_Alloc frealloc;
    void *ud;
    /* Bytes the collector may still allocate before it must do work; the
     * VM's check (gc_check in gc/gc.h) tests only its sign. */
    intptr_t gc_debt;
    struct GCState *gc;
    /* The nursery (gc/nursery.c), read by gc.h's inline allocation and
     * barriers: young objects are those in [nursery_lo, nursery_lo +
     * nursery_span); new objects are bumped from [alloc_ptr, alloc_limit)
     * (both NULL when the fast path is closed). */
    uintptr_t nursery_lo;
    size_t nursery_span;
    char *alloc_ptr, *alloc_limit;
    /* Nonzero while a major cycle marks (gc/cycle.c): the snapshot barrier
     * of gc.h (gc_satb_*) logs every reference a store overwrites, and
     * thread_touch scans a thread's stack before anything changes it. */
    uint8_t gc_marking;
    /* The number of the major cycle marking now, or of the last one
     * (lua_State.gc_scanned compares with it). */
    uint32_t gc_cycle;
    /* Nonzero while a cycle's lazy sweep has not reached every string: the
     * string table may still hold dead strings, and a lookup that finds
     * one makes it live again (gc/cycle.c, gc_string_reused). */
    uint8_t gc_strings_unswept;
    StringTable strt;
    TValue l_registry;
    unsigned int seed;          /* string hash seed (fixed: runs are reproducible) */
    uint32_t next_identity;     /* identity hashes handed out so far */
    struct lua_State *mainthread;
    TString *memerrmsg;         /* "not enough memory", preallocated and fixed */
    TString *tmname[TM_COUNT];  /* metamethod names */
    struct Table *mt[LUA_NUMTYPES]; /* metatables of the non-table, non-userdata types */
    lua_CFunction panic;
    lua_WarnFunction warnf;
    void *ud_warn;
    int warn_state;             /* for the default warning function: 0 off, 1 on, 2 mid-message */
    /* Stretches of the C stack the collector's conservative scan skips,
     * innermost first (gc.h, GCStackWindow). */
    struct GCStackWindow *stack_windows;
    /* Runtime code in progress that keeps object pointers only in C locals
     * while it may call a C function of the program (lua_load: the parser
     * and undump call the reader); lua_gc then scans every frame. */
    int unanchored_callers;
} GlobalState;

/* A thread. */
struct lua_State {
    GCObject hdr;
    uint8_t status;             /* LUA_OK, LUA_YIELD or an error status (dead coroutine) */
    uint8_t allowhook;
    unsigned short nci;         /* CallInfos in the list */
    StkId top;                  /* first free slot */
    GlobalState *l_G;
    CallInfo *ci;               /* the running function */
    StkId stack_last;           /* end of usable stack (EXTRA_STACK slots follow) */
    StkId stack;
    UpVal *openupval;           /* open upvalues, highest slot first */
    StkId tbclist;              /* the topmost to-be-closed variable, or stack - ... see calls.c */
    struct lua_State *gclist;   /* the collector's link */
    struct tide_longjmp *errorJmp;
    CallInfo base_ci;           /* the first frame (the thread's C entry) */
    volatile lua_Hook hook;
    ptrdiff_t errfunc;          /* offset of the current message handler, 0 if none */
    uint32_t nCcalls;           /* low 16 bits: nested C calls; high 16: non-yieldable calls */
    int oldpc;                  /* last pc traced (line hooks) */
    int basehookcount;
    int hookcount;
    volatile int hookmask;
    /* Set by a nursery collection that left nothing young on this stack
     * while the thread was suspended or idle; cleared by thread_touch.
     * Clean stacks are skipped by nursery collections (minor.c), which
     * visit only the threads on the collector's dirty list: every thread
     * that is not clean is on it. */
    uint8_t stack_clean;
    /* The major cycle whose snapshot holds this stack: a thread's stack is
     * scanned once per cycle, before it next changes (gc/cycle.c). */
    uint32_t gc_scanned;
    /* While that cycle marks: the slots below this one (counted from the
     * stack's base) are not scanned yet, 0 = none. Only a thread running at
     * the cycle's initial pause has such a floor: the pause scans the frames
     * that may change and leaves those below, which change only once a
     * frame returns into them, to be scanned a slice at a time
     * (gc/cycle.c); every return, and every unwinding, into a frame whose
     * slots reach below the floor scans down to them first
     * (gc_stack_return, gc.h). */
    uint32_t gc_floor;
    /* The slots below young_floor, and those from young_gap_lo up to
     * young_gap_hi (counted from the stack's base; floor <= lo <= hi), hold
     * nothing young and are not written but through an open upvalue (which
     * the remembered set covers): the next nursery collection scans the
     * rest. A collection sets all three to the lowest slot the running
     * frame may write (or lower, to a young object it had to leave in
     * place); between collections the allocation slow path raises them
     * over slots it finds hold nothing young (gc/minor.c); every return,
     * every unwinding, into a frame that reaches below young_gap_hi lowers
     * them to that frame (gc_stack_return, gc.h). */
    uint32_t young_floor, young_gap_lo, young_gap_hi;
    /* The highest frame top (a slot count from the stack's base) since the
     * last nursery collection: every slot from stack_hwm + EXTRA_STACK up
     * is nil, so that the collection, which clears the stack above its
     * live slots (a dead object's address must not linger for a later
     * scan), clears only up to there (gc/minor.c). Every frame raises it
     * (stack_note_top). */
    uint32_t stack_hwm;
    /* lua_getextraspace; aligned for the pointer C code keeps there
     * (stock Lua's block is malloc-aligned) */
    _Alignas(void *) char extraspace[LUA_EXTRASPACE];
};

#define G(L) ((L)->l_G)

/* Something may store into [L]'s stack (every API entry that may change
 * it calls it, and a resume): the next nursery collection scans it again,
 * and thread_snapshot. Between API calls and resumes nothing else writes
 * to the stack of a thread that is not running. Entries that only read
 * the stack's shape (lua_gettop, lua_status, lua_getstack) leave it be: a
 * scheduler asks them of every coroutine it resumes, which would list
 * again the ones their resume left clean (gc_thread_stopped). */
#define thread_touch(L) \
    ((L)->stack_clean ? gc_thread_dirty(L) : (void)0, thread_snapshot(L))
/* [L]'s stack may change or lose values (lua_xmove pops them without a
 * store): while a major cycle marks, the stack's values join the cycle's
 * snapshot first if they have not yet (stacks change without barriers). */
#define thread_snapshot(L) \
    ((luai_unlikely(G(L)->gc_marking) && (L)->gc_scanned != G(L)->gc_cycle) ? gc_thread_snapshot(L) : (void)0)
/* (gc/cycle.c) Mark what [L]'s stack holds, for the cycle's snapshot. */
TIDE_INTERNAL void gc_thread_snapshot(struct lua_State *L);
/* (gc/minor.c) [L] is clean no more: onto the dirty list. */
TIDE_INTERNAL void gc_thread_dirty(struct lua_State *L);

/* A frame of [L] may write up to [top] (and EXTRA_STACK slots past it). */
#define stack_note_top(L, top) \
    ((size_t)((top) - (L)->stack) > (L)->stack_hwm ? (void)((L)->stack_hwm = (uint32_t)((top) - (L)->stack)) \
                                                    : (void)0)

/* nCcalls bookkeeping: C calls in the low 16 bits, non-yieldable in the high. */
#define yieldable(L) ((((L)->nCcalls) & 0xffff0000) == 0)
#define getCcalls(L) ((L)->nCcalls & 0xffff)
#define incnny(L) ((L)->nCcalls += 0x10000)
#define decnny(L) ((L)->nCcalls -= 0x10000)

/* Stack offsets survive a stack reallocation; StkIds do not. */
#define stack_save(L, p) ((char *)(p) - (char *)(L)->stack)
#define stack_restore(L, n) ((StkId)((char *)(L)->stack + (n)))
#define stacksize(th) ((int)((th)->stack_last - (th)->stack))

/* Make room for [n] more slots above top, growing the stack if needed (may
 * raise "stack overflow" or a memory error). Invalidates StkIds. */
#define stack_check(L, n) \
    do { if ((L)->stack_last - (L)->top <= (n)) call_growstack((L), (n), 1); } while (0)

/* The registry's fixed entries (lua.h) */
#define registry_table(L) hvalue(&G(L)->l_registry)

/* state.c: threads */
TIDE_INTERNAL lua_State *state_newthread(lua_State *L);   /* pushes nothing; see lua_newthread */
TIDE_INTERNAL void state_freethread(lua_State *L, lua_State *L1); /* collector: free a dead thread */
TIDE_INTERNAL size_t state_threadsize(lua_State *L1);     /* bytes owned (for accounting) */
/* (state.c engineer, clarifying:)
 *  - The main thread is not a heap object: lua_newstate allocates it, with
 *    the GlobalState, in one block straight from the lua_Alloc (the
 *    collector does not exist yet). Its header is valid (tt = VTHREAD &
 *    0x3F, flags 0), so values hold it like any thread, but the collector
 *    must treat it as a root, never move it, never free it and never call
 *    state_freethread on it: lua_close frees its stack, its CallInfos and
 *    the block itself.
 *  - Other threads come from gc_new_pinned (never move). state_freethread
 *    closes their open upvalues and frees their stack and CallInfos, not
 *    the lua_State object (the collector frees that).
 *  - A thread can be seen by a collection before it is complete (its stack
 *    is allocated after the object): L->stack == NULL means "nothing to
 *    scan". The same holds for the main thread while lua_newstate builds
 *    the state, when also strt.hash may be NULL, l_registry nil and
 *    memerrmsg / tmname[] NULL.
 *  - state_threadsize counts the stack and the CallInfos (nci, which like
 *    Lua's wraps past 65535 frames: an estimate), not the lua_State object
 *    itself (gc_object_size counts that). */
TIDE_INTERNAL CallInfo *state_extendci(lua_State *L);     /* a new CallInfo after L->ci */
TIDE_INTERNAL void state_shrinkci(lua_State *L);          /* free unused CallInfos */
TIDE_INTERNAL int state_resetthread(lua_State *L, int status);

#endif
