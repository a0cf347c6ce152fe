/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The on-disk cache of generated SFrame tables, keyed by build-id:
 * ${XDG_CACHE_HOME:-$HOME/.cache}/dunwind/sframe/<build-id hex>
 * (dw_sframe_cache_dir() is in sframe_reg.h).  Used by sframe_reg.c.
 */
#ifndef DW_SFRAME_CACHE_H
#define DW_SFRAME_CACHE_H

#include <stddef.h>
#include <linux/types.h>

#include "elfread.h"
#include "sframe/sframe_reg.h"

/* An ELF file's identity for registration and the cache. */
struct dw_sframe_elf_id {
	__u8 build_id[DUNWIND_BUILD_ID_MAX];
	__u32 build_id_size;
	int has_sframe;
};

/* A generated table, as registered and as cached. */
struct dw_sframe_tab {
	__u8 *data;
	size_t size;
	__u64 sec_vaddr;
	__u64 covered_bytes, exec_bytes;
};

int dw_sframe_cache_path(const struct dw_sframe_reg_opts *o, const struct dw_sframe_elf_id *re,
			 char *buf, size_t len);
int dw_sframe_cache_load(const char *path, const struct dw_sframe_elf_id *re,
			 unsigned int version, struct dw_sframe_tab *t);
int dw_sframe_cache_store(const struct dw_sframe_reg_opts *o, const char *path,
			  const struct dw_sframe_elf_id *re, unsigned int version,
			  const struct dw_sframe_tab *t);

#endif
