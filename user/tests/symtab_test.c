// SPDX-License-Identifier: GPL-2.0
/*
 * dw_maps_*: symbolise addresses of this very process: a function of this
 * (PIE) test program from .symtab, and a libc function from .dynsym.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "symbols/symtab.h"

__attribute__((noinline, used)) int dw_test_marker_function(int x)
{
	return x * 3 + 1;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = s ? strlen(s) : 0, m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

int main(void)
{
	struct dw_maps *m = dw_maps_load(0);
	uintptr_t fn = (uintptr_t)dw_test_marker_function;
	uintptr_t libc_fn = (uintptr_t)getpid;
	const char *name, *dso = NULL;
	uint64_t off = 99;
	int *heap = malloc(16);

	if (!ok(m != NULL, "load the maps of this process")) {
		free(heap);
		return tap_done();
	}
	name = dw_maps_lookup(m, fn, &off, &dso);
	ok(name && !strcmp(name, "dw_test_marker_function") && off == 0,
	   "a function of the PIE executable, by .symtab (%s+%llu)", name ? name : "NULL",
	   (unsigned long long)off);
	ok(ends_with(dso, "/symtab_test"), "its file is this program (%s)", dso ? dso : "NULL");
	name = dw_maps_lookup(m, fn + 3, &off, &dso);
	ok(name && !strcmp(name, "dw_test_marker_function") && off == 3,
	   "an address inside it gives the offset");
	name = dw_maps_lookup(m, libc_fn, &off, &dso);
	ok(name && strstr(name, "getpid") && off == 0, "a libc function, by .dynsym (%s in %s)",
	   name ? name : "NULL", dso ? dso : "NULL");
	ok(dso && strstr(dso, "libc"), "its file is libc");
	name = dw_maps_lookup(m, 16, &off, &dso);
	ok(!name && !dso, "an unmapped address: no name, no file");
	name = dw_maps_lookup(m, (uintptr_t)heap, &off, &dso);
	ok(!name, "a heap address: no name");
	dw_maps_free(m);

	errno = 0;
	m = dw_maps_load(999999999);
	ok(!m && errno == ENOENT, "no such process: NULL, ENOENT");
	free(heap);
	dw_test_marker_function(1);
	return tap_done();
}
