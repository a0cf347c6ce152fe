/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feeding the module SFrame tables while recording: for the files a
 * target maps that have no .sframe, from the cache or generated from
 * their .eh_frame, each file once.
 */
#ifndef DW_SFRAME_FEED_H
#define DW_SFRAME_FEED_H

#include <linux/dunwind.h>

struct dw_sframe_feed {
	int dev_fd;			/* < 0: do not register */
	struct { unsigned long long dev, ino; } tried[256];
	unsigned int nr_tried;
	unsigned int files, ok, cache, gen, failed;
	unsigned long long ns;
};

void dw_sframe_feed_mapping(struct dw_sframe_feed *f, const struct dunwind_rec_mmap *m);
void dw_sframe_feed_command(struct dw_sframe_feed *f, char **cmd);
void dw_sframe_feed_pid(struct dw_sframe_feed *f, int pid);

#endif
