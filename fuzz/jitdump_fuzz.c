// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the jitdump reader (user/symbols/jitdump.c): the
 * input is a jit-PID.dump.  Looks up addresses at and around every
 * CODE_LOAD and CODE_MOVE the input holds, at its times and the latest,
 * and traps on a result that does not hold the address asked for.
 */
#include <stdint.h>
#include <string.h>

#include "symbols/jitdump.h"
#include "fuzz_file.h"

static void lookup(const struct dw_jitdump *j, uint64_t addr, uint64_t time)
{
	uint64_t start = 0, size = 0;
	const char *name = dw_jitdump_lookup(j, addr, time, &start, &size);

	if (!name)
		return;
	if (!*name || addr - start >= size || start + size < start)
		__builtin_trap();
	(void)strlen(name);
}

/* Around @addr (code of @size bytes) at @time, just before it and the latest. */
static void around(const struct dw_jitdump *j, uint64_t addr, uint64_t size, uint64_t time)
{
	const uint64_t times[] = { time, time - 1, time + 1, DW_JITDUMP_LATEST };
	size_t i;

	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		lookup(j, addr, times[i]);
		lookup(j, addr - 1, times[i]);
		lookup(j, addr + size - 1, times[i]);
		lookup(j, addr + size, times[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t time, addr, len, to;
	struct dw_jitdump *j;
	size_t p = 40;
	uint32_t id, rec;

	if (!size)
		return 0;
	j = dw_jitdump_parse(data, size);
	if (!j)
		return 0;
	/* Walk the records as written (sizes unchecked here: only to find addresses). */
	while (p + 16 <= size) {
		memcpy(&id, data + p, 4);
		memcpy(&rec, data + p + 4, 4);
		memcpy(&time, data + p + 8, 8);
		if (p + 16 + 48 <= size && (id == 0 || id == 1)) {
			/* CODE_LOAD: address at 16, size at 24; CODE_MOVE: old, new, size. */
			memcpy(&addr, data + p + 16 + 16, 8);
			memcpy(&to, data + p + 16 + 24, 8);
			memcpy(&len, data + p + 16 + (id ? 32 : 24), 8);
			around(j, addr, len, time);
			if (id)
				around(j, to, len, time);
		}
		if (rec < 16)
			break;
		p += rec;
	}
	lookup(j, 0, DW_JITDUMP_LATEST);
	lookup(j, ~0ULL, DW_JITDUMP_LATEST);
	dw_jitdump_free(j);
	return 0;
}
