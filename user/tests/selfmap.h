/* SPDX-License-Identifier: GPL-2.0 */
/* Where this test program is mapped, from /proc/self/maps. */
#ifndef DW_TEST_SELFMAP_H
#define DW_TEST_SELFMAP_H

#include <stdint.h>
#include <stdio.h>

/* The executable mapping of this program holding @addr. */
static inline int find_self(uintptr_t addr, uint64_t *start, uint64_t *end, uint64_t *off,
			    char *path)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4200];
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, o;
		int pos = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &s, &e, &o, &pos) >= 3 && pos &&
		    addr >= s && addr < e) {
			*start = s;
			*end = e;
			*off = o;
			sscanf(line + pos, "%4095s", path);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found;
}

#endif
