// SPDX-License-Identifier: GPL-2.0
/*
 * Feeding the module CPython descriptors while recording: see pyfeed.h.
 * A file is looked at once (its verdict is kept by device and inode); a
 * refusal is said once per file with what to do, and never ends the
 * recording: its samples keep their native stacks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elfread.h"
#include "interp/pyfeed.h"
#include "symbols/procfile.h"
#include "util/array.h"
#include "util/log.h"

struct file_key {
	unsigned long long dev, ino;
};

static int file_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_pyfeed *f = ctx;
	const struct file_key *k = key;

	return f->files[id].dev == k->dev && f->files[id].ino == k->ino;
}

static int proc_eq(const void *ctx, uint32_t id, const void *key)
{
	return ((const struct dw_pyfeed *)ctx)->procs[id].pid == *(const __u32 *)key;
}

static uint64_t proc_hash(__u32 pid)
{
	return dw_hash_bytes(&pid, sizeof(pid), DW_HASH_INIT);
}

static int fd_pread(void *ctx, __u64 off, void *dst, __u32 len)
{
	ssize_t n = pread(*(int *)ctx, dst, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

/* DUNWIND_IOC_INTERP_REGISTER of @py for the open file @fd. */
static int feed_register(int dev_fd, int fd, const struct dw_cpython *py)
{
	struct dunwind_elf_src src = { .read = fd_pread, .ctx = &fd };
	struct dunwind_interp_desc desc;
	struct dunwind_interp_reg reg;
	struct dunwind_elf_info info;
	int err;

	err = dunwind_elf_parse(&src, 0, &info);
	if (err)
		return err;
	if (!info.build_id_size || info.build_id_size > sizeof(reg.build_id))
		return -ENODATA;		/* the module keys files by build-id */
	dw_cpython_desc(&py->layout, py->runtime, &desc);
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.fd = fd;
	reg.build_id_size = info.build_id_size;
	memcpy(reg.build_id, info.build_id, info.build_id_size);
	reg.ranges[0][0] = py->eval_lo;
	reg.ranges[0][1] = py->eval_hi;
	reg.nr_ranges = 1;
	if (py->cold_hi > py->cold_lo) {
		reg.ranges[1][0] = py->cold_lo;
		reg.ranges[1][1] = py->cold_hi;
		reg.nr_ranges = 2;
	}
	reg.text_vaddr = py->text_vaddr;
	reg.text_offset = py->text_offset;
	reg.desc = (__u64)(unsigned long)&desc;
	reg.desc_size = sizeof(desc);
	return ioctl(dev_fd, DUNWIND_IOC_INTERP_REGISTER, &reg) ? -errno : 0;
}

/* Say once why the interpreter in @name has no Python frames (@err), and what to do. */
static void feed_refused(struct dw_pyfeed *f, const char *name, const struct dw_pyfile *pf,
			 int err)
{
	int minor = (int)DW_PY_MINOR(pf->py.version);

	f->failed++;
	if (err == -EOPNOTSUPP)
		dw_warn("%s: CPython 3.%d: no Python frames for this version (3.11, 3.13 and 3.14 "
			"are known); its samples keep their native stacks\n", name, minor);
	else if (err == -ENOTTY)
		dw_warn("%s: the loaded dunwind module has no Python frames (no "
			"DUNWIND_IOC_INTERP_REGISTER): load the module built with this dunwind, or "
			"record with --no-python\n", name);
	else if (err == -EINVAL)
		dw_warn("%s: the module refused Python frames (%s): load the module built with "
			"this dunwind, or record with --no-python\n", name, strerror(-err));
	else if (err == -ENODATA)
		dw_warn("%s: no GNU build-id: no Python frames for it (rebuild with "
			"-Wl,--build-id)\n", name);
	else
		dw_warn("%s: no Python frames: %s (record with --no-python to skip this)\n", name,
			strerror(-err));
}

/*
 * Recognise the interpreter in @file (@name to the user) and register it.
 * A refused registration leaves the file recognised (@pf->err 0): what
 * the module still gives is named all the same.
 */
static void feed_look(struct dw_pyfeed *f, struct dw_pyfile *pf, const char *file,
		      const char *name)
{
	int fd, err;

	pf->err = dw_cpython_elf(file, &pf->py);
	if (pf->err == -ENOENT)
		return;				/* not CPython: nothing to say */
	if (pf->err) {
		feed_refused(f, name, pf, pf->err);
		return;
	}
	f->pythons++;
	if (f->dev_fd < 0)
		return;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	err = fd < 0 ? -errno : feed_register(f->dev_fd, fd, &pf->py);
	if (fd >= 0)
		close(fd);
	if (err == -EEXIST)
		err = 0;
	pf->registered = !err;
	f->registered += !err;
	if (err == -ENOTTY)
		f->dev_fd = -1;			/* a module without it: said once */
	if (err)
		feed_refused(f, name, pf, err);
}

/* The file (@k) of @m, looked at on first sight; NULL on ENOMEM. */
static struct dw_pyfile *feed_file(struct dw_pyfeed *f, const struct dunwind_rec_mmap *m,
				   const struct file_key *k, size_t *idx)
{
	uint64_t h = dw_hash_bytes(k, sizeof(*k), DW_HASH_INIT);
	long id = dw_htab_find(&f->files_ht, h, file_eq, f, k);
	struct dw_pyfile *pf;
	char file[4200];

	if (id >= 0) {
		*idx = (size_t)id;
		return &f->files[id];
	}
	if (DW_ARRAY_RESERVE(f->files, f->cap_files, f->nr_files + 1, 16) ||
	    dw_htab_insert(&f->files_ht, h, (uint32_t)f->nr_files))
		return NULL;
	*idx = f->nr_files;
	pf = &f->files[f->nr_files++];
	memset(pf, 0, sizeof(*pf));
	pf->dev = k->dev;
	pf->ino = k->ino;
	pf->err = -ENOENT;
	if (f->dsos)
		dw_proc_file(f->dsos, (int)m->pid, m->path, m->start, m->end,
			     m->build_id_size ? m->build_id : NULL, m->build_id_size, file,
			     sizeof(file));
	else
		snprintf(file, sizeof(file), "/proc/%u/map_files/%llx-%llx", m->pid,
			 (unsigned long long)m->start, (unsigned long long)m->end);
	feed_look(f, pf, file, m->path);
	return pf;
}

/* Remember that @pid runs file @idx at @bias (a new exec replaces the old). */
static void feed_proc(struct dw_pyfeed *f, __u32 pid, size_t idx, __u64 bias)
{
	long id = dw_htab_find(&f->procs_ht, proc_hash(pid), proc_eq, f, &pid);

	if (id < 0) {
		if (DW_ARRAY_RESERVE(f->procs, f->cap_procs, f->nr_procs + 1, 16) ||
		    dw_htab_insert(&f->procs_ht, proc_hash(pid), (uint32_t)f->nr_procs))
			return;
		id = (long)f->nr_procs++;
	}
	f->procs[id] = (struct dw_pyproc){ .pid = pid, .file = (__u32)idx, .bias = bias };
}

/**
 * dw_pyfeed_mapping() - look at a new executable file mapping
 * @f:	the feed
 * @m:	an MMAP record (checked)
 *
 * The file is looked at once; a CPython interpreter is registered (unless
 * @f->dev_fd < 0) and the process remembered with its load bias, taken
 * from the mapping that holds the eval loop's segment.
 *
 * Context: user space.
 */
void dw_pyfeed_mapping(struct dw_pyfeed *f, const struct dunwind_rec_mmap *m)
{
	const struct file_key k = { (unsigned long long)m->dev_major << 32 | m->dev_minor, m->ino };
	const struct dw_pyfile *pf;
	__u64 seg_off;
	size_t idx;

	if (!f->on || !(m->prot & PROT_EXEC) || m->path[0] != '/' || !m->ino)
		return;
	pf = feed_file(f, m, &k, &idx);
	if (!pf || pf->err)
		return;
	/* The mapping must hold the eval loop: its file offset maps to p_vaddr. */
	seg_off = pf->py.eval_lo - pf->py.text_vaddr + pf->py.text_offset;
	if (seg_off < m->pgoff || seg_off - m->pgoff >= m->end - m->start)
		return;
	feed_proc(f, m->pid, idx, m->start - m->pgoff + pf->py.text_offset - pf->py.text_vaddr);
}

/**
 * dw_pyfeed_fork() - a new process runs what its parent ran
 * @f:		the feed
 * @parent:	the creating process
 * @child:	the new one
 *
 * Context: user space.
 */
void dw_pyfeed_fork(struct dw_pyfeed *f, __u32 parent, __u32 child)
{
	long id = dw_htab_find(&f->procs_ht, proc_hash(parent), proc_eq, f, &parent);

	if (id >= 0 && parent != child)
		feed_proc(f, child, f->procs[id].file, f->procs[id].bias);
}

/**
 * dw_pyfeed_proc() - the interpreter process @pid runs
 * @f:		the feed
 * @pid:	the process
 * @py:		set to the interpreter (ELF addresses)
 * @types:	set to its type objects in @pid (load bias added)
 *
 * Context: user space.
 * Return: 0, or -ENOENT if @pid runs no recognised interpreter.
 */
int dw_pyfeed_proc(const struct dw_pyfeed *f, __u32 pid, const struct dw_cpython **py,
		   struct dw_pytypes *types)
{
	long id = dw_htab_find(&f->procs_ht, proc_hash(pid), proc_eq, f, &pid);
	const struct dw_pyproc *p;

	if (id < 0)
		return -ENOENT;
	p = &f->procs[id];
	*py = &f->files[p->file].py;
	types->code = (*py)->code_type ? (*py)->code_type + p->bias : 0;
	types->str = (*py)->str_type ? (*py)->str_type + p->bias : 0;
	types->bytes = (*py)->bytes_type ? (*py)->bytes_type + p->bias : 0;
	return 0;
}

/**
 * dw_pyfeed_free() - free what the feed remembers
 * @f:	the feed
 *
 * Context: user space.
 */
void dw_pyfeed_free(struct dw_pyfeed *f)
{
	free(f->files);
	free(f->procs);
	dw_htab_free(&f->files_ht);
	dw_htab_free(&f->procs_ht);
	f->files = NULL;
	f->procs = NULL;
	f->nr_files = f->cap_files = f->nr_procs = f->cap_procs = 0;
}
