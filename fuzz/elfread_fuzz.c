// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lib/elfread.c, the ELF header, program header and
 * build-id note reader the module and the recorder share: the input is an
 * ELF file, read both as a file and as a mapped image.  Traps when the
 * reader asks for bytes outside the input or more than 64 at once, returns
 * a positive code, or reports a build-id or SFrame segment that does not
 * fit its bounds.
 */
#include <stdint.h>
#include <string.h>

#include "elfread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz_mem {
	const uint8_t *p;
	size_t n;
};

static int fz_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	const struct fz_mem *m = ctx;

	if (len > 64)
		__builtin_trap();
	if (off > m->n || len > m->n - off)
		return -14;	/* -EFAULT, as an unmapped page */
	memcpy(dst, m->p + off, len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_mem m = { data, size };
	struct dunwind_elf_src src = { fz_read, &m };
	struct dunwind_elf_info info;
	int mapped, err;

	for (mapped = 0; mapped < 2; mapped++) {
		memset(&info, 0xa5, sizeof(info));
		err = dunwind_elf_parse(&src, mapped, &info);
		if (err > 0)
			__builtin_trap();
		if (err)
			continue;
		if (info.build_id_size > DUNWIND_BUILD_ID_MAX)
			__builtin_trap();
		if (info.sframe_size > DUNWIND_ELF_MAX_SFRAME)
			__builtin_trap();
	}
	return 0;
}
