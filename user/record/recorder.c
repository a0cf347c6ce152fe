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

#include "capture/dispatch.h"
#include "capture/ksnap.h"
#include "ipcode.h"
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

static int rec_sample(const struct dunwind_rec_sample *s, void *arg)
{
	struct dw_recorder *st = arg;

	st->samples++;
	if (!st->first_sample_ns || s->time < st->first_sample_ns)
		st->first_sample_ns = s->time;
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
	return 0;
}

static int rec_user_stack(const struct dunwind_rec_user_stack *u, void *arg)
{
	struct dw_recorder *st = arg;

	st->user_stacks++;
	if (st->py.on && (u->methods & DUNWIND_UNWIND_INTERP))
		(void)dw_pynames_stack(&st->pynames, &st->py, u->pid, u->time, u->ips, u->nr);
	return 0;
}

/* One sample (user mode: a cookie, no kernel IPs) and its stack. */
static int rec_sample_stack(const struct dunwind_rec_sample_stack *ss, void *arg)
{
	static __u64 ips[DUNWIND_MAX_USER_FRAMES];
	struct dw_recorder *st = arg;

	st->samples++;
	st->samples_cookie++;
	st->user_stacks++;
	st->sample_stacks++;
	if (!st->py.on || !(ss->methods & DUNWIND_UNWIND_INTERP) || ss->nr > DUNWIND_MAX_USER_FRAMES ||
	    dunwind_ipcode_decode(ss->ips, ss->hdr.size - sizeof(*ss), ips, ss->nr) < 0)
		return 0;
	(void)dw_pynames_stack(&st->pynames, &st->py, ss->pid, ss->time, ips, ss->nr);
	return 0;
}

static int rec_lost(const struct dunwind_rec_lost *l, void *arg)
{
	struct dw_recorder *st = arg;
	int i;

	for (i = 0; i < DUNWIND_REC_MAX; i++)
		st->lost[i] += l->lost[i];
	return 0;
}

static int rec_mmap(const struct dunwind_rec_mmap *m, void *arg)
{
	struct dw_recorder *st = arg;

	if (st->usnap)
		dw_usnap_collect_ops.mmap(m, st->usnap);	/* -ENOMEM: said at the end */
	dw_sframe_feed_mapping(&st->feed, m);
	dw_pyfeed_mapping(&st->py, m);
	return 0;
}

static int rec_fork(const struct dunwind_rec_task *t, void *arg)
{
	if (t->pid == t->tid)		/* a new process, not a thread */
		dw_pyfeed_fork(&((struct dw_recorder *)arg)->py, t->ppid, t->pid);
	return 0;
}

static int rec_comm(const struct dunwind_rec_comm *c, void *arg)
{
	struct dw_recorder *st = arg;

	if (st->usnap)
		dw_usnap_collect_ops.comm(c, st->usnap);	/* -ENOMEM: said at the end */
	return 0;
}

static int rec_other(const struct dunwind_rec_header *rec, void *arg)
{
	(void)rec;
	((struct dw_recorder *)arg)->other++;
	return 0;
}

/* What a recording counts and collects of each record it writes. */
static const struct dw_rec_ops recorder_ops = {
	.sample = rec_sample,
	.user_stack = rec_user_stack,
	.sample_stack = rec_sample_stack,
	.lost = rec_lost,
	.mmap = rec_mmap,
	.comm = rec_comm,
	.fork = rec_fork,
	.ksyms = rec_other,
	.usyms = rec_other,
	.unknown = rec_other,
};

/**
 * dw_recorder_on_record() - one record from the ring (a dw_record_fn)
 * @rec:	the record, which passed dunwind_rec_check() (the drain checks each
 *		copy it takes out of the ring; it is not checked again)
 * @arg:	the struct dw_recorder
 *
 * Context: user space.
 * Return: 0, or the capture's write error (-errno), also in @r->write_err.
 */
int dw_recorder_on_record(const struct dunwind_rec_header *rec, void *arg)
{
	struct dw_recorder *st = arg;
	int err;

	if (rec->type < DUNWIND_REC_MAX)
		st->by_type[rec->type]++;
	err = dw_rec_dispatch_checked(&recorder_ops, rec, st);	/* the drain checked it */
	if (err)
		return err;
	err = dw_capture_write_checked(&st->w, rec);	/* the drain checked it */
	/* The Python code objects it named, after it (it sits in the batch). */
	if (!err && st->pynames.pending_len)
		err = dw_pynames_flush(&st->pynames, &st->w);
	if (err) {
		st->write_err = err;
		return err;
	}
	return 0;
}

/**
 * dw_recorder_write_ksyms() - store the kernel symbol snapshot
 * @st:		the recording
 * @dev_fd:	the session's /dev/dunwind, which names the capture's
 *		kernel IPs (else, or from an older module, /proc/kallsyms)
 * @output:	the capture's name, for messages
 *
 * Context: user space.
 * Return: 0, or -errno if the capture cannot be written (said); symbols
 * that cannot be read are said, and the capture goes on without them.
 */
int dw_recorder_write_ksyms(struct dw_recorder *st, int dev_fd, const char *output)
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
	/*
	 * Only the symbols this capture's kernel IPs need (all if unknown),
	 * asked of the module: /proc/kallsyms costs the kernel 0.77 s of a
	 * 7.2 guest whatever the capture holds.  A module without the ioctl
	 * writes nothing: the file then.
	 */
	err = ips && dev_fd >= 0 ? dw_ksnap_write_dev(&st->w, dev_fd, NULL, ips, st->kips.nr)
				 : -ENOTTY;
	st->ksyms_by_module = !err;
	if (err == -ENOTTY)
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
