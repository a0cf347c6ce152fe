// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the capture reader as the reports use it
 * (dw_prof_load(): the header, every record type, zstd-compressed
 * captures, the kernel and user symbol snapshots, stitching and
 * symbolizing): the input is a capture file, its boot id set to one that
 * is never the running boot's, so that neither /proc/kallsyms nor live
 * processes stand in for what it holds; user files come from an empty
 * symfs.  Traps on a profile whose indices point outside it.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/profile.h"
#include "util/log.h"
#include "fuzz_file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	unsetenv("DEBUGINFOD_URLS");
	dw_set_print(NULL);	/* a message per malformed input: not read */
	return 0;
}

static void check(const struct dw_prof *p)
{
	size_t i, j;

	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];

		if (s->first > p->nr_stack || s->nr > p->nr_stack - s->first)
			__builtin_trap();
		for (j = 0; j < s->nr; j++)
			if (p->stack[s->first + j] >= p->nr_locs)
				__builtin_trap();
	}
	for (i = 0; i < p->nr_locs; i++) {
		const struct dw_prof_loc *l = &p->locs[i];

		if (l->first_line > p->nr_lines || l->nr_lines > p->nr_lines - l->first_line ||
		    l->mapping > p->nr_mappings)
			__builtin_trap();
		for (j = 0; j < l->nr_lines; j++)
			if (p->lines[l->first_line + j].func >= p->nr_funcs)
				__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dw_prof_opts o = { .symfs = "/nonexistent-fuzz", .user_symbols = 1, .src = 1,
				  .quiet = 1 };
	size_t boot_id = offsetof(struct dw_capture_header, boot_id);
	struct dw_prof *p;
	char path[64];
	uint8_t *copy;
	int fd;

	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (size >= boot_id + 16)
		memset(copy + boot_id, 0xff, 16);
	fd = fuzz_file(copy, size, path, sizeof(path));
	free(copy);
	if (!dw_prof_load(&p, path, &o)) {
		check(p);
		dw_prof_free(p);
	}
	close(fd);
	return 0;
}
