// SPDX-License-Identifier: GPL-2.0
/*
 * The eval loop's cold part in a stripped interpreter.  GCC splits
 * _PyEval_EvalFrameDefault into the function and a "_PyEval_EvalFrameDefault
 * .cold" part that only .symtab names; Debian strips .symtab.  With
 * profile-guided builds (Debian's python3.13 and 3.14) the part called
 * cold runs the program: _PyEval_EvalFrameDefault's 2384 bytes jump into a
 * 77 KiB range that has an FDE of its own, and the native walk meets the
 * eval loop's frames there.  Without that range the Python frames of most
 * samples have no eval-loop frame to follow.
 *
 * The part is found from the code: the function's direct jumps (jmp and
 * jcc, rel32) whose target lies strictly inside another FDE's range (a
 * tail call targets a function's first byte; a jump into the middle of
 * one is the same function's other part).  The bytes are scanned at every
 * offset, not decoded: a false pattern would have to hit the inside of an
 * FDE in the text segment, so the range with the most hits wins, and at
 * least DW_COLD_MIN_HITS are needed.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "interp/cpython_elf.h"
#include "util/ehframe_hdr.h"

/* The largest eval function scanned, bytes (3.13's is 2384). */
#define DW_COLD_MAX_SCAN	(1u << 20)
/* Jumps into one range that make it the cold part. */
#define DW_COLD_MIN_HITS	2

/* The index of the last start <= @pc in @starts[0..@n), or @n if none. */
static size_t cold_fde(const __u64 *starts, size_t n, __u64 pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (starts[mid] <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : n;
}

/* The rel32 jump at @p (jmp e9, jcc 0f 80..8f), its length in *@len; 0: none. */
static int cold_jump(const __u8 *p, size_t left, __s32 *rel, unsigned int *len)
{
	const __u8 *r;

	if (left >= 5 && p[0] == 0xe9) {
		r = p + 1;
		*len = 5;
	} else if (left >= 6 && p[0] == 0x0f && (p[1] & 0xf0) == 0x80) {
		r = p + 2;
		*len = 6;
	} else {
		return 0;
	}
	*rel = (__s32)((__u32)r[0] | (__u32)r[1] << 8 | (__u32)r[2] << 16 | (__u32)r[3] << 24);
	return 1;
}

/*
 * Count, per FDE, the jumps of @code (the eval function's bytes, at
 * @py->eval_lo) to its inside; keep the FDE with the most in @py.
 */
static void cold_pick(const __u8 *code, size_t size, const __u64 *starts, size_t n,
		      __u64 text_lo, __u64 text_hi, struct dw_cpython *py)
{
	size_t best = n, i, f, *hits = calloc(n, sizeof(*hits));
	unsigned int len;
	__s32 rel;
	__u64 t;

	if (!hits)
		return;
	for (i = 0; i < size; i++) {
		if (!cold_jump(code + i, size - i, &rel, &len))
			continue;
		t = py->eval_lo + i + len + (__u64)(__s64)rel;
		if (t < text_lo || t >= text_hi || (t >= py->eval_lo && t < py->eval_hi))
			continue;
		f = cold_fde(starts, n, t);
		if (f == n || t == starts[f] || f + 1 == n || starts[f] == py->eval_lo)
			continue;
		if (++hits[f] > (best == n ? 0 : hits[best]))
			best = f;
	}
	if (best != n && hits[best] >= DW_COLD_MIN_HITS) {
		py->cold_lo = starts[best];
		py->cold_hi = starts[best + 1];
	}
	free(hits);
}

/**
 * dw_cpython_cold() - find the eval loop's cold part from the code
 * @elf:	the interpreter's ELF (libelf, hostile)
 * @fd:		its file descriptor, for the function's bytes
 * @py:		eval_lo/hi and text_vaddr/offset set; cold_lo/hi set here
 *		if a cold part is found (left as they are when already set)
 *
 * Context: user space.
 * Return: 0 (found or not: the eval function alone still walks), -ENOMEM.
 */
int dw_cpython_cold(Elf *elf, int fd, struct dw_cpython *py)
{
	size_t size = py->eval_hi - py->eval_lo, hlen, n = 0;
	__u64 hvaddr, *starts = NULL;
	const __u8 *hb;
	GElf_Phdr ph;
	size_t i, nph;
	__u8 *code;
	int ret;

	if (py->cold_hi > py->cold_lo || !size || size > DW_COLD_MAX_SCAN ||
	    py->eval_lo < py->text_vaddr || dw_ehframe_hdr_find(elf, &hb, &hlen, &hvaddr))
		return 0;
	ret = dw_ehframe_hdr_starts(hb, hlen, hvaddr, &starts, &n);
	if (ret || !starts)
		return ret;
	code = malloc(size);
	if (!code) {
		free(starts);
		return -ENOMEM;
	}
	if (pread(fd, code, size, (off_t)(py->eval_lo - py->text_vaddr + py->text_offset)) ==
	    (ssize_t)size && !elf_getphdrnum(elf, &nph)) {
		for (i = 0; i < nph; i++)
			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    ph.p_vaddr == py->text_vaddr)
				cold_pick(code, size, starts, n, ph.p_vaddr,
					  ph.p_vaddr + ph.p_filesz, py);
	}
	free(code);
	free(starts);
	return 0;
}
