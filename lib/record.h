/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Record sizes and validation, shared by the module (which writes records)
 * and user space (which reads them from the ring and from capture files).
 * Pure C: no kernel-only or libc-only calls.
 */
#ifndef DUNWIND_LIB_RECORD_H
#define DUNWIND_LIB_RECORD_H

#include <linux/dunwind.h>
#include "ipcode.h"

static inline __u32 dunwind_rec_sample_size(__u32 nr_kernel)
{
	return sizeof(struct dunwind_rec_sample) + nr_kernel * sizeof(__u64);
}

static inline __u32 dunwind_rec_user_stack_size(__u32 nr)
{
	return sizeof(struct dunwind_rec_user_stack) + nr * sizeof(__u64);
}

/* @ips_len: bytes of the coded IPs. */
static inline __u32 dunwind_rec_sample_stack_size(__u32 ips_len)
{
	return sizeof(struct dunwind_rec_sample_stack) + ((ips_len + 7) & ~7U);
}

/* The largest SAMPLE_STACK of @nr IPs. */
static inline __u32 dunwind_rec_sample_stack_max(__u32 nr)
{
	return dunwind_rec_sample_stack_size(nr * DUNWIND_IPCODE_MAX);
}

/* The IPs of a SAMPLE_STACK: exactly @nr, then fewer than 8 zero bytes. */
static inline int dunwind_rec_sample_stack_check(const struct dunwind_rec_sample_stack *ss)
{
	return dunwind_ipcode_check(ss->ips, ss->hdr.size - sizeof(*ss), ss->nr) < 0 ? -22 : 0;
}

/* @path_len: bytes of the path without its NUL. */
static inline __u32 dunwind_rec_mmap_size(__u32 path_len)
{
	return sizeof(struct dunwind_rec_mmap) + ((path_len + 1 + 7) & ~7U);
}

/*
 * dunwind_rec_check() - is @len bytes at @rec one well-formed record?
 * Checks the header (size, alignment) and, for known types, that the
 * counts inside agree with the size and the ABI limits.  Unknown types
 * are well-formed if their header is (readers skip them).
 * Return: 0, or a negative errno-style code (-22, EINVAL) on any mismatch.
 */
static inline int dunwind_rec_check(const struct dunwind_rec_header *rec, __u64 len)
{
	if (len < sizeof(*rec) || rec->size < sizeof(*rec) || rec->size > len ||
	    rec->size % 8)
		return -22;
	switch (rec->type) {
	case DUNWIND_REC_BUSY:
		return -22;
	case DUNWIND_REC_SAMPLE: {
		const struct dunwind_rec_sample *s = (const void *)rec;

		if (rec->size < sizeof(*s) || s->nr_kernel > DUNWIND_MAX_KERNEL_FRAMES ||
		    rec->size != dunwind_rec_sample_size(s->nr_kernel))
			return -22;
		return 0;
	}
	case DUNWIND_REC_USER_STACK: {
		const struct dunwind_rec_user_stack *u = (const void *)rec;

		if (rec->size < sizeof(*u) || u->nr > DUNWIND_MAX_USER_FRAMES ||
		    rec->size != dunwind_rec_user_stack_size(u->nr) ||
		    u->stop >= DUNWIND_STOP_MAX ||
		    (__u32)u->nr_fp + u->nr_sframe > u->nr)
			return -22;
		return 0;
	}
	case DUNWIND_REC_SAMPLE_STACK: {
		const struct dunwind_rec_sample_stack *ss = (const void *)rec;

		if (rec->size < sizeof(*ss) || ss->nr > DUNWIND_MAX_USER_FRAMES ||
		    ss->stop >= DUNWIND_STOP_MAX || (__u32)ss->nr_fp + ss->nr_sframe > ss->nr)
			return -22;
		return dunwind_rec_sample_stack_check(ss);
	}
	case DUNWIND_REC_LOST:
		return rec->size == sizeof(struct dunwind_rec_lost) ? 0 : -22;
	case DUNWIND_REC_MMAP: {
		const struct dunwind_rec_mmap *m = (const void *)rec;
		__u32 i, n = rec->size - sizeof(*m);

		if (rec->size <= sizeof(*m) || n > DUNWIND_MMAP_PATH_MAX + 8 ||
		    m->build_id_size > sizeof(m->build_id) || m->start >= m->end)
			return -22;
		for (i = 0; i < n; i++)	/* the path is NUL-terminated */
			if (!m->path[i])
				return 0;
		return -22;
	}
	case DUNWIND_REC_COMM: {
		const struct dunwind_rec_comm *c = (const void *)rec;
		__u32 i;

		if (rec->size != sizeof(*c))
			return -22;
		for (i = 0; i < sizeof(c->comm); i++)
			if (!c->comm[i])
				return 0;
		return -22;
	}
	case DUNWIND_REC_FORK:
	case DUNWIND_REC_EXIT:
		return rec->size == sizeof(struct dunwind_rec_task) ? 0 : -22;
	default:
		return 0;
	}
}

#endif /* DUNWIND_LIB_RECORD_H */
