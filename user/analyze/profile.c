// SPDX-License-Identifier: GPL-2.0
/*
 * Capture -> symbolised profile.
 *
 * Every record is read once: SAMPLE and USER_STACK go to the stitcher,
 * COMM and MMAP to the process model, the kernel symbol snapshot to its
 * reader.  Then each stitched sample becomes a list of locations, leaf
 * first: its kernel frames, its user frames, and a marker when the user
 * stack is incomplete.  Return addresses (every frame but the first of
 * each part) are looked up at addr - 1, inside the call instruction, so
 * that a call at the very end of a function is not taken for the next
 * function (and the source line is the call's).
 *
 * Kernel frames are named from the capture's snapshot (--kallsyms FILE
 * overrides it; a capture without one falls back to /proc/kallsyms only
 * when it was recorded during the running boot).  User frames are named
 * from the MMAP records and the mapped files (libdwfl, dso.c); for a
 * process without MMAP records, from the live process when it is the one
 * that was recorded; JIT code from /tmp/perf-PID.map.
 *
 * Strings, functions, locations and mappings are interned: equal ones
 * share an index, so the outputs aggregate by index (prof_intern.c,
 * locations.c; live processes in live.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/profile_priv.h"
#include "capture/ksnap.h"
#include "symbols/dso.h"
#include "symbols/symbolizer.h"
#include "util/log.h"

static const char *const stop_names[DW_PROF_STOP_NR] = {
	[DUNWIND_STOP_END] = "end",
	[DUNWIND_STOP_MAX_DEPTH] = "max-depth",
	[DUNWIND_STOP_FAULT] = "fault",
	[DUNWIND_STOP_BAD_FRAME] = "bad-frame",
	[DUNWIND_STOP_EXITED] = "exited",
	[DUNWIND_STOP_NO_MM] = "no-mm",
	[DUNWIND_STOP_NO_INFO] = "no-unwind-info",
	[DUNWIND_STOP_SESSION] = "session",
	[DW_PROF_STOP_MISSING] = "missing",
	[DW_PROF_STOP_LOST] = "lost",
	[DW_PROF_STOP_BLOCKED] = "blocked at the end",
};

/**
 * dw_prof_stop_name() - a stop reason's name
 * @stop:	DUNWIND_STOP_* or DW_PROF_STOP_*
 *
 * Context: any.
 * Return: a static string ("max-depth", "fault", ..., "?" if unknown).
 */
const char *dw_prof_stop_name(int stop)
{
	return stop >= 0 && stop < DW_PROF_STOP_NR ? stop_names[stop] : "?";
}

/* Count what the flags of kept sample @s say. */
static void count_flags(struct dw_prof *p, const struct dunwind_rec_sample *s)
{
	if (s->flags & DUNWIND_SAMPLE_OFF_CPU) {
		p->offcpu++;
		p->offcpu_period += s->period;
		p->offcpu_open += !!(s->flags & DUNWIND_SAMPLE_OFF_CPU_OPEN);
	}
	if (s->flags & DUNWIND_SAMPLE_KERNEL_TRUNC)
		p->kernel_trunc++;
}

static void on_sample(const struct dunwind_rec_sample *s, const struct dunwind_rec_user_stack *u,
		      void *arg)
{
	struct dw_prof *p = arg;
	struct prof_priv *pp = p->priv;
	const struct dw_prof_opts *o = pp->o;
	const char *comm = dw_procs_comm(pp->model, s->tid, s->time);
	int mmaps = dw_procs_has_maps(pp->model, s->pid);
	struct live_proc *lp = NULL;
	struct dw_prof_sample *ps;
	struct loc_key k = { 0 };
	unsigned int i;
	__u64 ut;

	if (pp->err)
		return;
	if (s->flags & DUNWIND_SAMPLE_OFF_CPU)
		p->offcpu_seen++;
	if ((o->pid && s->pid != (__u32)o->pid) || (o->tid && s->tid != (__u32)o->tid) ||
	    (o->cpu_time == DW_PROF_ON_CPU && (s->flags & DUNWIND_SAMPLE_OFF_CPU)) ||
	    (o->cpu_time == DW_PROF_OFF_CPU && !(s->flags & DUNWIND_SAMPLE_OFF_CPU))) {
		p->filtered++;
		return;
	}
	if (!comm || (u && !mmaps))
		lp = prof_live_get(p, (int)s->pid);
	if (!comm)
		comm = lp ? lp->comm : "[unknown]";
	if (o->comm && strcmp(o->comm, comm)) {
		p->filtered++;
		return;
	}
	if (PROF_GROW(p->samples, pp->cap_samples, p->nr_samples)) {
		pp->err = -ENOMEM;
		return;
	}
	ps = &p->samples[p->nr_samples++];
	*ps = (struct dw_prof_sample){ .pid = s->pid, .tid = s->tid, .cpu = s->cpu,
				       .time = s->time, .period = s->period, .flags = s->flags,
				       .comm = prof_intern(p, comm),
				       .first = (uint32_t)p->nr_stack };
	p->total_period += s->period;
	count_flags(p, s);
	if (s->flags & DUNWIND_SAMPLE_IN_WALK) {
		/* The profiler's work, not the program's: one frame for all of it. */
		p->in_walk++;
		k = (struct loc_key){ .kind = LOC_WALK };
		prof_push_loc(p, &k, 0, NULL);
	}
	for (i = 0; !(s->flags & DUNWIND_SAMPLE_IN_WALK) && i < s->nr_kernel; i++) {
		k = (struct loc_key){ .ip = s->ips[i], .kind = i ? LOC_KERNEL_RET : LOC_KERNEL };
		prof_push_loc(p, &k, s->time, NULL);
	}
	ps->stop = DUNWIND_STOP_END;
	if (u) {
		ut = u->time;
		for (i = 0; i < u->nr; i++)
			i = prof_push_user(p, u, i, dw_procs_image(pp->model, s->pid, ut),
					   lp ? lp->maps : NULL);
		ps->stop = u->stop;
		p->stacks_by_method[u->methods]++;
		p->nr_fp += u->nr_fp;
		p->nr_sframe += u->nr_sframe;
		p->user_frames += u->nr;
	} else if (s->cookie && !(s->flags & DUNWIND_SAMPLE_NO_USER)) {
		ps->stop = pp->lost_stacks ? DW_PROF_STOP_LOST : DW_PROF_STOP_MISSING;
		if (s->flags & DUNWIND_SAMPLE_OFF_CPU_OPEN)
			ps->stop = DW_PROF_STOP_BLOCKED;
	}
	if (ps->stop != DUNWIND_STOP_END) {
		k = (struct loc_key){ .ip = (uint64_t)ps->stop, .kind = LOC_STOP };
		prof_push_loc(p, &k, 0, NULL);
	}
	p->stops[ps->stop]++;
	ps->nr = (uint32_t)(p->nr_stack - ps->first);
}

/* Kernel symbols: --kallsyms, else the snapshot, else this boot's /proc/kallsyms. */
static void load_ksyms(struct dw_prof *p, struct dw_ksnap *snap, const char *path)
{
	struct prof_priv *pp = p->priv;
	const char *why;

	if (pp->o->kallsyms) {
		pp->ksyms = dw_kallsyms_load(pp->o->kallsyms);
		snprintf(p->ksyms_from, sizeof(p->ksyms_from), "%s%s%s", pp->o->kallsyms,
			 pp->ksyms ? "" : ": ", pp->ksyms ? "" : strerror(errno));
		return;
	}
	pp->ksyms = dw_ksnap_symbols(snap);
	why = pp->ksyms ? NULL : dw_ksnap_strerror(errno);
	if (pp->ksyms) {
		snprintf(p->ksyms_from, sizeof(p->ksyms_from), "the capture's snapshot");
		return;
	}
	if (dw_ksnap_present(snap) || pp->other_boot) {
		snprintf(p->ksyms_from, sizeof(p->ksyms_from), "none: %s%s", why,
			 pp->other_boot ? " and it was recorded during another boot: give "
			 "--kallsyms FILE from that boot" : "");
		return;
	}
	pp->ksyms = dw_kallsyms_load(NULL);
	if (pp->ksyms)
		snprintf(p->ksyms_from, sizeof(p->ksyms_from), "/proc/kallsyms (%s has no "
			 "snapshot; this is the boot that recorded it)", path);
	else
		snprintf(p->ksyms_from, sizeof(p->ksyms_from), "none: %s has no snapshot and "
			 "/proc/kallsyms %s", path,
			 errno == EPERM ? "hides addresses (run as root)" : strerror(errno));
}

/* The capture's user symbol snapshot: parsed, or NULL with the reason why not. */
static int load_usyms(struct dw_prof *p)
{
	struct prof_priv *pp = p->priv;
	int e = dw_usnap_load(pp->usnap);

	if (e == -ENOMEM)
		return e;
	if (e) {
		snprintf(p->usyms_from, sizeof(p->usyms_from), "the mapped files only (%s)",
			 dw_usnap_strerror(e));
		dw_usnap_free(pp->usnap);
		pp->usnap = NULL;
		return 0;
	}
	snprintf(p->usyms_from, sizeof(p->usyms_from), "the mapped files when they are the "
		 "recorded ones, else the capture's snapshot");
	return 0;
}

/* A profile with nothing in it yet, of the capture @hdr; NULL on ENOMEM. */
static struct dw_prof *prof_new(const struct dw_capture_header *hdr, const struct dw_prof_opts *o)
{
	struct dw_prof *p = calloc(1, sizeof(*p));
	struct prof_priv *pp = calloc(1, sizeof(*pp));

	if (!p || !pp) {
		free(p);
		free(pp);
		return NULL;
	}
	p->priv = pp;
	p->hdr = *hdr;
	pp->o = o;
	pp->dso_flags = (o->src || o->inline_frames) ? DW_DSO_SRC : 0;
	/* Replaced and missing files: one warning at the end (prof_warn_unnamed()). */
	pp->dsos = dw_dso_cache_new();
	if (pp->dsos)
		dw_dso_set_quiet(pp->dsos, 1);
	pp->model = dw_procs_new(pp->dsos);
	pp->usnap = dw_usnap_new();
	if (!pp->dsos || !pp->model || !pp->usnap ||
	    (o->debug_dirs && dw_dso_set_debug_dirs(pp->dsos, o->debug_dirs)) ||
	    (o->symfs && dw_dso_set_symfs(pp->dsos, o->symfs))) {
		dw_prof_free(p);
		return NULL;
	}
	return p;
}

/* What read_records() feeds: the profile, its stitcher and kernel snapshot. */
struct prof_in {
	struct dw_prof *p;
	struct dw_stitch *st;
	struct dw_ksnap *snap;
};

static int in_sample(const struct dunwind_rec_sample *s, void *arg)
{
	return dw_stitch_ops.sample(s, ((struct prof_in *)arg)->st);
}

static int in_user_stack(const struct dunwind_rec_user_stack *u, void *arg)
{
	return dw_stitch_ops.user_stack(u, ((struct prof_in *)arg)->st);
}

static int in_sample_stack(const struct dunwind_rec_sample_stack *ss, void *arg)
{
	return dw_stitch_ops.sample_stack(ss, ((struct prof_in *)arg)->st);
}

static int in_lost(const struct dunwind_rec_lost *l, void *arg)
{
	struct prof_in *in = arg;
	struct prof_priv *pp = in->p->priv;

	pp->lost_stacks += l->lost[DUNWIND_REC_USER_STACK];
	return dw_stitch_ops.lost(l, in->st);
}

/* A copy in @p->tasks, for the writers that want them (perf.data). */
static int keep_task(struct dw_prof *p, const struct dunwind_rec_header *rec)
{
	dw_buf_put(&p->tasks, rec, rec->size);
	return p->tasks.err;
}

static int in_mmap(const struct dunwind_rec_mmap *m, void *arg)
{
	struct dw_prof *p = ((struct prof_in *)arg)->p;
	struct prof_priv *pp = p->priv;
	int e = keep_task(p, &m->hdr);

	return !e && pp->o->user_symbols ? dw_procs_add_mmap(pp->model, m, NULL) : e;
}

static int in_comm(const struct dunwind_rec_comm *c, void *arg)
{
	struct dw_prof *p = ((struct prof_in *)arg)->p;
	struct prof_priv *pp = p->priv;
	int e = keep_task(p, &c->hdr);

	return e ? e : dw_procs_add_comm(pp->model, c);
}

static int in_task(const struct dunwind_rec_task *t, void *arg)
{
	return keep_task(((struct prof_in *)arg)->p, &t->hdr);
}

static int in_ksyms(const struct dunwind_rec_header *rec, void *arg)
{
	return dw_ksnap_add(((struct prof_in *)arg)->snap, rec);
}

static int in_usyms(const struct dunwind_rec_header *rec, void *arg)
{
	struct prof_priv *pp = ((struct prof_in *)arg)->p->priv;

	return dw_usnap_add(pp->usnap, rec);
}

static int in_pycode(const struct dunwind_rec_header *rec, void *arg)
{
	struct prof_priv *pp = ((struct prof_in *)arg)->p->priv;

	return dw_pysnap_add(&pp->pysnap, rec);
}

static int in_unknown(const struct dunwind_rec_header *rec, void *arg)
{
	(void)rec;
	((struct prof_in *)arg)->p->skipped++;
	return 0;
}

/*
 * Every record once: samples and user stacks to the stitcher, COMM and
 * MMAP to the process model (and with FORK and EXIT to @p->tasks), the
 * symbol snapshots to their readers.
 */
static const struct dw_rec_ops prof_ops = {
	.sample = in_sample,
	.user_stack = in_user_stack,
	.sample_stack = in_sample_stack,
	.lost = in_lost,
	.mmap = in_mmap,
	.comm = in_comm,
	.fork = in_task,
	.exit = in_task,
	.ksyms = in_ksyms,
	.usyms = in_usyms,
	.pycode = in_pycode,
	.unknown = in_unknown,
};

/* Every record of @r to prof_ops: 0, or -ENOMEM. */
static int read_records(struct dw_prof *p, struct dw_capture_reader *r, struct dw_stitch *st,
			struct dw_ksnap *snap)
{
	struct prof_in in = { .p = p, .st = st, .snap = snap };
	const struct dunwind_rec_header *rec;
	int e = 0;

	while (!e && (rec = dw_capture_next_any(r)))
		e = dw_rec_dispatch(&prof_ops, rec, rec->size, &in);
	return e ? -ENOMEM : 0;
}

/**
 * dw_prof_load() - read, stitch and symbolise a capture
 * @out:	set to the profile (free with dw_prof_free())
 * @path:	capture file
 * @o:		options
 *
 * Context: user space; reads the capture, the mapped files and their
 * debug info (maybe from debuginfod).
 * Return: 0; -ENOENT (no such capture), -EINVAL (malformed), -ENOMEM or
 * the capture's open error, each said through dw_warn() naming the capture.
 */
int dw_prof_load(struct dw_prof **out, const char *path, const struct dw_prof_opts *o)
{
	struct dw_capture_reader r;
	struct dw_ksnap *snap;
	struct dw_stitch *st;
	struct prof_priv *pp;
	struct dw_prof *p;
	int e;

	*out = NULL;
	e = dw_capture_open(&r, path);	/* says why it failed */
	if (e)
		return e;
	if (!o->read_before)
		dw_capture_warn_cut(&r);
	p = prof_new(&r.hdr, o);
	st = dw_stitch_new();
	snap = dw_ksnap_new();
	if (!p || !st || !snap || read_records(p, &r, st, snap))
		goto nomem;
	pp = p->priv;
	pp->other_boot = dw_capture_same_boot(&r.hdr) == 0;
	p->other_boot = pp->other_boot;
	load_ksyms(p, snap, path);
	if (load_usyms(p) || !(pp->syms = dw_symctx_new(prof_user_symbolizers, pp->usnap, NULL)))
		goto nomem;
	dw_stitch_finish(st, on_sample, p, &p->counts);
	if (pp->err)
		goto nomem;
	if (!o->quiet)
		prof_warn_unnamed(p);
	dw_stitch_free(st);
	dw_ksnap_free(snap);
	dw_capture_release(&r);
	*out = p;
	return 0;
nomem:
	dw_warn("%s: out of memory\n", path);
	dw_stitch_free(st);
	dw_ksnap_free(snap);
	dw_capture_release(&r);
	dw_prof_free(p);
	return -ENOMEM;
}

/**
 * dw_prof_frames() - the functions of a sample's stack, leaf first
 * @p:		profile
 * @s:		one of its samples
 * @inline_frames: expand inlined functions (else one function per location)
 * @funcs:	filled with function indices
 * @max:	room in @funcs
 *
 * Context: any.
 * Return: the number of functions stored (at most @max).
 */
size_t dw_prof_frames(const struct dw_prof *p, const struct dw_prof_sample *s,
		      int inline_frames, uint32_t *funcs, size_t max)
{
	size_t n = 0;
	uint32_t i, j;

	for (i = 0; i < s->nr && n < max; i++) {
		const struct dw_prof_loc *l = &p->locs[p->stack[s->first + i]];

		if (inline_frames)
			for (j = 0; j < l->nr_lines && n < max; j++)
				funcs[n++] = p->lines[l->first_line + j].func;
		else
			funcs[n++] = p->lines[l->first_line + l->nr_lines - 1].func;
	}
	return n;
}

/**
 * dw_prof_free() - free a profile and everything it resolved
 * @p:		profile or NULL
 *
 * Context: user space.  Also closes the cached ELF files (dso.c).
 */
void dw_prof_free(struct dw_prof *p)
{
	struct prof_priv *pp;

	if (!p)
		return;
	pp = p->priv;
	if (pp) {
		prof_intern_free(pp);
		prof_locations_free(pp);
		prof_live_free(pp);
		dw_procs_free(pp->model);
		dw_kallsyms_free(pp->ksyms);
		dw_usnap_free(pp->usnap);
		dw_pysnap_free(&pp->pysnap);
		dw_dso_cache_free(pp->dsos);
		free(pp);
	}
	free(p->samples);
	free(p->stack);
	free(p->locs);
	free(p->lines);
	free(p->funcs);
	free(p->mappings);
	free(p->tasks.p);
	free(p);
}
