/*
 * lauxlib_buffer.c — luaL_Buffer, building strings piecemeal, and
 * luaL_gsub, the plain-text replace built on it.
 *
 * A buffer starts in its own [init] array. luaL_buffinit pushes a
 * placeholder (a light userdata) that reserves the buffer's stack slot.
 * When the bytes outgrow [init] they move to a block from the state's
 * allocator, owned by a small "box" userdata that replaces the
 * placeholder; later growth reallocates the block (in place when the
 * allocator can), and luaL_pushresult frees it at once. The block stays
 * out of the collected heap, so building a long string leaves no garbage
 * behind; if an error unwinds past the buffer, the box's __gc frees the
 * block when the box is collected. The block only moves inside a buffer
 * operation, so B->b stays valid between them.
 */
#include <stdint.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

/* Registry name of the boxes' metatable. */
#define BOX_METATABLE "tide.BufferBox"

typedef struct BufferBox {
    void *block;
    size_t size;
} BufferBox;

static void release_block(lua_State *L, BufferBox *box)
{
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    if (box->block != NULL) alloc(ud, box->block, box->size, 0);
    box->block = NULL;
    box->size = 0;
}

/* The box's __gc: a buffer abandoned by an error. */
static int collect_box(lua_State *L)
{
    release_block(L, (BufferBox *)lua_touserdata(L, 1));
    return 0;
}

/* Resizes [box]'s block to [size] bytes, keeping its contents. */
static char *resize_block(lua_State *L, BufferBox *box, size_t size)
{
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    void *block = alloc(ud, box->block, box->size, size);
    if (block == NULL) {
        lua_pushliteral(L, "not enough memory");
        lua_error(L);
    }
    box->block = block;
    box->size = size;
    return (char *)block;
}

/* Pushes a new, empty box. */
static BufferBox *push_box(lua_State *L)
{
    BufferBox *box = (BufferBox *)lua_newuserdatauv(L, sizeof(BufferBox), 0);
    box->block = NULL;
    box->size = 0;
    if (luaL_newmetatable(L, BOX_METATABLE)) {
        lua_pushcfunction(L, collect_box);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    return box;
}

static int buffer_in_box(const luaL_Buffer *B)
{
    return B->b != B->init.b;
}

/* Makes room for [extra] more bytes, the buffer's slot being [slot] (the
 * top, or just below it when luaL_addvalue's value sits there). Returns
 * where the next bytes go. */
static char *grow_buffer(luaL_Buffer *B, size_t extra, int slot)
{
    lua_State *L = B->L;
    if (SIZE_MAX - extra < B->n) luaL_error(L, "buffer too large");
    size_t needed = B->n + extra;
    size_t size = B->size <= SIZE_MAX / 2 ? B->size * 2 : needed;
    if (size < needed) size = needed;
    char *block;
    if (buffer_in_box(B)) {
        block = resize_block(L, (BufferBox *)lua_touserdata(L, slot), size);
    } else {
        slot = lua_absindex(L, slot);
        BufferBox *box = push_box(L);
        lua_replace(L, slot);                  /* the box takes the placeholder's slot */
        block = resize_block(L, box, size);
        memcpy(block, B->b, B->n);
    }
    B->b = block;
    B->size = size;
    return block + B->n;
}

/* Room for [extra] bytes after the contents, the slot being at [slot]. */
static char *room_for(luaL_Buffer *B, size_t extra, int slot)
{
    if (B->size - B->n >= extra) return B->b + B->n;
    return grow_buffer(B, extra, slot);
}

LUALIB_API void luaL_buffinit(lua_State *L, luaL_Buffer *B)
{
    B->L = L;
    B->b = B->init.b;
    B->n = 0;
    B->size = LUAL_BUFFERSIZE;
    lua_pushlightuserdata(L, (void *)B);      /* reserves the buffer's slot */
}

LUALIB_API char *luaL_prepbuffsize(luaL_Buffer *B, size_t sz)
{
    return room_for(B, sz, -1);
}

LUALIB_API char *luaL_buffinitsize(lua_State *L, luaL_Buffer *B, size_t sz)
{
    luaL_buffinit(L, B);
    return room_for(B, sz, -1);
}

LUALIB_API void luaL_addlstring(luaL_Buffer *B, const char *s, size_t l)
{
    if (l == 0) return;                        /* s may be NULL then */
    char *dst = room_for(B, l, -1);
    memcpy(dst, s, l);
    B->n += l;
}

LUALIB_API void luaL_addstring(luaL_Buffer *B, const char *s)
{
    luaL_addlstring(B, s, strlen(s));
}

LUALIB_API void luaL_addvalue(luaL_Buffer *B)
{
    lua_State *L = B->L;
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    if (len > 0) {
        char *dst = room_for(B, len, -2);      /* the value is above the slot */
        memcpy(dst, s, len);
        B->n += len;
    }
    lua_pop(L, 1);
}

LUALIB_API void luaL_pushresult(luaL_Buffer *B)
{
    lua_State *L = B->L;
    lua_pushlstring(L, B->b, B->n);
    if (buffer_in_box(B)) release_block(L, (BufferBox *)lua_touserdata(L, -2));
    lua_remove(L, -2);                         /* the placeholder or the box */
}

LUALIB_API void luaL_pushresultsize(luaL_Buffer *B, size_t sz)
{
    luaL_addsize(B, sz);
    luaL_pushresult(B);
}

LUALIB_API void luaL_addgsub(luaL_Buffer *B, const char *s, const char *p, const char *r)
{
    size_t pattern_len = strlen(p);
    const char *hit;
    if (pattern_len == 0) {                    /* nothing to replace (and no */
        luaL_addstring(B, s);                  /* endless run of empty hits) */
        return;
    }
    while ((hit = strstr(s, p)) != NULL) {
        luaL_addlstring(B, s, (size_t)(hit - s));
        luaL_addstring(B, r);
        s = hit + pattern_len;
    }
    luaL_addstring(B, s);
}

LUALIB_API const char *luaL_gsub(lua_State *L, const char *s, const char *p, const char *r)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addgsub(&b, s, p, r);
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}
