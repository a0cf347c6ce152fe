// SPDX-License-Identifier: GPL-2.0
/*
 * dw_needed_closure(): the files the loader mapped for this very program
 * (its libraries and interpreter, read from /proc/self/maps) are all in
 * the closure computed from its file; a non-ELF file is refused.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "sframe/needed.h"

static int in_closure(const struct dw_needed *n, const char *path)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		if (!strcmp(n->paths[i], path))
			return 1;
	return 0;
}

int main(void)
{
	struct dw_needed n = { 0 }, bad = { 0 };
	char line[PATH_MAX + 256], self[PATH_MAX], real[PATH_MAX];
	size_t mapped = 0, missing = 0;
	FILE *f;
	int err;

	if (!realpath("/proc/self/exe", self))
		return tap_ok(0, "realpath of /proc/self/exe"), tap_done();
	err = dw_needed_closure("/proc/self/exe", &n);
	tap_ok(err == 0, "closure of this program: %d", err);
	tap_ok(n.n >= 3 && !strcmp(n.paths[0], self),
	       "the program first, then its interpreter and libraries (%zu files)", n.n);

	f = fopen("/proc/self/maps", "re");
	while (f && fgets(line, sizeof(line), f)) {
		char perms[8], *path = strchr(line, '/');

		if (!path || sscanf(line, "%*s %7s", perms) != 1 || perms[2] != 'x')
			continue;
		path[strcspn(path, "\n")] = '\0';
		if (!realpath(path, real))
			continue;
		mapped++;
		if (!in_closure(&n, real)) {
			missing++;
			printf("# mapped but not in the closure: %s\n", real);
		}
	}
	if (f)
		fclose(f);
	tap_ok(mapped >= 3 && !missing, "every executable file mapping is in the closure "
	       "(%zu mapped, %zu missing)", mapped, missing);

	err = dw_needed_closure("/proc/self/maps", &bad);
	tap_ok(err == -ENOEXEC && !bad.n, "a file that is not ELF: -ENOEXEC (%d)", err);
	err = dw_needed_closure("/nonexistent/program", &bad);
	tap_ok(err == -ENOENT && !bad.n, "no such file: -ENOENT (%d)", err);
	dw_needed_free(&n);
	dw_needed_free(&bad);
	return tap_done();
}
