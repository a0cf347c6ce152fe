/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registering generated SFrame tables with the module
 * (DUNWIND_IOC_SFRAME_REGISTER), with an on-disk cache keyed by build-id:
 * ${XDG_CACHE_HOME:-$HOME/.cache}/dunwind/sframe/<build-id hex>.
 * Documentation/sframe-gen.rst describes the cache.
 */
#ifndef DW_SFRAME_REG_H
#define DW_SFRAME_REG_H

#include <linux/types.h>
#include "sframe.h"

/* dw_sframe_reg_opts.flags */
#define DW_SFRAME_REG_PIN	(1U << 0)	/* DUNWIND_REG_PIN: outlive the session */
#define DW_SFRAME_REG_NO_CACHE	(1U << 1)	/* neither read nor write the cache */
/* dw_sframe_register_file(): leave a file with its own PT_GNU_SFRAME alone. */
#define DW_SFRAME_REG_SKIP_OWN	(1U << 2)
/* A table from the cache only: -EAGAIN (source NONE) where it has none. */
#define DW_SFRAME_REG_CACHE_ONLY	(1U << 3)
#define DW_SFRAME_REG_ALL	(DW_SFRAME_REG_PIN | DW_SFRAME_REG_NO_CACHE | \
				 DW_SFRAME_REG_SKIP_OWN | DW_SFRAME_REG_CACHE_ONLY)

/*
 * struct dw_sframe_reg_opts - how to register.
 * @flags:	DW_SFRAME_REG_*.
 * @version:	SFrame version to generate (2 or 3; 0 means 3).  v3 tables
 *		carry dunwind's %rbx extension (dw_sframe_reg_ext()).
 * @cache_dir:	NULL: ${XDG_CACHE_HOME:-$HOME/.cache}/dunwind/sframe.
 */
struct dw_sframe_reg_opts {
	unsigned int flags;
	unsigned int version;
	const char *cache_dir;
};

/*
 * dw_sframe_reg_ext() - DUNWIND_SFRAME_EXT_* of the tables generated and
 * registered as SFrame @version for @abi (DUNWIND_SFRAME_ABI_*, the
 * header's byte 4): v3 AMD64 ones say where %rbx is at every PC; an
 * AArch64 table has no %rbx (the module refuses DUNWIND_REG_RBX on it).
 */
static inline unsigned int dw_sframe_reg_ext(unsigned int version, unsigned int abi)
{
	return version == DUNWIND_SFRAME_V3 && abi == DUNWIND_SFRAME_ABI_AMD64_LE ?
	       DUNWIND_SFRAME_EXT_RBX : 0;
}

/* Where a file's table came from. */
enum dw_sframe_reg_source {
	DW_SFRAME_SRC_NONE = 0,		/* no table (skipped or failed early) */
	DW_SFRAME_SRC_CACHE,		/* loaded from the cache */
	DW_SFRAME_SRC_GENERATED,	/* generated from the CFI now */
};

/*
 * struct dw_sframe_reg_file - what happened to one file.
 * @path:	the file (for dw_sframe_register_pid(): malloc()ed, freed by
 *		dw_sframe_reg_pid_free(); else the caller's string).
 * @err:	0 (registered, or prepared when dev_fd < 0) or -errno;
 *		dw_sframe_reg_strerror() explains it.
 * @skipped:	1 if not attempted on purpose (the file has PT_GNU_SFRAME).
 * @source:	enum dw_sframe_reg_source.
 * @cache_err:	0, or -errno of a cache problem that was worked around
 *		(corrupt entry regenerated, cache not writable).
 * @table_size, @covered_bytes, @exec_bytes: the table and its coverage.
 * @build_id, @build_id_size: the file's GNU build-id.
 * @gen_ns, @load_ns, @reg_ns: time generating, reading the cache, in ioctl.
 */
struct dw_sframe_reg_file {
	char *path;
	int err;
	int skipped;
	int source;
	int cache_err;
	__u64 table_size;
	__u64 covered_bytes;
	__u64 exec_bytes;
	__u8 build_id[20];
	__u32 build_id_size;
	__u64 gen_ns;
	__u64 load_ns;
	__u64 reg_ns;
};

/*
 * struct dw_sframe_reg_pid - what dw_sframe_register_pid() did.
 * @files, @nfiles:	one entry per distinct file-backed executable mapping.
 * @registered:		files registered (or prepared, dev_fd < 0).
 * @already:		files this session had registered already (EEXIST).
 * @skipped:		files with their own PT_GNU_SFRAME.
 * @failed:		other errors.
 * @from_cache, @generated: tables by source.
 * @gen_ns, @load_ns, @reg_ns, @total_ns: summed times, and the whole call.
 */
struct dw_sframe_reg_pid {
	struct dw_sframe_reg_file *files;
	unsigned int nfiles;
	unsigned int registered;
	unsigned int already;
	unsigned int skipped;
	unsigned int failed;
	unsigned int from_cache;
	unsigned int generated;
	__u64 gen_ns;
	__u64 load_ns;
	__u64 reg_ns;
	__u64 total_ns;
};

int dw_sframe_register_file(int dev_fd, const char *path, const struct dw_sframe_reg_opts *o,
			    struct dw_sframe_reg_file *res);
int dw_sframe_register_vdso(int dev_fd, const struct dw_sframe_reg_opts *o,
			    struct dw_sframe_reg_file *res);
int dw_sframe_register_pid(int dev_fd, int pid, const struct dw_sframe_reg_opts *o,
			   struct dw_sframe_reg_pid *res);
void dw_sframe_reg_pid_free(struct dw_sframe_reg_pid *res);
const char *dw_sframe_reg_strerror(int err);
int dw_sframe_cache_dir(const struct dw_sframe_reg_opts *o, char *buf, size_t len);

#endif /* DW_SFRAME_REG_H */
