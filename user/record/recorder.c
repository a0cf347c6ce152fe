// SPDX-License-Identifier: GPL-2.0
/*
 * A recording in progress: every record drained from the ring goes to the
 * capture file and is counted; MMAP records feed the SFrame tables, MMAP
 * and COMM records the user symbol snapshot (their files are read while
 * the processes map them).  The addresses the snapshots need are read
 * back from the capture after the recording (record/replay.c), not here
 * beside the profiled program.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "capture/ksnap.h"
#include "record/recorder.h"
#include "util/clock.h"
#include "util/log.h"

/**
 * dw_recorder_place() - where the drain copies a record (a dw_place_fn)
 * @size:	the record's size
 * @arg:	the struct dw_recorder
 *
 * Context: user space.  Straight into the capture's batch, so that
 * dw_recorder_on_record() appends it without another copy.
 * Return: the room; NULL (a failed write): the drain's own scratch.
 */
void *dw_recorder_place(__u32 size, void *arg)
{
	struct dw_recorder *st = arg;

	return dw_capture_reserve(&st->w, size);
}

/**
 * dw_recorder_on_record() - one record from the ring (a dw_record_fn)
 * @rec:	the record (checked)
 * @arg:	the struct dw_recorder
 *
 * Context: user space.
 * Return: 0, or the capture's write error (-errno), also in @r->write_err.
 */
int dw_recorder_on_record(const struct dunwind_rec_header *rec, void *arg)
{
	struct dw_recorder *st = arg;
	int err, i;

	if (rec->type < DUNWIND_REC_MAX)
		st->by_type[rec->type]++;
	if (st->usnap && (rec->type == DUNWIND_REC_MMAP || rec->type == DUNWIND_REC_COMM))
		dw_usnap_collect(st->usnap, rec);	/* -ENOMEM: said at the end */
	switch (rec->type) {
	case DUNWIND_REC_SAMPLE: {
		const struct dunwind_rec_sample *s = (const void *)rec;

		st->samples++;
		if (s->flags & DUNWIND_SAMPLE_OFF_CPU) {
			st->offcpu++;
			st->offcpu_ns += s->period;
			st->offcpu_open += !!(s->flags & DUNWIND_SAMPLE_OFF_CPU_OPEN);
		}
		st->samples_kthread += !!(s->flags & DUNWIND_SAMPLE_KERNEL_THREAD);
		st->samples_in_walk += !!(s->flags & DUNWIND_SAMPLE_IN_WALK);
		if (s->cookie)
			st->samples_cookie++;
		else
			st->samples_no_user++;
		break;
	}
	case DUNWIND_REC_USER_STACK:
		st->user_stacks++;
		break;
	case DUNWIND_REC_SAMPLE_STACK:
		/* One sample (user mode: a cookie, no kernel IPs) and its stack. */
		st->samples++;
		st->samples_cookie++;
		st->user_stacks++;
		st->sample_stacks++;
		break;
	case DUNWIND_REC_LOST: {
		const struct dunwind_rec_lost *l = (const void *)rec;

		for (i = 0; i < DUNWIND_REC_MAX; i++)
			st->lost[i] += l->lost[i];
		break;
	}
	case DUNWIND_REC_MMAP:
		dw_sframe_feed_mapping(&st->feed, (const void *)rec);
		break;
	case DUNWIND_REC_COMM:
	case DUNWIND_REC_FORK:
	case DUNWIND_REC_EXIT:
		break;
	default:
		st->other++;
	}
	err = dw_capture_write_checked(&st->w, rec);	/* the drain checked it */
	if (err) {
		st->write_err = err;
		return err;
	}
	return 0;
}

/**
 * dw_recorder_write_ksyms() - store the kernel symbol snapshot
 * @st:		the recording
 * @output:	the capture's name, for messages
 *
 * Context: user space.
 * Return: 0, or -errno if the capture cannot be written (said); symbols
 * that cannot be read are said, and the capture goes on without them.
 */
int dw_recorder_write_ksyms(struct dw_recorder *st, const char *output)
{
	__u64 before = st->w.hdr.record_bytes;
	long long t0 = dw_now_ms();
	static const __u64 none;
	const __u64 *ips = NULL;
	int err;

	if (!st->kips.failed) {
		dw_kips_compact(&st->kips);
		/* No kernel IP at all is no symbol, not the whole table (NULL). */
		ips = st->kips.nr ? st->kips.ips : &none;
	}
	/* Only the symbols this capture's kernel IPs need (all if unknown). */
	err = dw_ksnap_write_ips(&st->w, NULL, NULL, ips, st->kips.nr);

	if (err == -EPERM) {
		dw_warn("/proc/kallsyms hides kernel addresses: the capture has no kernel "
			"symbols (record as root)\n");
	} else if (err == -EIO || err == -ENOSPC || err == -EFBIG) {
		dw_warn("%s: %s\n", output, strerror(-err));
		st->write_err = err;
		return err;
	} else if (err) {
		dw_warn("kernel symbols: %s: the capture has none\n", strerror(-err));
	} else {
		st->ksyms_bytes = st->w.hdr.record_bytes - before;
		st->ksyms_ms = dw_now_ms() - t0;
	}
	return 0;
}

/**
 * dw_recorder_write_usyms() - store the user symbol snapshot
 * @st:		the recording, with a @usnap
 * @output:	the capture's name, for messages
 *
 * Context: user space.
 * Return: 0, or -errno if the capture cannot be written (said); symbols
 * that cannot be read are said, and the capture goes on without them.
 */
int dw_recorder_write_usyms(struct dw_recorder *st, const char *output)
{
	int err = dw_usnap_write(st->usnap, &st->w, &st->usyms);

	if (err == -EIO || err == -ENOSPC || err == -EFBIG) {
		dw_warn("%s: %s\n", output, strerror(-err));
		st->write_err = err;
		return err;
	}
	if (err)
		dw_warn("user symbols: %s: the capture has none (reports need the binaries "
			"then)\n", strerror(-err));
	else
		st->usyms_written = 1;
	return 0;
}
