/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One record, one callback: the readers of records (the recorder, the
 * replay after it, the stitcher, the process model, the user symbol
 * collector, the profile loader, perf.data export) say what they do with
 * each type in a struct dw_rec_ops; dw_rec_dispatch() checks the record
 * once (header, then contents with dunwind_rec_check()) and calls the one
 * callback its type has.  Input is hostile: nothing is called for a
 * record that is cut short, malformed, or of a type the reader takes
 * nothing of.  A reader that checked its own copy already (the recorder)
 * calls dw_rec_dispatch_checked().
 */
#ifndef DW_DISPATCH_H
#define DW_DISPATCH_H

#include <stddef.h>
#include <linux/dunwind.h>

/*
 * struct dw_rec_ops - what a reader does with each record type
 *
 * Every callback gets the record, checked and cast to its type, and the
 * @arg given to dw_rec_dispatch(); what it returns, dw_rec_dispatch()
 * returns.  A NULL callback of a known type: the reader ignores that
 * type (0).  @ksyms, @usyms and @pycode get the capture-only snapshot
 * records (DW_REC_KSYMS, DW_REC_USYMS, DW_REC_PYCODE) with a sound header, their contents
 * unchecked (their readers check them).  @unknown gets any other type
 * with a sound header; without it such a record is refused.
 */
struct dw_rec_ops {
	int (*sample)(const struct dunwind_rec_sample *s, void *arg);
	int (*user_stack)(const struct dunwind_rec_user_stack *u, void *arg);
	int (*sample_stack)(const struct dunwind_rec_sample_stack *ss, void *arg);
	int (*lost)(const struct dunwind_rec_lost *l, void *arg);
	int (*mmap)(const struct dunwind_rec_mmap *m, void *arg);
	int (*comm)(const struct dunwind_rec_comm *c, void *arg);
	int (*fork)(const struct dunwind_rec_task *t, void *arg);
	int (*exit)(const struct dunwind_rec_task *t, void *arg);
	int (*ksyms)(const struct dunwind_rec_header *rec, void *arg);
	int (*usyms)(const struct dunwind_rec_header *rec, void *arg);
	int (*pycode)(const struct dunwind_rec_header *rec, void *arg);
	int (*unknown)(const struct dunwind_rec_header *rec, void *arg);
};

int dw_rec_dispatch(const struct dw_rec_ops *ops, const void *buf, size_t len, void *arg);
int dw_rec_dispatch_checked(const struct dw_rec_ops *ops, const struct dunwind_rec_header *rec,
			    void *arg);
int dw_rec_skip(const struct dunwind_rec_header *rec, void *arg);

#endif
