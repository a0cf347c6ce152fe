// SPDX-License-Identifier: GPL-2.0
/*
 * The one switch on a record's type (capture/dispatch.h): every reader of
 * records goes through it, so that the checks are made once, here.
 */
#include <errno.h>
#include <stdint.h>

#include "record.h"
#include "capture/dispatch.h"
#include "capture/ksnap.h"
#include "capture/pysnap.h"
#include "capture/usnap.h"

/* A callback of the ops, its record cast to the type it takes. */
#define CALL(fn, rec, arg)	((fn) ? (fn)((const void *)(rec), (arg)) : 0)

/* The capture-only types: a sound header is all this checks. */
static int call_other(const struct dw_rec_ops *ops, const struct dunwind_rec_header *rec,
		      void *arg)
{
	switch (rec->type) {
	case DW_REC_KSYMS:
		return CALL(ops->ksyms, rec, arg);
	case DW_REC_USYMS:
		return CALL(ops->usyms, rec, arg);
	case DW_REC_PYCODE:
		return CALL(ops->pycode, rec, arg);
	default:
		return ops->unknown ? ops->unknown(rec, arg) : -EINVAL;
	}
}

/**
 * dw_rec_dispatch_checked() - hand one record already checked to its callback
 * @ops:	what the reader does with each type
 * @rec:	the record, 8-byte aligned, that passed dunwind_rec_check() in
 *		the caller's own copy (the recorder's drain checks each record
 *		it copies out of the ring: not twice)
 * @arg:	passed to the callback
 *
 * Context: user space; as the callback's.
 * Return: the callback's result; 0 for a known type @ops ignores;
 * -EINVAL for an unknown type and no @unknown in @ops.
 */
int dw_rec_dispatch_checked(const struct dw_rec_ops *ops, const struct dunwind_rec_header *rec,
			    void *arg)
{
	switch (rec->type) {
	case DUNWIND_REC_SAMPLE:
		return CALL(ops->sample, rec, arg);
	case DUNWIND_REC_USER_STACK:
		return CALL(ops->user_stack, rec, arg);
	case DUNWIND_REC_SAMPLE_STACK:
		return CALL(ops->sample_stack, rec, arg);
	case DUNWIND_REC_LOST:
		return CALL(ops->lost, rec, arg);
	case DUNWIND_REC_MMAP:
		return CALL(ops->mmap, rec, arg);
	case DUNWIND_REC_COMM:
		return CALL(ops->comm, rec, arg);
	case DUNWIND_REC_FORK:
		return CALL(ops->fork, rec, arg);
	case DUNWIND_REC_EXIT:
		return CALL(ops->exit, rec, arg);
	default:
		return call_other(ops, rec, arg);
	}
}

/**
 * dw_rec_dispatch() - check one record and hand it to its callback
 * @ops:	what the reader does with each type
 * @buf:	the record, 8-byte aligned
 * @len:	bytes readable at @buf (at least the record's size)
 * @arg:	passed to the callback
 *
 * Context: user space; as the callback's.
 * Return: the callback's result; 0 for a known type @ops ignores;
 * -EBADMSG if @len holds no whole record (fewer bytes than a header, or
 * than its size: a reader of a stream waits for the rest); -EINVAL if
 * the record is misaligned, or its header or contents are malformed
 * (a size under 8 or not a multiple
 * of 8, a BUSY type, counts that disagree with the size), or the type is
 * unknown and @ops has no @unknown.  Nothing is called then.
 */
int dw_rec_dispatch(const struct dw_rec_ops *ops, const void *buf, size_t len, void *arg)
{
	const struct dunwind_rec_header *rec = buf;

	if (len < sizeof(*rec))
		return -EBADMSG;
	if ((uintptr_t)buf % 8 || rec->size < sizeof(*rec) || rec->size % 8)
		return -EINVAL;
	if (rec->size > len)
		return -EBADMSG;
	if (dunwind_rec_check(rec, rec->size))
		return -EINVAL;
	return dw_rec_dispatch_checked(ops, rec, arg);
}

/**
 * dw_rec_skip() - an @unknown callback for readers that pass over such types
 * @rec:	the record
 * @arg:	unused
 *
 * Context: any.
 * Return: 0.
 */
int dw_rec_skip(const struct dunwind_rec_header *rec, void *arg)
{
	(void)rec;
	(void)arg;
	return 0;
}
