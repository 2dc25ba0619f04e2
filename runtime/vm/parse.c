/*
 * parse.c — the parser: a recursive-descent reader of the Lua 5.4 grammar
 * that drives the code generator (code.c) as it goes, one pass, no tree.
 *
 * Scoping: a function's active local variables are the tail of
 * dyd->actvar starting at fs->firstlocal; a block remembers how many were
 * active when it began (BlockCnt.nactvar) and drops the rest when it ends.
 * Pending gotos (dyd->gt) are resolved when their label appears in the
 * same or an enclosing block, or reported at the end of the function.
 * 'break' is a goto to the label "break" that every loop block creates at
 * its end.
 *
 * Collector: the closure, the anchor table of the lexer and one constant
 * cache per open function are on the Lua stack during the compilation;
 * every prototype is stored in its parent as soon as it exists. The
 * parser's own arrays (Dyndata) are gc_raw memory, invisible to the
 * collector, so they name strings by anchor id (lex.h), never by pointer;
 * TString pointers live only in C locals (conservatively scanned, so
 * pinned) and in the prototypes (traced). The Dyndata arrays are freed by
 * parse_chunk even when the compilation fails.
 */
#include <limits.h>
#include <string.h>

#include "parse.h"
#include "calls.h"
#include "code.h"
#include "conv.h"
#include "funcs.h"
#include "strings.h"
#include "tables.h"
#include "../gc/gc.h"

/* A block: the part of the scope state that the block's end restores. */
typedef struct BlockCnt {
    struct BlockCnt *previous;
    int firstlabel;    /* its first label in dyd->label */
    int firstgoto;     /* its first pending goto in dyd->gt */
    uint8_t nactvar;   /* active variables outside the block */
    uint8_t upval;     /* some variable of the block is captured (or tbc) */
    uint8_t isloop;    /* a loop: 'break' may leave it */
    uint8_t insidetbc; /* inside the scope of a to-be-closed variable */
} BlockCnt;

static void statement(LexState *ls);
static void expr(LexState *ls, ExpDesc *v);

/* Nesting of syntactic constructs costs C stack; the C-call counter limits
 * it ("C stack overflow"). */
#define enter_level(ls) call_incCcalls((ls)->L)
#define leave_level(ls) call_decCcalls((ls)->L)

/* =========================================================================
 * Errors and token checks
 */

static _Noreturn void error_expected(LexState *ls, int token)
{
    lex_syntaxerror(ls, conv_pushfstring(ls->L, "%s expected", lex_token2str(ls, token)));
}

void parse_errorlimit(FuncState *fs, int limit, const char *what)
{
    lua_State *L = fs->ls->L;
    int line = fs->f->linedefined;
    const char *where = line == 0 ? "main function" : conv_pushfstring(L, "function at line %d", line);
    lex_syntaxerror(fs->ls, conv_pushfstring(L, "too many %s (limit is %d) in %s", what, limit, where));
}

static void check_limit(FuncState *fs, int v, int limit, const char *what)
{
    if (v > limit) parse_errorlimit(fs, limit, what);
}

static int test_next(LexState *ls, int c)
{
    if (ls->t.token != c) return 0;
    lex_next(ls);
    return 1;
}

static void check(LexState *ls, int c)
{
    if (ls->t.token != c) error_expected(ls, c);
}

static void check_next(LexState *ls, int c)
{
    check(ls, c);
    lex_next(ls);
}

static void check_condition(LexState *ls, int ok, const char *msg)
{
    if (!ok) lex_syntaxerror(ls, msg);
}

/* The closing [what] of a construct opened by [who] at line [where]. */
static void check_match(LexState *ls, int what, int who, int where)
{
    if (test_next(ls, what)) return;
    if (where == ls->linenumber) error_expected(ls, what);
    lex_syntaxerror(ls, conv_pushfstring(ls->L, "%s expected (to close %s at line %d)", lex_token2str(ls, what),
                                         lex_token2str(ls, who), where));
}

/* A name: the string, and its anchor id in *id when [id] is not NULL. */
static TString *check_name(LexState *ls, int *id)
{
    check(ls, TK_NAME);
    TString *ts = ls->t.value.s.ts;
    if (id != NULL) *id = ls->t.value.s.id;
    lex_next(ls);
    return ts;
}

static void init_exp(ExpDesc *e, ExpKind k, int info)
{
    e->f = e->t = NO_JUMP;
    e->k = k;
    e->u.info = info;
}

static void string_exp(ExpDesc *e, TString *s)
{
    e->f = e->t = NO_JUMP;
    e->k = EXP_KSTR;
    e->u.strval = s;
}

static void name_exp(LexState *ls, ExpDesc *e)
{
    string_exp(e, check_name(ls, NULL));
}

/* =========================================================================
 * The parser's lists (gc_raw memory)
 */

static void *grow_list(LexState *ls, void *block, int *size, size_t elemsize, int limit, const char *what)
{
    int old = *size;
    if (old >= limit) parse_errorlimit(ls->fs, limit, what);
    int newsize = old < 8 ? 8 : (old <= limit / 2 ? old * 2 : limit);
    void *nb = block == NULL ? gc_raw_alloc(ls->L, (size_t)newsize * elemsize)
                             : gc_raw_realloc(ls->L, block, (size_t)old * elemsize, (size_t)newsize * elemsize);
    *size = newsize;
    return nb;
}

static void free_lists(lua_State *L, LexState *ls, Dyndata *dyd)
{
    if (dyd->actvar.arr != NULL) gc_raw_freevector(L, dyd->actvar.arr, dyd->actvar.size, VarDesc);
    if (dyd->gt.arr != NULL) gc_raw_freevector(L, dyd->gt.arr, dyd->gt.size, LabelDesc);
    if (dyd->label.arr != NULL) gc_raw_freevector(L, dyd->label.arr, dyd->label.size, LabelDesc);
    if (dyd->lines.arr != NULL) gc_raw_freevector(L, dyd->lines.arr, dyd->lines.size, int);
    if (ls->buff != NULL) gc_raw_free(L, ls->buff, ls->buffsize);
}

/* =========================================================================
 * Local variables
 */

VarDesc *parse_vardesc(FuncState *fs, int vidx)
{
    return &fs->ls->dyd->actvar.arr[fs->firstlocal + vidx];
}

/* Registers used by the first [nvar] active variables of [fs]. */
static int reg_level(FuncState *fs, int nvar)
{
    while (nvar-- > 0) {
        VarDesc *vd = parse_vardesc(fs, nvar);
        if (vd->kind != RDKCTC) return vd->ridx + 1;
    }
    return 0;
}

int parse_nvarstack(FuncState *fs)
{
    return reg_level(fs, fs->nactvar);
}

/* The debug entry of variable [vidx], or NULL for a compile-time constant. */
static LocVar *local_debuginfo(FuncState *fs, int vidx)
{
    VarDesc *vd = parse_vardesc(fs, vidx);
    if (vd->kind == RDKCTC) return NULL;
    return &fs->f->locvars[vd->pidx];
}

static int register_localvar(LexState *ls, FuncState *fs, TString *varname)
{
    Proto *f = fs->f;
    if (fs->ndebugvars >= f->sizelocvars)
        f->locvars = code_growarray(fs, f->locvars, &f->sizelocvars, fs->ndebugvars, sizeof(LocVar), SHRT_MAX,
                                    "local variables");
    LocVar *lv = &f->locvars[fs->ndebugvars];
    lv->varname = varname;
    lv->startpc = fs->pc;
    gc_objbarrier(ls->L, f, varname);
    return fs->ndebugvars++;
}

/* Declare a variable named by anchor id [name], not active yet; returns
 * its index in the function. */
static int new_localvar(LexState *ls, int name)
{
    FuncState *fs = ls->fs;
    Dyndata *dyd = ls->dyd;
    check_limit(fs, dyd->actvar.n + 1 - fs->firstlocal, MAXVARS, "local variables");
    if (dyd->actvar.n >= dyd->actvar.size)
        dyd->actvar.arr = grow_list(ls, dyd->actvar.arr, &dyd->actvar.size, sizeof(VarDesc), USHRT_MAX,
                                    "local variables");
    VarDesc *var = &dyd->actvar.arr[dyd->actvar.n++];
    var->kind = VDKREG;
    var->name = name;
    var->ridx = 0;
    var->pidx = 0;
    var->kstr = 0;
    setnilvalue(&var->k);
    return dyd->actvar.n - 1 - fs->firstlocal;
}

static int new_localvar_literal(LexState *ls, const char *name)
{
    int id;
    lex_newstring(ls, name, strlen(name), &id);
    return new_localvar(ls, id);
}

static int new_localvar_named(LexState *ls)
{
    int id;
    check_name(ls, &id);
    return new_localvar(ls, id);
}

void parse_constvalue(FuncState *fs, int index, TValue *v)
{
    LexState *ls = fs->ls;
    const VarDesc *vd = &ls->dyd->actvar.arr[index];
    lua_assert(vd->kind == RDKCTC);
    if (vd->kstr != 0)
        setsvalue(ls->L, v, lex_idstring(ls, vd->kstr));
    else
        setobj(ls->L, v, &vd->k);
}

/* Make [var] the compile-time constant [v]. */
static void set_constvalue(LexState *ls, VarDesc *var, const TValue *v)
{
    var->kind = RDKCTC;
    if (ttisstring(v)) {
        var->kstr = lex_stringid(ls, tsvalue(v)); /* a string from the lexer: anchored */
        setnilvalue(&var->k);
    } else {
        var->kstr = 0;
        setobj(ls->L, &var->k, v);
    }
}

static void init_var(FuncState *fs, ExpDesc *e, int vidx)
{
    e->f = e->t = NO_JUMP;
    e->k = EXP_LOCAL;
    e->u.var.vidx = (unsigned short)vidx;
    e->u.var.ridx = parse_vardesc(fs, vidx)->ridx;
}

static void check_readonly(LexState *ls, ExpDesc *e)
{
    FuncState *fs = ls->fs;
    TString *varname = NULL;
    switch (e->k) {
    case EXP_CONST:
        varname = lex_idstring(ls, ls->dyd->actvar.arr[e->u.info].name);
        break;
    case EXP_LOCAL: {
        VarDesc *vd = parse_vardesc(fs, e->u.var.vidx);
        if (vd->kind != VDKREG) varname = lex_idstring(ls, vd->name);
        break;
    }
    case EXP_UPVAL: {
        Upvaldesc *up = &fs->f->upvalues[e->u.info];
        if (up->kind != VDKREG) varname = up->name;
        break;
    }
    default:
        return; /* table fields can always be assigned */
    }
    if (varname != NULL)
        lex_semerror(ls, conv_pushfstring(ls->L, "attempt to assign to const variable '%s'", getstr(varname)));
}

/* Activate the last [nvars] declared variables: they get the next
 * registers and their debug entries start here. */
static void adjust_localvars(LexState *ls, int nvars)
{
    FuncState *fs = ls->fs;
    int level = parse_nvarstack(fs);
    for (int i = 0; i < nvars; i++) {
        int vidx = fs->nactvar++;
        VarDesc *var = parse_vardesc(fs, vidx);
        var->ridx = (uint8_t)level++;
        var->pidx = (short)register_localvar(ls, fs, lex_idstring(ls, var->name));
    }
}

/* Close the scope of the variables above [tolevel]. */
static void remove_vars(FuncState *fs, int tolevel)
{
    fs->ls->dyd->actvar.n -= fs->nactvar - tolevel;
    while (fs->nactvar > tolevel) {
        LocVar *var = local_debuginfo(fs, --fs->nactvar);
        if (var != NULL) var->endpc = fs->pc;
    }
}

/* =========================================================================
 * Upvalues and name resolution
 */

static int search_upvalue(FuncState *fs, TString *name)
{
    Upvaldesc *up = fs->f->upvalues;
    for (int i = 0; i < fs->nups; i++) {
        /* lexer strings are unique per contents; the collector keeps the
         * prototype's pointers current */
        if (up[i].name == name) return i;
    }
    return -1;
}

static Upvaldesc *alloc_upvalue(FuncState *fs)
{
    Proto *f = fs->f;
    check_limit(fs, fs->nups + 1, MAXUPVAL, "upvalues");
    if (fs->nups >= f->sizeupvalues)
        f->upvalues = code_growarray(fs, f->upvalues, &f->sizeupvalues, fs->nups, sizeof(Upvaldesc), MAXUPVAL,
                                     "upvalues");
    return &f->upvalues[fs->nups++];
}

/* A new upvalue of [fs] for [v], a local or upvalue of the enclosing function. */
static int new_upvalue(FuncState *fs, TString *name, ExpDesc *v)
{
    Upvaldesc *up = alloc_upvalue(fs);
    FuncState *prev = fs->prev;
    if (v->k == EXP_LOCAL) {
        up->instack = 1;
        up->idx = v->u.var.ridx;
        up->kind = parse_vardesc(prev, v->u.var.vidx)->kind;
    } else {
        up->instack = 0;
        up->idx = (uint8_t)v->u.info;
        up->kind = prev->f->upvalues[v->u.info].kind;
    }
    up->name = name;
    gc_objbarrier(fs->ls->L, fs->f, name);
    return fs->nups - 1;
}

/* Find an active variable named [nid] (innermost first); returns the kind
 * it set in [var], or -1. */
static int search_var(FuncState *fs, int nid, ExpDesc *var)
{
    for (int i = fs->nactvar - 1; i >= 0; i--) {
        VarDesc *vd = parse_vardesc(fs, i);
        if (vd->name == nid) {
            if (vd->kind == RDKCTC)
                init_exp(var, EXP_CONST, fs->firstlocal + i);
            else
                init_var(fs, var, i);
            return (int)var->k;
        }
    }
    return -1;
}

/* The block holding variable [level] has a captured variable: leaving it
 * must close upvalues. */
static void mark_upval(FuncState *fs, int level)
{
    BlockCnt *bl = fs->bl;
    while (bl->nactvar > level) bl = bl->previous;
    bl->upval = 1;
    fs->needclose = 1;
}

static void mark_tobeclosed(FuncState *fs)
{
    BlockCnt *bl = fs->bl;
    bl->upval = 1;
    bl->insidetbc = 1;
    fs->needclose = 1;
}

/* Resolve [n] in [fs] and the functions around it: a local (when [base],
 * of [fs] itself), an upvalue (created along the way as needed), a
 * compile-time constant, or EXP_VOID for a global. */
static void single_var_aux(FuncState *fs, TString *n, int nid, ExpDesc *var, int base)
{
    if (fs == NULL) {
        init_exp(var, EXP_VOID, 0);
        return;
    }
    int v = search_var(fs, nid, var);
    if (v >= 0) {
        if (v == EXP_LOCAL && !base) mark_upval(fs, var->u.var.vidx); /* captured by an inner function */
        return;
    }
    int idx = search_upvalue(fs, n);
    if (idx < 0) {
        single_var_aux(fs->prev, n, nid, var, 0);
        if (var->k != EXP_LOCAL && var->k != EXP_UPVAL) return; /* global or constant */
        idx = new_upvalue(fs, n, var);
    }
    init_exp(var, EXP_UPVAL, idx);
}

static void single_var(LexState *ls, ExpDesc *var)
{
    int id;
    TString *varname = check_name(ls, &id);
    FuncState *fs = ls->fs;
    single_var_aux(fs, varname, id, var, 1);
    if (var->k == EXP_VOID) { /* a global: _ENV.name */
        ExpDesc key;
        single_var_aux(fs, ls->envname, ls->envid, var, 1);
        lua_assert(var->k != EXP_VOID);
        code_exp2anyregup(fs, var);
        string_exp(&key, varname);
        code_indexed(fs, var, &key);
    }
}

/* Make [nexps] values (the last one [e]) fill [nvars] places: extra values
 * are dropped, missing ones are nil, a multi-value last expression gives
 * what is missing. */
static void adjust_assign(LexState *ls, int nvars, int nexps, ExpDesc *e)
{
    FuncState *fs = ls->fs;
    int needed = nvars - nexps;
    if (exp_hasmultret(e->k)) {
        int extra = needed + 1;
        if (extra < 0) extra = 0;
        code_setreturns(fs, e, extra);
    } else {
        if (e->k != EXP_VOID) code_exp2nextreg(fs, e);
        if (needed > 0) code_nil(fs, fs->freereg, needed);
    }
    if (needed > 0)
        code_reserveregs(fs, needed);
    else
        fs->freereg = (uint8_t)(fs->freereg + needed); /* drop the extra values */
}

/* =========================================================================
 * Gotos and labels
 */

static _Noreturn void jump_scope_error(LexState *ls, LabelDesc *gt)
{
    const char *varname = getstr(lex_idstring(ls, parse_vardesc(ls->fs, gt->nactvar)->name));
    lex_semerror(ls, conv_pushfstring(ls->L, "<goto %s> at line %d jumps into the scope of local '%s'",
                                      getstr(lex_idstring(ls, gt->name)), gt->line, varname));
}

/* Resolve pending goto [g] to [label] and drop it from the list. */
static void solve_goto(LexState *ls, int g, LabelDesc *label)
{
    LabelList *gl = &ls->dyd->gt;
    LabelDesc *gt = &gl->arr[g];
    if (gt->nactvar < label->nactvar) jump_scope_error(ls, gt);
    code_patchlist(ls->fs, gt->pc, label->pc);
    for (int i = g; i < gl->n - 1; i++) gl->arr[i] = gl->arr[i + 1];
    gl->n--;
}

/* A visible label named [name] (an anchor id) in the current function. */
static LabelDesc *find_label(LexState *ls, int name)
{
    Dyndata *dyd = ls->dyd;
    for (int i = ls->fs->firstlabel; i < dyd->label.n; i++) {
        if (dyd->label.arr[i].name == name) return &dyd->label.arr[i];
    }
    return NULL;
}

static int new_label_entry(LexState *ls, LabelList *l, int name, int line, int pc)
{
    if (l->n >= l->size) l->arr = grow_list(ls, l->arr, &l->size, sizeof(LabelDesc), SHRT_MAX, "labels/gotos");
    LabelDesc *d = &l->arr[l->n];
    d->name = name;
    d->line = line;
    d->nactvar = ls->fs->nactvar;
    d->close = 0;
    d->pc = pc;
    return l->n++;
}

static int new_goto_entry(LexState *ls, int name, int line, int pc)
{
    return new_label_entry(ls, &ls->dyd->gt, name, line, pc);
}

/* Resolve the pending gotos of the current block to [lb]; returns whether
 * one of them leaves the scope of a captured variable. */
static int solve_gotos(LexState *ls, LabelDesc *lb)
{
    LabelList *gl = &ls->dyd->gt;
    int i = ls->fs->bl->firstgoto;
    int needsclose = 0;
    while (i < gl->n) {
        if (gl->arr[i].name == lb->name) {
            needsclose |= gl->arr[i].close;
            solve_goto(ls, i, lb); /* removes entry i */
        } else {
            i++;
        }
    }
    return needsclose;
}

/* Resolve the pending gotos of the current block to a label at the
 * current position with [nactvar] active variables; when one of them
 * needs it, close what lies at or above register [level]. Returns whether
 * it emitted that CLOSE. */
static int place_label(LexState *ls, int name, int line, int nactvar, int level)
{
    FuncState *fs = ls->fs;
    LabelList *ll = &ls->dyd->label;
    int l = new_label_entry(ls, ll, name, line, code_getlabel(fs));
    ll->arr[l].nactvar = (uint8_t)nactvar;
    if (solve_gotos(ls, &ll->arr[l])) {
        code_ABC(fs, OP_CLOSE, level, 0, 0);
        return 1;
    }
    return 0;
}

/* A label here. [last]: nothing but void statements follows it in the
 * block, so the block's variables are already out of scope at it. */
static int create_label(LexState *ls, int name, int line, int last)
{
    FuncState *fs = ls->fs;
    int nactvar = last ? fs->bl->nactvar : fs->nactvar;
    return place_label(ls, name, line, nactvar, parse_nvarstack(fs));
}

/* The pending gotos of a closing block now belong to the enclosing one. */
static void move_gotos_out(FuncState *fs, BlockCnt *bl)
{
    LabelList *gl = &fs->ls->dyd->gt;
    for (int i = bl->firstgoto; i < gl->n; i++) {
        LabelDesc *gt = &gl->arr[i];
        if (reg_level(fs, gt->nactvar) > reg_level(fs, bl->nactvar)) gt->close |= bl->upval;
        gt->nactvar = bl->nactvar;
    }
}

static _Noreturn void undef_goto(LexState *ls, LabelDesc *gt)
{
    const char *msg;
    if (gt->name == ls->breakid)
        msg = conv_pushfstring(ls->L, "break outside loop at line %d", gt->line);
    else
        msg = conv_pushfstring(ls->L, "no visible label '%s' for <goto> at line %d",
                               getstr(lex_idstring(ls, gt->name)), gt->line);
    lex_semerror(ls, msg);
}

/* =========================================================================
 * Blocks and functions
 */

static void enter_block(FuncState *fs, BlockCnt *bl, uint8_t isloop)
{
    bl->isloop = isloop;
    bl->nactvar = fs->nactvar;
    bl->firstlabel = fs->ls->dyd->label.n;
    bl->firstgoto = fs->ls->dyd->gt.n;
    bl->upval = 0;
    bl->insidetbc = (uint8_t)(fs->bl != NULL && fs->bl->insidetbc);
    bl->previous = fs->bl;
    fs->bl = bl;
    lua_assert(fs->freereg == parse_nvarstack(fs));
}

static void leave_block(FuncState *fs)
{
    BlockCnt *bl = fs->bl;
    LexState *ls = fs->ls;
    int hasclose = 0;
    int stklevel = reg_level(fs, bl->nactvar); /* registers in use outside the block */
    /* 'break' lands here, out of the scope of the block's variables. (The
     * variables themselves end after the CLOSE, for the debug information.) */
    if (bl->isloop) hasclose = place_label(ls, ls->breakid, 0, bl->nactvar, stklevel);
    if (!hasclose && bl->previous != NULL && bl->upval) code_ABC(fs, OP_CLOSE, stklevel, 0, 0);
    remove_vars(fs, bl->nactvar);
    lua_assert(bl->nactvar == fs->nactvar);
    fs->freereg = (uint8_t)stklevel;
    ls->dyd->label.n = bl->firstlabel; /* its labels go out of sight */
    fs->bl = bl->previous;
    if (bl->previous != NULL) {
        move_gotos_out(fs, bl);
    } else if (bl->firstgoto < ls->dyd->gt.n) { /* the function ends with a goto unresolved */
        undef_goto(ls, &ls->dyd->gt.arr[bl->firstgoto]);
    }
}

/* A new prototype, stored in the current function's list at once. */
static Proto *add_prototype(LexState *ls)
{
    lua_State *L = ls->L;
    FuncState *fs = ls->fs;
    Proto *f = fs->f;
    if (fs->np >= f->sizep) f->p = code_growarray(fs, f->p, &f->sizep, fs->np, sizeof(Proto *), MAXARG_Bx, "functions");
    Proto *clp = func_newproto(L);
    f->p[fs->np++] = clp;
    gc_objbarrier(L, f, clp);
    return clp;
}

/* The CLOSURE instruction for the function just parsed, in the next
 * register of the enclosing function. */
static void code_closure(LexState *ls, ExpDesc *v)
{
    FuncState *fs = ls->fs;
    init_exp(v, EXP_RELOC, code_ABx(fs, OP_CLOSURE, 0, (unsigned int)(fs->np - 1)));
    code_exp2nextreg(fs, v);
}

static void open_func(LexState *ls, FuncState *fs, BlockCnt *bl)
{
    lua_State *L = ls->L;
    Proto *f = fs->f;
    fs->prev = ls->fs;
    fs->ls = ls;
    ls->fs = fs;
    fs->pc = 0;
    fs->lasttarget = 0;
    fs->firstline = fs->prev != NULL ? fs->prev->firstline + fs->prev->pc : 0;
    fs->freereg = 0;
    fs->nk = 0;
    fs->np = 0;
    fs->nups = 0;
    fs->ndebugvars = 0;
    fs->nactvar = 0;
    fs->needclose = 0;
    fs->firstlocal = ls->dyd->actvar.n;
    fs->firstlabel = ls->dyd->label.n;
    fs->bl = NULL;
    f->source = ls->source;
    gc_objbarrier(L, f, f->source);
    f->maxstacksize = 2; /* registers 0 and 1 are always valid */
    stack_check(L, 1);
    fs->kcache = tab_new(L);
    sethvalue(L, s2v(L->top), fs->kcache);
    L->top++;
    enter_block(fs, bl, 0);
}

/* Give an array of the prototype its final size [n] (from [size]). */
static void *fit_array(lua_State *L, void *block, int size, int n, size_t elemsize)
{
    if (n == size) return block;
    if (n == 0) {
        gc_raw_free(L, block, (size_t)size * elemsize);
        return NULL;
    }
    return gc_raw_realloc(L, block, (size_t)size * elemsize, (size_t)n * elemsize);
}

static void close_func(LexState *ls)
{
    lua_State *L = ls->L;
    FuncState *fs = ls->fs;
    Proto *f = fs->f;
    code_ret(fs, parse_nvarstack(fs), 0); /* the final return */
    leave_block(fs);
    lua_assert(fs->bl == NULL);
    code_finish(fs);
    /* each size field changes together with its array */
    f->code = fit_array(L, f->code, f->sizecode, fs->pc, sizeof(Instruction));
    f->sizecode = fs->pc;
    int *lines = gc_raw_newvector(L, fs->pc, int);
    memcpy(lines, ls->dyd->lines.arr + fs->firstline, (size_t)fs->pc * sizeof(int));
    f->lineinfo = lines;
    f->k = fit_array(L, f->k, f->sizek, fs->nk, sizeof(TValue));
    f->sizek = fs->nk;
    f->p = fit_array(L, f->p, f->sizep, fs->np, sizeof(Proto *));
    f->sizep = fs->np;
    f->locvars = fit_array(L, f->locvars, f->sizelocvars, fs->ndebugvars, sizeof(LocVar));
    f->sizelocvars = fs->ndebugvars;
    f->upvalues = fit_array(L, f->upvalues, f->sizeupvalues, fs->nups, sizeof(Upvaldesc));
    f->sizeupvalues = fs->nups;
    ls->fs = fs->prev;
    lua_assert(ttistable(s2v(L->top - 1)) && hvalue(s2v(L->top - 1)) == fs->kcache);
    L->top--; /* the constant cache */
    gc_check(L);
}

/* =========================================================================
 * Grammar: lists, tables, functions
 */

static int block_follow(LexState *ls, int withuntil)
{
    switch (ls->t.token) {
    case TK_ELSE: case TK_ELSEIF: case TK_END: case TK_EOS:
        return 1;
    case TK_UNTIL:
        return withuntil;
    default:
        return 0;
    }
}

static void statlist(LexState *ls)
{
    while (!block_follow(ls, 1)) {
        if (ls->t.token == TK_RETURN) {
            statement(ls);
            return; /* 'return' must be the last statement */
        }
        statement(ls);
    }
}

/* '.' NAME or ':' NAME */
static void fieldsel(LexState *ls, ExpDesc *v)
{
    FuncState *fs = ls->fs;
    ExpDesc key;
    code_exp2anyregup(fs, v);
    lex_next(ls); /* the dot or colon */
    name_exp(ls, &key);
    code_indexed(fs, v, &key);
}

/* '[' expr ']' */
static void yindex(LexState *ls, ExpDesc *v)
{
    lex_next(ls);
    expr(ls, v);
    code_exp2val(ls->fs, v);
    check_next(ls, ']');
}

typedef struct ConsControl {
    ExpDesc v;     /* the last list item read */
    ExpDesc *t;    /* the table */
    int nh;        /* record items */
    int na;        /* list items already stored */
    int tostore;   /* list items waiting for a SETLIST */
} ConsControl;

/* NAME '=' expr | '[' expr ']' '=' expr */
static void recfield(LexState *ls, ConsControl *cc)
{
    FuncState *fs = ls->fs;
    int reg = fs->freereg;
    ExpDesc tab, key, val;
    if (ls->t.token == TK_NAME) {
        check_limit(fs, cc->nh, INT_MAX, "items in a constructor");
        name_exp(ls, &key);
    } else {
        yindex(ls, &key);
    }
    cc->nh++;
    check_next(ls, '=');
    tab = *cc->t;
    code_indexed(fs, &tab, &key);
    expr(ls, &val);
    code_storevar(fs, &tab, &val);
    fs->freereg = (uint8_t)reg;
}

/* The previous list item goes to its register; a full batch is stored. */
static void closelistfield(FuncState *fs, ConsControl *cc)
{
    if (cc->v.k == EXP_VOID) return;
    code_exp2nextreg(fs, &cc->v);
    cc->v.k = EXP_VOID;
    if (cc->tostore == LFIELDS_PER_FLUSH) {
        code_setlist(fs, cc->t->u.info, cc->na, cc->tostore);
        cc->na += cc->tostore;
        cc->tostore = 0;
    }
}

static void lastlistfield(FuncState *fs, ConsControl *cc)
{
    if (cc->tostore == 0) return;
    if (exp_hasmultret(cc->v.k)) {
        code_setmultret(fs, &cc->v);
        code_setlist(fs, cc->t->u.info, cc->na, LUA_MULTRET);
        cc->na--; /* the open last item is not counted in the size hint */
    } else {
        if (cc->v.k != EXP_VOID) code_exp2nextreg(fs, &cc->v);
        code_setlist(fs, cc->t->u.info, cc->na, cc->tostore);
    }
    cc->na += cc->tostore;
}

static void listfield(LexState *ls, ConsControl *cc)
{
    expr(ls, &cc->v);
    cc->tostore++;
}

static void field(LexState *ls, ConsControl *cc)
{
    switch (ls->t.token) {
    case TK_NAME:
        if (lex_lookahead(ls) != '=')
            listfield(ls, cc);
        else
            recfield(ls, cc);
        break;
    case '[':
        recfield(ls, cc);
        break;
    default:
        listfield(ls, cc);
        break;
    }
}

/* '{' [ field { sep field } [sep] ] '}' */
static void constructor(LexState *ls, ExpDesc *t)
{
    FuncState *fs = ls->fs;
    int line = ls->linenumber;
    int pc = code_ABC(fs, OP_NEWTABLE, 0, 0, 0);
    ConsControl cc;
    code_extraarg(fs, 0); /* both instructions get their sizes at the end */
    cc.na = cc.nh = cc.tostore = 0;
    cc.t = t;
    init_exp(t, EXP_NONRELOC, fs->freereg); /* the table goes to the next register */
    code_reserveregs(fs, 1);
    init_exp(&cc.v, EXP_VOID, 0);
    check_next(ls, '{');
    do {
        lua_assert(cc.v.k == EXP_VOID || cc.tostore > 0);
        if (ls->t.token == '}') break;
        closelistfield(fs, &cc);
        field(ls, &cc);
    } while (test_next(ls, ',') || test_next(ls, ';'));
    check_match(ls, '}', '{', line);
    lastlistfield(fs, &cc);
    code_settablesize(fs, pc, t->u.info, cc.na, cc.nh);
}

static void set_vararg(FuncState *fs, int nparams)
{
    fs->f->is_vararg = 1;
    code_ABC(fs, OP_VARARGPREP, nparams, 0, 0);
}

/* [ NAME { ',' NAME } [ ',' '...' ] | '...' ] */
static void parlist(LexState *ls)
{
    FuncState *fs = ls->fs;
    Proto *f = fs->f;
    int nparams = 0;
    int isvararg = 0;
    if (ls->t.token != ')') {
        do {
            switch (ls->t.token) {
            case TK_NAME:
                new_localvar_named(ls);
                nparams++;
                break;
            case TK_DOTS:
                lex_next(ls);
                isvararg = 1;
                break;
            default:
                lex_syntaxerror(ls, "<name> or '...' expected");
            }
        } while (!isvararg && test_next(ls, ','));
    }
    adjust_localvars(ls, nparams);
    f->numparams = fs->nactvar;
    if (isvararg) set_vararg(fs, f->numparams);
    code_reserveregs(fs, fs->nactvar);
}

/* '(' parlist ')' block END, compiled into a new prototype. */
static void body(LexState *ls, ExpDesc *e, int ismethod, int line)
{
    FuncState new_fs;
    BlockCnt bl;
    new_fs.f = add_prototype(ls);
    new_fs.f->linedefined = line;
    open_func(ls, &new_fs, &bl);
    if (ismethod) {
        new_localvar_literal(ls, "self");
        adjust_localvars(ls, 1);
    }
    check_next(ls, '(');
    parlist(ls);
    check_next(ls, ')');
    statlist(ls);
    new_fs.f->lastlinedefined = ls->linenumber;
    check_match(ls, TK_END, TK_FUNCTION, line);
    close_func(ls); /* first: the enclosing function's code may not grow while this one's is open */
    code_closure(ls, e);
}

/* expr { ',' expr }; all but the last go to consecutive registers.
 * Returns the number of expressions. */
static int explist(LexState *ls, ExpDesc *v)
{
    int n = 1;
    expr(ls, v);
    while (test_next(ls, ',')) {
        code_exp2nextreg(ls->fs, v);
        expr(ls, v);
        n++;
    }
    return n;
}

static void funcargs(LexState *ls, ExpDesc *f, int line)
{
    FuncState *fs = ls->fs;
    ExpDesc args;
    int base, nparams;
    switch (ls->t.token) {
    case '(':
        lex_next(ls);
        if (ls->t.token == ')') {
            args.k = EXP_VOID;
        } else {
            explist(ls, &args);
            if (exp_hasmultret(args.k)) code_setmultret(fs, &args);
        }
        check_match(ls, ')', '(', line);
        break;
    case '{':
        constructor(ls, &args);
        break;
    case TK_STRING:
        string_exp(&args, ls->t.value.s.ts);
        lex_next(ls);
        break;
    default:
        lex_syntaxerror(ls, "function arguments expected");
    }
    lua_assert(f->k == EXP_NONRELOC);
    base = f->u.info;
    if (exp_hasmultret(args.k)) {
        nparams = LUA_MULTRET; /* up to the top */
    } else {
        if (args.k != EXP_VOID) code_exp2nextreg(fs, &args);
        nparams = fs->freereg - (base + 1);
    }
    init_exp(f, EXP_CALL, code_ABC(fs, OP_CALL, base, nparams + 1, 2));
    code_fixline(fs, line);
    fs->freereg = (uint8_t)(base + 1); /* the call leaves one result there (unless changed later) */
}

/* =========================================================================
 * Grammar: expressions
 */

/* NAME | '(' expr ')' */
static void primaryexp(LexState *ls, ExpDesc *v)
{
    switch (ls->t.token) {
    case '(': {
        int line = ls->linenumber;
        lex_next(ls);
        expr(ls, v);
        check_match(ls, ')', '(', line);
        code_dischargevars(ls->fs, v); /* parentheses make a value of a variable (and one of a call) */
        return;
    }
    case TK_NAME:
        single_var(ls, v);
        return;
    default:
        lex_syntaxerror(ls, "unexpected symbol");
    }
}

/* primaryexp { '.' NAME | '[' exp ']' | ':' NAME funcargs | funcargs } */
static void suffixedexp(LexState *ls, ExpDesc *v)
{
    FuncState *fs = ls->fs;
    int line = ls->linenumber;
    primaryexp(ls, v);
    for (;;) {
        switch (ls->t.token) {
        case '.':
            fieldsel(ls, v);
            break;
        case '[': {
            ExpDesc key;
            code_exp2anyregup(fs, v);
            yindex(ls, &key);
            code_indexed(fs, v, &key);
            break;
        }
        case ':': {
            ExpDesc key;
            lex_next(ls);
            name_exp(ls, &key);
            code_self(fs, v, &key);
            funcargs(ls, v, line);
            break;
        }
        case '(': case TK_STRING: case '{':
            code_exp2nextreg(fs, v);
            funcargs(ls, v, line);
            break;
        default:
            return;
        }
    }
}

static void simpleexp(LexState *ls, ExpDesc *v)
{
    switch (ls->t.token) {
    case TK_FLT:
        init_exp(v, EXP_KFLT, 0);
        v->u.nval = ls->t.value.r;
        break;
    case TK_INT:
        init_exp(v, EXP_KINT, 0);
        v->u.ival = ls->t.value.i;
        break;
    case TK_STRING:
        string_exp(v, ls->t.value.s.ts);
        break;
    case TK_NIL:
        init_exp(v, EXP_NIL, 0);
        break;
    case TK_TRUE:
        init_exp(v, EXP_TRUE, 0);
        break;
    case TK_FALSE:
        init_exp(v, EXP_FALSE, 0);
        break;
    case TK_DOTS: {
        FuncState *fs = ls->fs;
        check_condition(ls, fs->f->is_vararg, "cannot use '...' outside a vararg function");
        init_exp(v, EXP_VARARG, code_ABC(fs, OP_VARARG, 0, 0, 1));
        break;
    }
    case '{':
        constructor(ls, v);
        return;
    case TK_FUNCTION:
        lex_next(ls);
        body(ls, v, 0, ls->linenumber);
        return;
    default:
        suffixedexp(ls, v);
        return;
    }
    lex_next(ls);
}

static UnOpr unary_op(int token)
{
    switch (token) {
    case TK_NOT: return OPR_NOT;
    case '-': return OPR_MINUS;
    case '~': return OPR_BNOT;
    case '#': return OPR_LEN;
    default: return OPR_NOUNOPR;
    }
}

static BinOpr binary_op(int token)
{
    switch (token) {
    case '+': return OPR_ADD;
    case '-': return OPR_SUB;
    case '*': return OPR_MUL;
    case '%': return OPR_MOD;
    case '^': return OPR_POW;
    case '/': return OPR_DIV;
    case TK_IDIV: return OPR_IDIV;
    case '&': return OPR_BAND;
    case '|': return OPR_BOR;
    case '~': return OPR_BXOR;
    case TK_SHL: return OPR_SHL;
    case TK_SHR: return OPR_SHR;
    case TK_CONCAT: return OPR_CONCAT;
    case TK_NE: return OPR_NE;
    case TK_EQ: return OPR_EQ;
    case '<': return OPR_LT;
    case TK_LE: return OPR_LE;
    case '>': return OPR_GT;
    case TK_GE: return OPR_GE;
    case TK_AND: return OPR_AND;
    case TK_OR: return OPR_OR;
    default: return OPR_NOBINOPR;
    }
}

/* Binding power of each binary operator on its left and right; right
 * associative ones ('..', '^') bind less to the right. The manual's
 * precedence, lowest first: or; and; comparisons; |; ~; &; shifts; ..;
 * + -; * / // %; unary operators; ^. */
static const struct {
    uint8_t left, right;
} priority[] = {
    [OPR_ADD] = {10, 10}, [OPR_SUB] = {10, 10},
    [OPR_MUL] = {11, 11}, [OPR_MOD] = {11, 11},
    [OPR_POW] = {14, 13},
    [OPR_DIV] = {11, 11}, [OPR_IDIV] = {11, 11},
    [OPR_BAND] = {6, 6}, [OPR_BOR] = {4, 4}, [OPR_BXOR] = {5, 5},
    [OPR_SHL] = {7, 7}, [OPR_SHR] = {7, 7},
    [OPR_CONCAT] = {9, 8},
    [OPR_EQ] = {3, 3}, [OPR_LT] = {3, 3}, [OPR_LE] = {3, 3},
    [OPR_NE] = {3, 3}, [OPR_GT] = {3, 3}, [OPR_GE] = {3, 3},
    [OPR_AND] = {2, 2}, [OPR_OR] = {1, 1},
};

#define UNARY_PRIORITY 12

/* (simpleexp | unop subexpr) { binop subexpr }, taking only operators
 * that bind tighter than [limit]; returns the first operator not taken. */
static BinOpr subexpr(LexState *ls, ExpDesc *v, int limit)
{
    enter_level(ls);
    UnOpr uop = unary_op(ls->t.token);
    if (uop != OPR_NOUNOPR) {
        int line = ls->linenumber;
        lex_next(ls);
        subexpr(ls, v, UNARY_PRIORITY);
        code_prefix(ls->fs, uop, v, line);
    } else {
        simpleexp(ls, v);
    }
    BinOpr op = binary_op(ls->t.token);
    while (op != OPR_NOBINOPR && priority[op].left > limit) {
        ExpDesc v2;
        int line = ls->linenumber;
        lex_next(ls);
        code_infix(ls->fs, op, v);
        BinOpr nextop = subexpr(ls, &v2, priority[op].right);
        code_posfix(ls->fs, op, v, &v2, line);
        op = nextop;
    }
    leave_level(ls);
    return op;
}

static void expr(LexState *ls, ExpDesc *v)
{
    subexpr(ls, v, 0);
}

/* =========================================================================
 * Grammar: statements
 */

static void block(LexState *ls)
{
    FuncState *fs = ls->fs;
    BlockCnt bl;
    enter_block(fs, &bl, 0);
    statlist(ls);
    leave_block(fs);
}

/* The variables on the left of a multiple assignment, last first. */
typedef struct LhsAssign {
    struct LhsAssign *prev;
    ExpDesc v;
} LhsAssign;

/* In 'a[i], i = ...' the table or key register of an earlier target may
 * be the local (or upvalue) [v] assigned later: since assignments happen
 * right to left, such targets use a copy of it made now. */
static void check_conflict(LexState *ls, LhsAssign *lh, ExpDesc *v)
{
    FuncState *fs = ls->fs;
    int extra = fs->freereg;
    int conflict = 0;
    for (; lh != NULL; lh = lh->prev) {
        if (!exp_isindexed(lh->v.k)) continue;
        if (lh->v.k == EXP_INDEXUP) {
            if (v->k == EXP_UPVAL && lh->v.u.ind.t == v->u.info) {
                conflict = 1;
                lh->v.k = EXP_INDEXSTR; /* the table is now in a register */
                lh->v.u.ind.t = (uint8_t)extra;
            }
        } else {
            if (v->k == EXP_LOCAL && lh->v.u.ind.t == v->u.var.ridx) {
                conflict = 1;
                lh->v.u.ind.t = (uint8_t)extra;
            }
            if (lh->v.k == EXP_INDEXED && v->k == EXP_LOCAL && lh->v.u.ind.idx == v->u.var.ridx) {
                conflict = 1;
                lh->v.u.ind.idx = (short)extra;
            }
        }
    }
    if (conflict) {
        if (v->k == EXP_LOCAL)
            code_ABC(fs, OP_MOVE, extra, v->u.var.ridx, 0);
        else
            code_ABC(fs, OP_GETUPVAL, extra, v->u.info, 0);
        code_reserveregs(fs, 1);
    }
}

/* ',' suffixedexp restassign | '=' explist */
static void restassign(LexState *ls, LhsAssign *lh, int nvars)
{
    ExpDesc e;
    check_condition(ls, exp_isvar(lh->v.k), "syntax error");
    check_readonly(ls, &lh->v);
    if (test_next(ls, ',')) {
        LhsAssign nv;
        nv.prev = lh;
        suffixedexp(ls, &nv.v);
        if (!exp_isindexed(nv.v.k)) check_conflict(ls, lh, &nv.v);
        enter_level(ls);
        restassign(ls, &nv, nvars + 1);
        leave_level(ls);
    } else {
        check_next(ls, '=');
        int nexps = explist(ls, &e);
        if (nexps != nvars) {
            adjust_assign(ls, nvars, nexps, &e);
        } else {
            code_setoneret(ls->fs, &e);
            code_storevar(ls->fs, &lh->v, &e);
            return; /* the last target took the last value directly */
        }
    }
    init_exp(&e, EXP_NONRELOC, ls->fs->freereg - 1); /* the value for this target is on top */
    code_storevar(ls->fs, &lh->v, &e);
}

/* A condition; returns its false exit list. */
static int cond(LexState *ls)
{
    ExpDesc v;
    expr(ls, &v);
    if (v.k == EXP_NIL) v.k = EXP_FALSE; /* all falsity is the same here */
    code_goiftrue(ls->fs, &v);
    return v.f;
}

static void gotostat(LexState *ls)
{
    FuncState *fs = ls->fs;
    int line = ls->linenumber;
    int name;
    check_name(ls, &name);
    LabelDesc *lb = find_label(ls, name);
    if (lb == NULL) { /* forward: resolved when the label appears */
        new_goto_entry(ls, name, line, code_jump(fs));
    } else { /* backward: close what the jump leaves, then jump */
        int lblevel = reg_level(fs, lb->nactvar);
        if (parse_nvarstack(fs) > lblevel) code_ABC(fs, OP_CLOSE, lblevel, 0, 0);
        code_patchlist(fs, code_jump(fs), lb->pc);
    }
}

static void breakstat(LexState *ls)
{
    int line = ls->linenumber;
    lex_next(ls);
    new_goto_entry(ls, ls->breakid, line, code_jump(ls->fs));
}

static void check_repeated(LexState *ls, int name)
{
    LabelDesc *lb = find_label(ls, name);
    if (lb != NULL)
        lex_semerror(ls, conv_pushfstring(ls->L, "label '%s' already defined on line %d",
                                          getstr(lex_idstring(ls, name)), lb->line));
}

static void labelstat(LexState *ls, int name, int line)
{
    check_next(ls, TK_DBCOLON);
    while (ls->t.token == ';' || ls->t.token == TK_DBCOLON) statement(ls); /* other no-op statements */
    check_repeated(ls, name);
    create_label(ls, name, line, block_follow(ls, 0));
}

/* WHILE cond DO block END */
static void whilestat(LexState *ls, int line)
{
    FuncState *fs = ls->fs;
    BlockCnt bl;
    lex_next(ls);
    int whileinit = code_getlabel(fs);
    int condexit = cond(ls);
    enter_block(fs, &bl, 1);
    check_next(ls, TK_DO);
    block(ls);
    code_jumpto(fs, whileinit);
    check_match(ls, TK_END, TK_WHILE, line);
    leave_block(fs);
    code_patchtohere(fs, condexit);
}

/* REPEAT block UNTIL cond; the condition is inside the body's scope. */
static void repeatstat(LexState *ls, int line)
{
    FuncState *fs = ls->fs;
    int repeat_init = code_getlabel(fs);
    BlockCnt bl1, bl2;
    enter_block(fs, &bl1, 1); /* the loop */
    enter_block(fs, &bl2, 0); /* the scope of the body */
    lex_next(ls);
    statlist(ls);
    check_match(ls, TK_UNTIL, TK_REPEAT, line);
    int condexit = cond(ls);
    leave_block(fs);
    if (bl2.upval) { /* going around again must close the body's upvalues */
        int exit = code_jump(fs); /* the normal exit skips that */
        code_patchtohere(fs, condexit);
        code_ABC(fs, OP_CLOSE, reg_level(fs, bl2.nactvar), 0, 0);
        condexit = code_jump(fs);
        code_patchtohere(fs, exit);
    }
    code_patchlist(fs, condexit, repeat_init);
    leave_block(fs);
}

/* An expression whose single value goes to the next register. */
static void exp1(LexState *ls)
{
    ExpDesc e;
    expr(ls, &e);
    code_exp2nextreg(ls->fs, &e);
    lua_assert(e.k == EXP_NONRELOC);
}

/* Set the Bx jump of the for instruction at [pc] to reach [dest]; [back]
 * for the loop instructions, which jump backwards. */
static void fix_for_jump(FuncState *fs, int pc, int dest, int back)
{
    Instruction *jmp = &fs->f->code[pc];
    int offset = dest - (pc + 1);
    if (back) offset = -offset;
    if (offset > MAXARG_Bx) lex_syntaxerror(fs->ls, "control structure too long");
    SETARG_Bx(*jmp, (unsigned int)offset);
}

static void forbody(LexState *ls, int base, int line, int nvars, int isgen)
{
    static const OpCode forprep[2] = {OP_FORPREP, OP_TFORPREP};
    static const OpCode forloop[2] = {OP_FORLOOP, OP_TFORLOOP};
    BlockCnt bl;
    FuncState *fs = ls->fs;
    check_next(ls, TK_DO);
    int prep = code_ABx(fs, forprep[isgen], base, 0);
    enter_block(fs, &bl, 0); /* the scope of the declared variables */
    adjust_localvars(ls, nvars);
    code_reserveregs(fs, nvars);
    block(ls);
    leave_block(fs);
    fix_for_jump(fs, prep, code_getlabel(fs), 0);
    if (isgen) {
        code_ABC(fs, OP_TFORCALL, base, 0, nvars);
        code_fixline(fs, line);
    }
    int endfor = code_ABx(fs, forloop[isgen], base, 0);
    fix_for_jump(fs, endfor, prep + 1, 1);
    code_fixline(fs, line);
}

/* NAME '=' exp ',' exp [',' exp] forbody: three hidden registers (initial
 * value, limit or count, step), then the loop variable. */
static void fornum(LexState *ls, int varname, int line)
{
    FuncState *fs = ls->fs;
    int base = fs->freereg;
    new_localvar_literal(ls, "(for state)");
    new_localvar_literal(ls, "(for state)");
    new_localvar_literal(ls, "(for state)");
    new_localvar(ls, varname);
    check_next(ls, '=');
    exp1(ls);
    check_next(ls, ',');
    exp1(ls);
    if (test_next(ls, ',')) {
        exp1(ls);
    } else { /* step 1 */
        code_int(fs, fs->freereg, 1);
        code_reserveregs(fs, 1);
    }
    adjust_localvars(ls, 3);
    forbody(ls, base, line, 1, 0);
}

/* NAME {',' NAME} IN explist forbody: four hidden registers (iterator,
 * state, control, closing value), then the loop variables. */
static void forlist(LexState *ls, int indexname)
{
    FuncState *fs = ls->fs;
    ExpDesc e;
    int nvars = 5;
    int base = fs->freereg;
    new_localvar_literal(ls, "(for state)");
    new_localvar_literal(ls, "(for state)");
    new_localvar_literal(ls, "(for state)");
    new_localvar_literal(ls, "(for state)");
    new_localvar(ls, indexname);
    while (test_next(ls, ',')) {
        new_localvar_named(ls);
        nvars++;
    }
    check_next(ls, TK_IN);
    int line = ls->linenumber;
    int nexps = explist(ls, &e);
    adjust_assign(ls, 4, nexps, &e);
    adjust_localvars(ls, 4);
    mark_tobeclosed(fs); /* the closing value */
    code_checkstack(fs, 3); /* room to call the iterator */
    forbody(ls, base, line, nvars - 4, 1);
}

static void forstat(LexState *ls, int line)
{
    FuncState *fs = ls->fs;
    BlockCnt bl;
    enter_block(fs, &bl, 1); /* the loop and its hidden variables */
    lex_next(ls);
    int varname;
    check_name(ls, &varname);
    switch (ls->t.token) {
    case '=':
        fornum(ls, varname, line);
        break;
    case ',': case TK_IN:
        forlist(ls, varname);
        break;
    default:
        lex_syntaxerror(ls, "'=' or 'in' expected");
    }
    check_match(ls, TK_END, TK_FOR, line);
    leave_block(fs); /* 'break' comes here */
}

/* IF/ELSEIF cond THEN block */
static void test_then_block(LexState *ls, int *escapelist)
{
    BlockCnt bl;
    FuncState *fs = ls->fs;
    ExpDesc v;
    int jf; /* the jump over the 'then' part */
    lex_next(ls);
    expr(ls, &v);
    check_next(ls, TK_THEN);
    if (ls->t.token == TK_BREAK) { /* 'if c then break': jump out when c holds */
        int line = ls->linenumber;
        code_goiffalse(fs, &v);
        lex_next(ls);
        enter_block(fs, &bl, 0); /* the goto must belong to the block */
        new_goto_entry(ls, ls->breakid, line, v.t);
        while (test_next(ls, ';')) {
        }
        if (block_follow(ls, 0)) { /* the break is the whole block */
            leave_block(fs);
            return;
        }
        jf = code_jump(fs);
    } else {
        code_goiftrue(fs, &v);
        enter_block(fs, &bl, 0);
        jf = v.f;
    }
    statlist(ls);
    leave_block(fs);
    if (ls->t.token == TK_ELSE || ls->t.token == TK_ELSEIF) code_concat(fs, escapelist, code_jump(fs));
    code_patchtohere(fs, jf);
}

static void ifstat(LexState *ls, int line)
{
    int escapelist = NO_JUMP; /* the jumps to the end of the whole statement */
    test_then_block(ls, &escapelist);
    while (ls->t.token == TK_ELSEIF) test_then_block(ls, &escapelist);
    if (test_next(ls, TK_ELSE)) block(ls);
    check_match(ls, TK_END, TK_IF, line);
    code_patchtohere(ls->fs, escapelist);
}

static void localfunc(LexState *ls)
{
    ExpDesc b;
    FuncState *fs = ls->fs;
    int fvar = fs->nactvar;
    new_localvar_named(ls);
    adjust_localvars(ls, 1); /* in scope inside its own body (recursion) */
    body(ls, &b, 0, ls->linenumber);
    /* for the debug information the variable starts once it has its value */
    local_debuginfo(fs, fvar)->startpc = fs->pc;
}

static int local_attribute(LexState *ls)
{
    if (test_next(ls, '<')) {
        const char *attr = getstr(check_name(ls, NULL));
        check_next(ls, '>');
        if (strcmp(attr, "const") == 0) return RDKCONST;
        if (strcmp(attr, "close") == 0) return RDKTOCLOSE;
        lex_semerror(ls, conv_pushfstring(ls->L, "unknown attribute '%s'", attr));
    }
    return VDKREG;
}

static void check_toclose(FuncState *fs, int level)
{
    if (level != -1) {
        mark_tobeclosed(fs);
        code_ABC(fs, OP_TBC, reg_level(fs, level), 0, 0);
    }
}

/* LOCAL attnamelist ['=' explist] */
static void localstat(LexState *ls)
{
    FuncState *fs = ls->fs;
    int toclose = -1;
    int vidx, nvars = 0, nexps;
    ExpDesc e;
    do {
        vidx = new_localvar_named(ls);
        int kind = local_attribute(ls);
        parse_vardesc(fs, vidx)->kind = (uint8_t)kind;
        if (kind == RDKTOCLOSE) {
            if (toclose != -1) lex_semerror(ls, "multiple to-be-closed variables in local list");
            toclose = fs->nactvar + nvars;
        }
        nvars++;
    } while (test_next(ls, ','));
    if (test_next(ls, '=')) {
        nexps = explist(ls, &e);
    } else {
        e.k = EXP_VOID;
        nexps = 0;
    }
    VarDesc *var = parse_vardesc(fs, vidx); /* the last one (the list may have moved) */
    TValue kv;
    if (nvars == nexps && var->kind == RDKCONST && code_exp2const(fs, &e, &kv)) {
        /* a constant known now: the last variable needs no register */
        set_constvalue(ls, var, &kv);
        adjust_localvars(ls, nvars - 1);
        fs->nactvar++;
    } else {
        adjust_assign(ls, nvars, nexps, &e);
        adjust_localvars(ls, nvars);
    }
    check_toclose(fs, toclose);
}

/* NAME {'.' NAME} [':' NAME]; returns whether it names a method. */
static int funcname(LexState *ls, ExpDesc *v)
{
    int ismethod = 0;
    single_var(ls, v);
    while (ls->t.token == '.') fieldsel(ls, v);
    if (ls->t.token == ':') {
        ismethod = 1;
        fieldsel(ls, v);
    }
    return ismethod;
}

static void funcstat(LexState *ls, int line)
{
    ExpDesc v, b;
    lex_next(ls);
    int ismethod = funcname(ls, &v);
    body(ls, &b, ismethod, line);
    check_readonly(ls, &v);
    code_storevar(ls->fs, &v, &b);
    code_fixline(ls->fs, line); /* the definition "happens" on its first line */
}

/* A call or an assignment. */
static void exprstat(LexState *ls)
{
    FuncState *fs = ls->fs;
    LhsAssign v;
    suffixedexp(ls, &v.v);
    if (ls->t.token == '=' || ls->t.token == ',') {
        v.prev = NULL;
        restassign(ls, &v, 1);
    } else {
        check_condition(ls, v.v.k == EXP_CALL, "syntax error");
        SETARG_C(code_instruction(fs, &v.v), 1); /* a call statement keeps no results */
    }
}

/* RETURN [explist] [';'] */
static void retstat(LexState *ls)
{
    FuncState *fs = ls->fs;
    ExpDesc e;
    int nret;
    int first = parse_nvarstack(fs); /* the results go from here */
    if (block_follow(ls, 1) || ls->t.token == ';') {
        nret = 0;
    } else {
        nret = explist(ls, &e);
        if (exp_hasmultret(e.k)) {
            code_setmultret(fs, &e);
            if (e.k == EXP_CALL && nret == 1 && !fs->bl->insidetbc) { /* a tail call */
                SET_OPCODE(code_instruction(fs, &e), OP_TAILCALL);
                lua_assert(GETARG_A(code_instruction(fs, &e)) == parse_nvarstack(fs));
            }
            nret = LUA_MULTRET;
        } else if (nret == 1) {
            first = code_exp2anyreg(fs, &e); /* the value may stay where it is */
        } else {
            code_exp2nextreg(fs, &e);
            lua_assert(nret == fs->freereg - first);
        }
    }
    code_ret(fs, first, nret);
    test_next(ls, ';');
}

static void statement(LexState *ls)
{
    int line = ls->linenumber;
    enter_level(ls);
    switch (ls->t.token) {
    case ';':
        lex_next(ls);
        break;
    case TK_IF:
        ifstat(ls, line);
        break;
    case TK_WHILE:
        whilestat(ls, line);
        break;
    case TK_DO:
        lex_next(ls);
        block(ls);
        check_match(ls, TK_END, TK_DO, line);
        break;
    case TK_FOR:
        forstat(ls, line);
        break;
    case TK_REPEAT:
        repeatstat(ls, line);
        break;
    case TK_FUNCTION:
        funcstat(ls, line);
        break;
    case TK_LOCAL:
        lex_next(ls);
        if (test_next(ls, TK_FUNCTION))
            localfunc(ls);
        else
            localstat(ls);
        break;
    case TK_DBCOLON: {
        int name;
        lex_next(ls);
        check_name(ls, &name);
        labelstat(ls, name, line);
        break;
    }
    case TK_RETURN:
        lex_next(ls);
        retstat(ls);
        break;
    case TK_BREAK:
        breakstat(ls);
        break;
    case TK_GOTO:
        lex_next(ls);
        gotostat(ls);
        break;
    default:
        exprstat(ls);
        break;
    }
    lua_assert(ls->fs->f->maxstacksize >= ls->fs->freereg && ls->fs->freereg >= parse_nvarstack(ls->fs));
    ls->fs->freereg = (uint8_t)parse_nvarstack(ls->fs); /* temporaries die with the statement */
    leave_level(ls);
}

/* =========================================================================
 * The main function and the entry point
 */

/* The chunk: a vararg function whose one upvalue is _ENV. */
static void main_function(LexState *ls, FuncState *fs)
{
    BlockCnt bl;
    open_func(ls, fs, &bl);
    set_vararg(fs, 0);
    Upvaldesc *env = alloc_upvalue(fs);
    env->instack = 1;
    env->idx = 0;
    env->kind = VDKREG;
    env->name = ls->envname;
    gc_objbarrier(ls->L, fs->f, env->name);
    lex_next(ls); /* the first token */
    statlist(ls);
    check(ls, TK_EOS);
    close_func(ls);
}

typedef struct CompileJob {
    LexState *ls;
    Reader *z;
    const char *chunkname;
    int firstchar;
    LClosure *cl;
} CompileJob;

static void compile(lua_State *L, void *ud)
{
    CompileJob *job = ud;
    LexState *ls = job->ls;
    FuncState fs;
    stack_check(L, 2);
    LClosure *cl = func_newLclosure(L, 1);
    setclLvalue(L, s2v(L->top), cl);
    L->top++;
    ls->anchors = tab_new(L);
    sethvalue(L, s2v(L->top), ls->anchors);
    L->top++;
    fs.f = func_newproto(L);
    cl->p = fs.f;
    gc_objbarrier(L, cl, fs.f);
    TString *source = str_newz(L, job->chunkname);
    fs.f->source = source;
    gc_objbarrier(L, fs.f, source);
    lex_setinput(L, ls, job->z, source, job->firstchar);
    main_function(ls, &fs);
    lua_assert(fs.prev == NULL && fs.nups == 1 && ls->fs == NULL);
    L->top--; /* the anchor table; the closure stays */
    job->cl = cl;
}

LClosure *parse_chunk(lua_State *L, Reader *z, const char *chunkname, int firstchar)
{
    LexState ls;
    Dyndata dyd;
    CompileJob job;
    memset(&ls, 0, sizeof ls);
    memset(&dyd, 0, sizeof dyd);
    ls.dyd = &dyd;
    ls.chunkname = chunkname;
    job.ls = &ls;
    job.z = z;
    job.chunkname = chunkname;
    job.firstchar = firstchar;
    job.cl = NULL;
    /* run protected so that the parser's own memory is freed on errors too */
    int status = call_rawrunprotected(L, compile, &job);
    free_lists(L, &ls, &dyd);
    if (status != LUA_OK) call_throw(L, status); /* the error object is on top */
    return job.cl;
}
