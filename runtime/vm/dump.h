/*
 * dump.h — Tide's binary chunk format, shared by dump.c (writer) and
 * undump.c (reader). Private to those two files.
 *
 * A chunk is only meant to be read back by the same build of Tide
 * (string.dump / load); the header makes anything else fail cleanly:
 *
 *   header    TIDE_SIGNATURE ("\x1bLua"), CHUNK_VERSION, CHUNK_FORMAT,
 *             CHUNK_CHECKDATA (catches text-mode newline conversion),
 *             sizeof(Instruction), sizeof(lua_Integer), sizeof(lua_Number),
 *             CHUNK_TESTINT and CHUNK_TESTFLT in native byte order (catch a
 *             different endianness or float format),
 *             the main function's number of upvalues (one byte)
 *   function  source (string; absent when stripped or equal to the parent's)
 *             linedefined, lastlinedefined (varints)
 *             numparams, is_vararg, maxstacksize (bytes)
 *             code: count, then the instructions in native byte order
 *             constants: count, then per constant a CHUNK_K* tag and payload
 *                        (integers and floats: 8 native bytes; strings)
 *             upvalues: count, then instack, idx, kind (bytes)
 *             nested functions: count, then each function
 *             debug: lineinfo count (0 or the code size), zigzag deltas;
 *                    locvars count, then name, startpc, endpc;
 *                    upvalue-name count (0 or the upvalue count), names
 *
 * Counts and other unsigned numbers are LEB128 varints (7 bits a byte, low
 * bits first, high bit set on every byte but the last). A string is its
 * length + 1 as a varint (0 for "no string") followed by its bytes.
 */
#ifndef TIDE_VM_DUMP_H
#define TIDE_VM_DUMP_H

#define CHUNK_VERSION 0x54
#define CHUNK_FORMAT 'T'
#define CHUNK_CHECKDATA "\x19\x54\r\n\x1a\n"
#define CHUNK_CHECKDATA_LEN 6
#define CHUNK_TESTINT ((lua_Integer)0x7E1D5A3C5EEDF00Dll)
#define CHUNK_TESTFLT ((lua_Number)-1234.5625)

/* Constant tags */
#define CHUNK_KNIL 0
#define CHUNK_KFALSE 1
#define CHUNK_KTRUE 2
#define CHUNK_KINT 3
#define CHUNK_KFLT 4
#define CHUNK_KSHRSTR 5
#define CHUNK_KLNGSTR 6

#endif
