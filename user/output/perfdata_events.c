// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data's data section (perfdata.c writes the file around it): the
 * capture's COMM, FORK, EXIT and MMAP records (kept by the profile as it
 * read them) and the profile's samples
 * as perf's records, each ending with its sample_id_all fields, sorted
 * by time (ties in the order they were made); and the HEADER_BUILD_ID
 * entries of the files they map.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/dispatch.h"
#include "output/perfdata_priv.h"
#include "util/array.h"

/* @s NUL-terminated and zero-padded to a multiple of @align. */
static void put_str(struct dw_buf *b, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;

	dw_buf_put(b, s, n);
	dw_buf_put(b, NULL, (align - n % align) % align);
}

/* Start a record of @type; ev_end() closes it. */
static size_t ev_begin(struct perfdata *pd, __u32 type, __u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	size_t off = pd->recs.len;

	dw_buf_put(&pd->recs, &h, sizeof(h));
	return off;
}

static void ev_end(struct perfdata *pd, size_t off, __u64 time)
{
	struct perfdata_ev *e;
	size_t len = pd->recs.len - off;

	if (pd->recs.err)
		return;
	if (len > 0xffff) {		/* perf_event_header.size is 16 bits */
		pd->err = -E2BIG;
		return;
	}
	((struct perf_event_header *)(pd->recs.p + off))->size = (__u16)len;
	if (DW_ARRAY_RESERVE(pd->evs, pd->cap_evs, pd->nr_evs + 1, 1024)) {
		pd->err = -ENOMEM;
		return;
	}
	e = &pd->evs[pd->nr_evs];
	e->time = time;
	e->seq = pd->nr_evs++;
	e->off = off;
	e->len = len;
}

static void put_id(struct perfdata *pd, __u32 pid, __u32 tid, __u64 time)
{
	struct perfdata_id id = { .pid = pid, .tid = tid, .time = time };

	dw_buf_put(&pd->recs, &id, sizeof(id));
	if (pd->two)
		dw_buf_put_u64(&pd->recs, PERFDATA_ID_ONCPU);
}

static __u64 exec_time(const struct perfdata *pd, __u32 pid)
{
	size_t i;

	for (i = 0; i < pd->nr_execs; i++)
		if (pd->execs[i].pid == pid)
			return pd->execs[i].time;
	return 0;
}

static void set_exec_time(struct perfdata *pd, __u32 pid, __u64 time)
{
	size_t i;

	for (i = 0; i < pd->nr_execs; i++) {
		if (pd->execs[i].pid == pid) {
			pd->execs[i].time = time;
			return;
		}
	}
	if (DW_ARRAY_RESERVE(pd->execs, pd->cap_execs, pd->nr_execs + 1, 16)) {
		pd->err = -ENOMEM;
		return;
	}
	pd->execs[pd->nr_execs].pid = pid;
	pd->execs[pd->nr_execs++].time = time;
}

/* One HEADER_BUILD_ID entry, unless the same file and id are there. */
static void add_build_id(struct perfdata *pd, __u16 misc, const __u8 *id, __u32 size,
			 const char *file)
{
	struct dw_buf *b = &pd->bids;
	struct perf_event_header h = { .misc = misc | PERFDATA_MISC_BUILD_ID_SIZE };
	__u8 bid[24] = { 0 };
	size_t off, start;

	if (!size || size > 20)
		return;
	memcpy(bid, id, size);
	bid[20] = (__u8)size;
	for (off = 0; off + 36 <= b->len; off += ((struct perf_event_header *)(b->p + off))->size)
		if (!memcmp(b->p + off + 12, bid, sizeof(bid)) &&
		    !strcmp((const char *)b->p + off + 36, file))
			return;
	start = b->len;
	dw_buf_put(b, &h, sizeof(h));
	dw_buf_put_u32(b, (__u32)PERFDATA_HOST_PID);
	dw_buf_put(b, bid, sizeof(bid));
	put_str(b, file, PERFDATA_NAME_ALIGN);
	if (!b->err)
		((struct perf_event_header *)(b->p + start))->size = (__u16)(b->len - start);
}

/* PERF_RECORD_COMM from a COMM record (COMM_EXEC for an exec). */
static int comm_rec(const struct dunwind_rec_comm *c, void *arg)
{
	struct perfdata *pd = arg;
	int exec = c->hdr.misc & DUNWIND_COMM_EXEC;
	char comm[sizeof(c->comm) + 1] = { 0 };
	size_t off;

	memcpy(comm, c->comm, sizeof(c->comm));
	if (exec)
		set_exec_time(pd, c->pid, c->time);
	off = ev_begin(pd, PERF_RECORD_COMM,
		       exec ? PERF_RECORD_MISC_COMM_EXEC : PERF_RECORD_MISC_USER);
	dw_buf_put_u32(&pd->recs, c->pid);
	dw_buf_put_u32(&pd->recs, c->tid);
	put_str(&pd->recs, comm, 8);
	put_id(pd, c->pid, c->tid, c->time);
	ev_end(pd, off, c->time);
	return 0;
}

/* PERF_RECORD_FORK or _EXIT from a FORK or EXIT record. */
static int fork_exit_rec(const struct dunwind_rec_task *t, void *arg)
{
	struct perfdata *pd = arg;
	int fork = t->hdr.type == DUNWIND_REC_FORK;
	size_t off;

	off = ev_begin(pd, fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT, PERF_RECORD_MISC_USER);
	dw_buf_put_u32(&pd->recs, t->pid);
	dw_buf_put_u32(&pd->recs, fork ? t->ppid : t->pid);
	dw_buf_put_u32(&pd->recs, t->tid);
	dw_buf_put_u32(&pd->recs, fork ? t->ptid : t->tid);
	dw_buf_put_u64(&pd->recs, t->time);
	put_id(pd, t->pid, t->tid, t->time);
	ev_end(pd, off, t->time);
	return 0;
}

/*
 * The earliest time before @t of a sample of @pid with a user frame in
 * [@start, @end), else @t: a sample taken inside the exec (before its
 * COMM record) already has the new image's user stack.
 */
static __u64 first_use(const struct dw_prof *p, __u32 pid, __u64 start, __u64 end, __u64 t)
{
	size_t i, j;

	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];

		if (s->pid != pid || s->time >= t)
			continue;
		for (j = 0; j < s->nr; j++) {
			const struct dw_prof_loc *l = &p->locs[p->stack[s->first + j]];

			if (!l->kernel && !l->marker && l->ip >= start && l->ip < end) {
				t = s->time;
				break;
			}
		}
	}
	return t;
}

/* PERF_RECORD_MMAP2 from an MMAP record, at its process's latest exec. */
static int mmap_rec(const struct dunwind_rec_mmap *m, void *arg)
{
	struct perfdata *pd = arg;
	size_t plen = m->hdr.size - sizeof(*m);
	char *path = calloc(1, plen + 1);
	__u16 misc = PERF_RECORD_MISC_USER;
	__u64 t = first_use(pd->prof, m->pid, m->start, m->end, exec_time(pd, m->pid));
	size_t off;

	if (!path) {
		pd->err = -ENOMEM;
		return 0;
	}
	memcpy(path, m->path, plen);
	if (m->build_id_size && m->build_id_size <= sizeof(m->build_id))
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	off = ev_begin(pd, PERF_RECORD_MMAP2, misc);
	dw_buf_put_u32(&pd->recs, m->pid);
	dw_buf_put_u32(&pd->recs, m->pid);
	dw_buf_put_u64(&pd->recs, m->start);
	dw_buf_put_u64(&pd->recs, m->end - m->start);
	dw_buf_put_u64(&pd->recs, m->pgoff);
	if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		__u8 bid[24] = { (__u8)m->build_id_size };

		memcpy(bid + 4, m->build_id, m->build_id_size);
		dw_buf_put(&pd->recs, bid, sizeof(bid));
		add_build_id(pd, PERF_RECORD_MISC_USER, m->build_id, m->build_id_size, path);
	} else {
		dw_buf_put_u32(&pd->recs, m->dev_major);
		dw_buf_put_u32(&pd->recs, m->dev_minor);
		dw_buf_put_u64(&pd->recs, m->ino);
		dw_buf_put_u64(&pd->recs, 0);
	}
	dw_buf_put_u32(&pd->recs, m->prot);
	dw_buf_put_u32(&pd->recs, 0x02);	/* MAP_PRIVATE */
	put_str(&pd->recs, path, 8);
	put_id(pd, m->pid, m->pid, t);
	ev_end(pd, off, t);
	free(path);
	return 0;
}

/* The records of COMM, FORK, EXIT and MMAP records; others have none. */
static const struct dw_rec_ops task_ops = {
	.comm = comm_rec,
	.fork = fork_exit_rec,
	.exit = fork_exit_rec,
	.mmap = mmap_rec,
	.unknown = dw_rec_skip,
};

/*
 * The kernel's map: every kernel address of the samples, from the lowest
 * up.  Its name carries a relocation symbol perf finds in the kallsyms
 * file ("[kernel.kallsyms]" then the symbol's name, the address as pgoff,
 * as perf writes "[kernel.kallsyms]_text"): the lowest function of the
 * samples.  Without one perf warns that kernel addresses were restricted.
 */
static void kernel_mmap(struct perfdata *pd, const struct dw_prof *p)
{
	const struct dw_prof_loc *ref = NULL;
	__u64 lo = ~0ULL;
	char name[256];
	size_t i, off;

	for (i = 0; i < p->nr_locs; i++) {
		const struct dw_prof_loc *l = &p->locs[i];

		if (!l->kernel || l->marker)
			continue;
		if (l->ip < lo)
			lo = l->ip;
		if (l->sym && (!ref || l->ip - l->off < ref->ip - ref->off))
			ref = l;
	}
	if (lo == ~0ULL)
		return;
	lo &= ~0x1fffffULL;
	if (ref && ref->ip - ref->off >= lo)
		snprintf(name, sizeof(name), "[kernel.kallsyms]%s", ref->sym);
	else
		snprintf(name, sizeof(name), "[kernel.kallsyms]");
	off = ev_begin(pd, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	dw_buf_put_u32(&pd->recs, (__u32)-1);
	dw_buf_put_u32(&pd->recs, 0);
	dw_buf_put_u64(&pd->recs, lo);
	dw_buf_put_u64(&pd->recs, ~0ULL - lo);
	/* 0 (no relocation symbol): addresses as recorded. */
	dw_buf_put_u64(&pd->recs, ref ? ref->ip - ref->off : 0);
	put_str(&pd->recs, name, 8);
	put_id(pd, (__u32)-1, (__u32)-1, 0);
	ev_end(pd, off, 0);
}

/* The address of location @i in perf.data: a Python frame's is in its file. */
static __u64 loc_ip(const struct perfdata *pd, const struct dw_prof *p, uint32_t i)
{
	return p->locs[i].python ? pd->py_base + pd->py.off[i] : p->locs[i].ip;
}

/* Has the sample a Python frame perf can name? */
static int has_python(const struct perfdata *pd, const struct dw_prof *p,
		      const struct dw_prof_sample *s)
{
	uint32_t j;

	for (j = 0; pd->py.nr && j < s->nr; j++)
		if (pd->py.off[p->stack[s->first + j]])
			return 1;
	return 0;
}

/*
 * PERF_RECORD_MMAP2 of the Python frames' file (perfdata_python.c) for
 * each process with Python frames, at the time of its first sample with
 * one (after its FORK: perf forgets what a pid had before one).
 */
static void python_mmaps(struct perfdata *pd, const struct dw_prof *p)
{
	struct { __u32 pid; __u64 time; } *first = NULL;
	size_t i, k, n = 0, cap = 0;
	__u8 bid[24] = { sizeof(pd->py.build_id) };
	size_t off;

	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];

		if (!has_python(pd, p, s))
			continue;
		for (k = 0; k < n && first[k].pid != s->pid; k++)
			;
		if (k < n) {
			if (s->time < first[k].time)
				first[k].time = s->time;
			continue;
		}
		if (DW_ARRAY_RESERVE(first, cap, n + 1, 16)) {
			pd->err = -ENOMEM;
			break;
		}
		first[n].pid = s->pid;
		first[n++].time = s->time;
	}
	memcpy(bid + 4, pd->py.build_id, sizeof(pd->py.build_id));
	for (k = 0; k < n; k++) {
		off = ev_begin(pd, PERF_RECORD_MMAP2,
			       PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
		dw_buf_put_u32(&pd->recs, first[k].pid);
		dw_buf_put_u32(&pd->recs, first[k].pid);
		dw_buf_put_u64(&pd->recs, pd->py_base);
		dw_buf_put_u64(&pd->recs, pd->py.size);
		dw_buf_put_u64(&pd->recs, 0);
		dw_buf_put(&pd->recs, bid, sizeof(bid));
		dw_buf_put_u32(&pd->recs, 0x5);		/* PROT_READ | PROT_EXEC */
		dw_buf_put_u32(&pd->recs, 0x02);	/* MAP_PRIVATE */
		put_str(&pd->recs, PERFDATA_PY_FILE, 8);
		put_id(pd, first[k].pid, first[k].pid, first[k].time);
		ev_end(pd, off, first[k].time);
	}
	if (n)
		add_build_id(pd, PERF_RECORD_MISC_USER, pd->py.build_id, sizeof(pd->py.build_id),
			     PERFDATA_PY_FILE);
	free(first);
}

static void sample_rec(struct perfdata *pd, const struct dw_prof *p,
		       const struct dw_prof_sample *s)
{
	__u64 nr = 0, ip = 0;
	int ctx = 0;		/* 1 kernel, 2 user: the context of the last frame */
	size_t off, nr_at;
	uint32_t j;

	for (j = 0; j < s->nr; j++) {
		const struct dw_prof_loc *l = &p->locs[p->stack[s->first + j]];

		if (!l->marker) {
			ip = loc_ip(pd, p, p->stack[s->first + j]);
			ctx = l->kernel ? 1 : 2;
			break;
		}
	}
	off = ev_begin(pd, PERF_RECORD_SAMPLE,
		       ctx == 1 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	if (pd->two)
		dw_buf_put_u64(&pd->recs, s->flags & DUNWIND_SAMPLE_OFF_CPU ? PERFDATA_ID_OFFCPU :
			PERFDATA_ID_ONCPU);
	dw_buf_put_u64(&pd->recs, ip);
	dw_buf_put_u32(&pd->recs, s->pid);
	dw_buf_put_u32(&pd->recs, s->tid);
	dw_buf_put_u64(&pd->recs, s->time);
	dw_buf_put_u32(&pd->recs, s->cpu);
	dw_buf_put_u32(&pd->recs, 0);
	dw_buf_put_u64(&pd->recs, s->period);
	nr_at = pd->recs.len;
	dw_buf_put_u64(&pd->recs, 0);
	ctx = 0;
	for (j = 0; j < s->nr; j++) {
		const struct dw_prof_loc *l = &p->locs[p->stack[s->first + j]];

		if (l->marker)		/* no address perf could name */
			continue;
		if ((l->kernel ? 1 : 2) != ctx) {
			ctx = l->kernel ? 1 : 2;
			dw_buf_put_u64(&pd->recs,
				       ctx == 1 ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER);
			nr++;
		}
		dw_buf_put_u64(&pd->recs, loc_ip(pd, p, p->stack[s->first + j]));
		nr++;
	}
	if (!pd->recs.err)
		memcpy(pd->recs.p + nr_at, &nr, sizeof(nr));
	ev_end(pd, off, s->time);
}

static int ev_cmp(const void *a, const void *b)
{
	const struct perfdata_ev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/**
 * perfdata_collect() - the data section's records, in time order
 * @pd:		zeroed; free with perfdata_free() whatever the result
 * @p:		profile (its COMM, FORK, EXIT and MMAP records: @p->tasks)
 *
 * Also the HEADER_BUILD_ID entries: the mapped files', and the kernel's
 * with the recording boot's identity.
 * Context: user space.
 * Return: 0, -ENOMEM, -E2BIG.
 */
int perfdata_collect(struct perfdata *pd, const struct dw_prof *p)
{
	const struct dunwind_rec_header *rec;
	__u8 kid[20];
	size_t i, off;
	int ret;

	for (i = 0; i < p->nr_samples && !pd->two; i++)
		pd->two = !!(p->samples[i].flags & DUNWIND_SAMPLE_OFF_CPU);
	kernel_mmap(pd, p);
	pd->prof = p;
	for (off = 0; off < p->tasks.len; off += rec->size) {
		rec = (const void *)(p->tasks.p + off);
		if (dw_rec_dispatch(&task_ops, rec, p->tasks.len - off, pd))
			return -EINVAL;		/* the profile's own copies: cannot be */
	}
	ret = perfdata_py_build(&pd->py, p);
	if (ret)
		return ret;
	if (pd->py.nr) {
		pd->py_base = perfdata_py_base(p);
		python_mmaps(pd, p);
	}
	for (i = 0; i < p->nr_samples; i++)
		sample_rec(pd, p, &p->samples[i]);
	perfdata_kernel_id(p, kid);
	add_build_id(pd, PERF_RECORD_MISC_KERNEL, kid, sizeof(kid), "[kernel.kallsyms]");
	ret = pd->err ? pd->err : pd->recs.err ? pd->recs.err : pd->bids.err;
	if (!ret)
		qsort(pd->evs, pd->nr_evs, sizeof(*pd->evs), ev_cmp);
	return ret;
}

/* perfdata_free() - free what perfdata_collect() made. */
void perfdata_free(struct perfdata *pd)
{
	free(pd->recs.p);
	free(pd->bids.p);
	free(pd->evs);
	free(pd->execs);
	perfdata_py_free(&pd->py);
}
