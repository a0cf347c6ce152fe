// SPDX-License-Identifier: GPL-2.0
/*
 * The capture's Python code objects (DW_REC_PYCODE): written by the
 * recorder (interp/pynames.c), read back by the reports.  Records are
 * hostile: every length is checked against the record before use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture/pysnap.h"
#include "util/array.h"

/**
 * dw_pysnap_encode() - one DW_REC_PYCODE record
 * @buf, @cap:	where (8-byte aligned)
 * @pid, @code, @time, @firstlineno: as in struct dw_rec_pycode
 * @name, @file: NUL-terminated; cut at DW_PYSNAP_NAME_MAX/_FILE_MAX bytes
 * @table, @table_len: the line table; one over DW_PYSNAP_TABLE_MAX is left
 *		out (the frames of that code then have no line)
 *
 * Context: user space.
 * Return: the record's size, or -ENOSPC if @cap is too small.
 */
int dw_pysnap_encode(void *buf, size_t cap, __u32 pid, __u64 code, __u64 time,
		     const char *name, const char *file, int firstlineno,
		     const __u8 *table, size_t table_len)
{
	struct dw_rec_pycode *r = buf;
	size_t nl = strnlen(name, DW_PYSNAP_NAME_MAX), fl = strnlen(file, DW_PYSNAP_FILE_MAX);
	size_t size;

	if (table_len > DW_PYSNAP_TABLE_MAX)
		table_len = 0;
	size = (sizeof(*r) + nl + fl + table_len + 7) & ~(size_t)7;
	if (size > cap)
		return -ENOSPC;
	memset(r, 0, size);
	r->hdr.type = DW_REC_PYCODE;
	r->hdr.size = (__u16)size;
	r->time = time;
	r->code = code;
	r->pid = pid;
	r->firstlineno = firstlineno;
	r->name_len = (__u16)nl;
	r->file_len = (__u16)fl;
	r->table_len = (__u32)table_len;
	memcpy(r->data, name, nl);
	memcpy(r->data + nl, file, fl);
	if (table_len)
		memcpy(r->data + nl + fl, table, table_len);
	return (int)size;
}

static int code_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_pysnap *s = ctx;
	const struct dw_pycode_key *k = key;

	return s->codes[id].pid == k->pid && s->codes[id].code == k->code;
}

/* A string of @len bytes at @p, NUL-terminated, in a new allocation. */
static char *dup_str(const __u8 *p, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, p, len);
		s[len] = 0;
	}
	return s;
}

/* The record's fields copied into @c; 0, -EINVAL (malformed) or -ENOMEM. */
static int pysnap_parse(const struct dunwind_rec_header *rec, struct dw_pysnap_code *c)
{
	const struct dw_rec_pycode *r = (const void *)rec;
	size_t body;

	if (rec->size < sizeof(*r) || (rec->size & 7))
		return -EINVAL;
	body = rec->size - sizeof(*r);
	if (r->name_len > DW_PYSNAP_NAME_MAX || r->file_len > DW_PYSNAP_FILE_MAX ||
	    r->table_len > DW_PYSNAP_TABLE_MAX ||
	    (size_t)r->name_len + r->file_len + r->table_len > body || !r->code)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->pid = r->pid;
	c->code = r->code;
	c->time = r->time;
	c->firstlineno = r->firstlineno;
	c->name = dup_str(r->data, r->name_len);
	c->file = dup_str(r->data + r->name_len, r->file_len);
	c->table_len = r->table_len;
	c->table = c->table_len ? (const __u8 *)dup_str(r->data + r->name_len + r->file_len,
							 r->table_len) : NULL;
	if (!c->name || !c->file || (c->table_len && !c->table)) {
		free((void *)c->name);
		free((void *)c->file);
		free((void *)c->table);
		return -ENOMEM;
	}
	return 0;
}

/**
 * dw_pysnap_add() - read one DW_REC_PYCODE record
 * @s:		the table (zeroed at first)
 * @rec:	the record (a sound header, @rec->size bytes readable)
 *
 * Context: user space.
 * Return: 0 (a malformed record is left out), or -ENOMEM.
 */
int dw_pysnap_add(struct dw_pysnap *s, const struct dunwind_rec_header *rec)
{
	struct dw_pysnap_code c;
	struct dw_pycode_key k;
	uint64_t h;
	long id;
	int err = pysnap_parse(rec, &c);

	if (err)
		return err == -EINVAL ? 0 : err;
	k = (struct dw_pycode_key){ .code = c.code, .pid = c.pid };
	h = dw_pycode_hash(c.pid, c.code);
	id = dw_htab_find(&s->ht, h, code_eq, s, &k);
	if (DW_ARRAY_RESERVE(s->codes, s->cap, s->nr + 1, 64))
		goto nomem;
	if (id >= 0) {
		/* A newer one of (pid, code) takes its place in the table. */
		s->codes[s->nr] = s->codes[id];
		s->codes[id] = c;
		s->codes[id].older = (__u32)s->nr + 1;
		s->nr++;
		return 0;
	}
	if (dw_htab_insert(&s->ht, h, (uint32_t)s->nr))
		goto nomem;
	s->codes[s->nr++] = c;
	return 0;
nomem:
	free((void *)c.name);
	free((void *)c.file);
	free((void *)c.table);
	return -ENOMEM;
}

/**
 * dw_pysnap_find() - the code object at @code in @pid for a stack at @time
 * @s:		the table
 * @pid, @code: where
 * @time:	the stack's time: the newest record not after it (else the oldest)
 *
 * Context: user space.
 * Return: the code object, or NULL if the capture has none there.
 */
const struct dw_pysnap_code *dw_pysnap_find(const struct dw_pysnap *s, __u32 pid, __u64 code,
					    __u64 time)
{
	struct dw_pycode_key k = { .code = code, .pid = pid };
	long id = dw_htab_find(&s->ht, dw_pycode_hash(pid, code), code_eq, s, &k);
	const struct dw_pysnap_code *c;
	size_t hops;

	if (id < 0)
		return NULL;
	c = &s->codes[id];
	for (hops = 0; c->time > time && c->older && hops < s->nr; hops++)
		c = &s->codes[c->older - 1];
	return c;
}

/**
 * dw_pysnap_free() - free the table
 * @s:	the table, or NULL
 *
 * Context: user space.
 */
void dw_pysnap_free(struct dw_pysnap *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++) {
		free((void *)s->codes[i].name);
		free((void *)s->codes[i].file);
		free((void *)s->codes[i].table);
	}
	free(s->codes);
	dw_htab_free(&s->ht);
	memset(s, 0, sizeof(*s));
}
