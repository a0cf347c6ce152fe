/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feeding the module CPython descriptors while recording: each new
 * executable file mapping is looked at once per file (device, inode); a
 * CPython interpreter (the python3.x executable or libpython3.x.so) gets
 * its descriptor and eval-loop ranges registered with
 * DUNWIND_IOC_INTERP_REGISTER.  The feed also remembers, per process,
 * which interpreter it runs and where it is loaded, for naming code
 * objects (interp/pynames.h).  Documentation/python.rst, "The recorder".
 */
#ifndef DW_INTERP_PYFEED_H
#define DW_INTERP_PYFEED_H

#include <stddef.h>
#include <linux/dunwind.h>

#include "interp/cpython_elf.h"
#include "interp/pycode.h"
#include "util/htab.h"

struct dw_dso_cache;

/* One file looked at: CPython (@err 0) or not (@err -errno); a refusal is said once. */
struct dw_pyfile {
	unsigned long long dev, ino;
	int err;
	int registered;			/* the module has its descriptor */
	struct dw_cpython py;
};

/* A process that runs a recognised interpreter, loaded at @bias. */
struct dw_pyproc {
	__u32 pid;
	__u32 file;			/* index in dw_pyfeed.files */
	__u64 bias;			/* run-time address minus ELF address */
};

/*
 * struct dw_pyfeed - the recording's interpreters.
 * @dev_fd:	the session (< 0: recognise and remember only, no ioctl).
 * @on:		0 (--no-python, or a zeroed feed): do nothing at all.
 * @dsos:	the recording's files (dw_proc_file()), not owned; may be NULL.
 * @pythons, @registered, @failed: files found, registered, refused.
 */
struct dw_pyfeed {
	int dev_fd;
	int on;
	struct dw_dso_cache *dsos;
	struct dw_pyfile *files;
	size_t nr_files, cap_files;
	struct dw_htab files_ht;
	struct dw_pyproc *procs;
	size_t nr_procs, cap_procs;
	struct dw_htab procs_ht;
	unsigned int pythons, registered, failed;
};

void dw_pyfeed_mapping(struct dw_pyfeed *f, const struct dunwind_rec_mmap *m);
void dw_pyfeed_fork(struct dw_pyfeed *f, __u32 parent, __u32 child);
int dw_pyfeed_proc(const struct dw_pyfeed *f, __u32 pid, const struct dw_cpython **py,
		   struct dw_pytypes *types);
void dw_pyfeed_free(struct dw_pyfeed *f);

#endif
