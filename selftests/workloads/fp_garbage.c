// SPDX-License-Identifier: GPL-2.0
/*
 * fp_garbage: corrupt the saved frame pointer in our own frame, then spin, so
 * that a frame-pointer walk of this thread meets a hostile frame chain.
 *
 *   fp_garbage junk     saved %rbp = an unaligned low junk value
 *   fp_garbage cycle    saved %rbp = the frame's own address (a loop)
 *   fp_garbage kernel   saved %rbp = a kernel address
 *   fp_garbage high     saved %rbp = far above the stack (unmapped)
 *
 * Prints "ready" (before corrupting anything) and spins until killed or 120 s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile unsigned long dw_garbage_counter;

__attribute__((noipa, noinline)) static void spin(unsigned long bad, int self)
{
	unsigned long *frame = __builtin_frame_address(0);

	/* frame[0] is the caller's saved %rbp, frame[1] our return address. */
	frame[0] = self ? (unsigned long)frame : bad;
	for (;;)
		dw_garbage_counter++;
}

int main(int argc, char **argv)
{
	unsigned long bad = 0;
	int self = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: fp_garbage junk|cycle|kernel|high\n");
		return 2;
	}
	if (!strcmp(argv[1], "junk"))
		bad = 0x1234567UL;
	else if (!strcmp(argv[1], "cycle"))
		self = 1;
	else if (!strcmp(argv[1], "kernel"))
		bad = 0xffffffff81000000UL;
	else if (!strcmp(argv[1], "high"))
		bad = 0x00007ffffffff000UL;
	else {
		fprintf(stderr, "fp_garbage: unknown variant '%s'\n", argv[1]);
		return 2;
	}
	alarm(120);
	printf("ready\n");
	fflush(stdout);
	spin(bad, self);
	return 0;
}
