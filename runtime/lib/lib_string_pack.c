/*
 * lib_string_pack.c — string.pack, string.packsize and string.unpack
 * (manual §6.4.2): values to and from binary layouts.
 *
 * A format is read one option at a time (read_option), each option with
 * its size and the padding that aligns it (next_item). Integers are
 * written and read byte by byte in the requested byte order, so any size
 * from 1 to 16 works the same way; floats are copied as their native bytes
 * and reversed when the requested order is not the machine's.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "lib_string_internal.h"

/* Sizes given in a format ("i16", "!8", "s4") lie in [1, MAX_INT_SIZE]. */
#define MAX_INT_SIZE 16

#define PACK_PAD_BYTE 0x00
#define BYTE_BITS 8
#define BYTE_MASK 0xff
#define INTEGER_SIZE ((int)sizeof(lua_Integer))

/* What '!' alone means: the strictest alignment any of Lua's scalar types
 * needs, which is what the reference implementation uses. */
union StrictestScalar {
    lua_Number n;
    double d;
    void *p;
    lua_Integer i;
    long l;
};
struct NativeAlignProbe {
    char c;
    union StrictestScalar u;
};
#define NATIVE_ALIGN ((int)offsetof(struct NativeAlignProbe, u))

typedef enum {
    OPT_INT,      /* signed integer */
    OPT_UINT,     /* unsigned integer */
    OPT_FLOAT,    /* C float */
    OPT_NUMBER,   /* lua_Number */
    OPT_DOUBLE,   /* C double */
    OPT_FIXED,    /* "cn": a string of exactly n bytes */
    OPT_COUNTED,  /* "s[n]": a string after its length */
    OPT_ZERO_END, /* "z": a string and a zero */
    OPT_PAD,      /* "x": one padding byte */
    OPT_ALIGN,    /* "Xop": padding up to op's alignment */
    OPT_NONE      /* ' ', '<', '>', '=', '!': settings, no data */
} Option;

typedef struct {
    lua_State *L;
    bool little;  /* byte order of the items that follow */
    int max_align;
} FormatReader;

typedef struct {
    Option option;
    int size;     /* bytes of data (of the length, for "s") */
    int padding;  /* bytes before it, for alignment */
} Item;

static bool native_is_little(void)
{
    const int one = 1;
    return *(const char *)&one == 1;
}

static void reader_init(FormatReader *r, lua_State *L)
{
    r->L = L;
    r->little = native_is_little();
    r->max_align = 1;
}

/* Reads a decimal number at *fmt, or gives [fallback] when there is none.
 * Digits stop being read before the value could pass INT_MAX. */
static int read_number(const char **fmt, int fallback)
{
    if (!isdigit((unsigned char)**fmt)) return fallback;
    int n = 0;
    do {
        n = n * 10 + (*(*fmt)++ - '0');
    } while (isdigit((unsigned char)**fmt) && n <= ((int)STRLIB_MAX_RESULT - 9) / 10);
    return n;
}

static int read_int_size(FormatReader *r, const char **fmt, int fallback)
{
    int n = read_number(fmt, fallback);
    if (n > MAX_INT_SIZE || n <= 0)
        luaL_error(r->L, "integral size (%d) out of limits [1,%d]", n, MAX_INT_SIZE);
    return n;
}

/* Reads one option at *fmt and gives its data size in *size. */
static Option read_option(FormatReader *r, const char **fmt, int *size)
{
    int letter = *(*fmt)++;
    *size = 0;
    switch (letter) {
    case 'b': *size = 1; return OPT_INT;
    case 'B': *size = 1; return OPT_UINT;
    case 'h': *size = (int)sizeof(short); return OPT_INT;
    case 'H': *size = (int)sizeof(short); return OPT_UINT;
    case 'l': *size = (int)sizeof(long); return OPT_INT;
    case 'L': *size = (int)sizeof(long); return OPT_UINT;
    case 'j': *size = INTEGER_SIZE; return OPT_INT;
    case 'J': *size = INTEGER_SIZE; return OPT_UINT;
    case 'T': *size = (int)sizeof(size_t); return OPT_UINT;
    case 'f': *size = (int)sizeof(float); return OPT_FLOAT;
    case 'n': *size = (int)sizeof(lua_Number); return OPT_NUMBER;
    case 'd': *size = (int)sizeof(double); return OPT_DOUBLE;
    case 'i': *size = read_int_size(r, fmt, (int)sizeof(int)); return OPT_INT;
    case 'I': *size = read_int_size(r, fmt, (int)sizeof(int)); return OPT_UINT;
    case 's': *size = read_int_size(r, fmt, (int)sizeof(size_t)); return OPT_COUNTED;
    case 'c':
        *size = read_number(fmt, -1);
        if (*size == -1) luaL_error(r->L, "missing size for format option 'c'");
        return OPT_FIXED;
    case 'z': return OPT_ZERO_END;
    case 'x': *size = 1; return OPT_PAD;
    case 'X': return OPT_ALIGN;
    case ' ': return OPT_NONE;
    case '<': r->little = true; return OPT_NONE;
    case '>': r->little = false; return OPT_NONE;
    case '=': r->little = native_is_little(); return OPT_NONE;
    case '!': r->max_align = read_int_size(r, fmt, NATIVE_ALIGN); return OPT_NONE;
    default: luaL_error(r->L, "invalid format option '%c'", letter); return OPT_NONE;
    }
}

/* Reads the next item of the format; [offset] is where it would start,
 * which decides its padding. An item aligns to its own size, capped by
 * the maximum alignment; "Xop" aligns to op's size and consumes op. */
static Item next_item(FormatReader *r, const char **fmt, size_t offset)
{
    Item item;
    item.option = read_option(r, fmt, &item.size);
    int align = item.size;
    if (item.option == OPT_ALIGN) {
        if (**fmt == '\0' || read_option(r, fmt, &align) == OPT_FIXED || align == 0)
            luaL_argerror(r->L, 1, "invalid next option for option 'X'");
    }
    item.padding = 0;
    if (align > 1 && item.option != OPT_FIXED) {
        if (align > r->max_align) align = r->max_align;
        if ((align & (align - 1)) != 0)
            luaL_argerror(r->L, 1, "format asks for alignment not power of 2");
        item.padding = (align - (int)(offset & (size_t)(align - 1))) & (align - 1);
    }
    return item;
}

/* ---- Integers and floats as bytes ------------------------------------- */

/* Writes the [size] low bytes of [value]; bytes past a lua_Integer's are
 * its sign extension. */
static void put_integer(char *out, lua_Unsigned value, bool little, int size, bool negative)
{
    for (int i = 0; i < size; i++) {
        unsigned char byte;
        if (i < INTEGER_SIZE) {
            byte = (unsigned char)(value & BYTE_MASK);
            value >>= BYTE_BITS;
        } else {
            byte = negative ? BYTE_MASK : 0;
        }
        out[little ? i : size - 1 - i] = (char)byte;
    }
}

static lua_Integer get_integer(lua_State *L, const char *in, bool little, int size,
                               bool is_signed)
{
    const unsigned char *bytes = (const unsigned char *)in;
    int used = size <= INTEGER_SIZE ? size : INTEGER_SIZE;
    lua_Unsigned value = 0;
    for (int i = used - 1; i >= 0; i--) {
        value <<= BYTE_BITS;
        value |= bytes[little ? i : size - 1 - i];
    }
    if (size < INTEGER_SIZE) {
        if (is_signed) { /* extend the sign bit */
            lua_Unsigned sign = (lua_Unsigned)1 << (size * BYTE_BITS - 1);
            value = (value ^ sign) - sign;
        }
    } else if (size > INTEGER_SIZE) {
        /* the extra bytes must only repeat the sign */
        int expected = (is_signed && (lua_Integer)value < 0) ? BYTE_MASK : 0;
        for (int i = used; i < size; i++)
            if (bytes[little ? i : size - 1 - i] != expected)
                luaL_error(L, "%d-byte integer does not fit into Lua Integer", size);
    }
    return (lua_Integer)value;
}

/* Copies [size] bytes, reversing them when the order asked for is not the
 * machine's. */
static void copy_ordered(char *to, const char *from, int size, bool little)
{
    if (little == native_is_little()) {
        memcpy(to, from, (size_t)size);
    } else {
        for (int i = 0; i < size; i++) to[i] = from[size - 1 - i];
    }
}

/* ---- pack ------------------------------------------------------------- */

static void pack_integer(lua_State *L, luaL_Buffer *b, const Item *item, bool little, int arg)
{
    lua_Integer n = luaL_checkinteger(L, arg);
    if (item->size < INTEGER_SIZE) {
        if (item->option == OPT_INT) {
            lua_Integer limit = (lua_Integer)1 << (item->size * BYTE_BITS - 1);
            luaL_argcheck(L, -limit <= n && n < limit, arg, "integer overflow");
        } else {
            lua_Unsigned limit = (lua_Unsigned)1 << (item->size * BYTE_BITS);
            luaL_argcheck(L, (lua_Unsigned)n < limit, arg, "unsigned overflow");
        }
    }
    char *out = luaL_prepbuffsize(b, (size_t)item->size);
    put_integer(out, (lua_Unsigned)n, little, item->size, item->option == OPT_INT && n < 0);
    luaL_addsize(b, (size_t)item->size);
}

static void pack_float(lua_State *L, luaL_Buffer *b, const Item *item, bool little, int arg)
{
    lua_Number x = luaL_checknumber(L, arg);
    char native[sizeof(lua_Number) > sizeof(double) ? sizeof(lua_Number) : sizeof(double)];
    if (item->option == OPT_FLOAT) {
        float f = (float)x;
        memcpy(native, &f, sizeof f);
    } else if (item->option == OPT_DOUBLE) {
        double d = (double)x;
        memcpy(native, &d, sizeof d);
    } else {
        memcpy(native, &x, sizeof x);
    }
    char *out = luaL_prepbuffsize(b, (size_t)item->size);
    copy_ordered(out, native, item->size, little);
    luaL_addsize(b, (size_t)item->size);
}

static void add_padding(luaL_Buffer *b, size_t count)
{
    while (count-- > 0) luaL_addchar(b, PACK_PAD_BYTE);
}

/* Packs one string item; returns the bytes it adds beyond item->size. */
static size_t pack_string(lua_State *L, luaL_Buffer *b, const Item *item, bool little, int arg)
{
    size_t len;
    const char *s = luaL_checklstring(L, arg, &len);
    switch (item->option) {
    case OPT_FIXED:
        luaL_argcheck(L, len <= (size_t)item->size, arg, "string longer than given size");
        luaL_addlstring(b, s, len);
        add_padding(b, (size_t)item->size - len);
        return 0;
    case OPT_COUNTED: {
        luaL_argcheck(L,
                      item->size >= (int)sizeof(size_t) ||
                          len < ((size_t)1 << (item->size * BYTE_BITS)),
                      arg, "string length does not fit in given size");
        char *out = luaL_prepbuffsize(b, (size_t)item->size);
        put_integer(out, (lua_Unsigned)len, little, item->size, false);
        luaL_addsize(b, (size_t)item->size);
        luaL_addlstring(b, s, len);
        return len;
    }
    default: /* OPT_ZERO_END */
        luaL_argcheck(L, strlen(s) == len, arg, "string contains zeros");
        luaL_addlstring(b, s, len);
        luaL_addchar(b, '\0');
        return len + 1;
    }
}

int strlib_pack(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    FormatReader reader;
    reader_init(&reader, L);
    /* A missing argument must read as nil, not as whatever the buffer
     * keeps on the stack above the arguments. */
    lua_pushnil(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int arg = 1;
    size_t offset = 0;
    while (*fmt != '\0') {
        Item item = next_item(&reader, &fmt, offset);
        offset += (size_t)item.padding + (size_t)item.size;
        add_padding(&b, (size_t)item.padding);
        switch (item.option) {
        case OPT_INT:
        case OPT_UINT: pack_integer(L, &b, &item, reader.little, ++arg); break;
        case OPT_FLOAT:
        case OPT_NUMBER:
        case OPT_DOUBLE: pack_float(L, &b, &item, reader.little, ++arg); break;
        case OPT_FIXED:
        case OPT_COUNTED:
        case OPT_ZERO_END: offset += pack_string(L, &b, &item, reader.little, ++arg); break;
        case OPT_PAD: add_padding(&b, 1); break;
        case OPT_ALIGN:
        case OPT_NONE: break;
        }
    }
    luaL_pushresult(&b);
    return 1;
}

int strlib_packsize(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    FormatReader reader;
    reader_init(&reader, L);
    size_t total = 0;
    while (*fmt != '\0') {
        Item item = next_item(&reader, &fmt, total);
        luaL_argcheck(L, item.option != OPT_COUNTED && item.option != OPT_ZERO_END, 1,
                      "variable-length format");
        size_t size = (size_t)item.padding + (size_t)item.size;
        luaL_argcheck(L, total <= STRLIB_MAX_RESULT - size, 1, "format result too large");
        total += size;
    }
    lua_pushinteger(L, (lua_Integer)total);
    return 1;
}

/* ---- unpack ----------------------------------------------------------- */

static void unpack_float(lua_State *L, const char *in, const Item *item, bool little)
{
    char native[sizeof(lua_Number) > sizeof(double) ? sizeof(lua_Number) : sizeof(double)];
    copy_ordered(native, in, item->size, little);
    if (item->option == OPT_FLOAT) {
        float f;
        memcpy(&f, native, sizeof f);
        lua_pushnumber(L, (lua_Number)f);
    } else if (item->option == OPT_DOUBLE) {
        double d;
        memcpy(&d, native, sizeof d);
        lua_pushnumber(L, (lua_Number)d);
    } else {
        lua_Number x;
        memcpy(&x, native, sizeof x);
        lua_pushnumber(L, x);
    }
}

/* Pushes the string item at [pos]; returns the bytes it covers beyond
 * item->size. */
static size_t unpack_string(lua_State *L, const char *data, size_t len, size_t pos,
                            const Item *item, bool little)
{
    switch (item->option) {
    case OPT_FIXED:
        lua_pushlstring(L, data + pos, (size_t)item->size);
        return 0;
    case OPT_COUNTED: {
        size_t n = (size_t)get_integer(L, data + pos, little, item->size, false);
        luaL_argcheck(L, n <= len - pos - (size_t)item->size, 2, "data string too short");
        lua_pushlstring(L, data + pos + item->size, n);
        return n;
    }
    default: { /* OPT_ZERO_END */
        const char *zero = memchr(data + pos, '\0', len - pos);
        luaL_argcheck(L, zero != NULL, 2, "unfinished string for format 'z'");
        size_t n = (size_t)(zero - (data + pos));
        lua_pushlstring(L, data + pos, n);
        return n + 1;
    }
    }
}

int strlib_unpack(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    size_t len;
    const char *data = luaL_checklstring(L, 2, &len);
    size_t pos = strlib_start_position(luaL_optinteger(L, 3, 1), len) - 1;
    luaL_argcheck(L, pos <= len, 3, "initial position out of string");
    FormatReader reader;
    reader_init(&reader, L);
    int count = 0;
    while (*fmt != '\0') {
        Item item = next_item(&reader, &fmt, pos);
        luaL_argcheck(L, (size_t)item.padding + (size_t)item.size <= len - pos, 2,
                      "data string too short");
        pos += (size_t)item.padding;
        luaL_checkstack(L, 2, "too many results");
        count++;
        switch (item.option) {
        case OPT_INT:
        case OPT_UINT:
            lua_pushinteger(L, get_integer(L, data + pos, reader.little, item.size,
                                           item.option == OPT_INT));
            break;
        case OPT_FLOAT:
        case OPT_NUMBER:
        case OPT_DOUBLE: unpack_float(L, data + pos, &item, reader.little); break;
        case OPT_FIXED:
        case OPT_COUNTED:
        case OPT_ZERO_END: pos += unpack_string(L, data, len, pos, &item, reader.little); break;
        case OPT_PAD:
        case OPT_ALIGN:
        case OPT_NONE: count--; break;
        }
        pos += (size_t)item.size;
    }
    lua_pushinteger(L, (lua_Integer)pos + 1);
    return count + 1;
}
