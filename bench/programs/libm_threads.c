// SPDX-License-Identifier: GPL-2.0
/*
 * libm_threads: 4 threads that compute in libm from their first
 * instruction on (no warm-up of our own), for SECS seconds; built like a
 * distribution program (no frame pointers: .eh_frame only).
 *
 *   libm_threads [SECS]        default 2
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double secs;
static volatile double sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	double x = (double)(long)arg + 0.5, acc = 0, end = now() + secs;
	long i;

	while (now() < end)
		for (i = 0; i < 20000; i++, x += 1e-6)
			acc += sin(x) * exp(-x / 1e6) + log1p(x) + pow(x, 0.3);
	sink = acc;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	long i;

	secs = argc > 1 ? atof(argv[1]) : 2;
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, work, (void *)i))
			return 1;
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
