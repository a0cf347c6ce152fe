/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A capture turned into a symbolised profile, the input of every report
 * (script, report, folded, flame graph, speedscope, pprof).  The model is
 * pprof's: mappings, functions, locations (an address with its inline
 * chain of functions), and samples that list locations leaf first.
 *
 * A stack cut short ends (at its root side) in a marker location whose
 * function is "[truncated: REASON]", so that every output shows it.
 */
#ifndef DW_PROFILE_H
#define DW_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/dunwind.h>

#include "capture/capture.h"
#include "analyze/stitch.h"
#include "util/buf.h"

/* Why a stack is incomplete, beyond enum dunwind_stop_reason. */
enum {
	DW_PROF_STOP_MISSING = DUNWIND_STOP_MAX,	/* its USER_STACK never came */
	DW_PROF_STOP_LOST,				/* ... and user stacks were lost */
	DW_PROF_STOP_BLOCKED,	/* off-CPU, blocked at the end: its walk never ran */
	DW_PROF_STOP_NR,
};

/* dw_prof_opts.cpu_time: on-CPU samples (the sampling event) or off-CPU ones. */
enum { DW_PROF_ALL = 0, DW_PROF_ON_CPU, DW_PROF_OFF_CPU };

/* The "file" of truncation markers. */
#define DW_PROF_MARKER_DSO	"[truncated]"
/* The "file" of Python frames (their source file is their function's). */
#define DW_PROF_PYTHON_DSO	"[python]"
/*
 * The one frame (a marker, no address) that stands for the kernel part of a
 * sample taken in dunwind's own walk (DUNWIND_SAMPLE_IN_WALK); its name and
 * its "file" (no kernel function has that name; the module's "file" is the
 * same string).
 */
#define DW_PROF_WALK_FRAME	"[dunwind]"

struct dw_prof_opts {
	const char *kallsyms;		/* a kallsyms file instead of the snapshot */
	const char *debug_dirs;		/* extra debug directories (colon-separated) */
	const char *symfs;		/* the recording machine's files under this root */
	int user_symbols;		/* 0: leave user addresses raw */
	int src;			/* resolve source lines (DWARF) */
	int inline_frames;		/* resolve inline frames (implies @src) */
	int pid, tid;			/* keep only this process / thread (0: all) */
	int cpu_time;			/* DW_PROF_ON_CPU / DW_PROF_OFF_CPU: keep only those */
	const char *comm;		/* keep only threads with this name */
	int quiet;			/* no warnings (dw_warn()) */
	int read_before;		/* the capture was loaded before: a cut is not said again */
	int no_demangle;		/* keep C++/Rust names mangled */
};

struct dw_prof_mapping {
	uint64_t start, end, pgoff;
	const char *file;
	unsigned char build_id[20];
	size_t build_id_size;
	int kernel;
};

struct dw_prof_func {
	const char *name;
	const char *dso;		/* the file (or [kernel.kallsyms], [module]) */
	const char *file;		/* source file, or NULL */
	int start_line;			/* a Python function's first line; 0: none */
};

struct dw_prof_line {
	uint32_t func;			/* index in funcs */
	int line;			/* 0: unknown */
};

struct dw_prof_loc {
	uint64_t ip;			/* as recorded */
	uint32_t mapping;		/* index + 1 in mappings; 0: none */
	const char *sym;		/* symbol, or NULL: unknown */
	uint64_t off;			/* offset of @ip in @sym */
	const char *dso;		/* the file, [kernel.kallsyms], [mod], or NULL */
	uint64_t dso_off;		/* offset of @ip in @dso (file offset for files) */
	uint32_t first_line, nr_lines;	/* in lines: innermost first, >= 1 */
	int kernel;
	int marker;			/* a truncation marker, no address */
	int python;			/* a Python frame: @ip is its code object */
	uint32_t py_func;		/* @python: its function in funcs (qualname, its
					 * file, start_line), for pprof; the lines name
					 * "qualname (file.py:LINE)" */
};

struct dw_prof_sample {
	__u32 pid, tid, cpu;
	__u64 time, period;		/* off-CPU: period is ns off CPU */
	__u32 flags;			/* DUNWIND_SAMPLE_* (OFF_CPU, OFF_CPU_OPEN...) */
	const char *comm;
	uint32_t first, nr;		/* in stack: location indices, leaf first */
	int stop;			/* DUNWIND_STOP_* or DW_PROF_STOP_*; END: complete */
};

struct dw_prof {
	struct dw_capture_header hdr;
	struct dw_prof_sample *samples;
	size_t nr_samples;
	uint32_t *stack;
	size_t nr_stack;
	struct dw_prof_loc *locs;
	size_t nr_locs;
	struct dw_prof_line *lines;
	size_t nr_lines;
	struct dw_prof_func *funcs;
	size_t nr_funcs;
	struct dw_prof_mapping *mappings;
	size_t nr_mappings;

	struct dw_stitch_counts counts;	/* over the whole capture */
	unsigned long filtered;		/* samples left out by --pid/--tid/--comm */
	unsigned long skipped;		/* records of unknown type */
	unsigned long stops[DW_PROF_STOP_NR];	/* samples (kept) by stop reason */
	/* user stacks by their DUNWIND_UNWIND_* bits, every combination of the 8 */
	unsigned long stacks_by_method[1 << DUNWIND_UNWIND_NR];
	unsigned long long nr_fp, nr_sframe, user_frames;
	unsigned long kernel_trunc;	/* samples with DUNWIND_SAMPLE_KERNEL_TRUNC */
	unsigned long in_walk;		/* kept samples taken in dunwind's walk (IN_WALK) */
	unsigned long long total_period;	/* of kept samples */
	unsigned long offcpu_seen;	/* off-CPU samples in the capture, kept or not */
	unsigned long offcpu, offcpu_open;	/* kept off-CPU samples; still blocked at the end */
	unsigned long long offcpu_period;	/* of kept off-CPU samples, ns */
	int other_boot;			/* recorded during another boot */
	unsigned long live_refused;	/* processes /proc could not stand in for */
	char ksyms_from[512];		/* where kernel symbols came from, or why none */
	char usyms_from[256];		/* the user symbol snapshot, or why none */
	unsigned long usyms_used;	/* locations named from the snapshot */
	unsigned long unnamed;		/* user locations in files left unnamed */

	struct dw_buf tasks;		/* its COMM, FORK, EXIT and MMAP records, as read */

	void *priv;			/* interning tables, string pool */
};

int dw_prof_load(struct dw_prof **out, const char *path, const struct dw_prof_opts *o);
size_t dw_prof_frames(const struct dw_prof *p, const struct dw_prof_sample *s,
		      int inline_frames, uint32_t *funcs, size_t max);
const char *dw_prof_stop_name(int stop);
void dw_prof_free(struct dw_prof *p);

#endif
