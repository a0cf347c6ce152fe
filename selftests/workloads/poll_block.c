// SPDX-License-Identifier: GPL-2.0
/*
 * poll_block: print "ready", wait for a line on stdin, then start N threads
 * that each poll() an array of FDS copies of a pipe that is never readable:
 * ROUNDS times without waiting, then once for ever.  A poll() spends its
 * time in the kernel scanning the array before it sleeps, so a thread is
 * likely sampled in the kernel just before it blocks, with its user walk
 * still queued.  Prints "blocking" once every thread is in its last poll()
 * (or about to be), then waits for stdin to close.
 *
 *   poll_block [N [FDS [ROUNDS]]]     defaults: 32 threads, 1000 fds, 20 rounds
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static struct pollfd *fds;
static int nfds, rounds;
static atomic_int nr_blocking;

__attribute__((noipa, noinline)) static void *worker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < rounds; i++)
		poll(fds, nfds, 0);
	atomic_fetch_add(&nr_blocking, 1);
	for (;;)
		poll(fds, nfds, -1);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 32;
	pthread_t tid;
	char line[64];
	int pipefd[2], i;

	nfds = argc > 2 ? atoi(argv[2]) : 1000;
	rounds = argc > 3 ? atoi(argv[3]) : 20;
	if (n < 1 || n > 256 || nfds < 1 || nfds > 1000 || rounds < 0) {
		fprintf(stderr, "poll_block: 1..256 threads, 1..1000 fds, rounds >= 0\n");
		return 2;
	}
	if (pipe(pipefd)) {
		perror("poll_block: pipe");
		return 1;
	}
	fds = calloc(nfds, sizeof(*fds));
	if (!fds)
		return 1;
	for (i = 0; i < nfds; i++) {
		fds[i].fd = pipefd[0];
		fds[i].events = POLLIN;
	}
	alarm(300);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	for (i = 0; i < n; i++) {
		if (pthread_create(&tid, NULL, worker, NULL)) {
			fprintf(stderr, "poll_block: pthread_create failed\n");
			return 1;
		}
	}
	while (atomic_load(&nr_blocking) < n)
		usleep(1000);
	printf("blocking\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
