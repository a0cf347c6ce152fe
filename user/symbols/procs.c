// SPDX-License-Identifier: GPL-2.0
/*
 * Processes of a capture, rebuilt from its COMM and MMAP records.
 *
 * Names: every COMM record is kept; a query takes the thread's latest
 * name at or before the sample (or its first, for samples before it).
 *
 * Mappings: an exec (COMM with DUNWIND_COMM_EXEC) starts a new image of
 * the process; MMAP records go into the process's latest image, the
 * latest record for a range winning (the same mapping reported again keeps
 * the file read for it first: symtab.c).  A stack is symbolised with the
 * image that was current at its time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "symbols/procs.h"
#include "symbols/symtab.h"
#include "util/array.h"
#include "util/htab.h"

struct comm_entry {
	__u32 tid;
	__u64 time;
	char comm[16];
};

struct image {
	struct image *older;		/* the image before, of the same process */
	__u32 pid;
	__u64 since;			/* exec time; 0 for the first image */
	struct dw_maps *maps;
};

struct dw_procs {
	struct comm_entry *comms;
	size_t nr_comms, cap_comms;
	int comms_sorted;
	/*
	 * The newest image of each process (older ones chained to it),
	 * found by pid: a capture of a machine holds thousands (a shell
	 * loop's), and each address of a stack asks for its process's.
	 */
	struct proc_newest {
		__u32 pid;
		struct image *im;	/* NULL: none could be made */
	} *newest;
	size_t nr_newest, cap_newest;
	struct dw_htab by_pid;		/* pid -> index into @newest */
	struct dw_dso_cache *dsos;	/* where the mapped files are read */
};

static uint64_t pid_hash(__u32 pid)
{
	return dw_hash_bytes(&pid, sizeof(pid), DW_HASH_INIT);
}

static int pid_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_procs *p = ctx;

	return p->newest[id].pid == *(const __u32 *)key;
}

/* The index of @pid's newest image in @p->newest, or -ENOENT. */
static long newest_id(const struct dw_procs *p, __u32 pid)
{
	return dw_htab_find(&p->by_pid, pid_hash(pid), pid_eq, p, &pid);
}

/**
 * dw_procs_new() - an empty process model
 * @c:		cache to read the mapped files into (outlives the model)
 *
 * Context: user space.
 * Return: the model, or NULL (errno ENOMEM).
 */
struct dw_procs *dw_procs_new(struct dw_dso_cache *c)
{
	struct dw_procs *p = calloc(1, sizeof(*p));

	if (p)
		p->dsos = c;
	return p;
}

/* The newest image of @pid, or NULL. */
static struct image *latest_image(const struct dw_procs *p, __u32 pid)
{
	long id = newest_id(p, pid);

	return id < 0 ? NULL : p->newest[id].im;
}

static struct image *new_image(struct dw_procs *p, __u32 pid, __u64 since)
{
	long id = newest_id(p, pid);
	struct image *im;

	/* A new process is indexed first, with no image yet. */
	if (id < 0) {
		if (DW_ARRAY_RESERVE(p->newest, p->cap_newest, p->nr_newest + 1, 64) ||
		    dw_htab_insert(&p->by_pid, pid_hash(pid), (uint32_t)p->nr_newest))
			return NULL;
		id = (long)p->nr_newest++;
		p->newest[id] = (struct proc_newest){ .pid = pid };
	}
	im = calloc(1, sizeof(*im));
	if (im)
		im->maps = dw_maps_new(p->dsos);
	if (!im || !im->maps) {
		free(im);
		return NULL;
	}
	im->pid = pid;
	im->since = since;
	im->older = p->newest[id].im;
	p->newest[id].im = im;
	return im;
}

/**
 * dw_procs_add_comm() - take in one COMM record
 * @p:		model
 * @c:		a record checked by dw_rec_dispatch()
 *
 * Context: user space.
 * Return: 0 or -ENOMEM.
 */
int dw_procs_add_comm(struct dw_procs *p, const struct dunwind_rec_comm *c)
{
	struct comm_entry *e;

	if (DW_ARRAY_RESERVE(p->comms, p->cap_comms, p->nr_comms + 1, 64))
		return -ENOMEM;
	e = &p->comms[p->nr_comms++];
	e->tid = c->tid;
	e->time = c->time;
	memcpy(e->comm, c->comm, sizeof(e->comm));
	e->comm[sizeof(e->comm) - 1] = '\0';
	p->comms_sorted = 0;
	if ((c->hdr.misc & DUNWIND_COMM_EXEC) && !new_image(p, c->pid, c->time))
		return -ENOMEM;
	return 0;
}

/**
 * dw_procs_add_mmap() - take in one MMAP record
 * @p:		model
 * @m:		a record checked by dw_rec_dispatch()
 * @file:	what to read for its path (procfile.h); NULL: the path
 *
 * Context: user space; reads the file's symbols (once per path and image).
 * Return: 0 or -ENOMEM.
 */
int dw_procs_add_mmap(struct dw_procs *p, const struct dunwind_rec_mmap *m, const char *file)
{
	struct image *im = latest_image(p, m->pid);

	if (!im)
		im = new_image(p, m->pid, 0);
	if (!im)
		return -ENOMEM;
	/* dw_rec_dispatch() made sure the path is NUL-terminated in the record. */
	return dw_maps_add_file(im->maps, m->start, m->end, m->pgoff, m->path, file,
				m->build_id_size ? m->build_id : NULL, m->build_id_size);
}

static int comm_cmp(const void *a, const void *b)
{
	const struct comm_entry *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/**
 * dw_procs_comm() - the name thread @tid had at @time
 * @p:		model
 * @tid:	thread id as in the records
 * @time:	CLOCK_MONOTONIC ns
 *
 * Context: user space; the first call sorts (O(n log n)), then O(log n).
 * Return: the latest name at or before @time, else the thread's first;
 * NULL if the capture never named @tid.
 */
const char *dw_procs_comm(struct dw_procs *p, __u32 tid, __u64 time)
{
	size_t lo = 0, hi = p->nr_comms;

	if (!p->comms_sorted && p->nr_comms) {
		/* stable enough: equal (tid, time) keep either name */
		qsort(p->comms, p->nr_comms, sizeof(*p->comms), comm_cmp);
		p->comms_sorted = 1;
	}
	while (lo < hi) {		/* first entry with tid >= @tid */
		size_t mid = lo + (hi - lo) / 2;

		if (p->comms[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == p->nr_comms || p->comms[lo].tid != tid)
		return NULL;
	/* The last name given at or before @time; the first if all came later. */
	while (lo + 1 < p->nr_comms && p->comms[lo + 1].tid == tid &&
	       p->comms[lo + 1].time <= time)
		lo++;
	return p->comms[lo].comm;
}

/**
 * dw_procs_has_maps() - did MMAP records describe process @pid?
 * @p:		model
 * @pid:	process id as in the records
 *
 * Context: user space.
 * Return: 1 or 0.
 */
int dw_procs_has_maps(const struct dw_procs *p, __u32 pid)
{
	return latest_image(p, pid) != NULL;
}

/* The mappings of @pid's image current at @time (else its oldest), or NULL. */
static const struct dw_maps *image_maps(const struct dw_procs *p, __u32 pid, __u64 time)
{
	const struct image *im, *best = NULL;

	/* Newest first: the first image of @pid that began by @time, else its oldest. */
	for (im = latest_image(p, pid); im; im = im->older) {
		best = im;
		if (im->since <= time)
			break;
	}
	return best ? best->maps : NULL;
}

/**
 * dw_procs_image() - which image of @pid was current at @time
 * @p:		model
 * @pid:	process id
 * @time:	CLOCK_MONOTONIC ns
 *
 * Context: user space.  Two addresses of @pid at different times mean the
 * same thing exactly when their images are the same.
 * Return: an opaque identity of the image, NULL if @pid has no mappings.
 */
const void *dw_procs_image(const struct dw_procs *p, __u32 pid, __u64 time)
{
	return image_maps(p, pid, time);
}

/**
 * dw_procs_lookup() - symbolise a user address of process @pid at @time
 * @p:		model
 * @pid:	process id as in the records
 * @time:	when the address was seen (the USER_STACK's time)
 * @addr:	user address
 * @off:	set to the offset in the function (if not NULL)
 * @dso:	set to the mapped file, or NULL (if not NULL)
 *
 * Context: user space.
 * Return: the function's name, valid until dw_procs_free(); NULL if no
 * mapping or symbol covers @addr.
 */
const char *dw_procs_lookup(const struct dw_procs *p, __u32 pid, __u64 time, __u64 addr,
			    uint64_t *off, const char **dso)
{
	const struct dw_maps *m = image_maps(p, pid, time);

	if (dso)
		*dso = NULL;
	if (!m)
		return NULL;
	return dw_maps_lookup(m, addr, off, dso);
}

/**
 * dw_procs_resolve() - everything known about a user address of @pid at @time
 * @p:		model
 * @pid:	process id as in the records
 * @time:	when the address was seen (the USER_STACK's time)
 * @addr:	user address, as it is to be looked up
 * @flags:	DW_DSO_SRC for source lines and inline frames
 * @r:		filled as by dw_maps_resolve()
 *
 * Context: user space.
 * Return: as dw_maps_resolve(); -ESRCH also when @pid has no mappings.
 */
int dw_procs_resolve(const struct dw_procs *p, __u32 pid, __u64 time, __u64 addr,
		     unsigned int flags, struct dw_mapres *r)
{
	const struct dw_maps *m = image_maps(p, pid, time);

	if (!m) {
		memset(r, 0, sizeof(*r));
		return -ESRCH;
	}
	return dw_maps_resolve(m, addr, flags, r);
}

/**
 * dw_procs_free() - free the model and its symbol tables
 * @p:		model or NULL
 *
 * Context: user space.
 */
void dw_procs_free(struct dw_procs *p)
{
	struct image *im, *older;
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_newest; i++) {
		for (im = p->newest[i].im; im; im = older) {
			older = im->older;
			dw_maps_free(im->maps);
			free(im);
		}
	}
	free(p->newest);
	dw_htab_free(&p->by_pid);
	free(p->comms);
	free(p);
}
