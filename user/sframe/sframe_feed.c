// SPDX-License-Identifier: GPL-2.0
/*
 * Feeding the module SFrame tables while recording: for the files a
 * target maps that have no .sframe, from the cache or generated from
 * their .eh_frame (sframe_reg.c), each file once.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sframe/needed.h"
#include "sframe/sframe_batch.h"
#include "sframe/sframe_feed.h"
#include "sframe/sframe_reg.h"
#include "symbols/procfile.h"
#include "util/array.h"
#include "util/clock.h"
#include "util/exec_path.h"
#include "util/log.h"
#include "util/maps.h"
#include "util/num.h"

/* Remember a file that got no table (its name once; every one counted). */
static void feed_miss(struct dw_sframe_feed *f, const char *path, int err)
{
	struct dw_sframe_feed_miss *m;

	if (DW_ARRAY_RESERVE(f->miss, f->cap_miss, f->nr_miss + 1, 16))
		return;			/* counted in @failed all the same */
	m = &f->miss[f->nr_miss];
	m->path = strdup(path ? path : "?");
	if (!m->path)
		return;
	m->err = err;
	f->nr_miss++;
}

/* Account for one file's registration; stop trying on a module without the ioctl. */
static void feed_account(struct dw_sframe_feed *f, const struct dw_sframe_reg_file *r,
			 const char *name)
{
	f->files++;
	f->ns += r->gen_ns + r->load_ns + r->reg_ns;
	if (!r->err || r->err == -EEXIST) {
		f->ok++;
	} else {
		f->failed++;
		feed_miss(f, name ? name : r->path, r->err);
	}
	if (r->source == DW_SFRAME_SRC_CACHE)
		f->cache++;
	else if (r->source == DW_SFRAME_SRC_GENERATED)
		f->gen++;
	if (r->err == -ENOTTY) {
		dw_warn("%s\n", dw_sframe_reg_strerror(r->err));
		f->dev_fd = -1;
	}
}

struct feed_key {
	unsigned long long dev, ino;
};

static int feed_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_sframe_feed *f = ctx;
	const struct feed_key *k = key;

	return f->tried[id].dev == k->dev && f->tried[id].ino == k->ino;
}

/*
 * First time we see file (@major:@minor, @ino)? Then remember it.  Out of
 * memory, every file is new (tried again: never one left without a table).
 */
static int feed_first_time(struct dw_sframe_feed *f, unsigned int major, unsigned int minor,
			   unsigned long long ino)
{
	struct feed_key k = { (unsigned long long)major << 32 | minor, ino };
	uint64_t h = dw_hash_bytes(&k, sizeof(k), DW_HASH_INIT);

	if (!ino)
		return 1;
	if (dw_htab_find(&f->tried_ht, h, feed_eq, f, &k) >= 0)
		return 0;
	if (DW_ARRAY_RESERVE(f->tried, f->cap_tried, f->nr_tried + 1, 256) ||
	    dw_htab_insert(&f->tried_ht, h, (uint32_t)f->nr_tried)) {
		f->tried_nomem = 1;
		return 1;
	}
	f->tried[f->nr_tried].dev = k.dev;
	f->tried[f->nr_tried].ino = k.ino;
	f->nr_tried++;
	return 1;
}

/* A file as the module names it: its device and inode as MMAP records give them. */
struct feed_file {
	unsigned int major, minor;
	unsigned long long ino;
};

/*
 * The table barrier (DUNWIND_CFG_TABLE_BARRIER): say that no table will
 * come for @id, so that walks waiting for it go on at once.
 */
static void feed_none(struct dw_sframe_feed *f, const struct feed_file *id)
{
	struct dunwind_sframe_none n = {
		.size = sizeof(n), .ino = id->ino, .dev_major = id->major, .dev_minor = id->minor,
	};

	if (!f->barrier || f->dev_fd < 0 || !id->ino)
		return;
	if (ioctl(f->dev_fd, DUNWIND_IOC_SFRAME_NONE, &n)) {
		dw_warn("telling the module a file has no table: %s: walks in such files wait "
			"up to 1 s (load the module built with this dunwind, or use --no-barrier)\n",
			strerror(errno));
		f->barrier = 0;
	}
}

/*
 * What dw_sframe_register_file() said of a file (@err, @r; @name to the
 * user, @id to the module): counted, and if it got no table the module
 * told so.  Returns -EAGAIN when the cache had no table and the call
 * forbade generating one (nothing said then), else 0.
 */
static int feed_result(struct dw_sframe_feed *f, int err, const struct dw_sframe_reg_file *r,
		       const char *name, const struct feed_file *id)
{
	if (err == -EAGAIN && r->source == DW_SFRAME_SRC_NONE)
		return err;
	if (err == -ENOEXEC) {
		feed_none(f, id);	/* not ELF (a script): nothing to say */
		return 0;
	}
	if (!r->err && r->source == DW_SFRAME_SRC_NONE)
		return 0;		/* has its own .sframe */
	feed_account(f, r, name);
	if (r->err && r->err != -EEXIST)
		feed_none(f, id);
	return 0;
}

/* The options of every registration: files with their own .sframe left alone. */
static const struct dw_sframe_reg_opts feed_opts = { .flags = DW_SFRAME_REG_SKIP_OWN };

/*
 * Give the module a table for @path (@name to the user, @id to the
 * module) unless it has its own .sframe; if none, say so.  @flags:
 * DW_SFRAME_REG_CACHE_ONLY or 0.  As feed_result().
 */
static int feed_path(struct dw_sframe_feed *f, const char *path, const char *name,
		     const struct feed_file *id, unsigned int flags)
{
	const struct dw_sframe_reg_opts ro = { .flags = feed_opts.flags | flags };
	struct dw_sframe_reg_file r;
	int err = dw_sframe_register_file(f->dev_fd, path, &ro, &r);

	return feed_result(f, err, &r, name, id);
}

/* Keep @path for a batch (@f->later); out of memory, register it now. */
static void feed_defer(struct dw_sframe_feed *f, const char *path, const char *name,
		       const struct feed_file *id)
{
	struct dw_sframe_feed_later *l;

	if (!DW_ARRAY_RESERVE(f->later, f->cap_later, f->nr_later + 1, 32)) {
		l = &f->later[f->nr_later];
		l->path = strdup(path);
		l->name = name ? strdup(name) : NULL;
		l->major = id->major;
		l->minor = id->minor;
		l->ino = id->ino;
		if (l->path && (l->name || !name)) {
			f->nr_later++;
			return;
		}
		free(l->path);
		free(l->name);
	}
	feed_path(f, path, name, id, 0);
}

/* The feed and its batch, for the batch's callbacks. */
struct feed_batch {
	struct dw_sframe_feed *f;
	struct dw_sframe_batch_item *items;
	int halt;			/* the feed stops, or the module has no ioctl */
};

static void feed_batch_done(void *arg, struct dw_sframe_batch_item *it)
{
	struct feed_batch *fb = arg;
	const struct dw_sframe_feed_later *l = &fb->f->later[it - fb->items];
	const struct feed_file id = { l->major, l->minor, l->ino };

	feed_result(fb->f, it->err, &it->res, l->name, &id);
	fb->halt = fb->f->stop || fb->f->dev_fd < 0;
}

static void feed_batch_tick(void *arg)
{
	struct feed_batch *fb = arg;

	if (fb->f->tick)
		fb->f->tick(fb->f->tick_arg);
	fb->halt = fb->f->stop || fb->f->dev_fd < 0;
}

/*
 * The tables of every file in @f->later, on every CPU (sframe_batch.h),
 * with @f->tick between two files and while waiting; then @f->later is
 * emptied.  Out of memory, one file after another.
 */
static void feed_later_run(struct dw_sframe_feed *f)
{
	struct feed_batch fb = { .f = f };
	struct dw_sframe_batch b = {
		.dev_fd = f->dev_fd, .opts = &feed_opts, .n = f->nr_later,
		.helpers = f->helpers, .done = feed_batch_done, .tick = feed_batch_tick,
		.stop = &fb.halt, .arg = &fb,
	};
	size_t i;

	fb.halt = f->stop || f->dev_fd < 0;
	if (f->nr_later && !fb.halt)
		fb.items = calloc(f->nr_later, sizeof(*fb.items));
	if (fb.items) {
		for (i = 0; i < f->nr_later; i++)
			fb.items[i].path = f->later[i].path;
		b.items = fb.items;
		dw_sframe_batch_run(&b);
		free(fb.items);
	} else {
		for (i = 0; i < f->nr_later && !fb.halt; i++) {
			const struct dw_sframe_feed_later *l = &f->later[i];
			const struct feed_file id = { l->major, l->minor, l->ino };

			feed_path(f, l->path, l->name, &id, 0);
			feed_batch_tick(&fb);
		}
	}
	for (i = 0; i < f->nr_later; i++) {
		free(f->later[i].path);
		free(f->later[i].name);
	}
	f->nr_later = 0;
}

/**
 * dw_sframe_feed_vdso() - a table for the vDSO, made from our own
 * @f:	the feed
 *
 * Every process of this kernel maps the same vDSO image as the recorder;
 * the module applies the table to the [vdso] mappings with its build-id.
 * Walks never wait for it (it has no file): register it before START.
 *
 * Context: user space.
 */
void dw_sframe_feed_vdso(struct dw_sframe_feed *f)
{
	static const struct dw_sframe_reg_opts ro = { .flags = DW_SFRAME_REG_SKIP_OWN };
	struct dw_sframe_reg_file r;

	if (f->dev_fd < 0 || dw_sframe_register_vdso(f->dev_fd, &ro, &r) == -ENOENT)
		return;			/* no vDSO here */
	if (!r.err && r.source == DW_SFRAME_SRC_NONE)
		return;			/* has its own .sframe */
	feed_account(f, &r, NULL);
}

/**
 * dw_sframe_feed_mapping() - a table for a new executable file mapping
 * @f:	the feed
 * @m:	an MMAP record (checked)
 *
 * Made from the mapped file as the process sees it (its root, its mount
 * namespace), else from the mapped inode itself (deleted or replaced
 * since: never the new file's table for the old mapping).
 *
 * Context: user space.
 */
void dw_sframe_feed_mapping(struct dw_sframe_feed *f, const struct dunwind_rec_mmap *m)
{
	const struct feed_file id = { m->dev_major, m->dev_minor, m->ino };
	char file[4200];

	/* "//anon": code in anonymous memory (a JIT's) is no file. */
	if (f->dev_fd < 0 || !(m->prot & PROT_EXEC) || m->path[0] != '/' || m->path[1] == '/' ||
	    !feed_first_time(f, m->dev_major, m->dev_minor, m->ino))
		return;
	if (dw_proc_file(f->dsos, (int)m->pid, m->path, m->start, m->end,
			 m->build_id_size ? m->build_id : NULL, m->build_id_size, file,
			 sizeof(file)) == DW_PROC_FILE_NONE && (m->hdr.misc & DUNWIND_MMAP_DELETED)) {
		feed_none(f, &id);
		return;
	}
	feed_path(f, file, m->path, &id, 0);
}

/* Register @program (found like execvp() would) and the libraries it needs. */
static void feed_program(struct dw_sframe_feed *f, const char *name)
{
	struct dw_needed need = { 0 };
	char path[4096];
	struct stat sb;
	size_t i;

	if (dw_find_in_path(name, path, sizeof(path)) || stat(path, &sb) || !S_ISREG(sb.st_mode))
		return;
	if (!feed_first_time(f, major(sb.st_dev), minor(sb.st_dev), sb.st_ino))
		return;
	dw_needed_closure(path, &need);		/* what was found, even on error */
	for (i = 0; i < need.n; i++) {
		struct feed_file id;

		if (stat(need.paths[i], &sb))
			continue;
		id = (struct feed_file){ major(sb.st_dev), minor(sb.st_dev), sb.st_ino };
		if (!i || feed_first_time(f, id.major, id.minor, id.ino))
			feed_defer(f, need.paths[i], NULL, &id);
	}
	dw_needed_free(&need);
}

/**
 * dw_sframe_feed_command() - tables for the programs a command line names
 * @f:		the feed
 * @cmd:	NULL-terminated argv
 *
 * Nothing of the command is mapped before its exec: register, before it
 * starts, the programs its command line names (the command, and the words
 * of a shell script such as sh -c 'gzip < f | xz') with their
 * interpreter and DT_NEEDED closure, so that their first samples already
 * have tables; the files on every CPU (@f->helpers).  Libraries loaded
 * later come from their MMAP records.
 *
 * Context: user space.
 */
void dw_sframe_feed_command(struct dw_sframe_feed *f, char **cmd)
{
	static const char seps[] = " \t\n;|&()<>'\"`$={}!";
	char word[256];
	size_t i;

	if (f->dev_fd < 0)
		return;
	feed_program(f, cmd[0]);
	for (i = 1; cmd[i]; i++) {
		const char *p = cmd[i];

		while (*p) {
			size_t n = strcspn(p, seps);

			/* Program names only: no options, no words too long for one. */
			if (n && n < sizeof(word) && p[0] != '-') {
				memcpy(word, p, n);
				word[n] = '\0';
				feed_program(f, word);
			}
			p += n;
			p += strspn(p, seps);
		}
	}
	feed_later_run(f);
}

/**
 * dw_sframe_feed_pid() - tables for what a process maps already
 * @f:		the feed
 * @pid:	the process
 *
 * Context: user space.
 */
void dw_sframe_feed_pid(struct dw_sframe_feed *f, int pid)
{
	struct dw_sframe_reg_pid res;
	unsigned int i;
	int err;

	err = dw_sframe_register_pid(f->dev_fd, pid, NULL, &res);
	for (i = 0; i < res.nfiles; i++)
		if (res.files[i].source != DW_SFRAME_SRC_NONE || res.files[i].err)
			feed_account(f, &res.files[i], NULL);
	if (err && err != -ENOTTY)
		dw_warn("SFrame tables for pid %d: %s\n", pid, dw_sframe_reg_strerror(err));
	dw_sframe_reg_pid_free(&res);
}

/* Let the recorder drain its ring between two files (@f->tick). */
static void feed_tick(struct dw_sframe_feed *f)
{
	if (f->tick)
		f->tick(f->tick_arg);
}

/*
 * Every executable file mapping of process @pid: a table for each file not
 * tried yet, from the file as the process sees it, if the cache has one;
 * the others wait in @f->later.  Files it counts in @f->sys_files.
 */
static void feed_maps(struct dw_sframe_feed *f, int pid)
{
	const struct dw_maps_line *l;
	struct dw_proc_maps it;
	struct feed_file id;
	char file[4200];

	if (dw_proc_maps_open(&it, pid))
		return;			/* gone, or a kernel thread */
	f->sys_procs++;
	while ((l = dw_proc_maps_next(&it)) && f->dev_fd >= 0 && !f->stop) {
		if (l->perms[2] != 'x' || l->path[0] != '/' ||
		    !feed_first_time(f, l->dev_major, l->dev_minor, l->ino))
			continue;
		f->sys_files++;
		id = (struct feed_file){ l->dev_major, l->dev_minor, l->ino };
		if (dw_proc_file(f->dsos, pid, l->path, l->start, l->end, NULL, 0, file, sizeof(file)) ==
		    DW_PROC_FILE_NONE && l->deleted) {
			feed_none(f, &id);
			continue;
		}
		if (feed_path(f, file, l->path, &id, DW_SFRAME_REG_CACHE_ONLY) == -EAGAIN)
			feed_defer(f, file, l->path, &id);
		feed_tick(f);
	}
	dw_proc_maps_close(&it);
}

/**
 * dw_sframe_feed_own() - tables for the recorder's own files
 * @f:	the feed
 *
 * Those the cache holds now; the others join the next batch (that of
 * dw_sframe_feed_command(), or dw_sframe_feed_system()'s second pass).
 * For a system-wide recording with a command, right after START: the
 * recorder is sampled too, and its own walks never wait on the barrier.
 *
 * Context: user space.
 */
void dw_sframe_feed_own(struct dw_sframe_feed *f)
{
	if (f->dev_fd < 0 || f->own_done)
		return;
	f->own_done = 1;
	feed_maps(f, getpid());
}

/**
 * dw_sframe_feed_system() - tables for every file mapped executable by any process
 * @f:	the feed
 *
 * For a system-wide recording, right after START: each distinct file (by
 * device and inode) once, first every table the cache holds, then the
 * others generated (seconds each for a large library), so that walks
 * waiting on the table barrier get the quick verdicts first, the others
 * on every CPU (@f->helpers); in each pass the recorder's own files first
 * (it is sampled too, and its walks never wait).  @f->tick runs between two files
 * (the recorder drains its ring).  Files mapped later come from the MMAP
 * records.  Counts the processes and files seen and the time taken in
 * @f->sys_*.
 *
 * Context: user space.
 */
void dw_sframe_feed_system(struct dw_sframe_feed *f)
{
	unsigned long long t0 = dw_now_ns();
	struct dirent *d;
	DIR *proc;

	if (f->dev_fd < 0)
		return;
	proc = opendir("/proc");
	if (!proc) {
		dw_warn("/proc: %s: no SFrame tables for the processes running now (mount "
			"/proc)\n", strerror(errno));
		return;
	}
	dw_sframe_feed_own(f);
	while ((d = readdir(proc)) && f->dev_fd >= 0 && !f->stop) {
		unsigned long long pid;

		if (dw_parse_ull(d->d_name, 10, 1, 0x7fffffff, &pid) || pid == (unsigned)getpid())
			continue;		/* not a process, or ours (done) */
		feed_maps(f, (int)pid);
	}
	closedir(proc);
	/* A path under /proc/PID/root whose process exited since fails: said. */
	feed_later_run(f);
	f->sys_ms = (dw_now_ns() - t0) / 1000000;
}

/**
 * dw_sframe_feed_free() - free what the feed remembers
 * @f:	the feed
 *
 * Context: user space.
 */
void dw_sframe_feed_free(struct dw_sframe_feed *f)
{
	size_t i;

	for (i = 0; i < f->nr_miss; i++)
		free(f->miss[i].path);
	free(f->miss);
	for (i = 0; i < f->nr_later; i++) {
		free(f->later[i].path);
		free(f->later[i].name);
	}
	free(f->later);
	f->later = NULL;
	f->nr_later = f->cap_later = 0;
	free(f->tried);
	dw_htab_free(&f->tried_ht);
	f->miss = NULL;
	f->tried = NULL;
	f->nr_miss = f->cap_miss = f->nr_tried = f->cap_tried = 0;
}
