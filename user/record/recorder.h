/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording in progress: every record drained from the ring goes to the
 * capture file and is counted; MMAP records feed the SFrame tables, MMAP
 * and COMM records the user symbol snapshot.  After the recording the
 * capture is read back for the addresses the snapshots need.
 */
#ifndef DW_RECORDER_H
#define DW_RECORDER_H

#include <linux/dunwind.h>

#include "capture/capture.h"
#include "record/kips.h"
#include "capture/usnap.h"
#include "interp/pyfeed.h"
#include "interp/pynames.h"
#include "sframe/sframe_feed.h"

struct dw_recorder {
	struct dw_capture_writer w;
	unsigned long long samples, samples_cookie, samples_no_user, user_stacks;
	unsigned long long samples_kthread;	/* of kernel threads, idle */
	unsigned long long sample_stacks;	/* samples in a SAMPLE_STACK */
	unsigned long long samples_in_walk;	/* taken in dunwind's own walk */
	unsigned long long offcpu, offcpu_open, offcpu_ns;
	/* When the recorder began (dw_record_open()), and the earliest sample's
	   time (CLOCK_MONOTONIC ns; 0: none). */
	unsigned long long begin_ns, first_sample_ns;
	unsigned long long by_type[DUNWIND_REC_MAX], other;
	unsigned long long lost[DUNWIND_REC_MAX];
	/* The recorder's own CPU time while the session ran (CLOCK_PROCESS_CPUTIME_ID). */
	unsigned long long cpu_ns;
	/* The command's CPU time and the samples the clocks owe it; 0: unknown. */
	unsigned long long target_cpu_ns, samples_asked;
	int write_err;
	/* SFrame tables generated for libraries without .sframe. */
	struct dw_sframe_feed feed;
	/* CPython interpreters registered, and the processes that run them. */
	struct dw_pyfeed py;
	/* Their code objects, named while the processes live (DW_REC_PYCODE). */
	struct dw_pynames pynames;
	unsigned long long ksyms_bytes;	/* kernel symbol snapshot, 0: none */
	long long ksyms_ms;
	int ksyms_by_module;		/* named by DUNWIND_IOC_KSYM, not /proc/kallsyms */
	/* Kernel IPs seen (dw_recorder_replay()), for a snapshot of just the
	   symbols they need. */
	struct dw_kips kips;
	/* User symbols of every user IP, stored at the end; NULL: none. */
	struct dw_usnap_writer *usnap;
	struct dw_usnap_stats usyms;
	int usyms_written;
	int unprivileged;	/* no CAP_PERFMON: no tables registered */
};

void *dw_recorder_place(__u32 size, void *arg);
int dw_recorder_on_record(const struct dunwind_rec_header *rec, void *arg);
int dw_recorder_replay(struct dw_recorder *st);
int dw_recorder_write_ksyms(struct dw_recorder *r, int dev_fd, const char *output);
int dw_recorder_write_usyms(struct dw_recorder *r, const char *output);

#endif
