// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lib/sframe.c: the input is an SFrame section mapped
 * at FUZZ_VADDR.  Opens, validates, walks every FDE and FRE, and looks up
 * PCs at and around every function and row.  Beyond sanitizer findings, it
 * traps when the decoder asks for bytes outside the section or reads more
 * than 64 bytes at once, returns a positive code, or (on a table that
 * validated) returns a row that does not contain the PC asked for.  Inputs
 * of odd size are read with dunwind's %rbx extension (EXT_RBX), the others
 * without.  An input whose header names AArch64 (ABI id 2) is opened as an
 * AArch64 table, any other as one of the host's ABI.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sframe.h"

#define FUZZ_VADDR	0x400200ull
#define MAX_FDES	512	/* keep each run fast; coverage comes from variety */
#define MAX_FRES	512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz_mem {
	const uint8_t *p;
	size_t n;
};

static int fz_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	const struct fz_mem *m = ctx;

	if (off > m->n || len > m->n - off || len > 64)
		__builtin_trap();
	memcpy(dst, m->p + off, len);
	return 0;
}

static void fz_lookup(const struct dunwind_sframe_table *t, __u64 pc, int valid)
{
	struct dunwind_sframe_row row;
	int err = dunwind_sframe_find(t, pc, &row);

	if (err > 0)
		__builtin_trap();
	if (err)
		return;
	if ((row.flags & DUNWIND_SFRAME_ROW_RBX_LOST) && !(row.flags & DUNWIND_SFRAME_ROW_RBX))
		__builtin_trap();
	if (pc < row.pc_lo || pc >= row.pc_hi || pc < row.func_start ||
	    pc - row.func_start >= row.func_size)
		__builtin_trap();
	if (valid && row.pc_hi > row.func_start + row.func_size)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_mem m = { data, size };
	struct dunwind_sframe_src src = { fz_read, &m, size };
	struct dunwind_sframe_table t;
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	struct dunwind_sframe_row row;
	__u32 i, j, nf;
	int valid, err;

	/* Both ABIs the decoder knows: the one the header names, if AArch64. */
	err = size > 4 && data[4] == DUNWIND_SFRAME_ABI_AARCH64_LE ?
	      dunwind_sframe_open_abi(&t, &src, FUZZ_VADDR, DUNWIND_SFRAME_ABI_AARCH64_LE) :
	      dunwind_sframe_open(&t, &src, FUZZ_VADDR);
	if (err > 0)
		__builtin_trap();
	if (err)
		return 0;
	t.ext = (size & 1) ? DUNWIND_SFRAME_EXT_RBX : 0;
	err = dunwind_sframe_validate(&t);
	if (err > 0)
		__builtin_trap();
	valid = err == 0;
	nf = t.num_fdes < MAX_FDES ? t.num_fdes : MAX_FDES;
	for (i = 0; i < nf; i++) {
		__u64 off;

		if (dunwind_sframe_get_fde(&t, i, &fde))
			continue;
		fz_lookup(&t, fde.start, valid);
		fz_lookup(&t, fde.start - 1, valid);
		fz_lookup(&t, fde.start + fde.size - 1, valid);
		fz_lookup(&t, fde.start + fde.size, valid);
		off = fde.fres_off;
		for (j = 0; j < fde.num_fres && j < MAX_FRES; j++) {
			if (dunwind_sframe_get_fre(&t, &fde, off, &fre))
				break;
			if (fre.len < 2 || fre.nwords > DUNWIND_SFRAME_MAX_WORDS)
				__builtin_trap();
			(void)dunwind_sframe_fre_rules(&t, &fde, &fre, &row);
			fz_lookup(&t, fde.start + fre.start, valid);
			fz_lookup(&t, fde.start + fre.start - 1, valid);
			off += fre.len;
		}
	}
	fz_lookup(&t, 0, valid);
	fz_lookup(&t, FUZZ_VADDR, valid);
	fz_lookup(&t, ~0ull, valid);
	return 0;
}
