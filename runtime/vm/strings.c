/*
 * strings.c — string objects and the short-string intern table.
 *
 * Invariants:
 *  - every short string (length <= TIDE_MAXSHORTLEN) that exists is in
 *    GlobalState.strt, exactly once, in bucket (hash & (size - 1)); so two
 *    equal short strings are the same object;
 *  - long strings are never interned; their hash is computed on first use
 *    (str_hashlong) starting from the seed stored in [hash] at creation;
 *  - contents are followed by a '\0' that the length does not count.
 *
 * The collector removes dead short strings (str_remove), rehashes moved
 * ones and may shrink the table (str_resize); everything else here runs on
 * the mutator.
 */
#include <stdint.h>
#include <string.h>

#include "strings.h"
#include "../gc/gc.h"

/* Largest bucket count the table grows to: past it chains just get longer. */
#define MAXSTRTABSIZE (1 << 30)

/* The longest string we agree to create: its size must fit a size_t with
 * the header, and stay clear of overflow in every size computation. */
#define MAXSTRLEN (SIZE_MAX / 4)

/* --- hashing ------------------------------------------------------------- */

/* A word-at-a-time multiplicative hash: each 8-byte word is folded in with
 * a multiply and a shift, the tail likewise, then a final avalanche so that
 * the low bits (the ones bucket masks use) depend on every input byte. */
#define HASH_MUL1 0x9E3779B97F4A7C15ull
#define HASH_MUL2 0xC2B2AE3D27D4EB4Full
#define HASH_MUL3 0xFF51AFD7ED558CCDull

static inline uint64_t load_word(const char *s)
{
    uint64_t w;
    memcpy(&w, s, sizeof w);
    return w;
}

/* The [n] < 8 last bytes as one word (zero-padded). */
static inline uint64_t load_tail(const char *s, size_t n)
{
    uint64_t w = 0;
    switch (n) {
    case 7: w |= (uint64_t)(unsigned char)s[6] << 48; /* fallthrough */
    case 6: w |= (uint64_t)(unsigned char)s[5] << 40; /* fallthrough */
    case 5: w |= (uint64_t)(unsigned char)s[4] << 32; /* fallthrough */
    case 4: w |= (uint64_t)(unsigned char)s[3] << 24; /* fallthrough */
    case 3: w |= (uint64_t)(unsigned char)s[2] << 16; /* fallthrough */
    case 2: w |= (uint64_t)(unsigned char)s[1] << 8; /* fallthrough */
    case 1: w |= (uint64_t)(unsigned char)s[0]; /* fallthrough */
    default: break;
    }
    return w;
}

unsigned int str_hash(const char *s, size_t l, unsigned int seed)
{
    uint64_t h = ((uint64_t)seed << 32 | seed) ^ ((uint64_t)l * HASH_MUL1);
    while (l >= 8) {
        h = (h ^ load_word(s)) * HASH_MUL2;
        h ^= h >> 29;
        s += 8;
        l -= 8;
    }
    if (l > 0) {
        h = (h ^ load_tail(s, l)) * HASH_MUL2;
        h ^= h >> 29;
    }
    h *= HASH_MUL3;
    h ^= h >> 32;
    return (unsigned int)h;
}

unsigned int str_hashlong(TString *ts)
{
    lua_assert(!isshortstr(ts));
    if (ts->extra == 0) {
        /* [hash] holds the seed until now (str_createlong) */
        ts->hash = str_hash(getstr(ts), ts->u.lnglen, ts->hash);
        ts->extra = 1;
    }
    return ts->hash;
}

int str_eqlngstr(TString *a, TString *b)
{
    size_t len = a->u.lnglen;
    lua_assert(!isshortstr(a) && !isshortstr(b));
    return a == b || (len == b->u.lnglen && memcmp(getstr(a), getstr(b), len) == 0);
}

/* --- the intern table ---------------------------------------------------- */

/* Link every string of [from] (fsize buckets) into [to] (tsize buckets,
 * all empty), telling the collector the new bucket of every young string:
 * the next nursery collection then fixes those chains, not all of them. */
static void rehash_into(lua_State *L, TString **from, int fsize, TString **to, int tsize)
{
    unsigned int mask = (unsigned int)tsize - 1;
    for (int i = 0; i < fsize; i++) {
        TString *ts = from[i];
        while (ts != NULL) {
            TString *next = ts->u.hnext;
            unsigned int b = ts->hash & mask;
            ts->u.hnext = to[b];
            to[b] = ts;
            if (gc_isyoung(G(L), ts)) gc_note_string_bucket(L, b);
            ts = next;
        }
    }
}

/* Called by the mutator to grow the table and by the collector to shrink
 * it. The new buckets are allocated before the old ones are read: the
 * allocation may collect, and the collector may prune or resize the table
 * meanwhile. When memory is short the table just keeps its size. */
void str_resize(lua_State *L, int newsize)
{
    lua_assert(newsize > 0 && (newsize & (newsize - 1)) == 0);
    size_t nbytes = (size_t)newsize * sizeof(TString *);
    TString **nh = gc_raw_try_realloc(L, NULL, 0, nbytes);
    if (nh == NULL) return;
    memset(nh, 0, nbytes);
    StringTable *tb = &G(L)->strt;
    gc_note_string_rehash(L); /* the collector's bucket log is stale: relogged below */
    rehash_into(L, tb->hash, tb->size, nh, newsize);
    gc_raw_free(L, tb->hash, (size_t)tb->size * sizeof(TString *));
    tb->hash = nh;
    tb->size = newsize;
}

void str_init(lua_State *L)
{
    GlobalState *g = G(L);
    TString **hash = gc_raw_newvector(L, MINSTRTABSIZE, TString *);
    memset(hash, 0, MINSTRTABSIZE * sizeof(TString *));
    g->strt.hash = hash;
    g->strt.size = MINSTRTABSIZE;
    g->strt.nuse = 0;
    g->memerrmsg = str_newz(L, "not enough memory");
    gc_fix(L, obj2gco(g->memerrmsg)); /* never collected: raised without allocating */
}

void str_remove(lua_State *L, TString *ts)
{
    StringTable *tb = &G(L)->strt;
    TString **link = &tb->hash[ts->hash & (unsigned int)(tb->size - 1)];
    while (*link != ts) {
        lua_assert(*link != NULL); /* a short string is always in its bucket */
        link = &(*link)->u.hnext;
    }
    *link = ts->u.hnext;
    tb->nuse--;
}

/* --- creation ------------------------------------------------------------- */

static TString *new_string_object(lua_State *L, size_t l, int tag)
{
    if (l > MAXSTRLEN) gc_memerror(L);
    TString *ts = (TString *)gc_new(L, tag, sizelstring(l));
    getstr(ts)[l] = '\0';
    return ts;
}

TString *str_createlong(lua_State *L, size_t l)
{
    TString *ts = new_string_object(L, l, VLNGSTR & 0x3F);
    ts->u.lnglen = l;
    ts->extra = 0;
    ts->hash = G(L)->seed; /* str_hashlong starts from it */
    return ts;
}

/* The interned short string with these contents, created if needed. */
static TString *intern_short(lua_State *L, const char *s, size_t l)
{
    GlobalState *g = G(L);
    unsigned int h = str_hash(s, l, g->seed);
    TString *ts = g->strt.hash[h & (unsigned int)(g->strt.size - 1)];
    for (; ts != NULL; ts = ts->u.hnext) {
        if (ts->hash == h && ts->shrlen == l && memcmp(getstr(ts), s, l) == 0) {
            /* it may be outside a marking cycle's snapshot, or dead and
             * not yet swept: it is in use again (gc.h) */
            gc_string_reused(L, ts);
            return ts;
        }
    }
    /* Not there. Allocation may collect (and the collector may resize or
     * prune the table), so buckets are looked at again afterwards. The new
     * string is reachable only from this frame until it is linked. */
    ts = new_string_object(L, l, VSHRSTR & 0x3F);
    ts->shrlen = (uint8_t)l;
    ts->hash = h;
    ts->extra = 0;
    memcpy(getstr(ts), s, l);
    StringTable *tb = &g->strt;
    if (tb->nuse >= tb->size && tb->size <= MAXSTRTABSIZE / 2) str_resize(L, tb->size * 2);
    unsigned int b = h & (unsigned int)(tb->size - 1);
    ts->u.hnext = tb->hash[b];
    tb->hash[b] = ts;
    tb->nuse++;
    /* The nursery collection fixes the chains it is told about. */
    if (gc_isyoung(g, ts)) gc_note_string_bucket(L, b);
    return ts;
}

TString *str_new(lua_State *L, const char *s, size_t l)
{
    if (l <= TIDE_MAXSHORTLEN) return intern_short(L, s, l);
    TString *ts = str_createlong(L, l);
    memcpy(getstr(ts), s, l);
    return ts;
}

TString *str_newz(lua_State *L, const char *s)
{
    return str_new(L, s, strlen(s));
}
