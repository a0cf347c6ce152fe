// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the /proc/PID/maps reader (user/util/maps.c): the
 * input is the file's text, read through the same iterator the recorder
 * uses.  Traps on a mapping that is empty or reversed, or whose fields are
 * not NUL-terminated strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/maps.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct dw_maps_line *l;
	struct dw_proc_maps it;
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	dw_proc_maps_from(&it, f);
	while ((l = dw_proc_maps_next(&it))) {
		if (l->start >= l->end || strnlen(l->perms, sizeof(l->perms)) >= sizeof(l->perms))
			__builtin_trap();
		if (strlen(l->path) > size || (l->deleted && strstr(l->path, "\n")))
			__builtin_trap();
	}
	dw_proc_maps_close(&it);
	return 0;
}
