// SPDX-License-Identifier: GPL-2.0
/*
 * sleepers: start N threads that each block for ever reading a pipe that is
 * never written, print "ready" once all exist, then wait for stdin to close.
 * A large thread group to attach to that costs no CPU time while it waits.
 *
 *   sleepers [N]        default: 1000 threads, at most 8192
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int never[2];

__attribute__((noipa, noinline)) static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	for (;;)
		if (read(never[0], &c, 1) <= 0)
			pause();
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, i, err;
	pthread_attr_t attr;
	pthread_t tid;
	char line[64];

	if (n < 1 || n > 8192) {
		fprintf(stderr, "sleepers: 1..8192 threads\n");
		return 2;
	}
	if (pipe(never)) {
		perror("sleepers: pipe");
		return 1;
	}
	/* Small stacks: thousands of threads in the VM's memory. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		err = pthread_create(&tid, &attr, sleeper, NULL);
		if (err) {
			fprintf(stderr, "sleepers: thread %d: %s\n", i, strerror(err));
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
