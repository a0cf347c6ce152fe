// SPDX-License-Identifier: GPL-2.0
/* Naming the Python frames of a recording while it runs: see pynames.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture/pysnap.h"
#include "interp/pynames.h"
#include "util/array.h"

static int name_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_pynames *n = ctx;
	const struct dw_pycode_key *k = key;

	return n->names[id].pid == k->pid && n->names[id].code == k->code;
}

/* Read code object @e->code of @e->pid at @insn and make its record. */
static int name_read(struct dw_pynames *n, const struct dw_cpython *py,
		     const struct dw_pytypes *types, struct dw_pyname *e, __u64 time, __s32 insn)
{
	pid_t pid = (pid_t)e->pid;
	struct dw_pymem mem = n->mem.read ? n->mem : (struct dw_pymem){ dw_pymem_pid_read, &pid };
	struct dw_pycode_info info;
	size_t len = 0, room;
	__u8 *table = NULL;
	int err;

	err = dw_pycode_ident(&py->layout, &mem, e->code, e->ident);
	if (!err)
		err = dw_pycode_read(&py->layout, types, &mem, e->code, insn, &info);
	if (!err)
		err = dw_pycode_table(&py->layout, types, &mem, e->code, &table, &len);
	e->err = err;
	if (err) {
		n->failed++;
		return 0;
	}
	room = sizeof(struct dw_rec_pycode) + DW_PYSNAP_NAME_MAX + DW_PYSNAP_FILE_MAX +
	       DW_PYSNAP_TABLE_MAX + 8;
	if (DW_ARRAY_RESERVE(n->pending, n->pending_cap, n->pending_len + room, 65536)) {
		free(table);
		return -ENOMEM;
	}
	n->pending_len += (size_t)dw_pysnap_encode(n->pending + n->pending_len, room, e->pid,
						   e->code, time, info.name, info.file,
						   info.firstlineno, table, len);
	free(table);
	return 0;
}

/* One frame: code object @code of @pid at @insn, in a stack at @time. */
static int name_frame(struct dw_pynames *n, const struct dw_pyfeed *f, __u32 pid, __u64 time,
		      __u64 code, __s32 insn)
{
	struct dw_pycode_key k = { .code = code, .pid = pid };
	uint64_t h = dw_pycode_hash(pid, code);
	long id = dw_htab_find(&n->ht, h, name_eq, n, &k);
	__u64 ident[DW_PYCODE_IDENT];
	const struct dw_cpython *py;
	struct dw_pytypes types;
	struct dw_pyname *e;
	pid_t p = (pid_t)pid;
	struct dw_pymem mem = n->mem.read ? n->mem : (struct dw_pymem){ dw_pymem_pid_read, &p };
	int err;

	if (dw_pyfeed_proc(f, pid, &py, &types)) {
		n->unknown++;
		return 0;
	}
	if (id >= 0) {
		e = &n->names[id];
		if (e->insn == insn && (__s64)(time - e->checked) < DW_PYNAMES_RECHECK_NS)
			return 0;
		e->insn = insn;
		e->checked = time;
		/* Still the same object? Else name the new one from now on. */
		if (dw_pycode_ident(&py->layout, &mem, code, ident) ||
		    !memcmp(ident, e->ident, sizeof(ident)))
			return 0;
		err = name_read(n, py, &types, e, time, insn);
		n->renamed += !err && !e->err;
		return err;
	}
	if (DW_ARRAY_RESERVE(n->names, n->cap, n->nr + 1, 64) ||
	    dw_htab_insert(&n->ht, h, (uint32_t)n->nr))
		return -ENOMEM;
	e = &n->names[n->nr++];
	memset(e, 0, sizeof(*e));
	e->code = code;
	e->pid = pid;
	e->insn = insn;
	e->checked = time;
	err = name_read(n, py, &types, e, time, insn);
	n->named += !err && !e->err;
	return err;
}

/**
 * dw_pynames_stack() - name the Python frames of one user stack
 * @n:		the names
 * @f:		the recording's interpreters (which one @pid runs)
 * @pid:	the stack's process
 * @time:	the stack's time
 * @ips, @nr:	its entries (DUNWIND_IP_INTERP_FRAME entries and their code
 *		addresses among the native IPs)
 *
 * Context: user space; reads @pid's memory.
 * Return: 0 (what cannot be read is counted), or -ENOMEM.
 */
int dw_pynames_stack(struct dw_pynames *n, const struct dw_pyfeed *f, __u32 pid, __u64 time,
		     const __u64 *ips, unsigned int nr)
{
	unsigned int i;
	int err;

	for (i = 0; i + 1 < nr; i++) {
		if (!DW_IS_PY_FRAME(ips[i]))
			continue;
		err = name_frame(n, f, pid, time, ips[i + 1], (__s32)(__u32)ips[i]);
		if (err)
			return err;
		i++;			/* the code address */
	}
	return 0;
}

/**
 * dw_pynames_flush() - write the records made since the last flush
 * @n:	the names
 * @w:	the capture
 *
 * Context: user space.  Call between records (never while one is reserved).
 * Return: 0, or the capture's -errno.
 */
int dw_pynames_flush(struct dw_pynames *n, struct dw_capture_writer *w)
{
	size_t pos = 0;
	int err = 0;

	while (!err && pos < n->pending_len) {
		const struct dunwind_rec_header *rec = (const void *)(n->pending + pos);

		err = dw_capture_write(w, rec);
		pos += rec->size;
	}
	n->pending_len = 0;
	return err;
}

/**
 * dw_pynames_free() - free the names
 * @n:	the names
 *
 * Context: user space.
 */
void dw_pynames_free(struct dw_pynames *n)
{
	free(n->names);
	free(n->pending);
	dw_htab_free(&n->ht);
	n->names = NULL;
	n->pending = NULL;
	n->nr = n->cap = n->pending_len = n->pending_cap = 0;
}
