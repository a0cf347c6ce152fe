// SPDX-License-Identifier: GPL-2.0
/*
 * dl_spin: print "ready" and the address of call_lib(), wait for a line
 * on stdin, then dlopen libdl_spin.so (next to this program: .eh_frame
 * only, no frame pointers, no .sframe) and compute in it until killed.
 * call_lib() is this program's frame under the library's: a walk that
 * falls back to frame pointers in the library skips it, one with the
 * library's table does not (barrier_test).
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static void call_lib(void (*fn)(void))
{
	fn();
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}

int main(void)
{
	char exe[PATH_MAX], lib[PATH_MAX + 32], line[64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	void (*fn)(void);
	void *h;

	if (n <= 0)
		return 1;
	exe[n] = '\0';
	snprintf(lib, sizeof(lib), "%s/libdl_spin.so", dirname(exe));
	printf("ready\ncall_lib %p\n", (void *)call_lib);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	h = dlopen(lib, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dl_spin: %s\n", dlerror());
		return 1;
	}
	fn = (void (*)(void))dlsym(h, "dl_spin_outer");
	if (!fn)
		return 1;
	call_lib(fn);
	return 0;
}
