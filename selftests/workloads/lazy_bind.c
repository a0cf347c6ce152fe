// SPDX-License-Identifier: GPL-2.0
/*
 * lazy_bind: print "ready" and the path of liblazy_bind.so (next to this
 * program), then until killed: dlopen() it, call lazy_all(), which calls
 * dozens of libm functions through its lazily bound PLT (the library is
 * linked with -z lazy), and dlclose() it, so that every round binds them
 * again through ld.so's _dl_runtime_resolve (lazy_bind_test).
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

static volatile double sink;

int main(void)
{
	char exe[PATH_MAX], lib[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return 1;
	exe[n] = '\0';
	snprintf(lib, sizeof(lib), "%s/liblazy_bind.so", dirname(exe));
	printf("ready\nlib %s\n", lib);
	fflush(stdout);
	for (;;) {
		void *h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
		double (*fn)(double);

		if (!h) {
			fprintf(stderr, "lazy_bind: %s\n", dlerror());
			return 1;
		}
		fn = (double (*)(double))dlsym(h, "lazy_all");
		if (!fn)
			return 1;
		sink += fn(0.25);
		dlclose(h);
	}
}
