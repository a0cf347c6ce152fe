/* SPDX-License-Identifier: GPL-2.0 */
/* Build well-formed records for the tests, the way the module would. */
#ifndef DW_TEST_MKREC_H
#define DW_TEST_MKREC_H

#include <stdio.h>
#include <string.h>
#include "record.h"

/* Room for any record the tests build, 8-byte aligned. */
union rec_buf {
	struct dunwind_rec_header hdr;
	struct dunwind_rec_sample sample;
	struct dunwind_rec_user_stack stack;
	struct dunwind_rec_lost lost;
	__u64 raw[8192];
};

/* A SAMPLE whose kernel IPs are @ip0, @ip0 + 1, ... */
static inline struct dunwind_rec_header *mk_sample(union rec_buf *b, __u64 cookie, __u64 time,
						   __u32 pid, __u32 tid, __u32 nr_kernel,
						   __u64 ip0)
{
	struct dunwind_rec_sample *s = &b->sample;
	__u32 i;

	memset(b, 0, dunwind_rec_sample_size(nr_kernel));
	s->hdr.type = DUNWIND_REC_SAMPLE;
	s->hdr.size = (__u16)dunwind_rec_sample_size(nr_kernel);
	s->cookie = cookie;
	s->time = time;
	s->pid = pid;
	s->tid = tid;
	s->cpu = 1;
	s->period = 1001001;
	s->nr_kernel = (__u16)nr_kernel;
	for (i = 0; i < nr_kernel; i++)
		s->ips[i] = ip0 + i;
	return &s->hdr;
}

/* A USER_STACK whose IPs are @ip0, @ip0 + 1, ..., all by frame pointers. */
static inline struct dunwind_rec_header *mk_stack(union rec_buf *b, __u64 cookie, __u32 pid,
						  __u32 tid, __u32 nr, __u64 ip0, __u8 stop)
{
	struct dunwind_rec_user_stack *u = &b->stack;
	__u32 i;

	memset(b, 0, dunwind_rec_user_stack_size(nr));
	u->hdr.type = DUNWIND_REC_USER_STACK;
	u->hdr.size = (__u16)dunwind_rec_user_stack_size(nr);
	u->cookie = cookie;
	u->pid = pid;
	u->tid = tid;
	u->nr = (__u16)nr;
	u->methods = DUNWIND_UNWIND_FP;
	u->stop = stop;
	u->nr_fp = (__u16)nr;
	for (i = 0; i < nr; i++)
		u->ips[i] = ip0 + i;
	return &u->hdr;
}

/* A SAMPLE_STACK of a user-mode sample with the @nr user IPs at @ips. */
static inline struct dunwind_rec_header *mk_sample_stack(union rec_buf *b, __u64 cookie,
							 __u64 time, __u32 pid, __u32 tid,
							 const __u64 *ips, __u32 nr)
{
	struct dunwind_rec_sample_stack *ss = (void *)b;
	__u32 len;

	memset(b, 0, sizeof(*b));
	len = dunwind_ipcode_encode(ss->ips, ips, nr);
	ss->hdr.type = DUNWIND_REC_SAMPLE_STACK;
	ss->hdr.size = (__u16)dunwind_rec_sample_stack_size(len);
	ss->cookie = cookie;
	ss->time = time;
	ss->pid = pid;
	ss->tid = tid;
	ss->cpu = 1;
	ss->flags = DUNWIND_SAMPLE_USER_MODE;
	ss->period = 1001001;
	ss->nr = (__u16)nr;
	ss->methods = DUNWIND_UNWIND_FP;
	ss->nr_fp = (__u16)nr;
	return &ss->hdr;
}

static inline struct dunwind_rec_header *mk_lost(union rec_buf *b, __u64 samples, __u64 stacks)
{
	struct dunwind_rec_lost *l = &b->lost;

	memset(l, 0, sizeof(*l));
	l->hdr.type = DUNWIND_REC_LOST;
	l->hdr.size = sizeof(*l);
	l->lost[DUNWIND_REC_SAMPLE] = samples;
	l->lost[DUNWIND_REC_USER_STACK] = stacks;
	l->lost[0] = samples + stacks;
	return &l->hdr;
}

/* A record of a type this reader does not know, @size bytes. */
static inline struct dunwind_rec_header *mk_unknown(union rec_buf *b, __u32 type, __u16 size)
{
	memset(b, 0xa5, size);
	b->hdr.type = type;
	b->hdr.misc = 0;
	b->hdr.size = size;
	return &b->hdr;
}

static inline struct dunwind_rec_header *mk_comm(union rec_buf *b, __u32 pid, __u32 tid,
						 __u64 time, const char *name, int exec)
{
	struct dunwind_rec_comm *c = (void *)b;

	memset(c, 0, sizeof(*c));
	c->hdr.type = DUNWIND_REC_COMM;
	c->hdr.size = sizeof(*c);
	c->hdr.misc = exec ? DUNWIND_COMM_EXEC : 0;
	c->time = time;
	c->pid = pid;
	c->tid = tid;
	snprintf(c->comm, sizeof(c->comm), "%s", name);
	return &c->hdr;
}

/* An MMAP record; @bad_id: claim a build-id no file has. */
static inline struct dunwind_rec_header *mk_mmap(union rec_buf *b, __u32 pid, __u64 time,
						 __u64 start, __u64 end, __u64 pgoff,
						 const char *path, int bad_id)
{
	struct dunwind_rec_mmap *m = (void *)b;
	size_t len = strlen(path);

	memset(m, 0, dunwind_rec_mmap_size((__u32)len));
	m->hdr.type = DUNWIND_REC_MMAP;
	m->hdr.size = (__u16)dunwind_rec_mmap_size((__u32)len);
	m->time = time;
	m->pid = pid;
	m->prot = 5;
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	if (bad_id) {
		m->build_id_size = 20;
		memset(m->build_id, 0xee, 20);
	}
	memcpy(m->path, path, len + 1);
	return &m->hdr;
}

#endif
