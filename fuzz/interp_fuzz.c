// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the interpreter frame walker (lib/interp.c) and
 * the readers of CPython's objects (user/interp/linetable.c, pycode.c).
 * The first byte picks what the rest is:
 *
 *   0  a descriptor (its first DUNWIND_INTERP_DESC_SIZE_VER0 bytes), then
 *      memory: validate it, and walk it when valid;
 *   1  memory walked with the descriptors of CPython 3.11 and of a 3.14-like
 *      layout (shim entries, tagged code pointers);
 *   2  a line table, asked for the line of every instruction;
 *   3  memory holding a code object, named with 3.11's layout.
 *
 * Memory is the input repeated over the whole low address space (any
 * address below 2^47 reads input[addr % n]), so that pointers lead
 * somewhere; higher addresses fail.  Beyond sanitizer findings it traps
 * when the walker asks for more than DUNWIND_INTERP_FRAME_MAX bytes or
 * more reads than its bound, returns a reason out of range, emits more
 * frames than asked, or emits a frame that breaks the descriptor's rules.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "interp.h"
#include "interp/cpython_layout.h"
#include "interp/linetable.h"
#include "interp/pycode.h"

#define MAX_OUT		64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz_mem {
	const uint8_t *p;
	size_t n;
	unsigned long reads;
};

static int fz_copy(struct fz_mem *m, __u64 addr, void *dst, size_t len)
{
	size_t at, k;

	m->reads++;
	if (!m->n || addr >> 47)
		return -EFAULT;
	for (at = addr % m->n; len; len -= k, at = 0) {
		k = m->n - at < len ? m->n - at : len;
		memcpy(dst, m->p + at, k);
		dst = (uint8_t *)dst + k;
	}
	return 0;
}

static int fz_read(void *ctx, __u64 addr, void *dst, __u32 len)
{
	if (len > DUNWIND_INTERP_FRAME_MAX)
		__builtin_trap();
	return fz_copy(ctx, addr, dst, len);
}

static int fz_pyread(void *ctx, __u64 addr, void *dst, size_t len)
{
	if (len > (1U << 21))
		__builtin_trap();
	return fz_copy(ctx, addr, dst, len);
}

static void fz_walk(const struct dunwind_interp_desc *d, const uint8_t *p, size_t n)
{
	struct fz_mem m = { p, n, 0 };
	struct dunwind_interp_mem mem = { fz_read, &m };
	struct dunwind_interp_env env = { { 0x1000, 0x2000 }, { 7, 0x2000 } };
	struct dunwind_interp_frame out[MAX_OUT];
	__u32 nr = 12345, i, max = n ? p[0] % (MAX_OUT + 1) : MAX_OUT;
	int valid = dunwind_interp_validate(d) == 0;
	int r = dunwind_interp_walk(d, &env, &mem, out, max, &nr);

	if (!valid) {
		if (r != -DUNWIND_INTERP_EINVAL || nr || m.reads)
			__builtin_trap();
		return;
	}
	if (r < 0 || r >= DUNWIND_INTERP_STOP_MAX || nr > max ||
	    m.reads > DUNWIND_INTERP_MAX_READS)
		__builtin_trap();
	for (i = 0; i < nr; i++)
		if (!out[i].code || (out[i].code & 7) || out[i].insn < -DUNWIND_INTERP_MIN_INSN ||
		    out[i].insn >= DUNWIND_INTERP_MAX_INSN || (out[i].flags & ~1U))
			__builtin_trap();
}

static void fz_known(const uint8_t *p, size_t n)
{
	struct dw_cpython_layout l = *dw_cpython_layout_known(DW_PY_VERSION(3, 11));
	struct dunwind_interp_desc d;

	dw_cpython_desc(&l, 0, &d);
	fz_walk(&d, p, n);
	/* 3.14's shape: current_frame in the thread state, owner >= 3 a shim. */
	l.ts_cframe = 0;
	l.ts_current_frame = 72;
	l.fr_code = 0;
	l.fr_prev = 8;
	l.fr_entry = 74;
	l.entry_cmp = DUNWIND_INTERP_CMP_GE;
	l.entry_value = 3;
	l.entry_shim = 1;
	l.code_tag_mask = 1;
	dw_cpython_desc(&l, 0, &d);
	fz_walk(&d, p, n);
}

static void fz_lines(const uint8_t *p, size_t n)
{
	int line, first = n ? p[0] : 1;
	__s32 insn;

	for (insn = -2; insn < 2 * 512; insn += 2)
		if (dw_py_line(p, n, first, insn, &line) == -ENOENT)
			break;
}

static void fz_code(const uint8_t *p, size_t n)
{
	const struct dw_cpython_layout *l = dw_cpython_layout_known(DW_PY_VERSION(3, 11));
	struct fz_mem m = { p, n, 0 };
	struct dw_pymem mem = { fz_pyread, &m };
	struct dw_pytypes types = { 0, 0, 0 };
	struct dw_pycode_info info;
	__u64 code = 0;

	if (n >= 8)
		memcpy(&code, p, 8);
	if (!dw_pycode_read(l, &types, &mem, code, n > 8 ? p[8] : 0, &info)) {
		if (strlen(info.name) >= sizeof(info.name) || strlen(info.file) >= sizeof(info.file))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dunwind_interp_desc d;

	if (!size)
		return 0;
	switch (data[0] & 3) {
	case 0:
		if (size < 1 + sizeof(d))
			return 0;
		memcpy(&d, data + 1, sizeof(d));
		fz_walk(&d, data + 1 + sizeof(d), size - 1 - sizeof(d));
		/* The same with its header made plausible, to get past the first checks. */
		d.size = sizeof(d);
		d.flags = 0;
		d.kind = DUNWIND_INTERP_CPYTHON;
		d.__reserved0 = 0;
		memset(d.__reserved, 0, sizeof(d.__reserved));
		fz_walk(&d, data + 1 + sizeof(d), size - 1 - sizeof(d));
		break;
	case 1:
		fz_known(data + 1, size - 1);
		break;
	case 2:
		fz_lines(data + 1, size - 1);
		break;
	default:
		fz_code(data + 1, size - 1);
		break;
	}
	return 0;
}
