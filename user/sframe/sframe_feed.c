// SPDX-License-Identifier: GPL-2.0
/*
 * Feeding the module SFrame tables while recording: for the files a
 * target maps that have no .sframe, from the cache or generated from
 * their .eh_frame (sframe_reg.c), each file once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sframe/needed.h"
#include "sframe/sframe_feed.h"
#include "sframe/sframe_reg.h"
#include "symbols/procfile.h"
#include "util/exec_path.h"

/* Account for one file's registration; stop trying on a module without the ioctl. */
static void feed_account(struct dw_sframe_feed *f, const struct dw_sframe_reg_file *r)
{
	f->files++;
	f->ns += r->gen_ns + r->load_ns + r->reg_ns;
	if (!r->err || r->err == -EEXIST)
		f->ok++;
	else
		f->failed++;
	if (r->source == DW_SFRAME_SRC_CACHE)
		f->cache++;
	else if (r->source == DW_SFRAME_SRC_GENERATED)
		f->gen++;
	if (r->err == -ENOTTY) {
		fprintf(stderr, "dunwind: %s\n", dw_sframe_reg_strerror(r->err));
		f->dev_fd = -1;
	}
}

/* First time we see file (@major:@minor, @ino)? Then remember it. */
static int feed_first_time(struct dw_sframe_feed *f, unsigned int major, unsigned int minor,
			   unsigned long long ino)
{
	unsigned long long dev = (unsigned long long)major << 32 | minor;
	unsigned int i;

	for (i = 0; i < f->nr_tried; i++)
		if (f->tried[i].ino == ino && f->tried[i].dev == dev)
			return 0;
	if (f->nr_tried == sizeof(f->tried) / sizeof(f->tried[0]))
		return 0;		/* that many libraries: stop trying new ones */
	f->tried[f->nr_tried].dev = dev;
	f->tried[f->nr_tried++].ino = ino;
	return 1;
}

/* Give the module a table for @path unless it has its own .sframe. */
static void feed_path(struct dw_sframe_feed *f, const char *path)
{
	static const struct dw_sframe_reg_opts ro = { .flags = DW_SFRAME_REG_SKIP_OWN };
	struct dw_sframe_reg_file r;

	if (dw_sframe_register_file(f->dev_fd, path, &ro, &r) == -ENOEXEC)
		return;			/* not ELF (a script): nothing to say */
	if (!r.err && r.source == DW_SFRAME_SRC_NONE)
		return;			/* has its own .sframe */
	feed_account(f, &r);
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
	char file[4200];

	if (f->dev_fd < 0 || !(m->prot & PROT_EXEC) || m->path[0] != '/' ||
	    !feed_first_time(f, m->dev_major, m->dev_minor, m->ino))
		return;
	if (dw_proc_file((int)m->pid, m->path, m->start, m->end,
			 m->build_id_size ? m->build_id : NULL, m->build_id_size, file,
			 sizeof(file)) == DW_PROC_FILE_NONE && (m->hdr.misc & DUNWIND_MMAP_DELETED))
		return;
	feed_path(f, file);
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
		if (stat(need.paths[i], &sb))
			continue;
		if (!i || feed_first_time(f, major(sb.st_dev), minor(sb.st_dev), sb.st_ino))
			feed_path(f, need.paths[i]);
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
 * have tables.  Libraries loaded later come from their MMAP records.
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
			feed_account(f, &res.files[i]);
	if (err && err != -ENOTTY)
		fprintf(stderr, "dunwind: SFrame tables for pid %d: %s\n", pid,
			dw_sframe_reg_strerror(err));
	dw_sframe_reg_pid_free(&res);
}
