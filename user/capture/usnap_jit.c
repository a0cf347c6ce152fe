// SPDX-License-Identifier: GPL-2.0
/*
 * JIT code names for the user symbol snapshot.
 *
 * A runtime says what its anonymous code is in /tmp/perf-PID.map (perf
 * map) or a jit-PID.dump it maps (jitdump).  A short-lived process's files
 * may be gone, or rewritten by the next image, by the end of the
 * recording: they are read when the process execs or exits (an "epoch",
 * naming the samples taken before then) and, for what is left, at the
 * end.  A jitdump is found through the MMAP record of its file, as perf
 * finds it; its time stamps (CLOCK_MONOTONIC, as the recording's) name an
 * address after its occupant at the sample's time.
 *
 * The recording's mapping records win: a name whose code range lies over
 * a file the process had mapped at the sample's time is not used, and the
 * process's files are reported as stale (code moved, or the pid reused);
 * so is a perf map last written before the process started.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "capture/usnap_jit.h"
#include "symbols/dso.h"
#include "symbols/jitdump.h"
#include "symbols/perfmap.h"
#include "symbols/procs.h"
#include "symbols/symtab.h"
#include "util/array.h"
#include "util/log.h"

#define UJ_FOREVER	UINT64_MAX

/* The files of one process as read at one time: they name samples up to @until. */
struct uj_epoch {
	__u64 until;
	struct dw_perfmap *pm;
	struct dw_jitdump *jd;
};

struct uj_proc {
	__u32 pid;
	int final;			/* the end's epoch was read */
	int stale;			/* reported: nothing of it is used */
	__u64 born;			/* its fork or exec in the recording; 0: before */
	char *jitdump;			/* the jitdump it mapped, or NULL */
	struct uj_epoch *ep;
	size_t nr, cap;
};

struct dw_usnap_jit {
	char *dir;			/* where perf-PID.map files are */
	struct uj_proc *procs;
	size_t nr, cap;
	size_t last;			/* the process asked about last */
	struct dw_usnap_jit_stats st;
};

/**
 * dw_usnap_jit_new() - no process known yet
 * @dir:	where perf maps are read (NULL: /tmp)
 *
 * Context: user space.
 * Return: the names' state, or NULL (ENOMEM).
 */
struct dw_usnap_jit *dw_usnap_jit_new(const char *dir)
{
	struct dw_usnap_jit *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->dir = strdup(dir ? dir : "/tmp");
	if (!j->dir) {
		free(j);
		return NULL;
	}
	return j;
}

/* The process @pid, added if @add; NULL: unknown, or no memory. */
static struct uj_proc *uj_proc(struct dw_usnap_jit *j, __u32 pid, int add)
{
	size_t i;

	if (j->last < j->nr && j->procs[j->last].pid == pid)
		return &j->procs[j->last];
	for (i = j->nr; i-- > 0;)
		if (j->procs[i].pid == pid) {
			j->last = i;
			return &j->procs[i];
		}
	if (!add || DW_ARRAY_RESERVE(j->procs, j->cap, j->nr + 1, 64))
		return NULL;
	memset(&j->procs[j->nr], 0, sizeof(*j->procs));
	j->procs[j->nr].pid = pid;
	j->last = j->nr;
	return &j->procs[j->nr++];
}

/**
 * dw_usnap_jit_mmap() - a mapping record: a jitdump's file is noted
 * @j:		state
 * @m:		the record
 *
 * Context: user space.
 * Return: 0 or -ENOMEM.
 */
int dw_usnap_jit_mmap(struct dw_usnap_jit *j, const struct dunwind_rec_mmap *m)
{
	const char *base = strrchr(m->path, '/');
	unsigned int pid;
	struct uj_proc *p;
	int end = 0;

	base = base ? base + 1 : m->path;
	if (sscanf(base, "jit-%u.dump%n", &pid, &end) != 1 || !end || base[end] ||
	    m->path[0] != '/')
		return 0;
	p = uj_proc(j, m->pid, 1);
	if (!p)
		return -ENOMEM;
	free(p->jitdump);
	p->jitdump = strdup(m->path);
	return p->jitdump ? 0 : -ENOMEM;
}

/**
 * dw_usnap_jit_fork() - a new thread or process: a process's birth noted
 * @j:		state
 * @t:		the FORK record
 *
 * Context: user space.
 * Return: 0 or -ENOMEM.
 */
int dw_usnap_jit_fork(struct dw_usnap_jit *j, const struct dunwind_rec_task *t)
{
	struct uj_proc *p;

	if (t->pid != t->tid || t->pid == t->ppid)
		return 0;
	p = uj_proc(j, t->pid, 1);
	if (!p)
		return -ENOMEM;
	p->born = t->time;
	return 0;
}

/* CLOCK_REALTIME @sec as CLOCK_MONOTONIC ns (0: before the boot). */
static __u64 uj_mono(time_t sec)
{
	struct timespec real, mono;
	long long ns;

	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	ns = ((long long)sec - real.tv_sec + mono.tv_sec) * 1000000000LL - real.tv_nsec +
	     mono.tv_nsec;
	return ns > 0 ? (__u64)ns : 0;
}

/* @p's perf map, unless it is older than @p (a pid reused): NULL, reported. */
static struct dw_perfmap *uj_perfmap(struct dw_usnap_jit *j, struct uj_proc *p)
{
	struct dw_perfmap *pm;
	struct stat st;
	char path[4200];

	snprintf(path, sizeof(path), "%s/perf-%u.map", j->dir, p->pid);
	if (lstat(path, &st))
		return NULL;
	/* Seconds: the file's time is coarse; a second of slack. */
	if (p->born && uj_mono(st.st_mtime + 1) < p->born) {
		if (!p->stale)
			dw_warn("%s: last written before process %u started (left by an earlier process of that pid): not read\n",
				path, p->pid);
		p->stale = 1;
		j->st.stale++;
		return NULL;
	}
	pm = dw_perfmap_load(path);
	if (pm)
		j->st.maps++;
	return pm;
}

/**
 * dw_usnap_jit_read() - read a process's perf map and jitdump now
 * @j:		state
 * @pid:	the process
 * @time:	now, in the recording's time: they name the samples before it
 * @exec:	the process execs (its next image writes its own files)
 *
 * Called at a process's exec and exit (a short-lived process's files may
 * be gone or rewritten by the end).
 *
 * Context: user space, blocking I/O.
 * Return: 0 or -ENOMEM.
 */
int dw_usnap_jit_read(struct dw_usnap_jit *j, __u32 pid, __u64 time, int exec)
{
	struct uj_proc *p = uj_proc(j, pid, 1);
	struct uj_epoch e = { .until = time };

	if (!p)
		return -ENOMEM;
	if (!p->stale) {
		e.pm = uj_perfmap(j, p);
		if (p->jitdump && (e.jd = dw_jitdump_load(p->jitdump)))
			j->st.jitdumps++;
	}
	if (exec) {
		p->born = time;
		free(p->jitdump);
		p->jitdump = NULL;
		p->stale = 0;
	}
	if (!e.pm && !e.jd)
		return 0;
	if (DW_ARRAY_RESERVE(p->ep, p->cap, p->nr + 1, 4)) {
		dw_perfmap_free(e.pm);
		dw_jitdump_free(e.jd);
		return -ENOMEM;
	}
	p->ep[p->nr++] = e;
	return 0;
}

/* The epoch that names @p's samples at @time: the first read after it, else the end's. */
static const struct uj_epoch *uj_epoch(struct dw_usnap_jit *j, struct uj_proc *p, __u64 time)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (p->ep[i].until >= time)
			return &p->ep[i];
	if (!p->final) {
		p->final = 1;
		if (dw_usnap_jit_read(j, p->pid, UJ_FOREVER, 0))
			return NULL;
		if (p->nr && p->ep[p->nr - 1].until == UJ_FOREVER)
			return &p->ep[p->nr - 1];
	}
	return p->nr && p->ep[p->nr - 1].until == UJ_FOREVER ? &p->ep[p->nr - 1] : NULL;
}

/* Does [start, start + size) of @pid lie over a mapped file at @time? */
static const char *uj_over_file(const struct dw_procs *procs, __u32 pid, __u64 time,
				uint64_t start, uint64_t size)
{
	const uint64_t at[2] = { start, start + size - 1 };
	struct dw_mapres r;
	int i;

	for (i = 0; i < 2; i++) {
		memset(&r, 0, sizeof(r));
		dw_procs_resolve(procs, pid, time, at[i], 0, &r);
		if (r.mapped && r.dso && dw_dso_path_is_image(r.dso))
			return r.dso;
	}
	return NULL;
}

/**
 * dw_usnap_jit_lookup() - the JIT function of @pid holding @addr at @time
 * @j:		state
 * @procs:	the recording's process model (its mapping records)
 * @pid:	process
 * @time:	the sample's time
 * @addr:	the address
 * @start:	set to the function's start
 * @size:	set to its size
 *
 * The jitdump is asked first (its records are time-ordered), then the
 * perf map.  A name whose range the mapping records contradict is not
 * used, and the process's files are reported stale and left.
 *
 * Context: user space; may read the files (the end's epoch).
 * Return: the name (valid until dw_usnap_jit_free()), or NULL.
 */
const char *dw_usnap_jit_lookup(struct dw_usnap_jit *j, const struct dw_procs *procs, __u32 pid,
				__u64 time, uint64_t addr, uint64_t *start, uint64_t *size)
{
	struct uj_proc *p = uj_proc(j, pid, 1);
	const struct uj_epoch *e;
	const char *name = NULL, *file;
	uint64_t off = 0;

	if (!p || p->stale || !(e = uj_epoch(j, p, time)))
		return NULL;
	if (e->jd)
		name = dw_jitdump_lookup(e->jd, addr, time, start, size);
	if (!name && e->pm && (name = dw_perfmap_lookup(e->pm, addr, &off, size)))
		*start = addr - off;
	if (!name)
		return NULL;
	file = uj_over_file(procs, pid, time, *start, *size);
	if (!file)
		return name;
	dw_warn("process %u's JIT names are stale: %s at %#llx (%llu bytes) lies over %s, which the recording has mapped there: they are not used\n",
		pid, name, (unsigned long long)*start, (unsigned long long)*size, file);
	p->stale = 1;
	j->st.stale++;
	return NULL;
}

/**
 * dw_usnap_jit_stats() - what was read and refused
 * @j:		state
 * @st:		filled
 *
 * Context: user space.
 */
void dw_usnap_jit_stats(const struct dw_usnap_jit *j, struct dw_usnap_jit_stats *st)
{
	*st = j->st;
}

/**
 * dw_usnap_jit_free() - free the names' state
 * @j:		state or NULL
 *
 * Context: user space.
 */
void dw_usnap_jit_free(struct dw_usnap_jit *j)
{
	size_t i, k;

	if (!j)
		return;
	for (i = 0; i < j->nr; i++) {
		for (k = 0; k < j->procs[i].nr; k++) {
			dw_perfmap_free(j->procs[i].ep[k].pm);
			dw_jitdump_free(j->procs[i].ep[k].jd);
		}
		free(j->procs[i].ep);
		free(j->procs[i].jitdump);
	}
	free(j->procs);
	free(j->dir);
	free(j);
}
