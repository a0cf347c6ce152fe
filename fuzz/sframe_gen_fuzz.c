// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the .eh_frame -> SFrame generator
 * (user/sframe/sframe_gen.c with libdw's CFI, the .eh_frame_hdr reader and
 * the gap scanner): the input is an ELF file.  The first byte picks the
 * options (version, PC-relative or not, %rbx extension, .debug_frame).
 * Beyond sanitizer findings, traps when a table it returns does not pass
 * the decoder's own validation (lib/sframe.c), as the module would refuse it.
 */
#include <string.h>

#include "sframe.h"
#include "sframe/sframe_gen.h"
#include "fuzz_file.h"

struct fz_mem {
	const uint8_t *p;
	size_t n;
};

static int fz_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	const struct fz_mem *m = ctx;

	if (off > m->n || len > m->n - off)
		__builtin_trap();
	memcpy(dst, m->p + off, len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dw_sframe_gen_opts o = { .max_ms = 2000 };	/* under -timeout */
	struct dw_sframe_gen_result r;
	struct dunwind_sframe_table t;
	struct dunwind_sframe_src src;
	struct fz_mem m;
	char path[64];
	int fd, err;

	if (!size)
		return 0;
	o.version = (data[size - 1] & 1) ? DUNWIND_SFRAME_V3 : DUNWIND_SFRAME_V2;
	o.flags = (data[size - 1] >> 1) & DW_SFRAME_GEN_ALL;
	if (o.version == DUNWIND_SFRAME_V2)
		o.flags &= ~DW_SFRAME_GEN_RBX;
	fd = fuzz_file(data, size, path, sizeof(path));
	err = dw_sframe_gen_fd(fd, &o, &r);
	close(fd);
	if (err > 0)
		__builtin_trap();
	if (err)
		return 0;
	m.p = r.table;
	m.n = r.table_size;
	src.read = fz_read;
	src.ctx = &m;
	src.size = r.table_size;
	if (dunwind_sframe_open(&t, &src, r.sec_vaddr))
		__builtin_trap();
	t.ext = r.ext;
	if (dunwind_sframe_validate(&t))
		__builtin_trap();
	dw_sframe_gen_free(&r);
	return 0;
}
