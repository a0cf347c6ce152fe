// SPDX-License-Identifier: GPL-2.0
/*
 * Packed records, the writer's side (capture/pack.h): the capture writer
 * hands each record to dw_pack_add(); a SAMPLE, USER_STACK or SAMPLE_STACK
 * joins the open pack as an entry (its stack looked up in a hash table of
 * the stacks defined so far, defined inline when new), anything else is
 * written as it is after the pack is closed.  A record the entry could not
 * give back byte for byte (a non-zero misc or reserved field) is written
 * as it is too.  pack.c reads them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ipcode.h"
#include "capture/capture.h"
#include "capture/pack.h"

/* Bytes an entry can take, its stack aside: the tag, the fields, a ref. */
#define ENTRY_MAX	(1 + (DW_PACK_FIELDS + 2) * DUNWIND_IPCODE_MAX)

struct dw_pack_writer {
	struct dw_pack_state st;
	__u32 *slots;		/* hash table: stack id + 1, 0 empty */
	__u32 nr_slots;		/* a power of 2, > 2 x the stacks */
	__u32 len;		/* bytes of the open pack, its header too; 0: none */
	__u64 *pack;		/* the open pack (DW_PACK_MAX bytes) */
	__u64 *scratch;		/* dw_pack_scratch() (DW_CAPTURE_CHUNK bytes) */
	__u32 last[DW_PACK_KINDS];	/* stack id + 1 of the last entry of each kind */
};

/**
 * dw_pack_writer_new() - a writer before the capture's first record
 *
 * Context: user space.
 * Return: the writer; NULL (errno ENOMEM).
 */
struct dw_pack_writer *dw_pack_writer_new(void)
{
	struct dw_pack_writer *pw = calloc(1, sizeof(*pw));

	if (!pw)
		return NULL;
	pw->nr_slots = 1024;
	pw->slots = calloc(pw->nr_slots, sizeof(*pw->slots));
	pw->pack = malloc(DW_PACK_MAX);
	pw->scratch = malloc(DW_CAPTURE_CHUNK);
	if (!pw->slots || !pw->pack || !pw->scratch) {
		dw_pack_writer_free(pw);
		errno = ENOMEM;
		return NULL;
	}
	return pw;
}

/**
 * dw_pack_writer_free() - free the writer (an open pack is lost)
 * @pw:		writer, or NULL
 *
 * Context: user space.
 */
void dw_pack_writer_free(struct dw_pack_writer *pw)
{
	if (!pw)
		return;
	dw_pack_state_release(&pw->st);
	free(pw->slots);
	free(pw->pack);
	free(pw->scratch);
	free(pw);
}

/**
 * dw_pack_scratch() - room for one record (DW_CAPTURE_CHUNK bytes)
 * @pw:		writer
 *
 * Context: user space.  Where dw_capture_reserve() has the recorder copy
 * a record, 8-byte aligned.
 * Return: the room.
 */
void *dw_pack_scratch(struct dw_pack_writer *pw)
{
	return pw->scratch;
}

static __u32 hash_ips(const __u64 *ips, __u32 nr)
{
	__u64 h = 0x9e3779b97f4a7c15ULL ^ nr;
	__u32 i;

	for (i = 0; i < nr; i++) {
		h ^= ips[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return (__u32)h;
}

/* The slot of stack @ips (empty if it is not defined). */
static __u32 *slot_of(struct dw_pack_writer *pw, const __u64 *ips, __u32 nr)
{
	__u32 mask = pw->nr_slots - 1, i = hash_ips(ips, nr) & mask;

	for (;; i = (i + 1) & mask) {
		const struct dw_pack_stack *s;

		if (!pw->slots[i])
			return &pw->slots[i];
		s = &pw->st.stacks[pw->slots[i] - 1];
		if (s->nr == nr && !memcmp(pw->st.ips + s->off, ips, (size_t)nr * 8))
			return &pw->slots[i];
	}
}

/* Twice the slots, when the table is half full: 0 or -ENOMEM. */
static int grow(struct dw_pack_writer *pw)
{
	__u32 n = pw->nr_slots * 2, i;
	__u32 *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	free(pw->slots);
	pw->slots = slots;
	pw->nr_slots = n;
	for (i = 0; i < pw->st.nr_stacks; i++) {
		const struct dw_pack_stack *s = &pw->st.stacks[i];

		*slot_of(pw, pw->st.ips + s->off, s->nr) = i + 1;
	}
	return 0;
}

/*
 * The fields of @rec in the order of pack.c's table for its kind @idx
 * (capture_pack_test's round trip checks that they agree), read from the
 * structure: the recorder packs every sample.
 */
static void get_fields(unsigned int idx, const struct dunwind_rec_header *rec, __u64 *v)
{
	const struct dunwind_rec_sample *s = (const void *)rec;
	const struct dunwind_rec_user_stack *u = (const void *)rec;
	const struct dunwind_rec_sample_stack *ss = (const void *)rec;

	switch (idx) {
	case 0:
		v[0] = s->cookie, v[1] = s->time, v[2] = s->pid, v[3] = s->tid;
		v[4] = s->cpu, v[5] = s->flags, v[6] = s->user_ip, v[7] = s->period;
		break;
	case 1:
		v[0] = u->cookie, v[1] = u->time, v[2] = u->pid, v[3] = u->tid;
		v[4] = u->methods, v[5] = u->stop, v[6] = u->nr_fp, v[7] = u->nr_sframe;
		break;
	default:
		v[0] = ss->cookie, v[1] = ss->time, v[2] = ss->pid, v[3] = ss->tid;
		v[4] = ss->cpu, v[5] = ss->flags, v[6] = ss->period, v[7] = ss->methods;
		v[8] = ss->stop, v[9] = ss->nr_fp, v[10] = ss->nr_sframe, v[11] = ss->nr;
	}
}

/*
 * The stack of @rec if an entry gives it back byte for byte: its length
 * (IPs, or a SAMPLE_STACK's words), *@ips set; -1 if it does not.
 */
static long stack_of(const struct dw_pack_kind *k, const __u8 *rec, __u32 size,
		     const __u64 **ips)
{
	__u16 nr, res[3] = { 0 };

	*ips = (const __u64 *)(rec + k->fixed);
	if (k->coded)		/* the coded IPs and padding, as they are */
		return (size - k->fixed) / 8;
	memcpy(&nr, rec + k->nr_off, sizeof(nr));
	if (nr > DW_PACK_STACK_NR_MAX || size != k->fixed + 8U * nr)
		return -1;
	/* SAMPLE's __reserved0 and __reserved1 */
	if (k->type == DUNWIND_REC_SAMPLE && memcmp(rec + 58, res, 6))
		return -1;
	return nr;
}

/* Each of @nf fields as its difference from the last of its kind. */
static inline __attribute__((always_inline)) __u8 *put_fields(__u8 *p, const __u64 *vals,
							      __u64 *prev, unsigned int nf)
{
	unsigned int i;

#pragma GCC unroll 12
	for (i = 0; i < nf; i++) {
		__u64 d = vals[i] - prev[i];

		if (!d) {		/* most fields, most of the time */
			*p++ = 0;
			continue;
		}
		prev[i] = vals[i];
		p += dunwind_leb128_put(p, dunwind_zigzag(d));
	}
	return p;
}

/**
 * dw_pack_add() - put @rec into the open pack
 * @pw:		writer
 * @rec:	a record that passed dunwind_rec_check(); it may lie in
 *		dw_pack_scratch()
 *
 * Context: user space.
 * Return: 1, it is in the pack; 0, it is not packed: close the pack
 * (dw_pack_close()) and write it as it is; -ENOSPC, the open pack has no
 * room for it: close the pack and add it again; -ENOMEM.
 */
int dw_pack_add(struct dw_pack_writer *pw, const struct dunwind_rec_header *rec)
{
	const __u8 *r = (const void *)rec;
	const struct dw_pack_kind *k;
	__u32 *slot = NULL, need, ref;
	__u64 vals[DW_PACK_FIELDS], *prev;
	unsigned int idx, nf;
	const __u64 *ips;
	__u8 *p;
	long nr;

	k = dw_pack_kind_of(rec->type, &idx);
	if (!k || rec->misc)
		return 0;
	nr = stack_of(k, r, rec->size, &ips);
	if (nr < 0)
		return 0;
	/* Most often the stack of the previous record of its type. */
	ref = pw->last[idx];
	if (!ref || pw->st.stacks[ref - 1].nr != nr ||
	    memcmp(pw->st.ips + pw->st.stacks[ref - 1].off, ips, (size_t)nr * 8)) {
		slot = slot_of(pw, ips, (__u32)nr);
		ref = *slot;
	}
	need = ENTRY_MAX;
	if (!ref) {
		if (pw->st.nr_stacks >= DW_PACK_STACKS_MAX ||
		    (__u32)nr > DW_PACK_IPS_MAX - pw->st.nr_ips)
			return 0;	/* the table is full: as it is */
		need += (__u32)nr * (k->coded ? 8 : DUNWIND_IPCODE_MAX);
	}
	if (need > DW_PACK_MAX - sizeof(*rec))
		return 0;
	if (pw->len && need > DW_PACK_MAX - pw->len)
		return -ENOSPC;
	if (!ref) {
		int err = dw_pack_define(&pw->st, ips, (__u32)nr);

		if (err)
			return err == -ENOSPC ? 0 : err;
		*slot = pw->st.nr_stacks;
		if (pw->st.nr_stacks * 2 > pw->nr_slots && grow(pw))
			return -ENOMEM;		/* defined: the capture cannot go on */
	}
	pw->last[idx] = ref ? ref : pw->st.nr_stacks;
	prev = pw->st.prev[idx];
	nf = k->nr_fields;
	if (!pw->len)
		pw->len = sizeof(*rec);
	p = (__u8 *)pw->pack + pw->len;
	*p++ = (__u8)k->type;
	get_fields(idx, rec, vals);
	/* Unrolled for each kind's count (SAMPLE's and USER_STACK's, SAMPLE_STACK's). */
	if (nf == 8)
		p = put_fields(p, vals, prev, 8);
	else if (nf == 12)
		p = put_fields(p, vals, prev, 12);
	else
		p = put_fields(p, vals, prev, nf);
	if (ref) {
		p += dunwind_leb128_put(p, ref);
	} else {			/* new: defined inline */
		*p++ = 0;
		p += dunwind_leb128_put(p, (__u64)nr);
		if (k->coded) {		/* already coded */
			memcpy(p, ips, (size_t)nr * 8);
			p += nr * 8;
		} else {
			p += dunwind_ipcode_encode(p, ips, (__u32)nr);
		}
	}
	pw->len = (__u32)(p - (__u8 *)pw->pack);
	return 1;
}

/**
 * dw_pack_close() - close the open pack
 * @pw:		writer
 *
 * Context: user space.
 * Return: the pack, a DW_REC_PACK record to write now (valid until the
 * next dw_pack_add()); NULL if none was open.
 */
const struct dunwind_rec_header *dw_pack_close(struct dw_pack_writer *pw)
{
	struct dunwind_rec_header *h = (void *)pw->pack;
	__u8 *p = (__u8 *)pw->pack;

	if (!pw->len)
		return NULL;
	while (pw->len % 8)
		p[pw->len++] = DW_PACK_END;
	h->type = DW_REC_PACK;
	h->misc = 0;
	h->size = (__u16)pw->len;
	pw->len = 0;
	return h;
}
