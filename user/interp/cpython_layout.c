// SPDX-License-Identifier: GPL-2.0
/*
 * CPython's layouts: 3.11 as data, 3.13+ from _Py_DebugOffsets, and the
 * interpreter descriptor a layout gives.  See cpython_layout.h.
 */
#include <errno.h>
#include <string.h>

#include "interp/cpython_layout.h"

/*
 * Debian 12's python3.11 (3.11.2), x86_64: offsetof() in the headers of
 * python3.11-dev with Py_BUILD_CORE (user/tests/cpython_layout_gen.c).
 * Unchanged across 3.11.x: CPython keeps a minor version's ABI.
 */
static const struct dw_cpython_layout py311 = {
	.version = DW_PY_VERSION(3, 11),
	.rt_interp_head = 40, .is_next = 0, .is_threads_head = 16,
	.ts_next = 8, .ts_native_tid = 160, .ts_cframe = 56, .cframe_current = 8,
	.fr_code = 32, .fr_prev = 48, .fr_insn = 56,
	.fr_entry = 68, .fr_entry_size = 1,		/* bool is_entry */
	.entry_cmp = DUNWIND_INTERP_CMP_EQ, .entry_mask = 0xff, .entry_value = 1,
	.co_filename = 112, .co_name = 120, .co_qualname = 128, .co_linetable = 136,
	.co_firstlineno = 72, .co_code = 184,
	.ob_type = 8, .bytes_size = 16, .bytes_sval = 32,
	.str_state = 32, .str_length = 16, .str_ascii_size = 48, .str_compact_size = 72,
};

const struct dw_cpython_layout *dw_cpython_layout_known(__u32 version)
{
	if ((version & 0xffff0000) == DW_PY_VERSION(3, 11))
		return &py311;
	return NULL;
}

/*
 * Where each field we use lies inside _Py_DebugOffsets: the struct grew
 * between 3.13 and 3.14 (offsetof() in unstable's libpython3.13-dev
 * 3.13.18 and libpython3.14-dev 3.14.10 headers).
 */
struct py_debug_pos {
	__u32 minor;
	__u16 free_threaded, interp_head, is_next, is_threads, ts_next, ts_frame, ts_tid;
	__u16 fr_prev, fr_exec, fr_insn, fr_owner;
	__u16 co_file, co_name, co_qual, co_lines, co_first, co_code;
	__u16 ob_type, by_size, by_sval, st_state, st_len, st_ascii;
	__u8 owner_value, owner_cmp, tag_mask;
};

static const struct py_debug_pos debug_pos[] = {
	{ 13, 16, 40, 64, 72, 168, 184, 200, 232, 240, 248, 264,
	  280, 288, 296, 304, 312, 344, 360, 520, 528, 544, 552, 560,
	  3, DUNWIND_INTERP_CMP_EQ, 0 },	/* owner == FRAME_OWNED_BY_CSTACK */
	{ 14, 16, 40, 64, 72, 192, 208, 224, 256, 264, 272, 288,
	  320, 328, 336, 344, 352, 384, 408, 600, 608, 624, 632, 640,
	  3, DUNWIND_INTERP_CMP_GE, 1 },	/* owner >= FRAME_OWNED_BY_INTERPRETER */
};

/* Largest offset accepted from the file (a field of a C struct). */
#define PY_MAX_FIELD	(1U << 16)

static int py_field(const __u8 *buf, size_t len, __u16 pos, __u32 align, __u32 *out)
{
	__u64 v;

	if (pos + 8U > len)
		return -EINVAL;
	memcpy(&v, buf + pos, 8);
	if (v > PY_MAX_FIELD || (v & (align - 1)))
		return -EINVAL;
	*out = (__u32)v;
	return 0;
}

static int py_from_pos(const __u8 *b, size_t len, const struct py_debug_pos *p,
		       struct dw_cpython_layout *l)
{
	int err = 0;

	err |= py_field(b, len, p->interp_head, 8, &l->rt_interp_head);
	err |= py_field(b, len, p->is_next, 8, &l->is_next);
	err |= py_field(b, len, p->is_threads, 8, &l->is_threads_head);
	err |= py_field(b, len, p->ts_next, 8, &l->ts_next);
	err |= py_field(b, len, p->ts_frame, 8, &l->ts_current_frame);
	err |= py_field(b, len, p->ts_tid, 8, &l->ts_native_tid);
	err |= py_field(b, len, p->fr_prev, 8, &l->fr_prev);
	err |= py_field(b, len, p->fr_exec, 8, &l->fr_code);
	err |= py_field(b, len, p->fr_insn, 8, &l->fr_insn);
	err |= py_field(b, len, p->fr_owner, 1, &l->fr_entry);
	err |= py_field(b, len, p->co_file, 8, &l->co_filename);
	err |= py_field(b, len, p->co_name, 8, &l->co_name);
	err |= py_field(b, len, p->co_qual, 8, &l->co_qualname);
	err |= py_field(b, len, p->co_lines, 8, &l->co_linetable);
	err |= py_field(b, len, p->co_first, 4, &l->co_firstlineno);
	err |= py_field(b, len, p->co_code, 2, &l->co_code);
	err |= py_field(b, len, p->ob_type, 8, &l->ob_type);
	err |= py_field(b, len, p->by_size, 8, &l->bytes_size);
	err |= py_field(b, len, p->by_sval, 1, &l->bytes_sval);
	err |= py_field(b, len, p->st_state, 4, &l->str_state);
	err |= py_field(b, len, p->st_len, 8, &l->str_length);
	err |= py_field(b, len, p->st_ascii, 8, &l->str_ascii_size);
	return err ? -EINVAL : 0;
}

int dw_cpython_layout_from_debug(const void *buf, size_t len, struct dw_cpython_layout *out)
{
	const __u8 *b = buf;
	const struct py_debug_pos *p = NULL;
	__u64 version, ft;
	size_t i;

	if (len < 24 || memcmp(b, DW_PY_DEBUG_COOKIE, 8))
		return -ENOENT;
	memcpy(&version, b + 8, 8);
	for (i = 0; i < sizeof(debug_pos) / sizeof(debug_pos[0]); i++)
		if ((version >> 24) == 3 && DW_PY_MINOR(version) == debug_pos[i].minor)
			p = &debug_pos[i];
	if (!p)
		return -EOPNOTSUPP;
	memcpy(&ft, b + p->free_threaded, 8);
	if (ft)
		return -EOPNOTSUPP;
	memset(out, 0, sizeof(*out));
	out->version = (__u32)version;
	if (py_from_pos(b, len, p, out))
		return -EINVAL;
	out->fr_entry_size = 1;				/* char owner */
	out->entry_cmp = p->owner_cmp;
	out->entry_shim = 1;
	out->entry_mask = 0xff;
	out->entry_value = p->owner_value;
	out->code_tag_mask = p->tag_mask;
	/* PyCompactUnicodeObject: the ASCII header, utf8_length and utf8. */
	out->str_compact_size = out->str_ascii_size + 16;
	if (out->fr_code + 8 > DUNWIND_INTERP_FRAME_MAX || out->fr_prev + 8 > DUNWIND_INTERP_FRAME_MAX ||
	    out->fr_insn + 8 > DUNWIND_INTERP_FRAME_MAX || out->fr_entry >= DUNWIND_INTERP_FRAME_MAX)
		return -EINVAL;
	return 0;
}

void dw_cpython_desc(const struct dw_cpython_layout *l, __u64 runtime_vaddr,
		     struct dunwind_interp_desc *d)
{
	struct dunwind_interp_step *s = d->steps;

	memset(d, 0, sizeof(*d));
	d->size = sizeof(*d);
	d->kind = DUNWIND_INTERP_CPYTHON;
	d->version = (l->version >> 24) << 16 | DW_PY_MINOR(l->version) << 8 |
		     (l->version >> 8 & 0xff);
	d->runtime_vaddr = runtime_vaddr;
	/* Every interpreter's every thread, until native_thread_id is ours. */
	*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_BASE,
					     .arg = DUNWIND_INTERP_BASE_RUNTIME };
	*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_DEREF, .arg = l->rt_interp_head };
	*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_EACH, .arg = l->is_next,
					     .imm = 16 };
	*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_DEREF, .arg = l->is_threads_head };
	*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_EACH, .arg = l->ts_next,
					     .imm = DUNWIND_INTERP_MAX_ITER };
	*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_MATCH, .size = 8,
					     .arg = l->ts_native_tid, .flags = DUNWIND_INTERP_KEY_TID };
	if (l->ts_cframe) {
		*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_DEREF, .arg = l->ts_cframe };
		*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_DEREF,
						     .arg = l->cframe_current };
	} else {
		*s++ = (struct dunwind_interp_step){ .op = DUNWIND_INTERP_OP_DEREF,
						     .arg = l->ts_current_frame };
	}
	d->nr_steps = (__u32)(s - d->steps);
	d->frame_code = l->fr_code;
	d->frame_prev = l->fr_prev;
	d->frame_insn = l->fr_insn;
	d->code_tag_mask = l->code_tag_mask;
	d->code_insn = l->co_code;
	d->insn_align = 2;				/* _Py_CODEUNIT */
	d->entry_off = l->fr_entry;
	d->entry_size = l->fr_entry_size;
	d->entry_cmp = l->entry_cmp;
	d->entry_flags = l->entry_shim ? DUNWIND_INTERP_ENTRY_SHIM : 0;
	d->entry_mask = l->entry_mask;
	d->entry_value = l->entry_value;
}
