// SPDX-License-Identifier: GPL-2.0
/*
 * jit_spin: spin in code copied into anonymous memory (as a JIT does), after
 * planting this process's own perf map, so that a recorder naming that code
 * meets what a hostile user leaves in /tmp.
 *
 *   jit_spin map SECONDS          /tmp/perf-PID.map names the code "jit_loop"
 *   jit_spin link TARGET SECONDS  /tmp/perf-PID.map is a symbolic link to TARGET
 *   jit_spin fifo SECONDS         /tmp/perf-PID.map is a FIFO nobody writes
 *
 * Prints "ready PID" once the map is planted, then spins SECONDS; the map
 * stays (a recorder may read it after the process is gone).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Count %rdi/x0 down to zero, then return: the whole "JIT" function. */
#if defined(__x86_64__)
static const unsigned char jit_code[] = {
	0x48, 0x89, 0xf8,	/* mov %rdi,%rax */
	0x48, 0xff, 0xc8,	/* 1: dec %rax */
	0x75, 0xfb,		/* jnz 1b */
	0xc3,			/* ret */
};
#elif defined(__aarch64__)
static const unsigned int jit_code[] = {
	0xf1000400,		/* 1: subs x0, x0, #1 */
	0x54ffffe1,		/* b.ne 1b */
	0xd65f03c0,		/* ret */
};
#endif

static int plant(const char *path, const char *mode, const char *target, const void *code)
{
	FILE *f;

	if (!strcmp(mode, "link"))
		return symlink(target, path);
	if (!strcmp(mode, "fifo"))
		return mkfifo(path, 0644);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%lx %zx jit_loop\n", (unsigned long)code, sizeof(jit_code));
	return fclose(f);
}

int main(int argc, char **argv)
{
	unsigned long (*fn)(unsigned long);
	const char *target = NULL;
	char path[64];
	time_t end;
	void *code;

	if (argc == 4 && !strcmp(argv[1], "link"))
		target = argv[2];
	else if (argc != 3 || (strcmp(argv[1], "map") && strcmp(argv[1], "fifo"))) {
		fprintf(stderr, "usage: jit_spin map|fifo SECONDS | jit_spin link TARGET SECONDS\n");
		return 2;
	}
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 1;
	memcpy(code, jit_code, sizeof(jit_code));
	__builtin___clear_cache((char *)code, (char *)code + sizeof(jit_code));
	if (mprotect(code, 4096, PROT_READ | PROT_EXEC))
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	unlink(path);
	if (plant(path, argv[1], target, code)) {
		perror(path);
		return 1;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	fn = (unsigned long (*)(unsigned long))code;
	end = time(NULL) + atoi(argv[argc - 1]);
	while (time(NULL) < end)
		fn(1000000);
	return 0;
}
