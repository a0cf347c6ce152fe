/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the perf.data writer: the file's layout (perfdata.c) and its
 * data section (perfdata_events.c).  Formats as in Linux's
 * tools/perf/Documentation/perf.data-file-format.txt.
 */
#ifndef DW_PERFDATA_PRIV_H
#define DW_PERFDATA_PRIV_H

#include <stddef.h>
#include <string.h>
#include <linux/perf_event.h>

#include "analyze/profile.h"
#include "output/symelf.h"
#include "util/buf.h"

#define PERFDATA_MAGIC		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERFDATA_FEAT_BUILD_ID	2			/* HEADER_BUILD_ID */
#define PERFDATA_FEAT_HOSTNAME	3			/* HEADER_HOSTNAME */
#define PERFDATA_FEAT_NRCPUS	7			/* HEADER_NRCPUS */
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

/*
 * The Python frames' file (perfdata_python.c): its name in MMAP2 and
 * HEADER_BUILD_ID (a path: hotspot's parser takes a name in brackets for
 * memory without a file, such as "[heap]"), each name's bytes, where the first one is, and how far
 * above the capture's highest user address (and on what boundary) each
 * process maps it.
 */
#define PERFDATA_PY_FILE	"/[python]"
#define PERFDATA_PY_SLOT	16
#define PERFDATA_PY_TEXT	0x1000
#define PERFDATA_PY_GAP		(1ULL << 30)

struct perfdata_py {
	__u64 *off;			/* per location: its name's offset; 0: not Python */
	struct dw_symelf_func *funcs;	/* the names, sorted, with their offsets */
	size_t nr;
	__u64 size;			/* the file's extent: the end of the last name */
	__u8 build_id[20];
};

/* One record of the data section, to be sorted by time. */
struct perfdata_ev {
	__u64 time;
	size_t seq;			/* order of creation: ties keep it */
	size_t off, len;		/* in the record buffer */
};

struct perfdata {
	struct dw_buf recs;	/* the records, in creation order */
	struct perfdata_ev *evs;
	size_t nr_evs, cap_evs;
	struct dw_buf bids;	/* HEADER_BUILD_ID entries */
	/* The latest exec time of each pid seen (pid, time pairs). */
	struct { __u32 pid; __u64 time; } *execs;
	size_t nr_execs, cap_execs;
	const struct dw_prof *prof;	/* the profile being written */
	struct perfdata_py py;		/* its Python frames' file */
	__u64 py_base;			/* where each process maps that file */
	int two;			/* two attributes: PERF_SAMPLE_IDENTIFIER */
	int err;
};

/* The kernel's build-id in perf.data: "dunw" and the recording boot's id. */
static inline void perfdata_kernel_id(const struct dw_prof *p, __u8 kid[20])
{
	memcpy(kid, "dunw", 4);
	memcpy(kid + 4, p->hdr.boot_id, 16);
}

int perfdata_collect(struct perfdata *pd, const struct dw_prof *p);
int perfdata_py_build(struct perfdata_py *py, const struct dw_prof *p);
__u64 perfdata_py_base(const struct dw_prof *p);
void perfdata_py_free(struct perfdata_py *py);
void perfdata_free(struct perfdata *pd);

#endif
