/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One recording, step by step (record_cmd.c runs them): hold the command,
 * open the session and the capture file, start, drain the ring until the
 * target ends, stop and drain what is left, write the symbol snapshots,
 * wait for the command.  Each step says what went wrong, and what to do,
 * through dw_warn() (util/log.h), and returns 0 or -errno.
 */
#ifndef DW_RECORDING_H
#define DW_RECORDING_H

#include <stddef.h>
#include <stdio.h>
#include <linux/dunwind.h>

#include "record/recorder.h"
#include "record/session.h"

/* What is recorded, and how (dunwind record's options). */
struct dw_record_opts {
	unsigned long long freq, period;
	int event;			/* DUNWIND_EVENT_* */
	const char *output;
	const char *device;
	unsigned int pages, max_stack;
	int fp_only;
	int force;			/* -f: overwrite an existing output */
	int zstd_level;			/* -z: compress at this zstd level; 0: not */
	int no_gen;			/* --no-gen-sframe */
	int no_barrier;			/* --no-barrier */
	int no_ksyms;			/* --no-kallsyms */
	int no_usyms;			/* --no-symbol-snapshot */
	int no_python;			/* --no-python */
	int no_inherit;			/* --no-inherit: not the processes it creates */
	int off_cpu;			/* --off-cpu */
	unsigned long long off_cpu_thresh_us;	/* --off-cpu-thresh */
	int pid, tid;
	int all_cpus;			/* -a: the whole system */
	unsigned char cpus[DUNWIND_MAX_CPUS_SIZE];	/* -C, implies -a */
	size_t cpus_size;		/* 0: every CPU */
	unsigned long long duration_ms;	/* --duration, 0: none */
	char **cmd;			/* NULL-terminated, or NULL */
};

/* One recording: the session, the recorder, and the command run for it. */
struct dw_record_run {
	const struct dw_record_opts *o;
	struct dunwind_config cfg;
	struct dw_session s;
	struct dw_recorder st;
	struct dunwind_stats ks;
	int have_stats;
	int child;		/* the command's pid, 0: none */
	int go;			/* releases the held command, -1: released */
	int pidfd;		/* the target's, -1: none */
	int started;		/* the session started: say a summary */
	FILE *tty;		/* the terminal for live progress, NULL: none */
	long long t_start;	/* when the session started (ms) */
	long long shown;	/* when progress was last shown (ms) */
	unsigned long long cpu_start;	/* the recorder's CPU time at the start (ns) */
	int drain_err;		/* -errno (said) of a drain between two tables at START */
};

int dw_record_open(struct dw_record_run *r);
int dw_record_start(struct dw_record_run *r);
int dw_record_loop(struct dw_record_run *r);
int dw_record_stop(struct dw_record_run *r, int ret);
int dw_record_finish(struct dw_record_run *r, int ret);
int dw_record_reap(struct dw_record_run *r, int ret);

#endif
