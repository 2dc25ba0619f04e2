/*
 * opcodes.c — the per-opcode property table, generated from the
 * TIDE_OPCODES list of opcodes.h so that the enum and the table can never
 * disagree.
 */
#include "lua.h" /* TIDE_INTERNAL, which opcodes.h uses */
#include "opcodes.h"

const OpInfo op_info[NUM_OPCODES] = {
#define TIDE_OPCODE_INFO(name, mode, a, t, it, ot, mm) \
    { #name, (uint8_t)(mode), (a), (t), (it), (ot), (mm) },
    TIDE_OPCODES(TIDE_OPCODE_INFO)
#undef TIDE_OPCODE_INFO
};
