/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel IPs a recording saw, for a snapshot of just the kernel
 * symbols they need.
 */
#ifndef DW_KIPS_H
#define DW_KIPS_H

#include <stddef.h>
#include <linux/dunwind.h>

struct dw_kips {
	__u64 *ips;
	size_t nr, cap;
	int failed;		/* out of memory: store every symbol */
};

void dw_kips_add(struct dw_kips *k, const struct dunwind_rec_sample *s);
void dw_kips_compact(struct dw_kips *k);
void dw_kips_free(struct dw_kips *k);

#endif
