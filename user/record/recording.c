// SPDX-License-Identifier: GPL-2.0
/*
 * One recording, step by step (recording.h): the session with the module,
 * the recorder draining its ring into the capture file, the command run
 * for it, and the messages that say what went wrong.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "capture/event.h"
#include "record/permission.h"
#include "record/record_summary.h"
#include "record/recording.h"
#include "sframe/sframe_batch.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/proc_cpu.h"
#include "util/spawn.h"

#define DW_POLL_MS		250	/* longest sleep while recording: the module wakes
				   the recorder for every MMAP record (its table)
				   and when the ring is a quarter full, and only
				   then does it drain; this is for --duration, -t
				   and the progress line */
#define DW_POLL_PY_MS		10	/* with an interpreter registered: its code
				   objects are read when their stacks are
				   drained, and a module's body is freed once it
				   ran (startup imports): drain soon after */
#define DW_FINAL_IDLE_MS	20	/* after STOP: wait this long ... */
#define DW_FINAL_IDLE_ROUNDS	5	/* ... this many times with nothing new */
#define DW_FINAL_MAX_MS		2000	/* and never longer than this */
#define DW_PROGRESS_MS		500	/* live progress line on a terminal */
#define DW_RECORDER_NICE	-10	/* see dw_record_open() */
#define DW_DRAIN_STEP		8192	/* bytes drained between two yields: drain() */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* A plain error about @what (a file, a system call); returns @err. */
static int report_file(const char *what, int err)
{
	dw_warn("%s: %s\n", what, strerror(-err));
	return err;
}

/* Say what went wrong with the device or session and what to do; returns @err. */
static int report(const struct dw_record_opts *o, const char *what, int err)
{
	const char *dev = o->device ? o->device : DUNWIND_DEVICE;

	switch (-err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		dw_warn("%s not found: load the module (insmod dunwind.ko, from "
			"out/kmod/RELEASE/kmod/ or 'make install')\n", dev);
		break;
	case EACCES:
	case EPERM:
		dw_perm_explain(what, o->all_cpus, o->off_cpu);
		break;
	case ESRCH:
		dw_warn("%s: no such process %d\n", what, o->pid ? o->pid : o->tid);
		break;
	case ENOMEM:
		dw_warn("%s: no memory for the ring: its pages count as locked memory; use a "
			"smaller ring (-m) or raise 'ulimit -l'\n", what);
		break;
	default:
		report_file(what, err);
	}
	return err;
}

/*
 * Drain once, with @yield giving way between steps (the recording's loop;
 * not while the start-up tables are made, nor after STOP); on failure say
 * why.  Records consumed, or -errno.
 */
static int drain(struct dw_session *s, struct dw_recorder *st, const struct dw_record_opts *o,
		 bool yield)
{
	__u64 steps = s->data_size / DW_DRAIN_STEP + 1;	/* a ring's worth at most */
	__u64 left;
	int n = 0, k;

	/*
	 * In steps, yielding (@yield) between them while the ring is less
	 * than half full: a thread that woke meanwhile (the end of a block,
	 * a profiled program's timer) runs now, not after the whole drain,
	 * which its scheduler would otherwise let finish (a recorder woken
	 * for a quarter ring runs for a millisecond or more).  Past half
	 * full the drain keeps the CPU, at its raised priority, until the
	 * ring is empty, or a ring's worth is drained (back to the loop's
	 * checks).
	 */
	while (steps--) {
		k = dw_session_drain_some(s, dw_recorder_place, dw_recorder_on_record, st,
					  DW_DRAIN_STEP);
		if (k < 0) {
			n = k;
			break;
		}
		n = k > INT_MAX - n ? INT_MAX : n + k;
		left = k ? dw_session_backlog(s) : 0;
		if (!left)
			break;
		if (yield && left < s->data_size / 2)
			sched_yield();
	}
	/* Whole drains reach the file: a capture cut later keeps them. */
	if (n > 0 && !st->write_err)
		st->write_err = dw_capture_flush(&st->w);
	if (n >= 0 && st->write_err)
		n = st->write_err;
	if (n >= 0)
		return n;
	if (st->write_err)
		return report_file(o->output, st->write_err);
	if (n == -EPROTO) {
		dw_warn("the ring holds a malformed record: stopping (a module bug: please "
			"report it)\n");
		return n;
	}
	return report(o, "reading the ring", n);
}

/* Is the thread @tid gone (for -t, when no pidfd can watch it)? */
static int tid_gone(int tid)
{
	return kill(tid, 0) && errno == ESRCH;
}


/*
 * Hold the command, open the session and the capture file, give the module
 * the tables the target needs first.  0, or -errno (said).
 */
int dw_record_open(struct dw_record_run *r)
{
	const struct dw_record_opts *o = r->o;
	struct sigaction sa = { .sa_handler = on_signal };
	int err;

	r->st.begin_ns = dw_now_ns();
	/* Registering tables needs CAP_PERFMON: without, say so at the end. */
	r->st.unprivileged = !dw_perm_privileged();
	/* No tables from us: no walk should wait for them. */
	if (r->st.unprivileged)
		r->cfg.flags &= ~DUNWIND_CFG_TABLE_BARRIER;
	if (o->cmd) {
		r->child = dw_spawn_held(o->cmd, &r->go);
		if (r->child < 0) {
			err = report_file("fork", r->child);
			r->child = 0;
			return err;
		}
		if (!o->all_cpus)
			r->cfg.pid = r->child;
	}
	err = dw_session_open(&r->s, o->device, &r->cfg);
	if (err == -EINVAL && (o->off_cpu || o->all_cpus)) {
		dw_cmd_warn("record", "the module refuses %s: a CPU that is not there (see "
			    "/sys/devices/system/cpu/possible), or a module older than this "
			    "dunwind: load the module built from this tree\n",
			    o->all_cpus ? "-a" : "--off-cpu");
		return err;
	}
	if (err)
		return report(o, "opening the session", err);
	/* Before the command runs: an output that cannot be written fails now. */
	err = dw_capture_create_new(&r->st.w, o->output, &r->cfg, o->force);
	if (err == -EEXIST) {
		dw_warn("%s exists: give -f to overwrite it, or -o another file\n", o->output);
		return err;
	}
	if (!err && o->zstd_level)
		err = dw_capture_compress(&r->st.w, o->zstd_level);
	/* Identical stacks stored once (capture/pack.h). */
	if (!err)
		err = dw_capture_pack(&r->st.w);
	if (err)
		return report_file(o->output, err);
	if (r->child || r->cfg.pid || r->cfg.tid)
		r->pidfd = (int)syscall(SYS_pidfd_open, r->child ? r->child :
					r->cfg.pid ? r->cfg.pid : r->cfg.tid, 0);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	r->st.feed.dev_fd = o->no_gen || r->st.unprivileged ? -1 : r->s.fd;
	r->st.feed.barrier = !!(r->cfg.flags & DUNWIND_CFG_TABLE_BARRIER);
	r->st.feed.helpers = dw_sframe_batch_helpers();
	r->st.py.dev_fd = r->s.fd;
	r->st.py.on = !o->no_python;
	r->st.py.dsos = r->st.feed.dsos;
	dw_sframe_feed_vdso(&r->st.feed);
	/* -a: the processes running get their tables after START. */
	if (r->st.feed.dev_fd >= 0 && !o->all_cpus)
		dw_sframe_feed_pid(&r->st.feed,
				   o->cmd ? getpid() : (r->cfg.pid ? r->cfg.pid : r->cfg.tid));
	/* -a samples the machine first: its command's tables come after START. */
	if (o->cmd && !o->all_cpus)
		dw_sframe_feed_command(&r->st.feed, o->cmd);
	/*
	 * A file first mapped during the recording has no table until the
	 * recorder registers one, and the walks meanwhile fall back to frame
	 * pointers.  Beside busy programs a recorder at their priority gets
	 * its share of the CPU only and the window lasts hundreds of ms:
	 * raised, it preempts them.  Needs CAP_SYS_NICE (root); without it
	 * the priority stays.  The command was forked before: it keeps its own.
	 */
	if (r->st.feed.dev_fd >= 0)
		(void)setpriority(PRIO_PROCESS, 0, DW_RECORDER_NICE);
	return 0;
}

/* dw_sframe_feed_system()'s tick: drain the ring between two files. */
static void feed_tick(void *arg)
{
	struct dw_record_run *r = arg;
	struct pollfd p = { .fd = r->pidfd, .events = POLLIN };
	/* Not yielding: the tables of the running processes come first. */
	int n = drain(&r->s, &r->st, r->o, false);

	if (n < 0)
		r->drain_err = n;	/* said */
	/*
	 * That, Ctrl-C, SIGTERM, --duration, the command's exit: the recording
	 * ends without the tables still to come.
	 */
	if (n < 0 || stop_signal || (r->o->duration_ms &&
			    dw_now_ms() - r->t_start >= (long long)r->o->duration_ms) ||
	    (r->pidfd >= 0 && poll(&p, 1, 0) > 0))
		r->st.feed.stop = 1;
}

/*
 * Start the session, then release the command; with -a, the command's
 * tables first (it is held; the machine is sampled meanwhile), then give
 * the module the tables of every process running (walks that meet a file
 * without a verdict wait for it on the table barrier).  0, or -errno
 * (said).
 */
int dw_record_start(struct dw_record_run *r)
{
	const struct dw_record_opts *o = r->o;
	int err = dw_session_start(&r->s);

	if (err == -ENODEV && o->all_cpus) {
		dw_cmd_warn("record", "-C names a CPU that is offline (see "
			    "/sys/devices/system/cpu/online)\n");
		return err;
	}
	if (err && dw_event_is_hw(o->event) && (err == -ENOENT || err == -EOPNOTSUPP)) {
		dw_cmd_warn("record", "%s: no PMU counts this event on this machine (a VM "
			    "without a virtual PMU?): use -e cpu-clock\n", dw_event_name(o->event));
		return err;
	}
	if (err)
		return report(o, "starting the session", err);
	r->started = 1;
	r->t_start = dw_now_ms();
	r->cpu_start = dw_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	if (o->all_cpus) {
		r->st.feed.tick = feed_tick;
		r->st.feed.tick_arg = r;
	}
	/*
	 * -a -- CMD: the machine is sampled while the command waits for its
	 * tables, and the recorder's own (as without -a: it is sampled too).
	 */
	if (o->cmd && o->all_cpus) {
		dw_sframe_feed_own(&r->st.feed);
		dw_sframe_feed_command(&r->st.feed, o->cmd);
	}
	if (r->child) {
		if (write(r->go, "g", 1) != 1)
			return report_file("starting the command", -errno);
		close(r->go);
		r->go = -1;
	}
	if (r->st.feed.dev_fd >= 0 && o->all_cpus)
		dw_sframe_feed_system(&r->st.feed);
	r->st.feed.tick = NULL;
	return r->drain_err;
}

/*
 * How long to sleep in poll(): at most DW_POLL_MS (DW_POLL_PY_MS once a
 * Python interpreter is registered), and not past --duration.
 */
static int poll_ms(const struct dw_record_run *r)
{
	int most = r->st.py.registered ? DW_POLL_PY_MS : DW_POLL_MS;
	long long left;

	if (!r->o->duration_ms)
		return most;
	left = (long long)r->o->duration_ms - (dw_now_ms() - r->t_start);
	return left <= 0 ? 0 : left < most ? (int)left : most;
}

/* Drain the ring until the target ends, --duration or a signal.  0, or -errno (said). */
int dw_record_loop(struct dw_record_run *r)
{
	const struct dw_record_opts *o = r->o;

	int err;

	while (!stop_signal) {
		struct pollfd p[2] = {
			{ .fd = r->s.fd, .events = POLLIN },
			{ .fd = r->pidfd, .events = POLLIN },
		};
		int n = poll(p, r->pidfd >= 0 ? 2 : 1, poll_ms(r));

		if (n < 0 && errno != EINTR)
			return report_file("poll", -errno);
		/*
		 * Drain when the module says (a quarter-full ring, a new
		 * mapping) or the target exited: a timeout alone leaves the
		 * records in the ring, as perf's watermark does, so that a
		 * recording drains in few large batches (one wakeup, poll and
		 * write for thousands of records, not for every 250 ms of
		 * samples).  With an interpreter registered (its code objects
		 * are read when their stacks are drained) and for the
		 * progress line, every round.
		 */
		if (n > 0 || r->st.py.registered || r->tty) {
			err = drain(&r->s, &r->st, o, true);
			if (err < 0)
				return err;
		}
		if (r->tty && dw_now_ms() - r->shown >= DW_PROGRESS_MS) {
			dw_record_progress(r->tty, &r->st, 0);
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
 * The command's CPU time into @r->st, and with a clock event the samples
 * it owes at -F or -c (the clocks sample CPU time), so that the summary can
 * tell when fewer came than were asked.  Read before the command is reaped.
 */
static void asked_samples(struct dw_record_run *r)
{
	const struct dw_record_opts *o = r->o;
	unsigned long long ns;

	/* -a/-C: the events sample CPUs, not the command. */
	if (!r->child || o->all_cpus || dw_proc_cpu_ns(r->child, !o->no_inherit, &ns))
		return;
	r->st.target_cpu_ns = ns;
	if (dw_event_is_hw(o->event))
		return;
	r->st.samples_asked = o->period ? ns / o->period : ns / 1000000000ULL * o->freq +
			      ns % 1000000000ULL * o->freq / 1000000000ULL;
}

/*
 * Stop the session (which answers every cookie) and collect what is still
 * in the ring, then the module's statistics.  @ret: so far (0 or -errno);
 * returns it, or -errno on a new failure (said).
 */
int dw_record_stop(struct dw_record_run *r, int ret)
{
	unsigned long long cpu0 = dw_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	long long t0;
	int err, idle;

	err = dw_session_stop(&r->s);
	if (err)
		report(r->o, "stopping the session", err);
	/* The recorder's CPU leaves out the stop (the module answers every cookie). */
	r->cpu_start += dw_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	t0 = dw_now_ms();
	for (idle = 0; !ret && idle < DW_FINAL_IDLE_ROUNDS && dw_now_ms() - t0 < DW_FINAL_MAX_MS;) {
		int n = drain(&r->s, &r->st, r->o, false);

		if (n < 0)
			return n;
		idle = n ? 0 : idle + 1;
		if (!n)
			poll(NULL, 0, DW_FINAL_IDLE_MS);
	}
	r->have_stats = !dw_session_stats(&r->s, &r->ks);
	r->st.cpu_ns = dw_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - r->cpu_start;
	asked_samples(r);
	return ret;
}

/* The symbol snapshots, then close the capture.  @ret as dw_record_stop(). */
int dw_record_finish(struct dw_record_run *r, int ret)
{
	const struct dw_record_opts *o = r->o;
	int err;

	/* The addresses the snapshots need, now that the program is gone. */
	if ((!o->no_ksyms || r->st.usnap) && !ret) {
		err = dw_recorder_replay(&r->st);
		if (err)
			dw_warn("reading %s back for its symbols: %s: the snapshots may lack "
				"some\n", o->output, strerror(-err));
	}
	/* At the end: no delay at the start, and modules loaded meanwhile are in. */
	if (!o->no_ksyms && !ret)
		ret = dw_recorder_write_ksyms(&r->st, r->s.fd, o->output);
	if (r->st.usnap && !ret)
		ret = dw_recorder_write_usyms(&r->st, o->output);
	err = dw_capture_close(&r->st.w);
	if (err && !r->st.write_err)
		r->st.write_err = err;
	if (err && !ret)
		ret = report_file(o->output, err);
	if (r->tty && r->shown)
		dw_record_progress(r->tty, &r->st, 1);
	if (r->started)
		dw_record_summary(&r->st, o->output, o->off_cpu, o->all_cpus, &r->ks,
				  r->have_stats);
	return ret;
}

/*
 * Wait for the command.  @ret as dw_record_stop(); returns it when it is
 * -errno, else the command's exit status as a shell says it (0 without one).
 */
int dw_record_reap(struct dw_record_run *r, int ret)
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
