/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feeding the module SFrame tables while recording: for the files a
 * target maps that have no .sframe, from the cache or generated from
 * their .eh_frame, each file once.
 */
#ifndef DW_SFRAME_FEED_H
#define DW_SFRAME_FEED_H

#include <linux/dunwind.h>

#include "util/htab.h"

/* A file that got no table: its walks use frame pointers there. */
struct dw_sframe_feed_miss {
	char *path;
	int err;			/* -errno, as dw_sframe_reg_strerror() says */
};

/*
 * A file whose table is made in a batch: dw_sframe_feed_system()'s second
 * pass (no table in the cache), the files of dw_sframe_feed_command().
 */
struct dw_sframe_feed_later {
	char *path, *name;		/* as the process sees it; as it names it (or NULL) */
	unsigned int major, minor;
	unsigned long long ino;
};

struct dw_sframe_feed {
	int dev_fd;			/* < 0: do not register */
	int barrier;			/* answer every file: registered, or none */
	struct dw_dso_cache *dsos;	/* the recording's files (dw_proc_file()), not owned */
	/* Files tried, by (device, inode), found through tried_ht. */
	struct { unsigned long long dev, ino; } *tried;
	size_t nr_tried, cap_tried;
	struct dw_htab tried_ht;
	int tried_nomem;		/* out of memory: files may be tried twice */
	unsigned int files, ok, cache, gen, failed;
	unsigned long long ns;
	/* The files that failed, for the summary (every one is counted). */
	struct dw_sframe_feed_miss *miss;
	size_t nr_miss, cap_miss;
	/* dw_sframe_feed_system(): what the pass after START saw. */
	unsigned int sys_procs, sys_files;
	unsigned long long sys_ms;
	/* The files whose tables are made in the next batch. */
	struct dw_sframe_feed_later *later;
	size_t nr_later, cap_later;
	unsigned int helpers;		/* threads beside the caller for a batch */
	/* Called between two files of dw_sframe_feed_system(), if set. */
	void (*tick)(void *arg);
	void *tick_arg;
	int stop;			/* set (by @tick): dw_sframe_feed_system() ends */
	int own_done;			/* dw_sframe_feed_own() was called */
};

void dw_sframe_feed_vdso(struct dw_sframe_feed *f);
void dw_sframe_feed_mapping(struct dw_sframe_feed *f, const struct dunwind_rec_mmap *m);
void dw_sframe_feed_command(struct dw_sframe_feed *f, char **cmd);
void dw_sframe_feed_pid(struct dw_sframe_feed *f, int pid);
void dw_sframe_feed_own(struct dw_sframe_feed *f);
void dw_sframe_feed_system(struct dw_sframe_feed *f);
void dw_sframe_feed_free(struct dw_sframe_feed *f);

#endif
