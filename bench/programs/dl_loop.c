// SPDX-License-Identifier: GPL-2.0
/*
 * dl_loop: for SECS seconds, dlopen libdl_a.so, compute in it, dlclose it,
 * then the same with libdl_b.so (often mapped where the other was).
 *
 *   dl_loop DIR [SECS]        the libraries are DIR/libdl_a.so, DIR/libdl_b.so
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const char *const names[2][2] = {
		{ "libdl_a.so", "dl_compute_a" }, { "libdl_b.so", "dl_compute_b" },
	};
	double end = now() + (argc > 2 ? atof(argv[2]) : 2);
	char path[4096];
	long rounds = 0;

	if (argc < 2)
		return 2;
	while (now() < end) {
		int k = rounds++ & 1;
		double (*fn)(long);
		void *h;

		snprintf(path, sizeof(path), "%s/%s", argv[1], names[k][0]);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			fprintf(stderr, "dl_loop: %s\n", dlerror());
			return 1;
		}
		fn = (double (*)(long))dlsym(h, names[k][1]);
		if (!fn)
			return 1;
		sink = fn(2000000);
		dlclose(h);
	}
	printf("dl_loop: %ld rounds\n", rounds);
	return 0;
}
