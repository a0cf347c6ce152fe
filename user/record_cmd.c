// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind record: sample a command, a process or a thread (and the
 * processes they create), or the whole system, and write every record of
 * the ring to a capture file.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "capture/capture.h"
#include "capture/event.h"
#include "capture/record_summary.h"
#include "capture/recorder.h"
#include "capture/ring.h"
#include "commands.h"
#include "symbols/dso.h"
#include "util/clock.h"
#include "util/cpulist.h"
#include "util/num.h"
#include "util/options.h"
#include "util/spawn.h"

#define DW_POLL_MS		10	/* ring poll while recording: new MMAP records get
				   their tables this soon */
#define DW_FINAL_IDLE_MS	20	/* after STOP: wait this long ... */
#define DW_FINAL_IDLE_ROUNDS	5	/* ... this many times with nothing new */
#define DW_FINAL_MAX_MS		2000	/* and never longer than this */
#define DW_PROGRESS_MS		500	/* live progress line on a terminal */

struct record_opts {
	unsigned long long freq, period;
	int event;			/* DUNWIND_EVENT_* */
	const char *output;
	const char *device;
	unsigned int pages, max_stack;
	int fp_only;
	int force;			/* -f: overwrite an existing output */
	int no_gen;			/* --no-gen-sframe */
	int no_ksyms;			/* --no-kallsyms */
	int no_usyms;			/* --no-symbol-snapshot */
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

static int opt_event(const struct dw_option *opt, const char *arg, void *args,
		     const char *cmd)
{
	struct record_opts *o = args;

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
	struct record_opts *o = args;
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
	struct record_opts *o = args;
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
	struct record_opts *o = args;
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

#define STR(x) #x
#define XSTR(x) STR(x)

static const struct dw_option record_options[] = {
	{ .type = DW_OPT_CALLBACK, .short_name = 'e', .long_name = "event", .argh = "EVENT",
	  .cb = opt_event, .values = dw_event_names,
	  .help = "what drives sampling, cpu-clock by default; hardware events need a PMU" },
	OPT_ULL('F', "freq", struct record_opts, freq, "HZ", 1, 1000000,
		"samples per second of CPU time, or of events (default 999)"),
	OPT_ULL('c', "count", struct record_opts, period, "N", 1, ULLONG_MAX,
		"or: one sample per N ns of CPU time (the clocks) or per N events "
		"(hardware events)"),
	OPT_STRING('o', "output", struct record_opts, output, "FILE",
		   "capture file (default dunwind.data)"),
	OPT_BOOL('f', "force", struct record_opts, force,
		 "overwrite FILE if it exists (else an existing FILE is an error)"),
	OPT_CALLBACK('m', "mmap-pages", "N", opt_pages,
		     "ring data pages, a power of two (default "
		     XSTR(DUNWIND_DEFAULT_RING_PAGES) ")"),
	OPT_UINT(0, "max-stack", struct record_opts, max_stack, "N", 1,
		 DUNWIND_MAX_USER_FRAMES,
		 "user frames per stack (default " XSTR(DUNWIND_DEFAULT_USER_FRAMES) ", max "
		 XSTR(DUNWIND_MAX_USER_FRAMES) ")"),
	OPT_BOOL(0, "fp-only", struct record_opts, fp_only,
		 "walk user stacks with frame pointers only"),
	OPT_BOOL(0, "no-gen-sframe", struct record_opts, no_gen,
		 "do not generate SFrame tables for libraries that lack .sframe (libc...) "
		 "from their .eh_frame"),
	OPT_BOOL(0, "no-kallsyms", struct record_opts, no_ksyms,
		 "do not store the kernel symbols in the capture"),
	OPT_BOOL(0, "no-symbol-snapshot", struct record_opts, no_usyms,
		 "do not store the user functions hit in the capture (reports then need the "
		 "binaries)"),
	OPT_BOOL(0, "no-inherit", struct record_opts, no_inherit,
		 "do not follow the processes the command (or -p's process) creates; "
		 "threads are followed all the same"),
	OPT_BOOL(0, "off-cpu", struct record_opts, off_cpu,
		 "also a sample each time a thread blocks, weighted by the time it stays off "
		 "CPU (event offcpu-time)"),
	OPT_ULL(0, "off-cpu-thresh", struct record_opts, off_cpu_thresh_us, "US", 0,
		3600000000ULL,
		"with --off-cpu: no sample for blocks shorter than US microseconds (default 0: "
		"every block)"),
	OPT_INT('p', "pid", struct record_opts, pid, "PID", 1, INT_MAX,
		"profile this process (all its threads, and the processes it creates from "
		"now on)"),
	OPT_INT('t', "tid", struct record_opts, tid, "TID", 1, INT_MAX,
		"profile this thread only"),
	OPT_BOOL('a', "all-cpus", struct record_opts, all_cpus,
		 "profile the whole system: every process, those started meanwhile too, and "
		 "kernel threads (kernel stacks only); needs CAP_PERFMON or root"),
	OPT_CALLBACK('C', "cpu", "CPUS", opt_cpus,
		     "with -a: only the tasks running on these CPUs (0,2-3); implies -a"),
	{ .type = DW_OPT_CALLBACK, .long_name = "duration", .argh = "SECONDS",
	  .cb = opt_duration,
	  .help = "stop after SECONDS (else at the target's end, or at SIGINT/SIGTERM)" },
	OPT_STRING(0, "device", struct record_opts, device, "PATH",
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
	       "--no-gen-sframe. With -a, every task on the CPUs (-C) is sampled until the "
	       "command exits, --duration, or SIGINT/SIGTERM; at the start, every file mapped "
	       "executable by a running process gets its table, later ones as they are mapped; "
	       "the summary names the files that got none.",
	.options = record_options,
	.flags = DW_PARSE_STOP_AT_NON_OPTION,
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* A plain error about @what (a file, a system call). */
static void report_file(const char *what, int err)
{
	fprintf(stderr, "dunwind: %s: %s\n", what, strerror(-err));
}

/* Say what went wrong with the device or session and what to do about it. */
static void report(const struct record_opts *o, const char *what, int err)
{
	const char *dev = o->device ? o->device : DUNWIND_DEVICE;

	switch (-err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		fprintf(stderr, "dunwind: %s not found: load the module (insmod dunwind.ko, from "
			"out/kmod/RELEASE/kmod/ or 'make install')\n",
			dev);
		break;
	case EACCES:
	case EPERM:
		fprintf(stderr, "dunwind: %s: permission denied: profiling needs CAP_PERFMON "
			"(or root), and permission to trace the target\n", what);
		break;
	case ESRCH:
		fprintf(stderr, "dunwind: %s: no such process %d\n", what,
			o->pid ? o->pid : o->tid);
		break;
	case ENOMEM:
		fprintf(stderr, "dunwind: %s: no memory for the ring: its pages count as locked "
			"memory; use a smaller ring (-m) or raise 'ulimit -l'\n", what);
		break;
	default:
		report_file(what, err);
	}
}

/* Drain once; on failure say why.  Records consumed, or -errno. */
static int drain(struct dw_session *s, struct dw_recorder *st, const struct record_opts *o)
{
	int n = dw_session_drain(s, dw_recorder_on_record, st);

	/* Whole drains reach the file: a capture cut later keeps them. */
	if (n > 0 && !st->write_err)
		st->write_err = dw_capture_flush(&st->w);
	if (n >= 0 && st->write_err)
		n = st->write_err;
	if (n >= 0)
		return n;
	if (st->write_err)
		report_file(o->output, st->write_err);
	else if (n == -EPROTO)
		fprintf(stderr, "dunwind: the ring holds a malformed record: stopping "
			"(a module bug: please report it)\n");
	else
		report(o, "reading the ring", n);
	return n;
}

/* Is the thread @tid gone (for -t, when no pidfd can watch it)? */
static int tid_gone(int tid)
{
	return kill(tid, 0) && errno == ESRCH;
}

/* One recording: the session, the recorder, and the command run for it. */
struct record_run {
	const struct record_opts *o;
	struct dunwind_config cfg;
	struct dw_session s;
	struct dw_recorder st;
	struct dunwind_stats ks;
	int have_stats;
	int child;		/* the command's pid, 0: none */
	int go;			/* releases the held command, -1: released */
	int pidfd;		/* the target's, -1: none */
	int started;		/* the session started: say a summary */
	int tty;		/* stderr is a terminal: live progress */
	long long t_start;	/* when the session started (ms) */
	long long shown;	/* when progress was last shown (ms) */
};

/* The session's configuration, from the options. */
static void record_config(const struct record_opts *o, struct dunwind_config *cfg)
{
	cfg->size = sizeof(*cfg);
	cfg->flags = o->fp_only ? DUNWIND_CFG_FP_ONLY : 0;
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
 * Hold the command, open the session and the capture file, give the module
 * the tables the target needs first.  0, or 1 (said).
 */
static int record_open(struct record_run *r)
{
	const struct record_opts *o = r->o;
	struct sigaction sa = { .sa_handler = on_signal };
	int err;

	if (o->cmd) {
		r->child = dw_spawn_held(o->cmd, &r->go);
		if (r->child < 0) {
			report_file("fork", r->child);
			r->child = 0;
			return 1;
		}
		if (!o->all_cpus)
			r->cfg.pid = r->child;
	}
	err = dw_session_open(&r->s, o->device, &r->cfg);
	if (err == -EINVAL && (o->off_cpu || o->all_cpus)) {
		fprintf(stderr, "dunwind record: the module refuses %s: a CPU that is not there "
			"(see /sys/devices/system/cpu/possible), or a module older than this "
			"dunwind: load the module built from this tree\n",
			o->all_cpus ? "-a" : "--off-cpu");
		return 1;
	}
	if (err) {
		report(o, "opening the session", err);
		return 1;
	}
	/* Before the command runs: an output that cannot be written fails now. */
	err = dw_capture_create_new(&r->st.w, o->output, &r->cfg, o->force);
	if (err == -EEXIST) {
		fprintf(stderr, "dunwind: %s exists: give -f to overwrite it, or -o another "
			"file\n", o->output);
		return 1;
	}
	if (err) {
		report_file(o->output, err);
		return 1;
	}
	if (r->child || r->cfg.pid || r->cfg.tid)
		r->pidfd = (int)syscall(SYS_pidfd_open, r->child ? r->child :
					r->cfg.pid ? r->cfg.pid : r->cfg.tid, 0);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	r->st.feed.dev_fd = o->no_gen ? -1 : r->s.fd;
	if (r->st.feed.dev_fd >= 0 && o->all_cpus)
		dw_sframe_feed_system(&r->st.feed);
	else if (r->st.feed.dev_fd >= 0)
		dw_sframe_feed_pid(&r->st.feed,
				   o->cmd ? getpid() : (r->cfg.pid ? r->cfg.pid : r->cfg.tid));
	if (o->cmd)
		dw_sframe_feed_command(&r->st.feed, o->cmd);
	return 0;
}

/* Start the session, then release the command.  0, or 1 (said). */
static int record_start(struct record_run *r)
{
	const struct record_opts *o = r->o;
	int err = dw_session_start(&r->s);

	if (err == -ENODEV && o->all_cpus) {
		fprintf(stderr, "dunwind record: -C names a CPU that is offline (see "
			"/sys/devices/system/cpu/online)\n");
		return 1;
	}
	if (err && dw_event_is_hw(o->event) && (err == -ENOENT || err == -EOPNOTSUPP)) {
		fprintf(stderr, "dunwind record: %s: no PMU counts this event on this machine "
			"(a VM without a virtual PMU?): use -e cpu-clock\n", dw_event_name(o->event));
		return 1;
	}
	if (err) {
		report(o, "starting the session", err);
		return 1;
	}
	r->started = 1;
	r->t_start = dw_now_ms();
	if (r->child) {
		if (write(r->go, "g", 1) != 1) {
			report_file("starting the command", -errno);
			return 1;
		}
		close(r->go);
		r->go = -1;
	}
	return 0;
}

/* Drain the ring until the target ends, --duration or a signal.  0, or 1 (said). */
static int record_loop(struct record_run *r)
{
	const struct record_opts *o = r->o;

	while (!stop_signal) {
		struct pollfd p[2] = {
			{ .fd = r->s.fd, .events = POLLIN },
			{ .fd = r->pidfd, .events = POLLIN },
		};
		int n = poll(p, r->pidfd >= 0 ? 2 : 1, DW_POLL_MS);

		if (n < 0 && errno != EINTR) {
			report_file("poll", -errno);
			return 1;
		}
		if (drain(&r->s, &r->st, o) < 0)
			return 1;
		if (r->tty && dw_now_ms() - r->shown >= DW_PROGRESS_MS) {
			dw_record_progress(&r->st, 0);
			r->shown = dw_now_ms();
		}
		if (n > 0 && r->pidfd >= 0 && p[1].revents)
			return 0;	/* the target exited */
		if (o->duration_ms && dw_now_ms() - r->t_start >= (long long)o->duration_ms)
			return 0;
		if (r->pidfd < 0 && o->tid && tid_gone(o->tid))
			return 0;
	}
	return 0;
}

/*
 * Stop the session (which answers every cookie) and collect what is still
 * in the ring, then the module's statistics.  @ret: so far; returns it, or
 * 1 on a new failure (said).
 */
static int record_stop(struct record_run *r, int ret)
{
	long long t0;
	int err, idle;

	err = dw_session_stop(&r->s);
	if (err)
		report(r->o, "stopping the session", err);
	t0 = dw_now_ms();
	for (idle = 0; !ret && idle < DW_FINAL_IDLE_ROUNDS && dw_now_ms() - t0 < DW_FINAL_MAX_MS;) {
		int n = drain(&r->s, &r->st, r->o);

		if (n < 0)
			return 1;
		idle = n ? 0 : idle + 1;
		if (!n)
			poll(NULL, 0, DW_FINAL_IDLE_MS);
	}
	r->have_stats = !dw_session_stats(&r->s, &r->ks);
	return ret;
}

/* The symbol snapshots, then close the capture.  @ret as record_stop(). */
static int record_finish(struct record_run *r, int ret)
{
	const struct record_opts *o = r->o;
	int err;

	/* At the end: no delay at the start, and modules loaded meanwhile are in. */
	if (!o->no_ksyms && !ret)
		ret = dw_recorder_write_ksyms(&r->st, o->output);
	if (r->st.usnap && !ret)
		ret = dw_recorder_write_usyms(&r->st, o->output);
	err = dw_capture_close(&r->st.w);
	if (err && !r->st.write_err)
		r->st.write_err = err;
	if (err && !ret) {
		report_file(o->output, err);
		ret = 1;
	}
	if (r->tty && r->shown)
		dw_record_progress(&r->st, 1);
	if (r->started)
		dw_record_summary(&r->st, o->output, o->off_cpu, o->all_cpus, &r->ks,
				  r->have_stats);
	return ret;
}

/* Wait for the command; its exit status when the recording succeeded. */
static int record_reap(struct record_run *r, int ret)
{
	int status = 0;

	if (r->go >= 0)
		close(r->go);	/* a child still waiting exits 127 */
	if (!r->child)
		return ret;
	/* Ctrl-C usually reached the command too; make sure. */
	if (stop_signal || ret) {
		if (waitpid(r->child, &status, WNOHANG) == r->child)
			return ret ? ret : dw_exit_status(status);
		kill(r->child, SIGTERM);
	}
	while (waitpid(r->child, &status, 0) < 0 && errno == EINTR)
		;
	return ret ? ret : dw_exit_status(status);
}

static int do_record(const struct record_opts *o)
{
	struct record_run r = {
		.o = o, .s = { .fd = -1 }, .go = -1, .pidfd = -1,
		.tty = isatty(STDERR_FILENO),
	};
	int ret;

	record_config(o, &r.cfg);
	/* A file that is not the mapped one is said once, in the summary. */
	dw_dso_set_quiet(1);
	if (!o->no_usyms) {
		r.st.usnap = dw_usnap_writer_new();
		if (!r.st.usnap)
			fprintf(stderr, "dunwind: user symbols: out of memory: the capture will "
				"have none\n");
	}
	ret = record_open(&r);
	if (!ret) {
		ret = record_start(&r);
		if (r.started) {
			ret = ret ? ret : record_loop(&r);
			ret = record_stop(&r, ret);
		}
		ret = record_finish(&r, ret);
	}
	ret = record_reap(&r, ret);
	if (r.pidfd >= 0)
		close(r.pidfd);
	dw_kips_free(&r.st.kips);
	dw_sframe_feed_free(&r.st.feed);
	dw_usnap_writer_free(r.st.usnap);
	dw_session_close(&r.s);
	return ret;
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
	struct record_opts o = { .output = "dunwind.data" };
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
