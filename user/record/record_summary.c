// SPDX-License-Identifier: GPL-2.0
/*
 * What 'dunwind record' says while it records (a progress line on the
 * terminal it is given) and after (through dw_info(), util/log.h).
 */
#include <stdio.h>
#include <string.h>

#include "record/record_summary.h"
#include "sframe/sframe_reg.h"
#include "util/log.h"

static unsigned long long per(unsigned long long ns, unsigned long long n)
{
	return n ? ns / n : 0;
}

/* The files that got no table: their frames are walked by frame pointers. */
static void summary_misses(const struct dw_sframe_feed *f)
{
	size_t i;

	if (!f->failed)
		return;
	dw_warn("no table for %u files (their frames need frame pointers):\n",
		f->failed);
	for (i = 0; i < f->nr_miss; i++)
		dw_warn("  %s: %s\n", f->miss[i].path,
			dw_sframe_reg_strerror(f->miss[i].err));
	if (f->nr_miss < f->failed)
		dw_warn("  and %zu more (out of memory for their names)\n",
			(size_t)f->failed - f->nr_miss);
	if (f->tried_nomem)
		dw_warn("out of memory for the set of files tried: some were "
			"tried more than once\n");
}

/**
 * dw_record_progress() - one line of live progress on a terminal, rewritten in place
 * @tty:	the terminal
 * @st:		the recording
 * @done:	clear the line for good
 *
 * Context: user space.
 */
void dw_record_progress(FILE *tty, const struct dw_recorder *st, int done)
{
	if (done) {
		fprintf(tty, "\r\033[K");
		return;
	}
	fprintf(tty, "\rdunwind: recording: %llu samples, %llu user stacks, %llu lost\033[K",
		st->samples, st->user_stacks, st->lost[0]);
	fflush(tty);
}

/* The samples and user stacks the ring gave; off-CPU ones. */
static void summary_samples(const struct dw_recorder *st, int off_cpu, int system_wide,
			    const struct dunwind_stats *ks, int have_stats)
{
	char per_walk[64] = "", blocks[160] = "";

	if (st->user_stacks)
		snprintf(per_walk, sizeof(per_walk), ", %.2f samples per user walk",
			 (double)st->samples_cookie / (double)st->user_stacks);
	dw_info("%llu samples (%llu without a user part), %llu user stacks%s\n",
		st->samples, st->samples_no_user, st->user_stacks, per_walk);
	if (st->sample_stacks)
		dw_info("%llu samples came in one record with their user stack\n",
			st->sample_stacks);
	dw_info("profiler overhead: %llu samples (%.1f %%) in dunwind's own walk\n",
		st->samples_in_walk, st->samples ? 100.0 * (double)st->samples_in_walk /
		(double)st->samples : 0.0);
	if (system_wide)
		dw_info("system-wide: %llu samples of kernel threads or idle "
			"(kernel stacks only)\n", st->samples_kthread);
	if (!off_cpu)
		return;
	if (have_stats && ks->size >= DUNWIND_STATS_SIZE_VER2)
		snprintf(blocks, sizeof(blocks), "; %llu blocks under --off-cpu-thresh, %llu not "
			 "measured (more threads blocked than -m's pending slots)",
			 (unsigned long long)ks->offcpu_short, (unsigned long long)ks->offcpu_full);
	dw_info("off-CPU: %llu of the samples, %.3f s blocked, %llu still blocked at the end%s\n",
		st->offcpu, st->offcpu_ns / 1e9, st->offcpu_open, blocks);
}

/*
 * Fewer on-CPU samples than the clock owed the command's CPU time: none
 * was lost here (the module counts every overflow it is given), the
 * kernel's timer fired less often.  Within 10 % is the clock's rounding.
 */
static void summary_asked(const struct dw_recorder *st, const struct dunwind_stats *ks,
			  int have_stats)
{
	unsigned long long got = have_stats ? ks->samples : st->samples - st->offcpu;

	if (st->samples_asked < 100 || got * 10 >= st->samples_asked * 9)
		return;
	dw_warn("warning: %llu samples in the command's %.2f s of CPU time, "
		"where the clock owed %llu (%.0f %% fewer): the kernel's sampling timer fired "
		"less often than asked (a VM whose timer interrupts stall?), for any profiler; "
		"none was lost here\n", got, st->target_cpu_ns / 1e9, st->samples_asked,
		100.0 - 100.0 * (double)got / (double)st->samples_asked);
}

/* The other records; lost ones; the SFrame tables given to the module. */
static void summary_records(const struct dw_recorder *st, int system_wide)
{
	char other[48] = "";

	if (st->other)
		snprintf(other, sizeof(other), ", %llu of unknown type", st->other);
	dw_info("%llu mmap, %llu comm, %llu fork, %llu exit records%s\n",
		st->by_type[DUNWIND_REC_MMAP], st->by_type[DUNWIND_REC_COMM],
		st->by_type[DUNWIND_REC_FORK], st->by_type[DUNWIND_REC_EXIT], other);
	if (system_wide && st->feed.sys_procs) {
		char first[80] = "no sample";

		if (st->first_sample_ns)
			snprintf(first, sizeof(first), "the first sample %.1f ms after dunwind "
				 "began", st->first_sample_ns > st->begin_ns ?
				 (double)(st->first_sample_ns - st->begin_ns) / 1e6 : 0.0);
		dw_info("at the start, %u processes mapped %u executable files: their tables "
			"took %llu ms, while sampling (%s)\n", st->feed.sys_procs,
			st->feed.sys_files, st->feed.sys_ms, first);
	}
	if (st->feed.files)
		dw_info("SFrame tables for %u files without .sframe: %u registered "
			"(%u from the cache, %u generated), %u failed, %.1f ms\n",
			st->feed.files, st->feed.ok, st->feed.cache, st->feed.gen, st->feed.failed,
			st->feed.ns / 1e6);
	if (st->unprivileged)
		dw_warn("not root (no CAP_PERFMON): no SFrame tables registered; "
			"in files without frame pointers or .sframe (libc) the walk falls back to "
			"frame pointers, so stacks through them may be cut short\n");
	summary_misses(&st->feed);
	if (st->samples)
		dw_info("recorder: %.1f ms of CPU while recording, %llu ns per "
			"sample\n", (double)st->cpu_ns / 1e6, st->cpu_ns / st->samples);
	dw_info("lost %llu records (%llu samples, %llu user stacks, %llu other)\n",
		st->lost[0], st->lost[DUNWIND_REC_SAMPLE], st->lost[DUNWIND_REC_USER_STACK],
		st->lost[0] - st->lost[DUNWIND_REC_SAMPLE] - st->lost[DUNWIND_REC_USER_STACK]);
}

/* The module's own counts and costs. */
static void summary_module(const struct dunwind_stats *ks)
{
	dw_info(
		"module: %llu samples (%llu in user mode, %llu without a user "
		"part, %llu pending-table full), %llu walks, %llu threads\n",
		(unsigned long long)ks->samples, (unsigned long long)ks->samples_user,
		(unsigned long long)ks->samples_no_user,
		(unsigned long long)ks->pending_full, (unsigned long long)ks->walks,
		(unsigned long long)ks->threads);
	dw_info(
		"module: %llu user frames (%llu fp, %llu sframe), %.1f frames/walk; "
		"handler %llu ns/sample, walk %llu ns/walk; fp %llu ns/frame, "
		"sframe %llu ns/frame\n",
		(unsigned long long)ks->user_frames, (unsigned long long)ks->fp_frames,
		(unsigned long long)ks->sframe_frames,
		ks->walks ? (double)ks->user_frames / (double)ks->walks : 0.0,
		per(ks->handler_ns, ks->samples), per(ks->walk_ns, ks->walks),
		per(ks->fp_ns, ks->fp_frames), per(ks->sframe_ns, ks->sframe_frames));
	if (ks->size >= DUNWIND_STATS_SIZE_VER5 && ks->walks)
		dw_info("module: %llu of %llu walks replayed (the thread's last walk, "
			"its stack words unchanged)\n",
			(unsigned long long)ks->walks_replayed, (unsigned long long)ks->walks);
	if (ks->size >= DUNWIND_STATS_SIZE_VER6 && ks->samples_earlier)
		dw_info("module: %llu samples named their thread's stack written before "
			"(a walk replayed as they were taken; no stack record of their own)\n",
			(unsigned long long)ks->samples_earlier);
	if (ks->size >= DUNWIND_STATS_SIZE_VER3 && ks->barrier_waits)
		dw_info("module: walks waited %llu times for a library's table "
			"(%llu without an answer in time), %.1f ms in all\n",
			(unsigned long long)ks->barrier_waits,
			(unsigned long long)ks->barrier_missed, ks->barrier_ns / 1e6);
}

/* The symbol snapshots in the capture, and the files they could not read. */
static void summary_symbols(const struct dw_recorder *st)
{
	if (st->ksyms_bytes)
		dw_info("kernel symbols: a %llu KiB snapshot in the capture, named by %s "
			"(%lld ms)\n", st->ksyms_bytes >> 10,
			st->ksyms_by_module ? "the module" : "/proc/kallsyms", st->ksyms_ms);
	if (st->usyms_written)
		dw_info("user symbols: a %llu KiB snapshot in the capture: %lu "
			"functions, %lu source frames in %lu files for %lu addresses (%lu without "
			"a name) (%lld ms)\n", st->usyms.bytes >> 10, st->usyms.funcs,
			st->usyms.lines, st->usyms.files, st->usyms.addrs, st->usyms.unnamed,
			st->usyms.ms);
	if (st->usyms.via_map_files)
		dw_info("user symbols: %lu mapped files read through "
			"/proc/PID/map_files (their path was gone or named another file)\n",
			st->usyms.via_map_files);
	if (st->usyms.not_found)
		dw_info("user symbols: %lu mapped files (%s...) could be read "
			"neither at their path nor through /proc/PID/map_files (replaced, and not "
			"root?): the snapshot does not name them\n", st->usyms.not_found,
			st->usyms.first_not_found);
}

/* The CPython interpreters seen, and the code objects named in the capture. */
static void summary_python(const struct dw_recorder *st)
{
	const struct dw_pynames *n = &st->pynames;

	if (!st->py.pythons && !n->named)
		return;
	dw_info("python: %u interpreters (%u registered), %lu code objects named "
		"(%lu again, another object at the address), %lu unreadable\n",
		st->py.pythons, st->py.registered, n->named, n->renamed, n->failed);
}

/**
 * dw_record_summary() - what was recorded, lost, registered and written
 * @st:		the recording
 * @output:	the capture's name
 * @off_cpu:	--off-cpu was given
 * @system_wide:	-a was given
 * @ks:		the module's statistics, if @have_stats
 * @have_stats:	@ks was read
 *
 * Context: user space.
 */
void dw_record_summary(const struct dw_recorder *st, const char *output, int off_cpu,
		       int system_wide, const struct dunwind_stats *ks, int have_stats)
{
	summary_samples(st, off_cpu, system_wide, ks, have_stats);
	summary_asked(st, ks, have_stats);
	summary_records(st, system_wide);
	if (have_stats)
		summary_module(ks);
	summary_symbols(st);
	summary_python(st);
	if (st->write_err)
		dw_warn("%s is incomplete (%s): it holds at most the %llu "
			"records (%llu bytes) written before the error; 'dunwind report' reads "
			"them\n", output, strerror(-st->write_err),
			(unsigned long long)st->w.hdr.record_count,
			(unsigned long long)st->w.hdr.record_bytes);
	else if (st->w.hdr.compression || (st->w.hdr.features & DW_CAPTURE_PACKED))
		dw_info("wrote %llu records (%llu bytes, %s from "
			"%llu: %.1fx) to %s\n", (unsigned long long)st->w.raw_count,
			(unsigned long long)st->w.hdr.record_bytes,
			!(st->w.hdr.features & DW_CAPTURE_PACKED) ? "zstd-compressed" :
			st->w.hdr.compression ? "packed and zstd-compressed" : "packed",
			(unsigned long long)st->w.raw_bytes,
			st->w.hdr.record_bytes ? (double)st->w.raw_bytes / st->w.hdr.record_bytes : 0,
			output);
	else
		dw_info("wrote %llu records (%llu bytes) to %s\n",
			(unsigned long long)st->w.raw_count,
			(unsigned long long)st->w.hdr.record_bytes, output);
}
