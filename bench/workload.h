/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/workload.h: what every benchmark workload shares.  A workload runs
 * its known call chain until a one-shot ITIMER_REAL of SECS seconds (argv[1],
 * default 2) fires, counting the units of work it did, and prints at exit
 *
 *	work: N UNIT in S s
 *
 * so that throughput with and without a profiler can be compared.  With
 * DW_BENCH_UNTIL=T in the environment (seconds since the epoch, as bash's
 * EPOCHREALTIME) the timer fires at T instead, whenever the program got to
 * its start: processes started one after another end together
 * (bench/system-guest).  The loop never reads a clock: the only code outside the chain is the loop in main()
 * (or the thread function) and one signal handler run.  While a thread runs
 * its loop it is named DW_BENCH_LOOP_COMM (prctl(PR_SET_NAME)), so that
 * bench/stacks.awk counts exactly the samples of the loop, whatever the
 * unwinder makes of them (no loader, setup or exit).
 *
 * NOINLINE keeps a chain function a function of its own with its own symbol
 * (no inlining, no clones, no IPA changes of its calling convention); every
 * chain function uses the result of its call so no call is a tail call.
 */
#ifndef DW_BENCH_WORKLOAD_H
#define DW_BENCH_WORKLOAD_H

#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define NOINLINE __attribute__((noipa))
#define DW_BENCH_LOOP_COMM	"bench-loop"
#define DW_BENCH_DONE_COMM	"bench-done"

/* Set by SIGALRM when the run is over; the loops poll it. */
static volatile sig_atomic_t dw_bench_stop;
static double dw_bench_secs;

static void dw_bench_on_alarm(int sig)
{
	(void)sig;
	dw_bench_stop = 1;
}

/*
 * dw_bench_until() - the time left until DW_BENCH_UNTIL, into @secs (kept
 * when the variable is unset or bad).  At least 1 ms: the timer must fire.
 * Context: dw_bench_start().
 */
static inline void dw_bench_until(double *secs)
{
	const char *until = getenv("DW_BENCH_UNTIL");
	struct timespec now;
	double t;
	char *end;

	if (!until || clock_gettime(CLOCK_REALTIME, &now))
		return;
	t = strtod(until, &end);
	if (*end || end == until)
		return;
	t -= (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	*secs = t > 0.001 ? t : 0.001;
}

/*
 * dw_bench_start() - parse the duration and arm the timer.
 * Context: start of main(), before any thread.  Exits with status 2 on a
 * bad argument or when the timer cannot be set.
 */
static inline void dw_bench_start(int argc, char **argv)
{
	struct sigaction sa;
	struct itimerval it;
	char *end;

	memset(&sa, 0, sizeof(sa));
	memset(&it, 0, sizeof(it));
	dw_bench_secs = argc > 1 ? strtod(argv[1], &end) : 2.0;
	if (argc > 1 && (*end || dw_bench_secs <= 0 || dw_bench_secs > 3600)) {
		fprintf(stderr, "%s: usage: %s [SECONDS] (0 < SECONDS <= 3600)\n", argv[0],
			argv[0]);
		exit(2);
	}
	dw_bench_until(&dw_bench_secs);
	sa.sa_handler = dw_bench_on_alarm;
	sigemptyset(&sa.sa_mask);
	it.it_value.tv_sec = (time_t)dw_bench_secs;
	it.it_value.tv_usec = (suseconds_t)((dw_bench_secs - (double)it.it_value.tv_sec) * 1e6);
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL)) {
		perror("benchmark timer");
		exit(2);
	}
}

/*
 * dw_bench_loop() - name the calling thread for its loop (@in true) or after.
 * Context: just before and just after the loop of the calling thread.
 */
static inline void dw_bench_loop(int in)
{
	prctl(PR_SET_NAME, in ? DW_BENCH_LOOP_COMM : DW_BENCH_DONE_COMM, 0, 0, 0);
}

/*
 * DW_BENCH_CHAIN(work) - the known chain main -> a -> b -> c -> @work that
 * every workload's stacks are judged against: real calls (NOINLINE), each
 * step doing a little work after its call so it cannot become a tail jump
 * (bench/check_chain verifies both with objdump).
 */
#define DW_BENCH_CHAIN(work)							\
NOINLINE static unsigned long c(unsigned long x)				\
{										\
	return work(x + 3) ^ 3;							\
}										\
NOINLINE static unsigned long b(unsigned long x)				\
{										\
	return c(x + 2) ^ 2;							\
}										\
NOINLINE static unsigned long a(unsigned long x)				\
{										\
	return b(x + 1) ^ 1;							\
}

/*
 * dw_bench_run() - call @fn until the benchmark timer stops the loop, with
 * the thread named for the loop meanwhile.  Always inlined, so that @fn's
 * caller in the stack is main() or the worker, as the chain checks expect.
 * Context: main() or a worker thread.  Returns the number of calls.
 */
static inline __attribute__((always_inline)) unsigned long long
dw_bench_run(unsigned long (*fn)(unsigned long))
{
	unsigned long long n = 0;
	unsigned long x = 1;

	dw_bench_loop(1);
	while (!dw_bench_stop) {
		x = fn(x);
		n++;
	}
	dw_bench_loop(0);
	return n + (x == 0);	/* uses x: the calls cannot be dropped */
}

/*
 * dw_bench_done() - print the work line.
 * Context: end of main().  Returns 0 (main's exit status).
 */
static inline int dw_bench_done(unsigned long long n, const char *unit)
{
	printf("work: %llu %s in %g s\n", n, unit, dw_bench_secs);
	return 0;
}

/*
 * dw_bench_spin() - burn CPU: @n steps of a 64-bit LCG.  The volatile local
 * makes the function it is inlined into use its stack, so that with
 * -fno-omit-frame-pointer even the leaf gets a frame (gcc gives a leaf that
 * touches no stack none, -mno-omit-leaf-frame-pointer notwithstanding).
 * Context: any.  Returns the last value (so the loop cannot be removed).
 */
static inline unsigned long dw_bench_spin(unsigned long x, unsigned int n)
{
	volatile unsigned long last = 0;

	while (n--) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ volatile("" : "+r"(x));
	}
	last = x;
	return last;
}

#endif /* DW_BENCH_WORKLOAD_H */
