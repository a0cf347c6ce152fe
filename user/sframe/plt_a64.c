// SPDX-License-Identifier: GPL-2.0
/*
 * The AArch64 PLT as GNU ld and lld write it (the AArch64 ELF ABI's
 * layout), which has no CFI:
 *
 *   PLT0:  stp x16, x30, [sp, #-16]!   push &GOT[n]'s scratch and the RA
 *          adrp x16, GOT+16; ldr x17, [x16, #lo]; add x16, x16, #lo
 *          br x17                       to the lazy-binding resolver
 *          nop; nop; nop
 *   stub:  adrp x16, GOT[n]; ldr x17, [x16, #lo]; add x16, x16, #lo
 *          br x17
 *
 * A stub is entered by a call and leaves by a branch: SP and x29 are the
 * caller's, the return address in x30, throughout.  PLT0 is the same until
 * its push, after it the RA is at SP + 8 and the caller's SP 16 above.
 * Anything else (BTI or PAC stubs, another linker's) is not recognized.
 */
#include <errno.h>
#include <string.h>

#include "le.h"
#include "sframe/plt_a64.h"

/* AArch64 instructions are little-endian words, whatever the data's order. */
#define plt_insn(p)	dunwind_le32(p)

/* adrp x16; ldr x17, [x16, #imm]; add x16, x16, #imm; br x17 at @p. */
static int plt_is_stub(const __u8 *p)
{
	return (plt_insn(p) & 0x9f00001f) == 0x90000010 &&
	       (plt_insn(p + 4) & 0xffc003ff) == 0xf9400211 &&
	       (plt_insn(p + 8) & 0xffc003ff) == 0x91000210 &&
	       plt_insn(p + 12) == 0xd61f0220;
}

/**
 * dw_plt_a64_check() - is @code the AArch64 linker's PLT?
 * @code:	the section's bytes
 * @size:	their number
 *
 * Context: any.
 * Return: 0 if @code is PLT0 and whole stubs, each as described above;
 * -ENOENT if not.
 */
int dw_plt_a64_check(const __u8 *code, size_t size)
{
	static const __u32 nop = 0xd503201f;
	size_t at;

	if (size < DW_PLT_A64_HEADER || (size - DW_PLT_A64_HEADER) % DW_PLT_A64_STUB ||
	    plt_insn(code) != 0xa9bf7bf0 || !plt_is_stub(code + 4) ||
	    plt_insn(code + 20) != nop || plt_insn(code + 24) != nop || plt_insn(code + 28) != nop)
		return -ENOENT;
	for (at = DW_PLT_A64_HEADER; at < size; at += DW_PLT_A64_STUB)
		if (!plt_is_stub(code + at))
			return -ENOENT;
	return 0;
}
