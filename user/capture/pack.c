// SPDX-License-Identifier: GPL-2.0
/*
 * Packed records, the reader's side (capture/pack.h): unpack a DW_REC_PACK
 * into the records it stands for, each checked as a ring record is.  The
 * input is hostile: an entry cut short, a field out of its range, a
 * reference to a stack not defined yet, a table past its limits refuse
 * the pack (with a reason in @why); nothing is read or written out of
 * bounds.  The writer is pack_writer.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcode.h"
#include "record.h"
#include "capture/pack.h"

/* Room for one unpacked record: the fixed part, the longest stack. */
#define REC_ROOM	(64 + DW_PACK_STACK_NR_MAX * 8)

static const struct dw_pack_kind kinds[DW_PACK_KINDS] = {
	{ DUNWIND_REC_SAMPLE, 64, 56, 0, 8,
	  { { 8, 8 }, { 16, 8 }, { 24, 4 }, { 28, 4 }, { 32, 4 }, { 36, 4 }, { 40, 8 },
	    { 48, 8 } } },
	{ DUNWIND_REC_USER_STACK, 40, 32, 0, 8,
	  { { 8, 8 }, { 16, 8 }, { 24, 4 }, { 28, 4 }, { 34, 1 }, { 35, 1 }, { 36, 2 },
	    { 38, 2 } } },
	{ DUNWIND_REC_SAMPLE_STACK, 56, 48, 1, 12,
	  { { 8, 8 }, { 16, 8 }, { 24, 4 }, { 28, 4 }, { 32, 4 }, { 36, 4 }, { 40, 8 },
	    { 50, 1 }, { 51, 1 }, { 52, 2 }, { 54, 2 }, { 48, 2 } } },
};

/**
 * dw_pack_kind_of() - the layout of the record type @type, if it packs
 * @type:	a record type
 * @idx:	set to its index in the state's @prev
 *
 * Context: any.
 * Return: the layout; NULL for a type that is never packed.
 */
const struct dw_pack_kind *dw_pack_kind_of(__u32 type, unsigned int *idx)
{
	unsigned int i;

	for (i = 0; i < DW_PACK_KINDS; i++) {
		if (kinds[i].type == type) {
			*idx = i;
			return &kinds[i];
		}
	}
	return NULL;
}

/**
 * dw_pack_define() - add a stack to the table: its id is the count before
 * @st:		writer's or reader's state
 * @ips:	its IPs
 * @nr:		how many, <= DW_PACK_STACK_NR_MAX
 *
 * Context: user space.
 * Return: 0; -ENOSPC past DW_PACK_STACKS_MAX stacks or DW_PACK_IPS_MAX IPs;
 * -ENOMEM.
 */
int dw_pack_define(struct dw_pack_state *st, const __u64 *ips, __u32 nr)
{
	if (st->nr_stacks >= DW_PACK_STACKS_MAX || nr > DW_PACK_IPS_MAX - st->nr_ips)
		return -ENOSPC;
	if (st->nr_stacks == st->cap_stacks) {
		__u32 cap = st->cap_stacks ? 2 * st->cap_stacks : 256;
		void *p = realloc(st->stacks, (size_t)cap * sizeof(*st->stacks));

		if (!p)
			return -ENOMEM;
		st->stacks = p;
		st->cap_stacks = cap;
	}
	if (!st->ips || st->nr_ips + nr > st->cap_ips) {
		__u32 cap = st->cap_ips ? st->cap_ips : 4096;
		void *p;

		while (cap < st->nr_ips + nr)
			cap *= 2;
		p = realloc(st->ips, (size_t)cap * sizeof(*st->ips));
		if (!p)
			return -ENOMEM;
		st->ips = p;
		st->cap_ips = cap;
	}
	memcpy(st->ips + st->nr_ips, ips, (size_t)nr * sizeof(*ips));
	st->stacks[st->nr_stacks].off = st->nr_ips;
	st->stacks[st->nr_stacks].nr = nr;
	st->nr_stacks++;
	st->nr_ips += nr;
	return 0;
}

/**
 * dw_pack_state_release() - free the stack table
 * @st:		state
 *
 * Context: user space.
 */
void dw_pack_state_release(struct dw_pack_state *st)
{
	free(st->stacks);
	free(st->ips);
	memset(st, 0, sizeof(*st));
}

/**
 * dw_pack_reader_init() - a reader before a capture's first pack
 * @pr:		reader
 *
 * Context: user space.
 */
void dw_pack_reader_init(struct dw_pack_reader *pr)
{
	memset(pr, 0, sizeof(*pr));
}

/**
 * dw_pack_reader_release() - free what the reader holds
 * @pr:		reader from dw_pack_reader_init()
 *
 * Context: user space.
 */
void dw_pack_reader_release(struct dw_pack_reader *pr)
{
	dw_pack_state_release(&pr->st);
	free(pr->rec);
	free(pr->tmp);
	pr->rec = NULL;
	pr->tmp = NULL;
}

__attribute__((format(printf, 2, 3)))
static int refuse(struct dw_pack_reader *pr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pr->why, sizeof(pr->why), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void put_field(__u8 *rec, const struct dw_pack_field *f, __u64 v)
{
	__u8 b = (__u8)v;
	__u16 h = (__u16)v;
	__u32 w = (__u32)v;

	switch (f->width) {
	case 1:
		memcpy(rec + f->off, &b, 1);
		break;
	case 2:
		memcpy(rec + f->off, &h, 2);
		break;
	case 4:
		memcpy(rec + f->off, &w, 4);
		break;
	default:
		memcpy(rec + f->off, &v, 8);
	}
}

/*
 * The stack of an entry at @p[*pos]: its id, defined now if new (@raw:
 * as 8-byte words, else as coded IPs).
 */
static int get_stack(struct dw_pack_reader *pr, int raw, const __u8 *p, __u32 len, __u32 *pos,
		     __u32 *id)
{
	__u64 ref, nr;
	int used, err;

	if (dunwind_leb128_get(p, len, pos, &ref))
		return refuse(pr, "an entry is cut short (its stack)");
	if (ref) {
		if (ref > pr->st.nr_stacks)
			return refuse(pr, "a reference to stack %llu, of %u defined so far",
				      (unsigned long long)ref - 1, pr->st.nr_stacks);
		*id = (__u32)(ref - 1);
		return 0;
	}
	if (dunwind_leb128_get(p, len, pos, &nr))
		return refuse(pr, "a stack definition is cut short (its count)");
	if (nr > DW_PACK_STACK_NR_MAX)
		return refuse(pr, "a stack of %llu IPs (at most %u)", (unsigned long long)nr,
			      DW_PACK_STACK_NR_MAX);
	if (raw) {
		used = (int)nr * 8;
		if ((__u32)used > len - *pos)
			used = -1;
		else
			memcpy(pr->tmp, p + *pos, (size_t)used);
	} else {
		used = dunwind_ipcode_decode(p + *pos, len - *pos, pr->tmp, (__u32)nr);
	}
	if (used < 0)
		return refuse(pr, "a stack definition is cut short (its IPs)");
	*pos += (__u32)used;
	err = dw_pack_define(&pr->st, pr->tmp, (__u32)nr);
	if (err == -ENOSPC)
		return refuse(pr, "more than %u stacks or %u IPs defined", DW_PACK_STACKS_MAX,
			      DW_PACK_IPS_MAX);
	if (err)
		return err;
	*id = pr->st.nr_stacks - 1;
	return 0;
}

/* Build the record of the entry at @p[*pos] (its tag read) in @pr->rec. */
static int unpack_entry(struct dw_pack_reader *pr, const struct dw_pack_kind *k,
			unsigned int idx, const __u8 *p, __u32 len, __u32 *pos)
{
	__u8 *rec = (__u8 *)pr->rec;
	struct dunwind_rec_header *h = (void *)rec;
	__u64 vals[DW_PACK_FIELDS];
	const struct dw_pack_stack *s;
	__u32 i, id = 0, size;
	__u16 nr;
	int err;

	for (i = 0; i < k->nr_fields; i++) {
		__u64 z, v;

		if (dunwind_leb128_get(p, len, pos, &z))
			return refuse(pr, "an entry is cut short (field %u)", i);
		v = pr->st.prev[idx][i] + dunwind_unzigzag(z);
		if (k->f[i].width < 8 && v >> (8 * k->f[i].width))
			return refuse(pr, "field %u of a type-%u entry is out of its range",
				      i, k->type);
		vals[i] = v;
	}
	err = get_stack(pr, k->coded, p, len, pos, &id);
	if (err)
		return err;
	s = &pr->st.stacks[id];
	memset(rec, 0, k->fixed);
	for (i = 0; i < k->nr_fields; i++)
		put_field(rec, &k->f[i], vals[i]);
	nr = (__u16)s->nr;
	if (!k->coded)		/* else a field: the words hold the IPs coded */
		memcpy(rec + k->nr_off, &nr, sizeof(nr));
	size = k->fixed + 8 * s->nr;
	memcpy(rec + k->fixed, pr->st.ips + s->off, (size_t)s->nr * 8);
	if (size > DW_PACK_MAX)
		return refuse(pr, "stack %u is too long for a type-%u record", id, k->type);
	h->type = k->type;
	h->size = (__u16)size;
	if (dunwind_rec_check(h, size))
		return refuse(pr, "an entry unpacks to a malformed type-%u record", k->type);
	memcpy(pr->st.prev[idx], vals, sizeof(vals[0]) * k->nr_fields);
	return 0;
}

/**
 * dw_pack_unpack() - hand out the records a pack stands for, in order
 * @pr:		reader from dw_pack_reader_init(), that unpacked the capture's
 *		earlier packs (their stacks and fields are the base of these)
 * @pack:	a DW_REC_PACK record with a sound header (hostile contents)
 * @emit:	called with each record, checked with dunwind_rec_check(); it
 *		is valid until @emit returns
 * @arg:	passed to @emit
 *
 * Context: user space.  A refused pack may have emitted its first
 * records; @pr is then of no further use for this capture.
 * Return: 0; -EINVAL for a malformed pack (@pr->why says how); -ENOMEM;
 * or what @emit returned, if not 0.
 */
int dw_pack_unpack(struct dw_pack_reader *pr, const struct dunwind_rec_header *pack,
		   dw_pack_emit_fn emit, void *arg)
{
	const __u8 *p = (const __u8 *)(pack + 1);
	__u32 len = pack->size - sizeof(*pack), pos = 0;
	int err;

	pr->why[0] = 0;
	if (pack->misc)
		return refuse(pr, "misc %u (0 expected)", pack->misc);
	if (!pr->rec)
		pr->rec = malloc(REC_ROOM);
	if (!pr->tmp)
		pr->tmp = malloc(DW_PACK_STACK_NR_MAX * sizeof(*pr->tmp));
	if (!pr->rec || !pr->tmp)
		return -ENOMEM;
	while (pos < len) {
		const struct dw_pack_kind *k;
		unsigned int idx;
		__u8 tag = p[pos++];

		if (tag == DW_PACK_END) {
			if (len - pos >= 8)
				return refuse(pr, "%u bytes after its end", len - pos);
			for (; pos < len; pos++)
				if (p[pos])
					return refuse(pr, "padding that is not zero");
			break;
		}
		k = dw_pack_kind_of(tag, &idx);
		if (!k)
			return refuse(pr, "an entry of unknown type %u", tag);
		err = unpack_entry(pr, k, idx, p, len, &pos);
		if (err)
			return err;
		pr->unpacked++;
		err = emit((const void *)pr->rec, arg);
		if (err)
			return err;
	}
	return 0;
}
