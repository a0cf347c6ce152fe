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
 *   here is that of the process's latest exec before it (0 if none), or
 *   of its first sample with a user frame in it if earlier (inside the
 *   exec), so that perf knows it for every sample of that process image;
 * - PERF_RECORD_MMAP2 of the Python frames' file (perfdata_python.c) per
 *   process with Python frames;
 * - PERF_RECORD_SAMPLE (IP, TID, TIME, CPU, PERIOD, CALLCHAIN) per kept
 *   sample: PERF_CONTEXT_KERNEL, the kernel frames, PERF_CONTEXT_USER, the
 *   user frames, leaf first, Python frames as addresses in their file;
 *   truncation markers are left out.
 * Every record but the samples ends with the sample_id_all fields (pid,
 * tid, time, cpu).
 *
 * A profile with off-CPU samples gets a second attribute, named
 * "offcpu-time" as perf names its own (HEADER_EVENT_DESC), whose samples
 * are the off-CPU ones (period: ns off CPU): 'perf report' and 'perf
 * script' then show them apart from the sampling event's.  Both attributes
 * then have PERF_SAMPLE_IDENTIFIER (first in a sample, last in the
 * sample_id_all fields).  Every attribute has one id, as in perf's files
 * (hotspot's parser knows an event only by its ids).
 *
 * Features: HEADER_HOSTNAME (empty) and HEADER_NRCPUS (the CPUs the
 * samples name), which every perf.data has and hotspot needs;
 * HEADER_BUILD_ID lists every mapped file with its build-id and
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

#include "capture/event.h"
#include "output/perfdata.h"
#include "output/perfdata_priv.h"

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
static void event_desc(struct dw_buf *b, const struct perf_event_attr *a,
		       const char *name, __u64 id)
{
	dw_buf_put(b, a, sizeof(*a));
	dw_buf_put_u32(b, 1);
	dw_buf_put_u32(b, PERFDATA_NAME_ALIGN);	/* the name's bytes, padded */
	dw_buf_put(b, name, strlen(name) + 1);
	dw_buf_put(b, NULL, PERFDATA_NAME_ALIGN - strlen(name) - 1);
	dw_buf_put_u64(b, id);
}

/* What goes around the data section. */
struct perfdata_file {
	struct perfdata_header h;
	struct perfdata_attr attr[2];
	__u64 ids[2];			/* of the attributes, one each */
	struct perfdata_section feat[4];
	const void *fbody[4];		/* each feature's bytes */
	unsigned int nr_feat;
	struct dw_buf desc;		/* HEADER_EVENT_DESC */
	struct dw_buf host;		/* HEADER_HOSTNAME, then HEADER_NRCPUS */
};

/* Feature @bit, @len bytes at @body; added in the order of their bits. */
static void feat_add(struct perfdata_file *pf, int bit, const void *body, size_t len)
{
	pf->h.features[bit / 64] |= 1ULL << (bit % 64);
	pf->feat[pf->nr_feat].size = len;
	pf->fbody[pf->nr_feat++] = body;
}

/*
 * HEADER_HOSTNAME (empty: the capture does not say where it was
 * recorded) and HEADER_NRCPUS (the CPUs the samples name), which perf
 * always writes: hotspot's parser drops every feature of a file without
 * the first, and hotspot stops on one without the second.
 */
static int host_features(struct perfdata_file *pf, const struct dw_prof *p)
{
	__u32 cpus = 1;
	size_t i;

	for (i = 0; i < p->nr_samples; i++)
		if (p->samples[i].cpu < 4096 && p->samples[i].cpu >= cpus)
			cpus = p->samples[i].cpu + 1;
	dw_buf_put_u32(&pf->host, PERFDATA_NAME_ALIGN);
	dw_buf_put(&pf->host, NULL, PERFDATA_NAME_ALIGN);
	dw_buf_put_u32(&pf->host, cpus);	/* online */
	dw_buf_put_u32(&pf->host, cpus);	/* available */
	if (pf->host.err)
		return pf->host.err;
	feat_add(pf, PERFDATA_FEAT_HOSTNAME, pf->host.p, 4 + PERFDATA_NAME_ALIGN);
	feat_add(pf, PERFDATA_FEAT_NRCPUS, pf->host.p + 4 + PERFDATA_NAME_ALIGN, 8);
	return 0;
}

/* The header, the attributes and the feature table, for @pd's records. 0 or -ENOMEM. */
static int file_layout(struct perfdata_file *pf, const struct perfdata *pd,
		       const struct dw_prof *p)
{
	struct perfdata_header *h = &pf->h;
	struct perfdata_attr *attr = pf->attr;
	__u64 data_size = 0;
	size_t i;

	for (i = 0; i < pd->nr_evs; i++)
		data_size += pd->evs[i].len;
	h->magic = PERFDATA_MAGIC;
	h->size = sizeof(*h);
	h->attr_size = sizeof(attr[0]);
	h->attrs.offset = sizeof(*h);
	h->attrs.size = (pd->two ? 2 : 1) * sizeof(attr[0]);
	/*
	 * Each attribute's id after them, as perf writes them: hotspot's
	 * parser knows an event only by its ids.
	 */
	h->data.offset = h->attrs.offset + h->attrs.size +
			 (pd->two ? 2 : 1) * sizeof(pf->ids[0]);
	h->data.size = data_size;
	feat_add(pf, PERFDATA_FEAT_BUILD_ID, pd->bids.p, pd->bids.len);
	if (host_features(pf, p))
		return pf->host.err;
	attr_for(&attr[0].attr, p);
	for (i = 0; i < (pd->two ? 2u : 1u); i++) {
		attr[i].ids.offset = h->attrs.offset + h->attrs.size + i * sizeof(pf->ids[0]);
		attr[i].ids.size = sizeof(pf->ids[0]);
	}
	if (pd->two) {
		attr[0].attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
		attr_offcpu(&attr[1].attr, &attr[0].attr);
		dw_buf_put_u32(&pf->desc, 2);
		dw_buf_put_u32(&pf->desc, sizeof(attr[0].attr));
		event_desc(&pf->desc, &attr[0].attr, dw_event_name((int)p->hdr.event), pf->ids[0]);
		event_desc(&pf->desc, &attr[1].attr, "offcpu-time", pf->ids[1]);
		if (pf->desc.err)
			return pf->desc.err;
		feat_add(pf, PERFDATA_FEAT_EVENT_DESC, pf->desc.p, pf->desc.len);
	}
	/* The feature sections follow the data: their table, then their bytes. */
	pf->feat[0].offset = h->data.offset + h->data.size + pf->nr_feat * sizeof(pf->feat[0]);
	for (i = 1; i < pf->nr_feat; i++)
		pf->feat[i].offset = pf->feat[i - 1].offset + pf->feat[i - 1].size;
	return 0;
}

/* Header, attributes, data, features, in this order. 0 or -EIO. */
static int file_write(FILE *f, const struct perfdata_file *pf, const struct perfdata *pd)
{
	size_t i;

	fwrite(&pf->h, sizeof(pf->h), 1, f);
	fwrite(pf->attr, sizeof(pf->attr[0]), pd->two ? 2 : 1, f);
	fwrite(pf->ids, sizeof(pf->ids[0]), pd->two ? 2 : 1, f);
	for (i = 0; i < pd->nr_evs; i++)
		fwrite(pd->recs.p + pd->evs[i].off, 1, pd->evs[i].len, f);
	fwrite(pf->feat, sizeof(pf->feat[0]), pf->nr_feat, f);
	for (i = 0; i < pf->nr_feat; i++)
		if (pf->feat[i].size)
			fwrite(pf->fbody[i], 1, pf->feat[i].size, f);
	return ferror(f) ? -EIO : 0;
}

/**
 * dw_perfdata_write() - write the profile as a perf.data file
 * @f:		output (written from its current position, sequentially)
 * @p:		profile (with its COMM, FORK, EXIT and MMAP records, @p->tasks)
 *
 * Context: user space.
 * Return: 0, -ENOMEM, -E2BIG (a record perf cannot hold), -EIO if writing
 * failed.
 */
int dw_perfdata_write(FILE *f, const struct dw_prof *p)
{
	struct perfdata pd = { 0 };
	struct perfdata_file pf = { .ids = { PERFDATA_ID_ONCPU, PERFDATA_ID_OFFCPU } };
	int ret;

	ret = perfdata_collect(&pd, p);
	if (!ret)
		ret = file_layout(&pf, &pd, p);
	if (!ret)
		ret = file_write(f, &pf, &pd);
	free(pf.desc.p);
	free(pf.host.p);
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