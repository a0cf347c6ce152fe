// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu: blocking from two known chains, for off-CPU accuracy (--off-cpu).
 * The main thread alternates
 *	main -> sleeper -> s_mid -> nap -> nanosleep (libc), 20 ms
 *	main -> reader -> r_mid -> rd -> read (libc) on a pipe
 * while a writer thread feeds the pipe one byte every 30 ms (each read
 * blocks about 10 ms).  Blocks of this length keep the time a call spends
 * on CPU (entry, exit, the deferred walk: slow under TCG) small beside them.  The program
 * measures the time each call takes itself (CLOCK_MONOTONIC around it)
 * and prints at exit
 *
 *	offcpu: nap NS rd NS calls N
 *
 * which bench/offcpu.awk compares with the off-CPU time the profile
 * attributes to each chain.  Built -fomit-frame-pointer (bench/Makefile):
 * its stacks, like libc's, need generated tables.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noipa))

static int pipefd[2];
static volatile int done;
static unsigned long long nap_ns, rd_ns;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

NOINLINE static long nap(long x)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 20000000 };
	unsigned long long t0 = now_ns();
	long r = nanosleep(&ts, NULL);

	nap_ns += now_ns() - t0;
	return r + x;
}

NOINLINE static long rd(long x)
{
	unsigned long long t0 = now_ns();
	char c;
	long r = read(pipefd[0], &c, 1);

	rd_ns += now_ns() - t0;
	return r + x;
}

NOINLINE static long s_mid(long x) { return nap(x + 1) ^ 1; }
NOINLINE static long sleeper(long x) { return s_mid(x + 1) ^ 1; }
NOINLINE static long r_mid(long x) { return rd(x + 1) ^ 1; }
NOINLINE static long reader(long x) { return r_mid(x + 1) ^ 1; }

static void *writer(void *arg)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 30000000 };

	(void)arg;
	while (!done) {
		nanosleep(&ts, NULL);
		if (write(pipefd[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int calls = argc > 1 ? atoi(argv[1]) : 100, i;
	pthread_t t;
	long x = 0;

	if (calls <= 0 || pipe(pipefd) || pthread_create(&t, NULL, writer, NULL)) {
		fprintf(stderr, "usage: %s [CALLS > 0]\n", argv[0]);
		return 2;
	}
	for (i = 0; i < calls; i++)
		x += sleeper(i) + reader(i);
	done = 1;
	pthread_join(t, NULL);
	printf("offcpu: nap %llu rd %llu calls %d (%ld)\n", nap_ns, rd_ns, calls, x & 1);
	return 0;
}
