// SPDX-License-Identifier: GPL-2.0
/*
 * fp_signal: main -> a -> spin, interrupted every millisecond of CPU time
 * by SIGPROF, whose handler calls leaf, which spins a while: most samples
 * land in leaf, whose stack crosses a signal frame: leaf, handler, the C
 * library's restorer (sa_restorer, glibc's __restore_rt), then spin at the
 * interrupted instruction, a, main.  Built with frame pointers.  Prints
 * "ready" just before entering the chain, then runs until killed (or
 * 120 s, SIGALRM).
 */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa, noinline))

volatile unsigned long dw_sig_counter;
/* Set by spin(): a SIGPROF before it (in setitimer(), in a()) does nothing. */
static volatile sig_atomic_t dw_in_spin;

/* A volatile local array forces a stack frame, as in fp_chain. */
NOIPA static void leaf(void)
{
	volatile unsigned long buf[16];
	unsigned long i;

	buf[0] = 0;
	for (i = 0; i < 2000000; i++)
		buf[i & 15] += i;
	dw_sig_counter += buf[0];
}

NOIPA static void handler(int sig)
{
	(void)sig;
	/*
	 * Not before spin() runs: in a slow guest leaf() outlasts the
	 * interval, so the next SIGPROF is pending at every return from the
	 * handler and the thread never gets past the instruction the first
	 * one interrupted (seen once: all of a run's stacks went through
	 * setitimer(), none through spin()).
	 */
	if (!dw_in_spin)
		return;
	leaf();
	dw_sig_counter++;
}

/* A frame of its own (as leaf), and a loop that does not start at its entry. */
NOIPA static unsigned long spin(void)
{
	volatile unsigned long buf[16];
	unsigned long i = 0;

	buf[0] = 0;
	dw_in_spin = 1;
	while (!dw_sig_counter || buf[0] != 1) {
		buf[i & 15] += i;
		i++;
	}
	return buf[0];
}

NOIPA static unsigned long a(void)
{
	return spin() ^ 7;
}

int main(void)
{
	struct itimerval it = { .it_interval = { 0, 1000 }, .it_value = { 0, 1000 } };
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_RESTART };

	alarm(120);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL)) {
		perror("fp_signal");
		return 1;
	}
	/*
	 * "ready" before the timer: in a slow guest leaf() outlasts the
	 * interval, the next SIGPROF is pending at every return from the
	 * handler, and main would not get to print it.
	 */
	printf("ready\n");
	fflush(stdout);
	if (setitimer(ITIMER_PROF, &it, NULL)) {
		perror("fp_signal");
		return 1;
	}
	return a() == 42;
}
