// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf map parser (user/symbols/perfmap.c): the
 * input is the text of a /tmp/perf-PID.map.  Looks up addresses at and
 * around every entry it kept and traps on a result that does not hold the
 * address asked for.
 */
#include <stdint.h>
#include <string.h>

#include "symbols/perfmap.h"
#include "fuzz_file.h"

static void lookup(const struct dw_perfmap *m, uint64_t addr)
{
	uint64_t off = 0, size = 0;
	const char *name = dw_perfmap_lookup(m, addr, &off, &size);

	if (!name)
		return;
	if (!*name || off >= size || addr - off + size < addr - off)
		__builtin_trap();
	(void)strlen(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long start, len;
	struct dw_perfmap *m;
	const char *p, *end = (const char *)data + size;
	char line[64];
	size_t n;

	if (!size)
		return 0;
	m = dw_perfmap_parse((const char *)data, size);
	if (!m)
		return 0;
	/* At, before and after the range each line names. */
	for (p = (const char *)data; p < end; p += n + 1) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		memcpy(line, p, n < sizeof(line) ? n : sizeof(line) - 1);
		line[n < sizeof(line) ? n : sizeof(line) - 1] = 0;
		if (sscanf(line, "%llx %llx", &start, &len) != 2)
			continue;
		lookup(m, start);
		lookup(m, start - 1);
		lookup(m, start + len - 1);
		lookup(m, start + len);
	}
	lookup(m, 0);
	lookup(m, ~0ULL);
	dw_perfmap_free(m);
	return 0;
}
