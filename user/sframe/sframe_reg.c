// SPDX-License-Identifier: GPL-2.0
/*
 * Registering generated SFrame tables with the module: each file's table
 * from the cache (sframe_cache.c), else generated (sframe_gen.c) and
 * cached; see sframe_reg.h, Documentation/sframe-gen.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/dunwind.h>
#include "elfread.h"
#include "sframe.h"
#include "sframe/sframe_gen.h"
#include "sframe/sframe_cache.h"
#include "sframe/sframe_reg.h"
#include "util/array.h"
#include "util/clock.h"
#include "util/maps.h"
#include "util/vdso.h"


#define REG_MAX_FILES		4096

static int reg_pread(void *ctx, __u64 off, void *dst, __u32 len)
{
	ssize_t n = pread(*(int *)ctx, dst, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

/* Build-id and PT_GNU_SFRAME, read by the module's own reader (lib/elfread.c). */
static int reg_read_elf(int fd, struct dw_sframe_elf_id *re)
{
	struct dunwind_elf_src src = { .read = reg_pread, .ctx = &fd };
	struct dunwind_elf_info info;
	int err;

	memset(re, 0, sizeof(*re));
	err = dunwind_elf_parse(&src, 0, &info);
	if (err)
		return err;
	memcpy(re->build_id, info.build_id, info.build_id_size);
	re->build_id_size = info.build_id_size;
	re->has_sframe = info.sframe_size != 0;
	return 0;
}

/*
 * Get the table for @fd: from the cache, else (unless
 * DW_SFRAME_REG_CACHE_ONLY: -EAGAIN) generate and cache it.
 */
static int reg_get_table(int fd, const struct dw_sframe_reg_opts *o, const struct dw_sframe_elf_id *re,
			 struct dw_sframe_tab *t, struct dw_sframe_reg_file *res)
{
	unsigned int version = o->version ? o->version : DUNWIND_SFRAME_V3;
	struct dw_sframe_gen_opts go = { .version = version };
	struct dw_sframe_gen_result gr;
	char path[4200];
	int cache = !(o->flags & DW_SFRAME_REG_NO_CACHE), err;
	__u64 t0;

	memset(t, 0, sizeof(*t));
	if (cache) {
		err = dw_sframe_cache_path(o, re, path, sizeof(path));
		if (err) {
			res->cache_err = err;
			cache = 0;
		}
	}
	if (cache) {
		t0 = dw_now_ns();
		err = dw_sframe_cache_load(path, re, version, t);
		res->load_ns = dw_now_ns() - t0;
		if (!err) {
			res->source = DW_SFRAME_SRC_CACHE;
			return 0;
		}
		if (err != -ENOENT)
			res->cache_err = err;
	}
	if (o->flags & DW_SFRAME_REG_CACHE_ONLY)
		return -EAGAIN;
	/* The generator leaves it out of an AArch64 file's table (no %rbx). */
	if (dw_sframe_reg_ext(version, DUNWIND_SFRAME_ABI_AMD64_LE) & DUNWIND_SFRAME_EXT_RBX)
		go.flags |= DW_SFRAME_GEN_RBX;
	err = dw_sframe_gen_fd(fd, &go, &gr);
	res->gen_ns = gr.stats.gen_ns;
	if (err)
		return err;
	t->data = gr.table;
	t->size = gr.table_size;
	t->sec_vaddr = gr.sec_vaddr;
	t->covered_bytes = gr.stats.covered_bytes;
	t->exec_bytes = gr.stats.exec_bytes;
	res->source = DW_SFRAME_SRC_GENERATED;
	if (cache) {
		err = dw_sframe_cache_store(o, path, re, version, t);
		if (err)
			res->cache_err = err;
	}
	return 0;
}

/*
 * Register the open file @fd; @skip_sframe: leave files with PT_GNU_SFRAME
 * alone; @vdso: @fd holds our vDSO's image (DUNWIND_REG_VDSO).
 */
static int reg_fd(int dev_fd, int fd, const struct dw_sframe_reg_opts *o, int skip_sframe,
		  int vdso, struct dw_sframe_reg_file *res)
{
	struct dunwind_sframe_reg reg;
	struct dw_sframe_tab t;
	struct dw_sframe_elf_id re;
	__u64 t0;
	int err;

	err = reg_read_elf(fd, &re);
	if (err)
		return err;
	memcpy(res->build_id, re.build_id, sizeof(re.build_id));
	res->build_id_size = re.build_id_size;
	if (skip_sframe && re.has_sframe) {
		res->skipped = 1;
		return 0;
	}
	/* The module keys and checks tables by build-id. */
	if (!re.build_id_size)
		return -ENODATA;
	err = reg_get_table(fd, o, &re, &t, res);
	if (err)
		return err;
	res->table_size = t.size;
	res->covered_bytes = t.covered_bytes;
	res->exec_bytes = t.exec_bytes;
	if (dev_fd >= 0) {
		memset(&reg, 0, sizeof(reg));
		reg.size = sizeof(reg);
		reg.flags = (o->flags & DW_SFRAME_REG_PIN) ? DUNWIND_REG_PIN : 0;
		if (dw_sframe_reg_ext(o->version ? o->version : DUNWIND_SFRAME_V3,
				      t.size > 4 ? t.data[4] : 0) & DUNWIND_SFRAME_EXT_RBX)
			reg.flags |= DUNWIND_REG_RBX;
		reg.flags |= vdso ? DUNWIND_REG_VDSO : 0;
		reg.fd = vdso ? -1 : fd;
		reg.build_id_size = re.build_id_size;
		memcpy(reg.build_id, re.build_id, re.build_id_size);
		reg.table = (__u64)(unsigned long)t.data;
		reg.table_size = t.size;
		reg.sec_vaddr = t.sec_vaddr;
		t0 = dw_now_ns();
		err = ioctl(dev_fd, DUNWIND_IOC_SFRAME_REGISTER, &reg) ? -errno : 0;
		res->reg_ns = dw_now_ns() - t0;
	}
	free(t.data);
	return err;
}

static int reg_check_opts(const struct dw_sframe_reg_opts *o)
{
	if (o->flags & ~DW_SFRAME_REG_ALL)
		return -EINVAL;
	if (o->version && o->version != DUNWIND_SFRAME_V2 && o->version != DUNWIND_SFRAME_V3)
		return -EINVAL;
	return 0;
}

/* dw_sframe_register_file() of @path, or with @vdso of our own vDSO's image. */
static int reg_one(int dev_fd, const char *path, int vdso, const struct dw_sframe_reg_opts *o,
		   struct dw_sframe_reg_file *res)
{
	static const struct dw_sframe_reg_opts def;
	struct dw_sframe_reg_file tmp;
	int fd, err;

	if (!res)
		res = &tmp;
	memset(res, 0, sizeof(*res));
	res->path = (char *)path;
	if (!o)
		o = &def;
	err = reg_check_opts(o);
	if (!err) {
		fd = vdso ? dw_vdso_fd() : open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = vdso ? fd : -errno;
		} else {
			err = reg_fd(dev_fd, fd, o, !!(o->flags & DW_SFRAME_REG_SKIP_OWN), vdso,
				     res);
			if (!vdso)
				close(fd);	/* the vDSO's stays open for the process */
		}
	}
	res->err = err;
	return err;
}

/**
 * dw_sframe_register_file() - generate (or load from the cache) and register
 * the SFrame table of one ELF file.
 * @dev_fd:	a /dev/dunwind session; < 0: only prepare the table (generate
 *		and cache), no ioctl.
 * @path:	the ELF file.
 * @o:		options; NULL for defaults.
 * @res:	what happened (may be NULL); zeroed first, @res->path = @path.
 *
 * Context: user space; needs CAP_PERFMON (or CAP_SYS_ADMIN) for the ioctl.  Cache problems
 * never fail the call (see @res->cache_err).
 * Return: 0; -EINVAL (bad options); -errno from open(); -ENOEXEC (not an
 * x86-64 ELF); -ENODATA (no GNU build-id, or no CFI); -ENOMEM; -EAGAIN
 * (DW_SFRAME_REG_CACHE_ONLY and not in the cache: @res->source NONE); or the
 * ioctl's error: -ENOTTY (module without DUNWIND_IOC_SFRAME_REGISTER),
 * -EINVAL, -EEXIST (already registered by this session), -ESTALE, -ENOSPC,
 * -EBUSY, -EPERM... dw_sframe_reg_strerror() says what each means.
 */
int dw_sframe_register_file(int dev_fd, const char *path, const struct dw_sframe_reg_opts *o,
			    struct dw_sframe_reg_file *res)
{
	return reg_one(dev_fd, path, 0, o, res);
}

/**
 * dw_sframe_register_vdso() - dw_sframe_register_file() for the vDSO
 * @dev_fd, @o, @res:	as for dw_sframe_register_file(); @res->path is
 *			"[vdso]".
 *
 * The table is made from this process's own vDSO image (util/vdso.h), the
 * one the kernel maps into every process, and registered with
 * DUNWIND_REG_VDSO; a vDSO with its own .sframe is left alone with
 * DW_SFRAME_REG_SKIP_OWN.
 * Context: user space.
 * Return: as dw_sframe_register_file(); -ENOENT: no vDSO here.
 */
int dw_sframe_register_vdso(int dev_fd, const struct dw_sframe_reg_opts *o,
			    struct dw_sframe_reg_file *res)
{
	return reg_one(dev_fd, DW_VDSO_NAME, 1, o, res);
}

/*
 * Open the file behind a mapping, checking it is the mapped one: as the
 * process sees it (/proc/PID/root: containers, other mount namespaces),
 * else as we do, else the mapped inode itself (map_files: deleted or
 * replaced since).
 */
static int reg_open_mapped(int pid, const struct dw_maps_line *l, const char *path)
{
	char alt[4200];
	struct stat st;
	int fd, i;

	for (i = 0; i < 2; i++) {
		if (i == 0)
			snprintf(alt, sizeof(alt), "/proc/%d/root%s", pid, path);
		fd = open(i ? path : alt, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && st.st_ino == l->ino && major(st.st_dev) == l->dev_major &&
		    minor(st.st_dev) == l->dev_minor)
			return fd;
		close(fd);
	}
	snprintf(alt, sizeof(alt), "/proc/%d/map_files/%llx-%llx", pid, l->start, l->end);
	fd = open(alt, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

struct reg_seen {
	unsigned int maj, min;
	unsigned long long ino;
};

/* Is the file of @l in @seen (@n of them)? */
static int reg_seen_before(const struct reg_seen *seen, size_t n, const struct dw_maps_line *l)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (seen[i].ino == l->ino && seen[i].maj == l->dev_major &&
		    seen[i].min == l->dev_minor)
			return 1;
	return 0;
}

/* Count @f's outcome into @res. */
static void reg_pid_count(struct dw_sframe_reg_pid *res, const struct dw_sframe_reg_file *f)
{
	res->gen_ns += f->gen_ns;
	res->load_ns += f->load_ns;
	res->reg_ns += f->reg_ns;
	if (f->source == DW_SFRAME_SRC_CACHE)
		res->from_cache++;
	else if (f->source == DW_SFRAME_SRC_GENERATED)
		res->generated++;
	if (f->skipped)
		res->skipped++;
	else if (!f->err)
		res->registered++;
	else if (f->err == -EEXIST)
		res->already++;
	else
		res->failed++;
}

/* Register the file @l maps as @f (its outcome in @f); 0 or -ENOMEM. */
static int reg_pid_file(int dev_fd, int pid, const struct dw_sframe_reg_opts *o,
			const struct dw_maps_line *l, struct dw_sframe_reg_file *f)
{
	int fd;

	memset(f, 0, sizeof(*f));
	f->path = strdup(l->path);
	if (!f->path)
		return -ENOMEM;
	fd = reg_open_mapped(pid, l, f->path);
	if (fd < 0) {
		f->err = fd;
	} else {
		f->err = reg_fd(dev_fd, fd, o, 1, 0, f);
		close(fd);
	}
	return 0;
}

/**
 * dw_sframe_register_pid() - register every file-backed executable mapping
 * of a process that has no PT_GNU_SFRAME of its own (each file once).
 * @dev_fd:	a /dev/dunwind session; < 0: only prepare the tables.
 * @pid:	the process.
 * @o:		options; NULL for defaults.
 * @res:	per-file results and totals; free with dw_sframe_reg_pid_free().
 *
 * Context: user space; reads /proc/@pid/maps (and map_files for deleted
 * files).  Per-file errors are reported in @res->files, not returned.
 * Return: 0; -EINVAL (bad options); -ESRCH or -errno if the maps cannot be
 * read; -ENOTTY as soon as the module rejects the ioctl as unknown (every
 * file would fail the same way); -ENOMEM.
 */
int dw_sframe_register_pid(int dev_fd, int pid, const struct dw_sframe_reg_opts *o,
			   struct dw_sframe_reg_pid *res)
{
	static const struct dw_sframe_reg_opts def;
	size_t nseen = 0, seen_cap = 0, files_cap = 0;
	struct reg_seen *seen = NULL;
	struct dw_sframe_reg_file *f;
	const struct dw_maps_line *l;
	struct dw_proc_maps maps;
	__u64 t0 = dw_now_ns();
	int err = 0;

	memset(res, 0, sizeof(*res));
	if (!o)
		o = &def;
	err = reg_check_opts(o);
	if (err)
		return err;
	err = dw_proc_maps_open(&maps, pid);
	if (err)
		return err == -ENOENT ? -ESRCH : err;
	while ((l = dw_proc_maps_next(&maps))) {
		if (!strchr(l->perms, 'x') || !l->ino || l->path[0] != '/' ||
		    reg_seen_before(seen, nseen, l))
			continue;
		if (nseen == REG_MAX_FILES)
			break;
		if (DW_ARRAY_RESERVE(seen, seen_cap, nseen + 1, 64) ||
		    DW_ARRAY_RESERVE(res->files, files_cap, res->nfiles + 1, 64)) {
			err = -ENOMEM;
			break;
		}
		seen[nseen++] = (struct reg_seen){ l->dev_major, l->dev_minor, l->ino };
		f = &res->files[res->nfiles];
		err = reg_pid_file(dev_fd, pid, o, l, f);
		if (err)
			break;
		res->nfiles++;
		reg_pid_count(res, f);
		if (f->err == -ENOTTY) {
			err = -ENOTTY;
			break;
		}
	}
	free(seen);
	dw_proc_maps_close(&maps);
	res->total_ns = dw_now_ns() - t0;
	return err;
}

/**
 * dw_sframe_reg_pid_free() - free what dw_sframe_register_pid() allocated.
 * @res:	its result (also after an error).
 *
 * Context: user space.
 */
void dw_sframe_reg_pid_free(struct dw_sframe_reg_pid *res)
{
	unsigned int i;

	for (i = 0; i < res->nfiles; i++)
		free(res->files[i].path);
	free(res->files);
	res->files = NULL;
	res->nfiles = 0;
}

/**
 * dw_sframe_reg_strerror() - what a registration error means, and what to do.
 * @err:	a negative errno from this file's functions.
 *
 * Context: any.
 * Return: a static string.
 */
const char *dw_sframe_reg_strerror(int err)
{
	switch (-err) {
	case 0:
		return "registered";
	case ENOTTY:
		return "the loaded dunwind module does not know DUNWIND_IOC_SFRAME_REGISTER "
		       "(too old): load a newer dunwind.ko, or record with frame pointers only";
	case EINVAL:
		return "the module rejected the table or the request (malformed table, or a "
		       "module with an older struct dunwind_sframe_reg): rebuild dunwind and "
		       "dunwind.ko from the same tree";
	case EPERM:
		return "registering tables needs CAP_PERFMON: run as root";
	case EEXIST:
		return "already registered by this session";
	case ESTALE:
		return "the file's build-id changed while registering: retry";
	case EBUSY:
		return "another session registered a different build of this file";
	case ENOSPC:
		return "the module's table memory cap is full: raise sframe_cap_mb";
	case ENODATA:
		return "no GNU build-id or no CFI in the file: nothing to register "
		       "(the module needs a build-id to match tables to files)";
	case ENOEXEC:
		return "not an x86-64 ELF executable or shared object";
	case EFBIG:
		return "its executable segments claim more than 1 GiB (a corrupt or hostile "
		       "file): no table generated for it";
	case EAGAIN:
		return "not in the table cache (asked for a cached table only)";
	case ETIME:
		return "generating its table took longer than the 20 s bound (a corrupt or "
		       "hostile file): no table for it";
	default:
		return strerror(-err);
	}
}
