// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data: the stitched profile in perf's file format (the "PERFILE2"
 * header, one event attribute, the data section, then the header
 * features), so that 'perf report' and 'perf script' read it as if perf
 * had recorded it, with dunwind's complete user stacks as the callchains.
 *
 * The data section holds, in time order:
 * - PERF_RECORD_MMAP for the kernel ("[kernel.kallsyms]", pid -1);
 * - PERF_RECORD_COMM, _FORK and _EXIT from the capture's COMM, FORK and
 *   EXIT records (COMM_EXEC for an exec);
 * - PERF_RECORD_MMAP2 with the file's build-id (MISC_MMAP_BUILD_ID) for
 *   each MMAP record.  The module writes a mapping just before the first
 *   user stack that needs it, after the samples of that stack: its time
 *   here is that of the process's latest exec before it (0 if none), so
 *   that perf knows it for every sample of that process image;
 * - PERF_RECORD_SAMPLE (IP, TID, TIME, CPU, PERIOD, CALLCHAIN) per kept
 *   sample: PERF_CONTEXT_KERNEL, the kernel frames, PERF_CONTEXT_USER, the
 *   user frames, leaf first; truncation markers are left out.
 * Every record but the samples ends with the sample_id_all fields (pid,
 * tid, time, cpu).
 *
 * A profile with off-CPU samples gets a second attribute, named
 * "offcpu-time" as perf names its own (HEADER_EVENT_DESC), whose samples
 * are the off-CPU ones (period: ns off CPU): 'perf report' and 'perf
 * script' then show them apart from the sampling event's.  Both attributes
 * then have PERF_SAMPLE_IDENTIFIER (first in a sample, last in the
 * sample_id_all fields) and one id each.
 *
 * Features: HEADER_BUILD_ID lists every mapped file with its build-id and
 * the kernel with an identity of the recording boot (the capture's boot
 * id), so that perf never takes this machine's /proc/kallsyms for it: the
 * kernel's symbols go into a kallsyms file beside it
 * (dw_perfdata_write_kallsyms(), 'perf report --kallsyms FILE').
 *
 * The format: tools/perf/Documentation/perf.data-file-format.txt and
 * include/uapi/linux/perf_event.h in Linux.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "capture/capture.h"
#include "capture/event.h"
#include "output/perfdata.h"

#define PERFDATA_MAGIC		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERFDATA_FEAT_BUILD_ID	2			/* HEADER_BUILD_ID */
#define PERFDATA_FEAT_EVENT_DESC	12		/* HEADER_EVENT_DESC */
/* The ids of the two attributes when there are two. */
#define PERFDATA_ID_ONCPU	1
#define PERFDATA_ID_OFFCPU	2
#define PERFDATA_FEAT_BITS	256
#define PERFDATA_NAME_ALIGN	64			/* build-id file names */
/* The header of a build-id entry says how long its build-id is. */
#define PERFDATA_MISC_BUILD_ID_SIZE	(1U << 15)
/* "pid" of the host machine's entries in HEADER_BUILD_ID. */
#define PERFDATA_HOST_PID	(-1)

#define PERFDATA_SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
				 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

struct perfdata_section {
	__u64 offset, size;
};

struct perfdata_header {
	__u64 magic;
	__u64 size;
	__u64 attr_size;
	struct perfdata_section attrs, data, event_types;
	__u64 features[PERFDATA_FEAT_BITS / 64];
};
_Static_assert(sizeof(struct perfdata_header) == 104, "perf_file_header");

struct perfdata_attr {
	struct perf_event_attr attr;
	struct perfdata_section ids;
};

/* The sample_id_all fields of PERFDATA_SAMPLE_TYPE. */
struct perfdata_id {
	__u32 pid, tid;
	__u64 time;
	__u32 cpu, res;
};

struct perfdata_buf {
	unsigned char *p;
	size_t len, cap;
	int err;
};

/* One record of the data section, to be sorted by time. */
struct perfdata_ev {
	__u64 time;
	size_t seq;			/* order of creation: ties keep it */
	size_t off, len;		/* in the record buffer */
};

struct perfdata {
	struct perfdata_buf recs;	/* the records, in creation order */
	struct perfdata_ev *evs;
	size_t nr_evs, cap_evs;
	struct perfdata_buf bids;	/* HEADER_BUILD_ID entries */
	/* The latest exec time of each pid seen (pid, time pairs). */
	struct { __u32 pid; __u64 time; } *execs;
	size_t nr_execs, cap_execs;
	int two;			/* two attributes: PERF_SAMPLE_IDENTIFIER */
	int err;
};

static void put(struct perfdata_buf *b, const void *d, size_t n)
{
	if (b->err)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->err = -ENOMEM;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	if (d)
		memcpy(b->p + b->len, d, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}

static void put_u32(struct perfdata_buf *b, __u32 v)
{
	put(b, &v, sizeof(v));
}

static void put_u64(struct perfdata_buf *b, __u64 v)
{
	put(b, &v, sizeof(v));
}

/* @s NUL-terminated and zero-padded to a multiple of @align. */
static void put_str(struct perfdata_buf *b, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;

	put(b, s, n);
	put(b, NULL, (align - n % align) % align);
}

/* Start a record of @type; ev_end() closes it. */
static size_t ev_begin(struct perfdata *pd, __u32 type, __u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	size_t off = pd->recs.len;

	put(&pd->recs, &h, sizeof(h));
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
	if (pd->nr_evs == pd->cap_evs) {
		size_t cap = pd->cap_evs ? 2 * pd->cap_evs : 1024;

		e = realloc(pd->evs, cap * sizeof(*e));
		if (!e) {
			pd->err = -ENOMEM;
			return;
		}
		pd->evs = e;
		pd->cap_evs = cap;
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

	put(&pd->recs, &id, sizeof(id));
	if (pd->two)
		put_u64(&pd->recs, PERFDATA_ID_ONCPU);
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
	if (pd->nr_execs == pd->cap_execs) {
		size_t cap = pd->cap_execs ? 2 * pd->cap_execs : 16;
		void *p = realloc(pd->execs, cap * sizeof(*pd->execs));

		if (!p) {
			pd->err = -ENOMEM;
			return;
		}
		pd->execs = p;
		pd->cap_execs = cap;
	}
	pd->execs[pd->nr_execs].pid = pid;
	pd->execs[pd->nr_execs++].time = time;
}

/* One HEADER_BUILD_ID entry, unless the same file and id are there. */
static void add_build_id(struct perfdata *pd, __u16 misc, const __u8 *id, __u32 size,
			 const char *file)
{
	struct perfdata_buf *b = &pd->bids;
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
	put(b, &h, sizeof(h));
	put_u32(b, (__u32)PERFDATA_HOST_PID);
	put(b, bid, sizeof(bid));
	put_str(b, file, PERFDATA_NAME_ALIGN);
	if (!b->err)
		((struct perf_event_header *)(b->p + start))->size = (__u16)(b->len - start);
}

static void task_rec(struct perfdata *pd, const struct dunwind_rec_header *rec)
{
	switch (rec->type) {
	case DUNWIND_REC_COMM: {
		const struct dunwind_rec_comm *c = (const void *)rec;
		int exec = rec->misc & DUNWIND_COMM_EXEC;
		char comm[sizeof(c->comm) + 1] = { 0 };
		size_t off;

		memcpy(comm, c->comm, sizeof(c->comm));
		if (exec)
			set_exec_time(pd, c->pid, c->time);
		off = ev_begin(pd, PERF_RECORD_COMM,
			       exec ? PERF_RECORD_MISC_COMM_EXEC : PERF_RECORD_MISC_USER);
		put_u32(&pd->recs, c->pid);
		put_u32(&pd->recs, c->tid);
		put_str(&pd->recs, comm, 8);
		put_id(pd, c->pid, c->tid, c->time);
		ev_end(pd, off, c->time);
		break;
	}
	case DUNWIND_REC_FORK:
	case DUNWIND_REC_EXIT: {
		const struct dunwind_rec_task *t = (const void *)rec;
		size_t off;

		off = ev_begin(pd, rec->type == DUNWIND_REC_FORK ? PERF_RECORD_FORK :
			       PERF_RECORD_EXIT, PERF_RECORD_MISC_USER);
		put_u32(&pd->recs, t->pid);
		put_u32(&pd->recs, rec->type == DUNWIND_REC_FORK ? t->ppid : t->pid);
		put_u32(&pd->recs, t->tid);
		put_u32(&pd->recs, rec->type == DUNWIND_REC_FORK ? t->ptid : t->tid);
		put_u64(&pd->recs, t->time);
		put_id(pd, t->pid, t->tid, t->time);
		ev_end(pd, off, t->time);
		break;
	}
	case DUNWIND_REC_MMAP: {
		const struct dunwind_rec_mmap *m = (const void *)rec;
		size_t plen = rec->size - sizeof(*m);
		char *path = calloc(1, plen + 1);
		__u16 misc = PERF_RECORD_MISC_USER;
		__u64 t = exec_time(pd, m->pid);
		size_t off;

		if (!path) {
			pd->err = -ENOMEM;
			return;
		}
		memcpy(path, m->path, plen);
		if (m->build_id_size && m->build_id_size <= sizeof(m->build_id))
			misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		off = ev_begin(pd, PERF_RECORD_MMAP2, misc);
		put_u32(&pd->recs, m->pid);
		put_u32(&pd->recs, m->pid);
		put_u64(&pd->recs, m->start);
		put_u64(&pd->recs, m->end - m->start);
		put_u64(&pd->recs, m->pgoff);
		if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			__u8 bid[24] = { (__u8)m->build_id_size };

			memcpy(bid + 4, m->build_id, m->build_id_size);
			put(&pd->recs, bid, sizeof(bid));
			add_build_id(pd, PERF_RECORD_MISC_USER, m->build_id, m->build_id_size,
				     path);
		} else {
			put_u32(&pd->recs, m->dev_major);
			put_u32(&pd->recs, m->dev_minor);
			put_u64(&pd->recs, m->ino);
			put_u64(&pd->recs, 0);
		}
		put_u32(&pd->recs, m->prot);
		put_u32(&pd->recs, 0x02);	/* MAP_PRIVATE */
		put_str(&pd->recs, path, 8);
		put_id(pd, m->pid, m->pid, t);
		ev_end(pd, off, t);
		free(path);
		break;
	}
	}
}

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
	put_u32(&pd->recs, (__u32)-1);
	put_u32(&pd->recs, 0);
	put_u64(&pd->recs, lo);
	put_u64(&pd->recs, ~0ULL - lo);
	/* 0 (no relocation symbol): addresses as recorded. */
	put_u64(&pd->recs, ref ? ref->ip - ref->off : 0);
	put_str(&pd->recs, name, 8);
	put_id(pd, (__u32)-1, (__u32)-1, 0);
	ev_end(pd, off, 0);
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
			ip = l->ip;
			ctx = l->kernel ? 1 : 2;
			break;
		}
	}
	off = ev_begin(pd, PERF_RECORD_SAMPLE,
		       ctx == 1 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	if (pd->two)
		put_u64(&pd->recs, s->flags & DUNWIND_SAMPLE_OFF_CPU ? PERFDATA_ID_OFFCPU :
			PERFDATA_ID_ONCPU);
	put_u64(&pd->recs, ip);
	put_u32(&pd->recs, s->pid);
	put_u32(&pd->recs, s->tid);
	put_u64(&pd->recs, s->time);
	put_u32(&pd->recs, s->cpu);
	put_u32(&pd->recs, 0);
	put_u64(&pd->recs, s->period);
	nr_at = pd->recs.len;
	put_u64(&pd->recs, 0);
	ctx = 0;
	for (j = 0; j < s->nr; j++) {
		const struct dw_prof_loc *l = &p->locs[p->stack[s->first + j]];

		if (l->marker)
			continue;
		if ((l->kernel ? 1 : 2) != ctx) {
			ctx = l->kernel ? 1 : 2;
			put_u64(&pd->recs, ctx == 1 ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER);
			nr++;
		}
		put_u64(&pd->recs, l->ip);
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

static void attr_for(struct perf_event_attr *a, const struct dw_prof *p)
{
	static const __u64 hw[] = {
		[DUNWIND_EVENT_CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
		[DUNWIND_EVENT_INSTRUCTIONS] = PERF_COUNT_HW_INSTRUCTIONS,
		[DUNWIND_EVENT_CACHE_MISSES] = PERF_COUNT_HW_CACHE_MISSES,
		[DUNWIND_EVENT_BRANCH_MISSES] = PERF_COUNT_HW_BRANCH_MISSES,
	};
	unsigned int ev = p->hdr.event;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (ev == DUNWIND_EVENT_TASK_CLOCK) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_TASK_CLOCK;
	} else if (ev > DUNWIND_EVENT_TASK_CLOCK && ev < DUNWIND_EVENT_MAX) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = hw[ev];
	} else {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
	}
	if (p->hdr.sample_freq) {
		a->freq = 1;
		a->sample_freq = p->hdr.sample_freq;
	} else {
		a->sample_period = p->hdr.sample_period;
	}
	a->sample_type = PERFDATA_SAMPLE_TYPE;
	a->mmap = 1;
	a->comm = 1;
	a->task = 1;
	a->mmap2 = 1;
	a->comm_exec = 1;
	a->sample_id_all = 1;
	a->build_id = 1;
	a->exclude_guest = 1;
}

/* The off-CPU attribute: perf's own for 'perf record --off-cpu'. */
static void attr_offcpu(struct perf_event_attr *a, const struct perf_event_attr *oncpu)
{
	*a = *oncpu;
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_BPF_OUTPUT;
	a->freq = 0;
	a->sample_period = 1;
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = a->build_id = 0;
}

/* One HEADER_EVENT_DESC entry: the attribute, its name and its id. */
static void event_desc(struct perfdata_buf *b, const struct perf_event_attr *a,
		       const char *name, __u64 id)
{
	put(b, a, sizeof(*a));
	put_u32(b, 1);
	put_u32(b, PERFDATA_NAME_ALIGN);	/* the name's bytes, padded */
	put(b, name, strlen(name) + 1);
	put(b, NULL, PERFDATA_NAME_ALIGN - strlen(name) - 1);
	put_u64(b, id);
}

static void perfdata_free(struct perfdata *pd)
{
	free(pd->recs.p);
	free(pd->bids.p);
	free(pd->evs);
	free(pd->execs);
}

/**
 * dw_perfdata_write() - write the profile as a perf.data file
 * @f:		output (written from its current position, sequentially)
 * @p:		profile
 * @capture:	the capture @p was loaded from (its COMM, FORK, EXIT and
 *		MMAP records are read again)
 *
 * Context: user space.
 * Return: 0, -ENOMEM, -E2BIG (a record perf cannot hold), -EIO if writing
 * failed, or the capture's error from dw_capture_open().
 */
int dw_perfdata_write(FILE *f, const struct dw_prof *p, const char *capture)
{
	struct dw_capture_reader r;
	const struct dunwind_rec_header *rec;
	struct perfdata pd = { 0 };
	struct perfdata_header h = { 0 };
	struct perfdata_attr attr[2] = { 0 };
	struct perfdata_section feat[2];
	struct perfdata_buf desc = { 0 };
	__u64 data_size = 0, ids[2] = { PERFDATA_ID_ONCPU, PERFDATA_ID_OFFCPU };
	__u8 kid[20];
	size_t i;
	int ret;

	ret = dw_capture_open(&r, capture);
	if (ret)
		return ret;
	for (i = 0; i < p->nr_samples && !pd.two; i++)
		pd.two = !!(p->samples[i].flags & DUNWIND_SAMPLE_OFF_CPU);
	kernel_mmap(&pd, p);
	while ((rec = dw_capture_next(&r)))
		task_rec(&pd, rec);
	dw_capture_release(&r);
	for (i = 0; i < p->nr_samples; i++)
		sample_rec(&pd, p, &p->samples[i]);
	/* The kernel: "dunw" and the boot id name the recording boot. */
	memcpy(kid, "dunw", 4);
	memcpy(kid + 4, p->hdr.boot_id, 16);
	add_build_id(&pd, PERF_RECORD_MISC_KERNEL, kid, sizeof(kid), "[kernel.kallsyms]");
	ret = pd.err ? pd.err : pd.recs.err ? pd.recs.err : pd.bids.err;
	if (ret)
		goto out;
	qsort(pd.evs, pd.nr_evs, sizeof(*pd.evs), ev_cmp);
	for (i = 0; i < pd.nr_evs; i++)
		data_size += pd.evs[i].len;

	h.magic = PERFDATA_MAGIC;
	h.size = sizeof(h);
	h.attr_size = sizeof(attr[0]);
	h.attrs.offset = sizeof(h);
	h.attrs.size = (pd.two ? 2 : 1) * sizeof(attr[0]);
	/* Two attributes: their ids after them. */
	h.data.offset = h.attrs.offset + h.attrs.size + (pd.two ? sizeof(ids) : 0);
	h.data.size = data_size;
	h.features[PERFDATA_FEAT_BUILD_ID / 64] |= 1ULL << (PERFDATA_FEAT_BUILD_ID % 64);
	attr_for(&attr[0].attr, p);
	if (pd.two) {
		attr[0].attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		attr_offcpu(&attr[1].attr, &attr[0].attr);
		for (i = 0; i < 2; i++) {
			attr[i].ids.offset = h.attrs.offset + h.attrs.size + i * sizeof(ids[0]);
			attr[i].ids.size = sizeof(ids[0]);
		}
		h.features[PERFDATA_FEAT_EVENT_DESC / 64] |=
			1ULL << (PERFDATA_FEAT_EVENT_DESC % 64);
		put_u32(&desc, 2);
		put_u32(&desc, sizeof(attr[0].attr));
		event_desc(&desc, &attr[0].attr, dw_event_name((int)p->hdr.event), ids[0]);
		event_desc(&desc, &attr[1].attr, "offcpu-time", ids[1]);
		if (desc.err) {
			ret = desc.err;
			goto out;
		}
	}
	/* The feature sections follow the data: their table, then their bytes. */
	feat[0].offset = h.data.offset + h.data.size + (pd.two ? 2 : 1) * sizeof(feat[0]);
	feat[0].size = pd.bids.len;
	feat[1].offset = feat[0].offset + feat[0].size;
	feat[1].size = desc.len;

	fwrite(&h, sizeof(h), 1, f);
	fwrite(attr, sizeof(attr[0]), pd.two ? 2 : 1, f);
	if (pd.two)
		fwrite(ids, sizeof(ids), 1, f);
	for (i = 0; i < pd.nr_evs; i++)
		fwrite(pd.recs.p + pd.evs[i].off, 1, pd.evs[i].len, f);
	fwrite(feat, sizeof(feat[0]), pd.two ? 2 : 1, f);
	if (pd.bids.len)
		fwrite(pd.bids.p, 1, pd.bids.len, f);
	if (desc.len)
		fwrite(desc.p, 1, desc.len, f);
	ret = ferror(f) ? -EIO : 0;
out:
	free(desc.p);
	perfdata_free(&pd);
	return ret;
}

/**
 * dw_perfdata_has_kernel() - whether the profile names any kernel function
 * @p:		profile
 *
 * Context: any.
 * Return: 1 if some kernel frame has a symbol, else 0.
 */
int dw_perfdata_has_kernel(const struct dw_prof *p)
{
	size_t i;

	for (i = 0; i < p->nr_locs; i++)
		if (p->locs[i].kernel && !p->locs[i].marker && p->locs[i].sym)
			return 1;
	return 0;
}

/* Kernel locations by their function's start. */
static int kloc_cmp(const void *a, const void *b, void *arg)
{
	const struct dw_prof *p = arg;
	const struct dw_prof_loc *x = &p->locs[*(const size_t *)a];
	const struct dw_prof_loc *y = &p->locs[*(const size_t *)b];
	__u64 sx = x->ip - x->off, sy = y->ip - y->off;

	return sx < sy ? -1 : sx > sy;
}

/**
 * dw_perfdata_write_kallsyms() - the kernel functions of the profile's
 *	samples as a kallsyms file, for 'perf report --kallsyms FILE'
 * @f:		output
 * @p:		profile
 *
 * Context: user space.  One "ADDRESS t NAME" line per function, in address
 * order; module functions are listed as the kernel's (perf would want a
 * map for each module).
 * Return: 0, -ENOMEM or -EIO.
 */
int dw_perfdata_write_kallsyms(FILE *f, const struct dw_prof *p)
{
	size_t *idx = malloc((p->nr_locs ? p->nr_locs : 1) * sizeof(*idx));
	__u64 prev = 0;
	size_t i, n = 0;

	if (!idx)
		return -ENOMEM;
	for (i = 0; i < p->nr_locs; i++)
		if (p->locs[i].kernel && !p->locs[i].marker && p->locs[i].sym)
			idx[n++] = i;
	qsort_r(idx, n, sizeof(*idx), kloc_cmp, (void *)p);
	for (i = 0; i < n; i++) {
		const struct dw_prof_loc *l = &p->locs[idx[i]];

		if (i && l->ip - l->off == prev)
			continue;
		prev = l->ip - l->off;
		fprintf(f, "%016" PRIx64 " t %s\n", (uint64_t)prev, l->sym);
	}
	free(idx);
	return ferror(f) ? -EIO : 0;
}
