/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Naming the Python frames of the stacks a recording drains, while their
 * processes live: each new (process, code object) is read once
 * (dw_pycode_read(): qualname, file, first line, line table) and becomes
 * a DW_REC_PYCODE record of the capture (capture/pysnap.h); a known one
 * is checked again (dw_pycode_ident()) when a stack shows it at a new
 * instruction or DW_PYNAMES_RECHECK_NS after its last check, and read
 * again if another object took its address.
 */
#ifndef DW_INTERP_PYNAMES_H
#define DW_INTERP_PYNAMES_H

#include <stddef.h>
#include <linux/types.h>

#include "capture/capture.h"
#include "interp/pycode.h"
#include "interp/pyfeed.h"
#include "util/htab.h"

/*
 * Stack time between two identity checks of a code object seen at one
 * instruction: bounds how long a freed object's name outlives it at its
 * address (an eval loop sampled at one handler shows one instruction for
 * hundreds of samples).
 */
#define DW_PYNAMES_RECHECK_NS	(10 * 1000 * 1000LL)

struct dw_pyname {
	__u64 code;
	__u32 pid;
	__s32 insn;			/* the last instruction seen */
	__u64 checked;			/* stack time of the last identity check */
	__u64 ident[DW_PYCODE_IDENT];
	int err;			/* the last read's, 0: named */
};

/*
 * struct dw_pynames - the code objects of a recording.
 * @mem:	reads process memory (NULL read: process_vm_readv of the pid).
 * @pending:	records made, written by dw_pynames_flush().
 * @named, @renamed, @failed, @unknown: code objects named, named again
 *		(another object at the address), unreadable, and frames of
 *		processes that run no recognised interpreter.
 */
struct dw_pynames {
	struct dw_pymem mem;
	struct dw_pyname *names;
	size_t nr, cap;
	struct dw_htab ht;
	unsigned char *pending;
	size_t pending_len, pending_cap;
	unsigned long named, renamed, failed, unknown;
};

int dw_pynames_stack(struct dw_pynames *n, const struct dw_pyfeed *f, __u32 pid, __u64 time,
		     const __u64 *ips, unsigned int nr);
int dw_pynames_flush(struct dw_pynames *n, struct dw_capture_writer *w);
void dw_pynames_free(struct dw_pynames *n);

#endif
