// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the symbolizer's reading of a mapped ELF file
 * (user/symbols/dso.c, symtab's libdwfl module, the PLT and FDE ranges,
 * DWARF line and inline lookup in dwarf.c, the build-id note): the input
 * is the file.  Resolves, with source lines, addresses spread over the
 * file's bytes, as a capture's samples would.  Traps on a result whose
 * offset lies outside its symbol or whose inline chain is too long.
 */
#include <string.h>

#include "symbols/dso.h"
#include "util/log.h"
#include "fuzz_file.h"

#define FUZZ_LOOKUPS	48

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	unsetenv("DEBUGINFOD_URLS");	/* never the network */
	dw_set_print(NULL);		/* a message per malformed input: not read */
	return 0;
}

static void resolve(struct dw_dso *d, uint64_t vaddr)
{
	struct dw_symres res;
	unsigned int i;

	memset(&res, 0, sizeof(res));
	if (dw_dso_resolve(d, vaddr, DW_DSO_SRC, &res))
		return;
	if (res.nr_frames > DW_DSO_MAX_INLINE)
		__builtin_trap();
	if (res.name && (strlen(res.name) > (1 << 20) || (res.size && res.off >= res.size)))
		__builtin_trap();
	for (i = 0; i < res.nr_frames; i++)
		if ((res.frames[i].func && strlen(res.frames[i].func) > (1 << 20)) ||
		    (res.frames[i].file && strlen(res.frames[i].file) > (1 << 20)))
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned char *id;
	struct dw_dso_cache *c;
	struct dw_dso *d;
	uint64_t vaddr;
	char path[64];
	size_t i;
	int fd;

	if (!size)
		return 0;
	c = dw_dso_cache_new();
	if (!c)
		return 0;
	dw_dso_set_quiet(c, 1);
	fd = fuzz_file(data, size, path, sizeof(path));
	d = dw_dso_get(c, path, NULL, 0);
	if (d && dw_dso_usable(d)) {
		if (dw_dso_build_id(d, &id) > 64)	/* dso.c keeps up to 64 bytes */
			__builtin_trap();
		for (i = 0; i < FUZZ_LOOKUPS; i++) {
			uint64_t foff = size * i / FUZZ_LOOKUPS;

			if (dw_dso_file_to_vaddr(d, foff, &vaddr))
				continue;
			resolve(d, vaddr);
			resolve(d, vaddr + 1);
		}
	}
	dw_dso_cache_free(c);
	close(fd);
	return 0;
}
