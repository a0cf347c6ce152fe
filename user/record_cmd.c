// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind record: sample a command, a process or a thread (and the
 * processes they create), or the whole system, and write every record of
 * the ring to a capture file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture/compress.h"
#include "capture/event.h"
#include "record/recording.h"
#include "commands.h"
#include "symbols/dso.h"
#include "util/cpulist.h"
#include "util/log.h"
#include "util/num.h"
#include "util/options.h"

static int opt_event(const struct dw_option *opt, const char *arg, void *args,
		     const char *cmd)
{
	struct dw_record_opts *o = args;

	(void)opt;
	o->event = dw_event_parse(arg);
	if (o->event >= 0)
		return 0;
	fprintf(stderr, "dunwind %s: unknown event '%s': one of %s\n", cmd, arg,
		dw_event_names());
	return -EINVAL;
}

static int opt_pages(const struct dw_option *opt, const char *arg, void *args,
		     const char *cmd)
{
	struct dw_record_opts *o = args;
	unsigned long long v;

	(void)opt;
	if (dw_parse_ull(arg, 10, 1, DUNWIND_MAX_RING_PAGES, &v)) {
		fprintf(stderr, "dunwind %s: -m wants a number from 1 to %u, not '%s'\n", cmd,
			DUNWIND_MAX_RING_PAGES, arg);
		return -EINVAL;
	}
	if (v & (v - 1)) {
		fprintf(stderr, "dunwind %s: -m wants a power of two, not %llu\n", cmd, v);
		return -EINVAL;
	}
	o->pages = (unsigned int)v;
	return 0;
}

static int opt_cpus(const struct dw_option *opt, const char *arg, void *args,
		    const char *cmd)
{
	struct dw_record_opts *o = args;
	int err;

	(void)opt;
	err = dw_cpulist_parse(arg, o->cpus, sizeof(o->cpus), &o->cpus_size);
	if (err == -ERANGE) {
		fprintf(stderr, "dunwind %s: -C %s: CPUs go up to %zu\n", cmd, arg,
			sizeof(o->cpus) * 8 - 1);
		return err;
	}
	if (err) {
		fprintf(stderr, "dunwind %s: -C wants a CPU list such as 0,2-3, not '%s'\n", cmd,
			arg);
		return err;
	}
	o->all_cpus = 1;
	return 0;
}

static int opt_duration(const struct dw_option *opt, const char *arg, void *args,
			const char *cmd)
{
	struct dw_record_opts *o = args;
	char *end;
	double v;

	(void)opt;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || v > 31536000) {
		fprintf(stderr, "dunwind %s: --duration wants seconds (such as 10 or 0.5), not "
			"'%s'\n", cmd, arg);
		return -EINVAL;
	}
	o->duration_ms = (unsigned long long)(v * 1000 + 0.5);
	if (!o->duration_ms)
		o->duration_ms = 1;
	return 0;
}

/* -z, --compression-level[=N]: as perf record's, level 1 when N is left out. */
static int opt_zstd(const struct dw_option *opt, const char *arg, void *args, const char *cmd)
{
	struct dw_record_opts *o = args;
	int max = dw_capture_zstd_max_level();
	unsigned long long v = 1;

	(void)opt;
	if (arg && dw_parse_ull(arg, 10, 1, (unsigned long long)max, &v)) {
		fprintf(stderr, "dunwind %s: -z wants a zstd level from 1 (fastest) to %d, not "
			"'%s'\n", cmd, max, arg);
		return -EINVAL;
	}
	o->zstd_level = (int)v;
	return 0;
}

#define STR(x) #x
#define XSTR(x) STR(x)

static const struct dw_option record_options[] = {
	{ .type = DW_OPT_CALLBACK, .short_name = 'e', .long_name = "event", .argh = "EVENT",
	  .cb = opt_event, .values = dw_event_names,
	  .help = "what drives sampling, cpu-clock by default; hardware events need a PMU" },
	OPT_ULL('F', "freq", struct dw_record_opts, freq, "HZ", 1, 1000000,
		"samples per second of CPU time, or of events (default 999)"),
	OPT_ULL('c', "count", struct dw_record_opts, period, "N", 1, ULLONG_MAX,
		"or: one sample per N ns of CPU time (the clocks) or per N events "
		"(hardware events)"),
	OPT_STRING('o', "output", struct dw_record_opts, output, "FILE",
		   "capture file (default dunwind.data)"),
	OPT_BOOL('f', "force", struct dw_record_opts, force,
		 "overwrite FILE if it exists (else an existing FILE is an error)"),
	{ .type = DW_OPT_CALLBACK, .short_name = 'z', .long_name = "compression-level",
	  .argh = "N", .cb = opt_zstd, .flags = DW_OPTF_OPTIONAL_ARG,
	  .help = "compress the capture with zstd at level N: 1 (the default, fastest) to 22 "
		  "(smallest); every reader decompresses it (-z3 or --compression-level=3, as "
		  "perf record)" },
	OPT_CALLBACK('m', "mmap-pages", "N", opt_pages,
		     "ring data pages, a power of two (default "
		     XSTR(DUNWIND_DEFAULT_RING_PAGES) ")"),
	OPT_UINT(0, "max-stack", struct dw_record_opts, max_stack, "N", 1,
		 DUNWIND_MAX_USER_FRAMES,
		 "user frames per stack (default " XSTR(DUNWIND_DEFAULT_USER_FRAMES) ", max "
		 XSTR(DUNWIND_MAX_USER_FRAMES) ")"),
	OPT_BOOL(0, "fp-only", struct dw_record_opts, fp_only,
		 "walk user stacks with frame pointers only"),
	OPT_BOOL(0, "no-gen-sframe", struct dw_record_opts, no_gen,
		 "do not generate SFrame tables for libraries that lack .sframe (libc...) "
		 "from their .eh_frame"),
	OPT_BOOL(0, "no-barrier", struct dw_record_opts, no_barrier,
		 "do not make walks that meet a library without a table wait (up to 1 s) for "
		 "its table: the first samples in a library loaded late (dlopen) may then be "
		 "truncated"),
	OPT_BOOL(0, "no-kallsyms", struct dw_record_opts, no_ksyms,
		 "do not store the kernel symbols in the capture"),
	OPT_BOOL(0, "no-symbol-snapshot", struct dw_record_opts, no_usyms,
		 "do not store the user functions hit in the capture (reports then need the "
		 "binaries)"),
	OPT_BOOL(0, "no-python", struct dw_record_opts, no_python,
		 "do not register CPython interpreters (3.11, 3.13, 3.14) with the module: "
		 "their samples show the interpreter's C frames, not the program's Python "
		 "functions"),
	OPT_BOOL(0, "no-inherit", struct dw_record_opts, no_inherit,
		 "do not follow the processes the command (or -p's process) creates; "
		 "threads are followed all the same"),
	OPT_BOOL(0, "off-cpu", struct dw_record_opts, off_cpu,
		 "also a sample each time a thread blocks, weighted by the time it stays off "
		 "CPU (event offcpu-time)"),
	OPT_ULL(0, "off-cpu-thresh", struct dw_record_opts, off_cpu_thresh_us, "US", 0,
		3600000000ULL,
		"with --off-cpu: no sample for blocks shorter than US microseconds (default 0: "
		"every block)"),
	OPT_INT('p', "pid", struct dw_record_opts, pid, "PID", 1, INT_MAX,
		"profile this process (all its threads, and the processes it creates from "
		"now on)"),
	OPT_INT('t', "tid", struct dw_record_opts, tid, "TID", 1, INT_MAX,
		"profile this thread only"),
	OPT_BOOL('a', "all-cpus", struct dw_record_opts, all_cpus,
		 "profile the whole system: every process, those started meanwhile too, and "
		 "kernel threads (kernel stacks only); needs CAP_PERFMON or root (or "
		 "kernel.perf_event_paranoid 0)"),
	OPT_CALLBACK('C', "cpu", "CPUS", opt_cpus,
		     "with -a: only the tasks running on these CPUs (0,2-3); implies -a"),
	{ .type = DW_OPT_CALLBACK, .long_name = "duration", .argh = "SECONDS",
	  .cb = opt_duration,
	  .help = "stop after SECONDS (else at the target's end, or at SIGINT/SIGTERM)" },
	OPT_STRING(0, "device", struct dw_record_opts, device, "PATH",
		   "device node (default " DUNWIND_DEVICE ")"),
	OPT_END(),
};

const struct dw_cmd_help dw_record_help = {
	.name = "record",
	.summary = "profile a command or process, write dunwind.data",
	.usage = (const char *const[]){
		"record [options] (-p PID | -t TID | [--] CMD [ARGS...])",
		"record [options] -a [-C CPUS] [--duration SECONDS] [[--] CMD [ARGS...]]", NULL
	},
	.doc = "Samples the target with the dunwind module (/dev/dunwind) and writes every "
	       "record of its ring to a capture file (following the processes the command or "
	       "-p's process creates, like perf, unless --no-inherit): samples with their kernel stacks, the "
	       "user stacks the module walked when the threads returned to user space, "
	       "mappings with build-ids, thread names and a snapshot of the kernel symbols the "
	       "samples need. With a command, its exit status is dunwind's. Libraries without "
	       ".sframe get SFrame tables generated from their .eh_frame (cached) unless "
	       "--no-gen-sframe; a library mapped later gets its table as soon as the module "
	       "reports it, and walks in it wait for that (--no-barrier: they do not). With -a, every task on the CPUs (-C) is sampled until the "
	       "command exits, --duration, or SIGINT/SIGTERM; sampling starts at once, and every file "
	       "mapped executable by a running process gets its table meanwhile (cached ones first; "
	       "walks in a file wait for its table), later ones as they are mapped; "
	       "the summary names the files that got none. A CPython interpreter (3.11, 3.13, 3.14, the "
	       "executable or libpython) is registered as it is mapped: the stacks then show the "
	       "program's Python functions with file and line among the native frames, named "
	       "in the capture (--no-python: not).",
	.options = record_options,
	.flags = DW_PARSE_STOP_AT_NON_OPTION,
};

/* The session's configuration, from the options. */
static void record_config(const struct dw_record_opts *o, struct dunwind_config *cfg)
{
	cfg->size = sizeof(*cfg);
	/* A user-mode sample and its stack in one record: ~50 bytes less each. */
	cfg->flags = DUNWIND_CFG_SAMPLE_STACK | (o->fp_only ? DUNWIND_CFG_FP_ONLY : 0);
	/* Walks wait for the tables we generate; dw_record_open() may drop it. */
	if (!o->fp_only && !o->no_gen && !o->no_barrier)
		cfg->flags |= DUNWIND_CFG_TABLE_BARRIER;
	if (o->off_cpu) {
		cfg->flags |= DUNWIND_CFG_OFF_CPU;
		cfg->offcpu_thresh_ns = o->off_cpu_thresh_us * 1000;
	}
	if (o->all_cpus) {
		/* The command, if any, only says when to stop. */
		cfg->flags |= DUNWIND_CFG_SYSTEM_WIDE;
		if (o->cpus_size) {
			cfg->cpus = (__u64)(unsigned long)o->cpus;
			cfg->cpus_size = (__u32)o->cpus_size;
		}
	} else if (o->cmd) {
		/* For -- CMD, sample the command, not our child before its exec. */
		cfg->flags |= DUNWIND_CFG_ENABLE_ON_EXEC;
	}
	/* Like perf: the processes it creates too (fork, exec), unless --no-inherit. */
	if ((o->cmd || o->pid) && !o->no_inherit && !o->all_cpus)
		cfg->flags |= DUNWIND_CFG_CHILDREN;
	cfg->sample_freq = o->freq;
	cfg->sample_period = o->period;
	cfg->event = (__u32)o->event;
	cfg->max_user_frames = o->max_stack;
	cfg->ring_pages = o->pages;
	cfg->pid = o->pid;
	cfg->tid = o->tid;
}

/*
 * While recording on a terminal, the progress line is rewritten in place
 * and has no newline: a message clears it first rather than run on from
 * it (the next progress tick draws it again).
 */
static const struct dw_record_run *progress_run;	/* on a terminal */
static dw_print_fn_t print_next;

static int print_over_progress(enum dw_print_level level, const char *fmt, va_list args)
{
	if (!print_next)
		return 0;
	if (progress_run && progress_run->shown && level != DW_DEBUG)
		fputs("\r\033[K", progress_run->tty);
	return print_next(level, fmt, args);
}

static int do_record(const struct dw_record_opts *o)
{
	struct dw_record_run r = {
		.o = o, .s = { .fd = -1 }, .go = -1, .pidfd = -1,
		.tty = isatty(STDERR_FILENO) ? stderr : NULL,
	};
	int ret;

	record_config(o, &r.cfg);
	/* The mapped files, read once; a replaced one is said once, in the summary. */
	r.st.feed.dsos = dw_dso_cache_new();
	if (!r.st.feed.dsos) {
		fprintf(stderr, "dunwind record: out of memory\n");
		return 1;
	}
	dw_dso_set_quiet(r.st.feed.dsos, 1);
	if (r.tty) {
		progress_run = &r;
		print_next = dw_set_print(print_over_progress);
	}
	if (!o->no_usyms) {
		r.st.usnap = dw_usnap_writer_new(r.st.feed.dsos);
		if (!r.st.usnap)
			fprintf(stderr, "dunwind: user symbols: out of memory: the capture will "
				"have none\n");
	}
	ret = dw_record_open(&r);
	if (!ret) {
		ret = dw_record_start(&r);
		if (r.started) {
			ret = ret ? ret : dw_record_loop(&r);
			ret = dw_record_stop(&r, ret);
		}
		ret = dw_record_finish(&r, ret);
	}
	ret = dw_record_reap(&r, ret);
	if (r.pidfd >= 0)
		close(r.pidfd);
	dw_kips_free(&r.st.kips);
	dw_sframe_feed_free(&r.st.feed);
	dw_pyfeed_free(&r.st.py);
	dw_pynames_free(&r.st.pynames);
	dw_usnap_writer_free(r.st.usnap);
	dw_dso_cache_free(r.st.feed.dsos);
	dw_session_close(&r.s);
	if (r.tty)
		dw_set_print(print_next);
	progress_run = NULL;
	return ret < 0 ? 1 : ret;
}

/**
 * dw_cmd_record() - the 'record' subcommand
 * @argc:	argument count, argv[0] is "record"
 * @argv:	arguments
 *
 * Context: user space.
 * Return: the exit status: the command's own when one was run and the
 * recording succeeded, 0 when -p/-t was followed to its end or Ctrl-C,
 * 1 if recording failed, 2 for a usage error.
 */
int dw_cmd_record(int argc, char **argv)
{
	struct dw_record_opts o = { .output = "dunwind.data" };
	int r, targets;

	r = dw_parse_options(argc, argv, &dw_record_help, &o);
	if (r < 0)
		return dw_opt_exit(r);
	if (o.period && o.freq) {
		fprintf(stderr, "dunwind record: give -F HZ or -c N, not both\n");
		return 2;
	}
	if (!o.period && !o.freq)
		o.freq = 999;
	if (o.off_cpu_thresh_us && !o.off_cpu) {
		fprintf(stderr, "dunwind record: --off-cpu-thresh goes with --off-cpu\n");
		return 2;
	}
	if (r < argc)
		o.cmd = argv + r;
	if (o.all_cpus && (o.pid || o.tid)) {
		fprintf(stderr, "dunwind record: -a profiles every process already: drop -p/-t, "
			"or -a to profile one\n");
		return 2;
	}
	targets = !!o.pid + !!o.tid + !!o.cmd + (o.all_cpus && !o.cmd);
	if (targets != 1) {
		fprintf(stderr,
			"dunwind record: give exactly one target: -p PID, -t TID, a command or "
			"-a\n");
		dw_options_usage(stderr, &dw_record_help);
		return 2;
	}
	return do_record(&o);
}
