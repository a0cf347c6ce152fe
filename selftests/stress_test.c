// SPDX-License-Identifier: GPL-2.0
/*
 * stress_test: the module under load, faults and hostile input (issue 13).
 * stress-ng's fork/exec/clone/mmap/munmap/mprotect/signal stressors under
 * per-process and system-wide sessions and under 'dunwind record', 200
 * threads at 10 kHz (or the kernel's perf_event_max_sample_rate), targets
 * that exec or exit with walks pending, the recorder SIGKILLed mid-run,
 * START/close/rmmod loops, hostile .sframe tables and a seeded ioctl/mmap
 * fuzzer.  After each: every SAMPLE with a cookie has exactly one
 * USER_STACK, STATS walks == samples_deferred, LOST records sum to STATS
 * lost, records received + lost == STATS samples, and the module's vmalloc
 * memory is gone after close (tools/vm/run checks the kernel log).
 *
 * The FIGURE lines are the figures of Documentation/testing.rst.
 * Environment: DUNWIND_STRESS_SOAK=N runs every load N times longer (and
 * the loops and the fuzzer N times more); DUNWIND_STRESS_SEED=S replays the
 * fuzzer's seed S (it prints the one it used).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "arch.h"
#include "capture/capture.h"
#include "devfuzz.h"
#include "invariants.h"
#include "module.h"
#include "records.h"
#include "workload.h"

#define STRESS_NG	"/bin/stress-ng"
#define NOBODY		"65534"
#define TMPDIR		"/tmp/dunwind-stress"

static int soak(void)
{
	const char *s = getenv("DUNWIND_STRESS_SOAK");
	int n = s ? atoi(s) : 1;

	return n > 0 ? n : 1;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* The kernel's perf_event_max_sample_rate now (0 if unknown). */
static unsigned long max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned long rate = 0;

	if (f) {
		if (fscanf(f, "%lu", &rate) != 1)
			rate = 0;
		fclose(f);
	}
	return rate;
}

/* A load: a workload sampled by a session until it is done. */
struct load {
	const char *workload;		/* in workloads/ */
	const char *const *argv;
	__u32 flags;			/* DUNWIND_CFG_* */
	__u64 freq;
	int ms;				/* at most */
	const char *done;		/* its last line, or NULL: until it exits */
};

struct outcome {
	struct dw_records r;
	struct dunwind_stats st;
	struct dw_invariants inv;
	long ms;			/* from START to STOP */
	long long vm_open;		/* the module's vmalloc bytes during the session */
};

/* Collect until @l's workload is done or its time is up. 0 or -errno. */
static int collect_until_done(const struct load *l, struct dw_workload *w, struct dw_session *s,
			      struct dw_records *r)
{
	long end = now_ms() + (long)l->ms * soak();
	int ret = 0;

	while (!ret && now_ms() < end) {
		ret = dw_records_collect(s, r, 100);
		if (ret)
			break;
		if (l->done) {
			ret = dw_workload_expect(w, l->done, 10);
			if (!ret)
				break;
			if (ret == -ETIMEDOUT)
				ret = 0;
		} else if (!dw_workload_wait(w, 0)) {
			break;
		}
	}
	return ret;
}

/*
 * Start @l's workload, a session on it (or system-wide), "go", collect
 * until it is done, STOP, drain, read STATS, close; scan the records.
 * 0 or -errno.
 */
static int run_load(const struct load *l, struct outcome *o)
{
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	long t0;
	int ret;

	memset(o, 0, sizeof(*o));
	ret = dw_workload_start(&w, l->workload, l->argv, 20000);
	if (ret)
		return ret;
	dw_records_config(&cfg, (l->flags & DUNWIND_CFG_SYSTEM_WIDE) ? 0 : w.pid, 0, l->freq);
	cfg.flags = l->flags;
	cfg.ring_pages = 4096;
	ret = dw_session_open(&s, NULL, &cfg);
	if (ret) {
		dw_workload_stop(&w);
		return ret;
	}
	ret = dw_session_start(&s);
	o->vm_open = dw_vmalloc_bytes();
	t0 = now_ms();
	if (!ret)
		ret = dw_workload_send(&w, "go");
	if (!ret)
		ret = collect_until_done(l, &w, &s, &o->r);
	o->ms = now_ms() - t0;
	if (!ret)
		ret = dw_session_stop(&s);
	if (!ret)
		ret = dw_records_drain(&s, &o->r) < 0 ? -EIO : 0;
	o->st.size = sizeof(o->st);
	if (!ret)
		ret = dw_session_stats(&s, &o->st);
	dw_session_close(&s);
	dw_workload_stop(&w);
	if (!ret)
		ret = dw_invariants_scan_records(&o->r, &o->inv);
	return ret;
}

/*
 * The invariants of one session's records against its STATS, and its
 * memory gone after close; the FIGURE line for the table.
 */
static void check_outcome(struct __test_metadata *_metadata, const char *what,
			  const struct outcome *o, long long vm_base)
{
	const struct dw_invariants *inv = &o->inv;
	const struct dunwind_stats *st = &o->st;
	long long vm = dw_vmalloc_settle(vm_base, 2000);
	__u64 lost_stacks = st->lost[DUNWIND_REC_USER_STACK];

	printf("# FIGURE %s: %llu samples in %ld ms (%.0f/s), %llu lost (%.2f %%), %llu walks "
	       "(mean %.1f us), %zu exited, %zu session, worst user walk %.3f ms\n", what,
	       (unsigned long long)st->samples, o->ms,
	       o->ms ? st->samples * 1000.0 / o->ms : 0.0,
	       (unsigned long long)st->lost[0],
	       st->samples ? 100.0 * st->lost[DUNWIND_REC_SAMPLE] / st->samples : 0.0,
	       (unsigned long long)st->walks, st->walks ? st->walk_ns / 1e3 / st->walks : 0.0,
	       inv->stops[DUNWIND_STOP_EXITED],
	       inv->stops[DUNWIND_STOP_SESSION], inv->worst_user_walk_ns / 1e6);
	EXPECT_LT(0, st->samples) TH_LOG("%s: no samples at all", what);
	/* The ring is vmalloc memory: seen while open, so its absence means something. */
	EXPECT_LT(vm_base, o->vm_open) TH_LOG("%s: /proc/vmallocinfo shows no ring", what);
	EXPECT_EQ(0, inv->dup_cookies) TH_LOG("%s: cookies with several USER_STACKs", what);
	/* A sample may lack its stack only if stacks were dropped. */
	EXPECT_LE(inv->no_stack, lost_stacks ? inv->samples_cookie : 0)
		TH_LOG("%s: %zu of %zu samples with a cookie have no USER_STACK", what,
		       inv->no_stack, inv->samples_cookie);
	EXPECT_EQ(st->samples_deferred, st->walks);
	EXPECT_EQ(inv->lost[0], st->lost[0]);
	EXPECT_EQ(st->samples, inv->samples + st->lost[DUNWIND_REC_SAMPLE]);
	EXPECT_EQ(st->walks, inv->stacks + lost_stacks);
	EXPECT_LE(vm, vm_base) TH_LOG("%s: %lld bytes of dunwind vmalloc memory left after close "
				      "(%lld before)", what, vm, vm_base);
}

FIXTURE(stress) {
	long long vm_base;
	int have_stress_ng;
};

FIXTURE_SETUP(stress)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	self->vm_base = dw_vmalloc_bytes();
	ASSERT_LE(0, self->vm_base) TH_LOG("cannot read /proc/vmallocinfo");
	self->have_stress_ng = !access(STRESS_NG, X_OK);
	/* stress-ng's temporary files, writable by the user it runs as. */
	mkdir(TMPDIR, 0777);
	chmod(TMPDIR, 01777);
}

FIXTURE_TEARDOWN(stress)
{
}

#define NEED_STRESS_NG() do {						\
	if (!self->have_stress_ng)					\
		SKIP(return, "no %s in the guest: tools/vm/selftests adds the host's " \
		     "(apt-get install stress-ng, tools/deps) or on arm64 " \
		     "tools/arm64-sysroot's", STRESS_NG);			\
} while (0)

/* The recorder tests run the guest's dunwind, which tools/vm/run adds. */
#define NEED_RECORDER() do {						\
	if (access("/bin/dunwind", X_OK))				\
		SKIP(return, "no /bin/dunwind in the guest: tools/vm/run adds " \
		     "out/dunwind (make user), or out/arm64/dunwind on arm64 " \
		     "(make user ARCH=arm64)");				\
} while (0)

/* The stressors: process life cycle, memory maps, signals. */
#define STRESSORS "--fork", "2", "--exec", "1", "--clone", "1", "--mmap", "1", \
	"--mmap-bytes", "8M", "--munmap", "1", "--mprotect", "1", "--signal", "1", \
	"--temp-path", TMPDIR, "-q"

/* The stressors for 6 s under a session with @flags. */
static void stressors(struct __test_metadata *_metadata, __u32 flags, const char *what,
		      long long vm_base)
{
	const char *argv[] = { "-u", NOBODY, STRESS_NG, STRESSORS, "-t", "6", NULL };
	struct load l = { .workload = "gate", .argv = argv, .freq = 999, .ms = 20000,
			  .flags = flags };
	struct outcome o;
	int ret;

	ret = run_load(&l, &o);
	ASSERT_EQ(0, ret) TH_LOG("session: %s", strerror(-ret));
	check_outcome(_metadata, what, &o, vm_base);
	dw_records_free(&o.r);
}

/*
 * stress-ng, as 'dunwind record -- stress-ng' runs it: the session starts
 * at its exec and follows every process it creates.
 */
TEST_F_TIMEOUT(stress, stressors_per_process, 120)
{
	NEED_STRESS_NG();
	stressors(_metadata, DUNWIND_CFG_ENABLE_ON_EXEC | DUNWIND_CFG_CHILDREN,
		  "stressors per-process", self->vm_base);
}

/* The same stressors under a system-wide session. */
TEST_F_TIMEOUT(stress, stressors_system_wide, 120)
{
	NEED_STRESS_NG();
	stressors(_metadata, DUNWIND_CFG_SYSTEM_WIDE, "stressors system-wide", self->vm_base);
}

/*
 * 200 threads spinning, sampled at 10 kHz, or at the kernel's
 * perf_event_max_sample_rate if that is lower (CONFIG refuses more).
 */
TEST_F_TIMEOUT(stress, threads_200_at_10khz, 120)
{
	const char *argv[] = { "200", "5000", NULL };
	struct load l = { .workload = "threads", .argv = argv, .ms = 30000, .done = "done" };
	unsigned long max = max_sample_rate();
	struct outcome o;
	char what[64];
	int ret;

	l.freq = max && max < 10000 ? max : 10000;
	ret = run_load(&l, &o);
	ASSERT_EQ(0, ret) TH_LOG("session at %llu Hz: %s", (unsigned long long)l.freq,
				 strerror(-ret));
	snprintf(what, sizeof(what), "200 threads x %llu Hz", (unsigned long long)l.freq);
	check_outcome(_metadata, what, &o, self->vm_base);
	EXPECT_LE(200, o.st.threads) TH_LOG("only %llu threads sampled",
					    (unsigned long long)o.st.threads);
	dw_records_free(&o.r);
}

/*
 * START on a process of 2000 sleeping threads attaches to every one of
 * them.  The time START takes is a FIGURE (attaching is linear in the
 * threads), not judged.
 */
TEST_F_TIMEOUT(stress, attach_2000_threads, 120)
{
	const char *argv[] = { "2000", NULL };
	struct dunwind_stats st = { .size = sizeof(st) };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_session s;
	long t0, ms;
	int ret;

	ret = dw_workload_start(&w, "sleepers", argv, 60000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start 2000 sleepers: %s", strerror(-ret));
	dw_records_config(&cfg, w.pid, 0, 99);
	ret = dw_session_open(&s, NULL, &cfg);
	if (ret)
		dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session: %s", strerror(-ret));
	t0 = now_ms();
	ret = dw_session_start(&s);
	ms = now_ms() - t0;
	if (!ret)
		ret = dw_session_stats(&s, &st);
	dw_session_close(&s);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("START or STATS: %s", strerror(-ret));
	printf("# FIGURE attach: %llu threads in %ld ms\n", (unsigned long long)st.threads, ms);
	EXPECT_EQ(2001, st.threads);
	EXPECT_LE(dw_vmalloc_settle(self->vm_base, 2000), self->vm_base);
}

/*
 * Children that exec or exit while sampled in the kernel: walks queued
 * there find the image gone (stop reason EXITED); none is left unanswered.
 * Whether a sample lands in an exec or an exit is chance (on a loaded
 * guest, 6.1 had none in 12 rounds about half the time): up to 4
 * sessions, each checked in full, until one has such a walk.
 */
TEST_F_TIMEOUT(stress, exec_and_exit_with_walks_pending, 600)
{
	const char *argv[] = { "12", "32", NULL };
	struct load l = { .workload = "exec_exit", .argv = argv, .ms = 60000, .done = "done",
			  .flags = DUNWIND_CFG_CHILDREN };
	unsigned long max = max_sample_rate();
	size_t exited = 0;
	struct outcome o;
	int ret, i;

	l.freq = max && max < 10000 ? max : 10000;
	for (i = 0; i < 4 && !exited; i++) {
		ret = run_load(&l, &o);
		ASSERT_EQ(0, ret) TH_LOG("session %d: %s", i + 1, strerror(-ret));
		check_outcome(_metadata, "exec and exit", &o, self->vm_base);
		exited = o.inv.stops[DUNWIND_STOP_EXITED];
		dw_records_free(&o.r);
		if (!exited)
			TH_LOG("session %d: no walk was pending at an exec or exit", i + 1);
	}
	EXPECT_LE(1, exited)
		TH_LOG("no walk found its image gone in %d sessions: none was pending at exec or exit",
		       i);
}

/*
 * Why the module may still be in use: its reference count and every
 * thread that is neither running nor in an interruptible sleep (a walk
 * queued on such a thread waits for it to run), and every thread of
 * process group @pgrp, with where it sleeps.
 */
static void log_blockers(int pgrp)
{
	char path[600], buf[512], wchan[64];
	struct dirent *p, *t;
	DIR *procs, *tasks;
	FILE *f;

	f = fopen("/sys/module/dunwind/refcnt", "r");
	if (f && fgets(buf, sizeof(buf), f))
		printf("# dunwind refcnt %s", buf);
	if (f)
		fclose(f);
	procs = opendir("/proc");
	while (procs && (p = readdir(procs))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		tasks = opendir(path);
		while (tasks && (t = readdir(tasks))) {
			const char *st;

			if (t->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", p->d_name, t->d_name);
			f = fopen(path, "r");
			st = f && fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
			if (f)
				fclose(f);
			if (!st || st[1] != ' ' ||
			    (strchr("RSIZ", st[2]) && atoi(st + 4 + strcspn(st + 4, " ")) != pgrp))
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/wchan", p->d_name, t->d_name);
			f = fopen(path, "r");
			if (!f || !fgets(wchan, sizeof(wchan), f))
				strcpy(wchan, "?");
			if (f)
				fclose(f);
			printf("# blocked: %s/%s state %c in %s (%.*s)\n", p->d_name, t->d_name,
			       st[2], wchan, (int)(st - buf), buf);
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stack", p->d_name, t->d_name);
			f = fopen(path, "r");
			while (f && fgets(wchan, sizeof(wchan), f))
				printf("#     %s", wchan);
			if (f)
				fclose(f);
		}
		if (tasks)
			closedir(tasks);
	}
	if (procs)
		closedir(procs);
}

/* 'dunwind record' of CMD (extra arguments first), stderr into @err, stdin "go". */
static pid_t spawn_recorder(const char *const *args, const char *err)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);	/* the recorder and its target, killed together */
		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		dup2(pfd[0], STDIN_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		execv("/bin/dunwind", (char *const *)args);
		_exit(127);
	}
	close(pfd[0]);
	if (write(pfd[1], "go\n", 3) != 3)
		pid = -EPIPE;
	close(pfd[1]);
	return pid;
}

/* The module's figures in the recorder's summary (its stderr in @err). 0 or -errno. */
static int recorder_summary(const char *err, unsigned long long *samples,
			    unsigned long long *walks)
{
	FILE *f = fopen(err, "r");
	char line[512];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "dunwind: module: %llu samples (%*u in user mode, %*u without "
			   "a user part, %*u pending-table full), %llu walks", samples, walks) == 2)
			ret = 0;
	fclose(f);
	return ret;
}

/* The records of the capture at @path, scanned.  0 or -errno; @cut: it was cut short. */
static int scan_capture(const char *path, struct dw_invariants *inv, int *cut)
{
	const struct dunwind_rec_header *rec, **v = NULL;
	struct dw_capture_reader cr;
	size_t n = 0, cap = 0;
	int ret;

	ret = dw_capture_open(&cr, path);
	if (ret)
		return ret;
	while ((rec = dw_capture_next(&cr))) {
		if (n == cap) {
			const struct dunwind_rec_header **nv;

			cap = cap ? cap * 2 : 4096;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[n++] = rec;
	}
	if (!ret)
		ret = dw_invariants_scan(v, n, inv);
	*cut = cr.cut;
	free(v);
	dw_capture_release(&cr);
	return ret;
}

#define RECORD_ARGS "/bin/dunwind", "record", "-f", "--no-gen-sframe", "--no-kallsyms", \
	"--no-symbol-snapshot", "-m", "4096"

/*
 * The whole recorder on the stressors, its capture read back: every
 * sample's cookie has one stack in it, and what it holds plus what the
 * LOST records count is what the module says it sampled and walked.
 */
static void record_stressors(struct __test_metadata *_metadata, const char *opt,
			     long long vm_base)
{
	const char *out = TMPDIR "/record.dwc", *err = TMPDIR "/record.err";
	const char *args[] = { RECORD_ARGS, "-o", out, opt, "--", "/selftests/workloads/gate",
			       "-u", NOBODY, STRESS_NG, STRESSORS, "-t", "5", NULL };
	unsigned long long samples = 0, walks = 0;
	struct dw_invariants inv;
	int status, ret, cut = 0;
	pid_t pid;

	pid = spawn_recorder(args, err);
	ASSERT_LT(0, pid) TH_LOG("cannot run dunwind record: %s", strerror((int)-pid));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("dunwind record died (status %#x)", status);
	ret = recorder_summary(err, &samples, &walks);
	ASSERT_EQ(0, ret) TH_LOG("no 'module:' line in %s", err);
	ret = scan_capture(out, &inv, &cut);
	ASSERT_EQ(0, ret) TH_LOG("cannot read %s: %s", out, strerror(-ret));
	printf("# FIGURE record %s: %llu samples, %llu lost, %llu walks\n", opt, samples,
	       (unsigned long long)inv.lost[0], walks);
	EXPECT_EQ(0, cut);
	EXPECT_LT(0, samples);
	EXPECT_EQ(0, inv.dup_cookies);
	EXPECT_LE(inv.no_stack, inv.lost[DUNWIND_REC_USER_STACK] ? inv.samples_cookie : 0)
		TH_LOG("%zu of %zu samples with a cookie have no USER_STACK", inv.no_stack,
		       inv.samples_cookie);
	EXPECT_EQ(samples, inv.samples + inv.lost[DUNWIND_REC_SAMPLE]);
	EXPECT_EQ(walks, inv.stacks + inv.lost[DUNWIND_REC_USER_STACK]);
	EXPECT_LE(dw_vmalloc_settle(vm_base, 2000), vm_base);
	unlink(out);
}

/* 'dunwind record -- stress-ng ...' (following its processes). */
TEST_F_TIMEOUT(stress, record_stressors_per_process, 120)
{
	NEED_STRESS_NG();
	NEED_RECORDER();
	record_stressors(_metadata, "-F999", self->vm_base);
}

/* 'dunwind record -a -- stress-ng ...'. */
TEST_F_TIMEOUT(stress, record_stressors_system_wide, 120)
{
	NEED_STRESS_NG();
	NEED_RECORDER();
	record_stressors(_metadata, "-a", self->vm_base);
}

/*
 * The recorder SIGKILLed at a random moment (seeded, as the fuzzer) while
 * it records stress-ng: its ring is freed, the cut capture is readable,
 * and the module unloads within 3 s while the orphaned target still runs,
 * every round: close leaves behind the walks still queued on threads that
 * stay in the kernel (a large MAP_POPULATE takes seconds here).  The
 * threads a failed unload waited for are logged.
 */
TEST_F_TIMEOUT(stress, recorder_sigkilled_mid_run, 240)
{
	const char *out = TMPDIR "/killed.dwc", *err = TMPDIR "/killed.err";
	const char *args[] = { RECORD_ARGS, "-o", out, "--", "/selftests/workloads/gate", "-u",
			       NOBODY, STRESS_NG, STRESSORS, "-t", "60", NULL };
	const char *ko = getenv("DUNWIND_KO");
	int round, rounds = 3 * soak(), unloaded = 0, early = 0, readable = 0;
	unsigned int seed = (unsigned int)time(NULL);

	NEED_STRESS_NG();
	NEED_RECORDER();
	if (!ko || !*ko)
		SKIP(return, "DUNWIND_KO is not set: cannot re-load the module after unloading it");
	printf("# recorder_sigkilled_mid_run: seed %u\n", seed);
	for (round = 0; round < rounds; round++) {
		struct dw_invariants inv;
		int status, ret, cut;
		pid_t pid;

		pid = spawn_recorder(args, err);
		ASSERT_LT(0, pid);
		usleep(1000000 + (rand_r(&seed) % 2000) * 1000);
		kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_LE(dw_vmalloc_settle(self->vm_base, 3000), self->vm_base)
			TH_LOG("round %d: the killed recorder's ring is still there", round);
		ret = dw_module_unload_wait(3000, NULL);
		EXPECT_EQ(0, ret) TH_LOG("round %d: delete_module within 3 s of the recorder's "
					 "death, its target still running: %s", round,
					 strerror(-ret));
		early += !ret;
		if (ret)
			log_blockers(pid);
		kill(-pid, SIGKILL);	/* the orphaned target */
		if (ret)
			ret = dw_module_unload_wait(5000, NULL);
		EXPECT_EQ(0, ret) TH_LOG("round %d: delete_module after the recorder and its "
					 "target died: %s", round, strerror(-ret));
		unloaded += !ret;
		if (!ret)
			ASSERT_EQ(0, dw_module_load(ko));
		ret = dw_device_wait(2000);
		ASSERT_LE(0, ret);
		close(ret);
		readable += !scan_capture(out, &inv, &cut);
	}
	printf("# FIGURE recorder SIGKILL: %d rounds, %d unloads (%d while the target still "
	       "ran), %d cut captures readable\n", rounds, unloaded, early, readable);
	EXPECT_EQ(rounds, readable);
	unlink(out);
}

/*
 * START/close (and STOP) on a running target in a loop, the module
 * unloaded and loaded again every 10th round: each round's cookies
 * answered once, nothing left after each close.
 */
TEST_F_TIMEOUT(stress, start_close_rmmod_loop, 240)
{
	const char *ko = getenv("DUNWIND_KO");
	int round, rounds = 30 * soak(), unloads = 0, ret;
	size_t bad = 0, unequal = 0;
	struct dw_workload w;

	if (!ko || !*ko)
		SKIP(return, "DUNWIND_KO is not set: cannot re-load the module after unloading it");
	ret = dw_workload_start(&w, "read_loop", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start read_loop: %s", strerror(-ret));
	for (round = 0; round < rounds && !ret; round++) {
		struct dw_records r = { 0 };
		struct dunwind_stats st = { .size = sizeof(st) };
		struct dunwind_config cfg;
		struct dw_invariants inv;
		struct dw_session s;

		dw_records_config(&cfg, w.pid, 0, 4000);
		ret = dw_session_open(&s, NULL, &cfg);
		if (ret)
			break;
		ret = dw_session_start(&s);
		if (!ret)
			ret = dw_records_collect(&s, &r, 20 + round % 5 * 20);
		/* Every other round: close without STOP, with walks in flight. */
		if (!ret && round % 2 == 0) {
			ret = dw_session_stop(&s);
			if (!ret)
				ret = dw_records_drain(&s, &r) < 0 ? -EIO : 0;
			if (!ret)
				ret = dw_session_stats(&s, &st);
			if (!ret && !dw_invariants_scan_records(&r, &inv)) {
				bad += inv.dup_cookies + inv.no_stack;
				unequal += st.walks != st.samples_deferred ||
					   st.samples != inv.samples + st.lost[DUNWIND_REC_SAMPLE];
			}
		}
		dw_session_close(&s);
		dw_records_free(&r);
		if (round % 10 == 9) {
			ret = dw_module_unload_wait(2000, NULL);
			if (ret)
				break;
			unloads++;
			EXPECT_EQ(0, dw_vmalloc_bytes());
			ret = dw_module_load(ko);
			if (!ret)
				ret = dw_device_wait(2000);
			if (ret >= 0) {
				close(ret);
				ret = 0;
			}
		}
	}
	dw_workload_stop(&w);
	printf("# FIGURE START/close/rmmod: %d rounds, %d unloads\n", round, unloads);
	ASSERT_EQ(0, ret) TH_LOG("round %d: %s", round, strerror(-ret));
	EXPECT_EQ(0, bad) TH_LOG("%zu cookies without exactly one USER_STACK", bad);
	EXPECT_EQ(0, unequal) TH_LOG("%zu rounds whose STATS disagree with their records",
				     unequal);
	EXPECT_LE(dw_vmalloc_settle(self->vm_base, 2000), self->vm_base);
}

/*
 * A program that points its own ELF header at a hostile SFrame table
 * (sframe_huge MIB MODE), sampled for 3 s: the invariants hold, no walk
 * runs to the depth limit (a table that goes in circles is caught).
 * The worst user walk is a FIGURE, not judged.
 */
static void hostile_sframe(struct __test_metadata *_metadata, const char *mib, const char *mode,
			   long long vm_base)
{
	const char *argv[] = { mib, mode, NULL };
	struct load l = { .workload = "sframe_huge", .argv = argv, .freq = 999, .ms = 3000 };
	struct outcome o;
	char what[64];
	int ret;

	ret = run_load(&l, &o);
	ASSERT_EQ(0, ret) TH_LOG("session: %s", strerror(-ret));
	snprintf(what, sizeof(what), "hostile .sframe %s (%s MiB)", mode, mib);
	check_outcome(_metadata, what, &o, vm_base);
	EXPECT_EQ(0, o.inv.stops[DUNWIND_STOP_MAX_DEPTH])
		TH_LOG("%zu walks ran to the depth limit", o.inv.stops[DUNWIND_STOP_MAX_DEPTH]);
	dw_records_free(&o.r);
}

TEST_F_TIMEOUT(stress, hostile_sframe_huge, 180)
{
	hostile_sframe(_metadata, "63", "good", self->vm_base);
}

TEST_F_TIMEOUT(stress, hostile_sframe_rewritten_while_read, 120)
{
	hostile_sframe(_metadata, "4", "rewrite", self->vm_base);
}

TEST_F_TIMEOUT(stress, hostile_sframe_cyclic, 120)
{
	hostile_sframe(_metadata, "4", "cyclic", self->vm_base);
}

TEST_F_TIMEOUT(stress, hostile_sframe_garbage, 120)
{
	hostile_sframe(_metadata, "4", "garbage", self->vm_base);
}

/*
 * Random ioctls and mmaps on /dev/dunwind (seeded; DUNWIND_STRESS_SEED
 * replays one), SFrame registrations of random tables and of this
 * program's own valid table (as generated from its CFI) with parts of it
 * spoiled: every failure has an errno the ABI names, and after the
 * last close nothing is left: no vmalloc memory, and the module unloads.
 */
TEST_F_TIMEOUT(stress, ioctl_mmap_fuzzer, 240)
{
	const char *env = getenv("DUNWIND_STRESS_SEED"), *ko = getenv("DUNWIND_KO");
	unsigned long long seed = env ? strtoull(env, NULL, 0) :
				  (unsigned long long)time(NULL) * 2654435761ULL ^ getpid();
	unsigned long iters = 3000UL * soak();
	struct dw_devfuzz_counts c;
	int ret;

	printf("# ioctl_mmap_fuzzer: seed %llu (DUNWIND_STRESS_SEED=%llu replays it)\n", seed,
	       seed);
	fflush(stdout);
	ret = dw_devfuzz_run(seed, iters, &c);
	ASSERT_EQ(0, ret) TH_LOG("cannot open %s: %s", DUNWIND_DEVICE, strerror(-ret));
	printf("# FIGURE fuzzer: seed %llu, %lu calls, %lu succeeded, %lu STARTs, %lu maps, "
	       "%lu registrations of a valid table (%lu registered), %lu interpreters registered\n",
	       seed, c.calls, c.ok, c.started, c.mapped, c.valid_tables, c.registered, c.interps);
	/* This program's own table, generated from its CFI: valid, then spoiled. */
#if defined(DW_ARCH_NO_TABLES)
	printf("# ioctl_mmap_fuzzer: no valid table registered: %s\n", DW_ARCH_NO_TABLES);
#else
	EXPECT_LT(0, c.valid_tables) TH_LOG("no table could be generated for this program");
	EXPECT_LT(0, c.registered) TH_LOG("no registration succeeded");
#endif
	EXPECT_EQ(0, c.unexpected) TH_LOG("%lu failures with an undocumented errno, the first: "
					  "call %#x, %s", c.unexpected, c.first_bad_cmd,
					  strerror(c.first_bad_errno));
	EXPECT_LE(dw_vmalloc_settle(self->vm_base, 3000), self->vm_base);
	if (!ko || !*ko)
		return;
	ret = dw_module_unload_wait(3000, NULL);
	EXPECT_EQ(0, ret) TH_LOG("delete_module after the fuzzer: %s", strerror(-ret));
	if (!ret)
		ASSERT_EQ(0, dw_module_load(ko));
	ret = dw_device_wait(2000);
	ASSERT_LE(0, ret);
	close(ret);
}

TEST_HARNESS_MAIN
