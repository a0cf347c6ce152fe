// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_loop MODE: main -> a -> b -> do_write (MODE "write": write(2) of one
 * byte to /dev/null) or do_sleep (MODE "sleep": nanosleep(2) of 1 us) in a
 * loop, so samples land in the kernel under libc's syscall wrappers (no
 * frame pointers, no .sframe).  Prints "ready" and loops until killed or 120 s.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, noinline))

static int dw_fd = -1;
static int dw_sleep;
volatile unsigned long dw_calls;

NOIPA static long do_write(void)
{
	char c = 0;

	return write(dw_fd, &c, 1);
}

NOIPA static long do_sleep(void)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 1000 };

	return nanosleep(&ts, NULL);
}

/* Uses every result, so no call becomes a tail jump. */
NOIPA static long b(void)
{
	long r = 0;

	for (;;) {
		r += dw_sleep ? do_sleep() : do_write();
		dw_calls++;
		if (dw_calls == 0)
			break;
	}
	return r;
}

NOIPA static long a(void)
{
	return b() + 1;
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "write") && strcmp(argv[1], "sleep"))) {
		fprintf(stderr, "usage: syscall_loop write|sleep\n");
		return 2;
	}
	dw_sleep = !strcmp(argv[1], "sleep");
	dw_fd = open("/dev/null", O_WRONLY);
	if (dw_fd < 0) {
		perror("syscall_loop: /dev/null");
		return 1;
	}
	/* Short sleeps really are short: more on-CPU time in the syscall paths. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	return a() == 42;
}
