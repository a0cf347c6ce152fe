/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An SFrame table read from a file: an ELF file's .sframe section (or
 * PT_GNU_SFRAME segment), or a bare section; opened with the decoder
 * (lib/sframe.c) from memory, and decoded back into encoder rows.
 */
#ifndef DW_SFRAME_FILE_H
#define DW_SFRAME_FILE_H

#include <stddef.h>
#include <linux/types.h>

#include "sframe.h"
#include "sframe/sframe_enc.h"

struct dw_sframe_file {
	__u8 *data;
	size_t len;
	__u64 vaddr;		/* where data[0] is mapped */
	char name[64];		/* ".sframe" or "PT_GNU_SFRAME" */
};

int dw_sframe_file_load_elf(const char *path, struct dw_sframe_file *f);
int dw_sframe_file_load_raw(const char *path, __u64 vaddr, struct dw_sframe_file *f);
int dw_sframe_file_open(struct dw_sframe_file *f, struct dunwind_sframe_table *t);
int dw_sframe_file_rows(const struct dunwind_sframe_table *t,
			struct dw_sframe_enc_func **funcs_out);
const char *dw_sframe_strerror(int err);

#endif
