// SPDX-License-Identifier: GPL-2.0
/*
 * User symbol snapshot, the writer (usnap.h; the text is described in
 * usnap.c).
 *
 * While recording, MMAP and COMM records feed a process model
 * (symbols/procs.c; an MMAP record opens its file then, so a file
 * replaced later is still read as it was mapped), and the addresses of
 * USER_STACK records are gathered, each once per process image.  At the
 * end each address is resolved: its file, the function holding it (the
 * ELF symbol, else the CFI FDE) and its source frames; JIT addresses in
 * the process's perf map or jitdump, read at its exec and exit and at the
 * end (usnap_jit.c).  The text holds only what the addresses need.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "record.h"
#include "symbols/procs.h"
#include "capture/pysnap.h"
#include "capture/usnap.h"
#include "capture/usnap_jit.h"
#include "symbols/procfile.h"
#include "symbols/symtab.h"
#include "util/array.h"
#include "util/clock.h"

/* One user address to resolve: @look is the address as looked up. */
struct us_addr {
	const void *image;
	uint64_t look;
	__u64 time;
	__u32 pid;
};

/*
 * The addresses pushed lately, direct-mapped by (image, pid, address): a
 * profile repeats the same few return addresses in every stack, and each
 * one pushed again cost its share of a sort of the whole array (about
 * 6,000 instructions per 8-frame sample at 999 Hz, in the profiled
 * machine's time).
 */
#define US_SEEN_BITS	12

struct us_seen {
	const void *image;
	uint64_t look;
	__u32 pid;
	__u32 used;
};

struct dw_usnap_writer {
	struct dw_dso_cache *dsos;	/* the recording's files, not owned */
	struct dw_procs *model;
	struct dw_usnap_jit *jit;	/* JIT names */
	unsigned long via_map_files;	/* files read through /proc/PID/map_files */
	unsigned long not_found;	/* mapped files found nowhere */
	char first_not_found[256];
	struct us_addr *addrs;
	size_t nr, cap;
	struct us_seen *seen;		/* 1 << US_SEEN_BITS; NULL: every address pushed */
	int failed;			/* out of memory: no snapshot */
};

/* A growing text. */
struct us_text {
	char *buf;
	size_t len, cap;
	int err;
};

__attribute__((format(printf, 2, 3)))
static void us_printf(struct us_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->err = -EINVAL;
			return;
		}
		if (t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		{
			size_t cap = t->cap ? t->cap * 2 : 65536;
			char *nb;

			while (cap <= t->len + (size_t)n)
				cap *= 2;
			nb = realloc(t->buf, cap);
			if (!nb) {
				t->err = -ENOMEM;
				return;
			}
			t->buf = nb;
			t->cap = cap;
		}
	}
}

/**
 * dw_usnap_writer_new() - an empty collector
 * @dsos:	the cache to read the mapped files into (outlives the collector)
 *
 * Context: user space.
 * Return: the collector, or NULL (ENOMEM).
 */
struct dw_usnap_writer *dw_usnap_writer_new(struct dw_dso_cache *dsos)
{
	struct dw_usnap_writer *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->dsos = dsos;
	c->model = dw_procs_new(dsos);
	c->jit = dw_usnap_jit_new(NULL);
	if (!c->model || !c->jit) {
		dw_procs_free(c->model);
		dw_usnap_jit_free(c->jit);
		free(c);
		return NULL;
	}
	/* Only a filter: without it every address is pushed (and sorted out). */
	c->seen = calloc((size_t)1 << US_SEEN_BITS, sizeof(*c->seen));
	return c;
}

static int addr_cmp(const void *a, const void *b)
{
	const struct us_addr *x = a, *y = b;

	if (x->image != y->image)
		return (uintptr_t)x->image < (uintptr_t)y->image ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->look < y->look ? -1 : x->look > y->look;
}

/* Sort and deduplicate the addresses gathered so far. */
static void addrs_compact(struct dw_usnap_writer *c)
{
	size_t i, n = 0;

	if (!c->nr)
		return;
	qsort(c->addrs, c->nr, sizeof(*c->addrs), addr_cmp);
	for (i = 0; i < c->nr; i++)
		if (!n || addr_cmp(&c->addrs[n - 1], &c->addrs[i]))
			c->addrs[n++] = c->addrs[i];
	c->nr = n;
}

static void addrs_push(struct dw_usnap_writer *c, const struct us_addr *a)
{
	if (c->nr == c->cap) {
		/* Full: deduplicate; grow only if that freed little. */
		addrs_compact(c);
		if (!c->cap || c->nr > c->cap / 2) {
			size_t cap = c->cap ? c->cap * 2 : 4096;
			struct us_addr *n = realloc(c->addrs, cap * sizeof(*n));

			if (!n) {
				c->failed = 1;
				return;
			}
			c->addrs = n;
			c->cap = cap;
		}
	}
	c->addrs[c->nr++] = *a;
}

/* Push @a unless the filter saw it lately (the same meaning: its image). */
static void addrs_add(struct dw_usnap_writer *c, const struct us_addr *a)
{
	uint64_t h = (a->look ^ (uint64_t)(uintptr_t)a->image ^ ((uint64_t)a->pid << 32)) *
		     0x9e3779b97f4a7c15ULL;
	struct us_seen *s;

	if (c->seen) {
		s = &c->seen[h >> (64 - US_SEEN_BITS)];
		if (s->used && s->look == a->look && s->image == a->image && s->pid == a->pid)
			return;
		s->image = a->image;
		s->look = a->look;
		s->pid = a->pid;
		s->used = 1;
	}
	addrs_push(c, a);
}

/* The @nr user IPs of one stack of @pid at @time. */
static void collect_ips(struct dw_usnap_writer *c, __u32 pid, __u64 time, const __u64 *ips,
			__u16 nr)
{
	struct us_addr a;
	__u16 i;

	a.image = dw_procs_image(c->model, pid, time);
	a.time = time;
	a.pid = pid;
	/* Return addresses are looked up inside their call (as reports do). */
	for (i = 0; i < nr && !c->failed; i++) {
		if (DUNWIND_IP_IS_INTERP(ips[i])) {
			/* A Python frame's code address is named apart (capture/pysnap.h). */
			i += DW_IS_PY_FRAME(ips[i]);
			continue;
		}
		a.look = ips[i] - (i ? 1 : 0);
		addrs_add(c, &a);
	}
}

/* An MMAP record: its file read (once per file) while the process maps it. */
static int collect_mmap(const struct dunwind_rec_mmap *m, void *arg)
{
	struct dw_usnap_writer *c = arg;
	enum dw_proc_file_how how = DW_PROC_FILE_NONE;
	const char *read = NULL;
	const struct dw_dso *d;
	char file[4200];

	if (c->failed)
		return -ENOMEM;
	/*
	 * The mapped inode read already, for an earlier process: a shell
	 * loop's processes map the same few files, and each process's view
	 * of one costs 7 system calls.
	 */
	d = dw_dso_read_as(c->dsos, makedev(m->dev_major, m->dev_minor), m->ino, m->build_id,
			   m->build_id_size);
	if (d)
		read = dw_dso_path(d);
	/* Else the process's own view of the file, while it still maps it. */
	else if (m->path[0] == '/' && m->path[1] != '/')
		how = dw_proc_file(c->dsos, (int)m->pid, m->path, m->start, m->end,
				   m->build_id_size ? m->build_id : NULL,
				   m->build_id_size, file, sizeof(file));
	if (how != DW_PROC_FILE_NONE)
		read = file;
	if (how == DW_PROC_FILE_MAPPED)
		c->via_map_files++;
	else if (!read && m->build_id_size && m->path[0] == '/' && m->path[1] != '/' &&
		 !dw_dso_usable(dw_dso_get(c->dsos, m->path, m->build_id, m->build_id_size)) &&
		 !c->not_found++)
		snprintf(c->first_not_found, sizeof(c->first_not_found), "%s", m->path);
	if (dw_procs_add_mmap(c->model, m, read) == -ENOMEM || dw_usnap_jit_mmap(c->jit, m))
		c->failed = 1;
	return c->failed ? -ENOMEM : 0;
}

static int collect_comm(const struct dunwind_rec_comm *rec, void *arg)
{
	struct dw_usnap_writer *c = arg;

	/* An exec: the old image's JIT names are read before the new one writes its own. */
	if (!c->failed && rec->pid == rec->tid && (rec->hdr.misc & DUNWIND_COMM_EXEC) &&
	    dw_usnap_jit_read(c->jit, rec->pid, rec->time, 1))
		c->failed = 1;
	if (!c->failed && dw_procs_add_comm(c->model, rec) == -ENOMEM)
		c->failed = 1;
	return c->failed ? -ENOMEM : 0;
}

static int collect_fork(const struct dunwind_rec_task *t, void *arg)
{
	struct dw_usnap_writer *c = arg;

	if (!c->failed && dw_usnap_jit_fork(c->jit, t))
		c->failed = 1;
	return c->failed ? -ENOMEM : 0;
}

/* A process's exit: its JIT names read while its files are still there. */
static int collect_exit(const struct dunwind_rec_task *t, void *arg)
{
	struct dw_usnap_writer *c = arg;

	if (!c->failed && t->pid == t->tid && dw_usnap_jit_read(c->jit, t->pid, t->time, 0))
		c->failed = 1;
	return c->failed ? -ENOMEM : 0;
}

static int collect_stack(const struct dunwind_rec_user_stack *u, void *arg)
{
	struct dw_usnap_writer *c = arg;

	if (!c->failed)
		collect_ips(c, u->pid, u->time, u->ips, u->nr);
	return c->failed ? -ENOMEM : 0;
}

static int collect_sample_stack(const struct dunwind_rec_sample_stack *ss, void *arg)
{
	struct dw_usnap_writer *c = arg;
	__u64 ips[DUNWIND_MAX_USER_FRAMES];

	if (!c->failed &&
	    dunwind_ipcode_decode(ss->ips, ss->hdr.size - sizeof(*ss), ips, ss->nr) >= 0)
		collect_ips(c, ss->pid, ss->time, ips, ss->nr);
	return c->failed ? -ENOMEM : 0;
}

/*
 * What the collector takes (@arg: the struct dw_usnap_writer), as the
 * ring gives it: MMAP and COMM records while the processes map their
 * files; a USER_STACK or SAMPLE_STACK any time after the MMAP records
 * before it (by time).  Each returns 0, or -ENOMEM (the snapshot will be
 * left out).
 */
const struct dw_rec_ops dw_usnap_collect_ops = {
	.mmap = collect_mmap,
	.comm = collect_comm,
	.fork = collect_fork,
	.exit = collect_exit,
	.user_stack = collect_stack,
	.sample_stack = collect_sample_stack,
	.unknown = dw_rec_skip,
};

/**
 * dw_usnap_collect() - take in one record
 * @c:		collector
 * @rec:	a record (dw_usnap_collect_ops says what is taken)
 *
 * Context: user space.  An MMAP record reads its file.
 * Return: 0; -ENOMEM (the snapshot will be left out); -EINVAL for a
 * malformed record.
 */
int dw_usnap_collect(struct dw_usnap_writer *c, const struct dunwind_rec_header *rec)
{
	int err = dw_rec_dispatch(&dw_usnap_collect_ops, rec, rec->size, c);

	return err == -EBADMSG ? -EINVAL : err;
}

/* A function or a source frame found, in the order the text wants. */
struct us_ent {
	uint32_t file;			/* index in the file keys */
	int kind;			/* 0 function, 1 source frame */
	uint64_t start, size;		/* function; source frame: address, depth */
	const char *name;		/* NULL: an FDE range */
	const char *src;		/* source file */
	int line;
};

struct us_file_key {
	unsigned char build_id[20];
	size_t build_id_size;
	const char *path;
	__u32 pid;			/* JIT: a process, no file */
};

struct us_set {
	struct us_ent *ents;
	size_t nr, cap;
	struct us_file_key *files;
	size_t nr_files, cap_files;
	int err;
};

static uint32_t file_index(struct us_set *s, const struct us_file_key *k)
{
	size_t i;

	/* Few files, each asked for many times in a row: search from the end. */
	for (i = s->nr_files; i-- > 0;) {
		const struct us_file_key *f = &s->files[i];

		if (f->pid == k->pid && f->build_id_size == k->build_id_size &&
		    !memcmp(f->build_id, k->build_id, k->build_id_size) &&
		    (f->path == k->path || (f->path && k->path && !strcmp(f->path, k->path))))
			return (uint32_t)i;
	}
	if (DW_ARRAY_RESERVE(s->files, s->cap_files, s->nr_files + 1, 256)) {
		s->err = -ENOMEM;
		return 0;
	}
	s->files[s->nr_files] = *k;
	return (uint32_t)s->nr_files++;
}

static void ent_add(struct us_set *s, const struct us_ent *e)
{
	if (DW_ARRAY_RESERVE(s->ents, s->cap, s->nr + 1, 256)) {
		s->err = -ENOMEM;
		return;
	}
	s->ents[s->nr++] = *e;
}

static int ent_cmp(const void *a, const void *b)
{
	const struct us_ent *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

/* What one address needs: its function and its source frames. Returns 1 if found. */
static int resolve_one(struct dw_usnap_writer *c, struct us_set *s, const struct us_addr *a)
{
	struct us_file_key k = { 0 };
	struct us_ent e = { 0 };
	struct dw_mapres r;
	unsigned int i;
	const char *name;
	uint64_t start, size;
	int err;

	err = dw_procs_resolve(c->model, a->pid, a->time, a->look, DW_DSO_SRC, &r);
	if (r.mapped && r.dso && dw_dso_path_is_image(r.dso)) {
		if (err && !r.sym.fde)
			return 0;
		k.path = r.dso;
		if (r.build_id_size <= sizeof(k.build_id)) {
			memcpy(k.build_id, r.build_id, r.build_id_size);
			k.build_id_size = r.build_id_size;
		}
		e.file = file_index(s, &k);
		e.start = r.fstart;
		e.size = r.sym.size;
		/* A symbol without a size: at least up to this address. */
		if (r.foff - r.fstart >= e.size)
			e.size = r.foff - r.fstart + 1;
		e.name = r.sym.name;
		ent_add(s, &e);
		for (i = 0; i < r.sym.nr_frames; i++) {
			struct us_ent l = { .file = e.file, .kind = 1, .start = r.foff, .size = i,
					    .name = r.sym.frames[i].func, .src = r.sym.frames[i].file,
					    .line = r.sym.frames[i].line };

			ent_add(s, &l);
		}
		return 1;
	}
	/* Anonymous memory: JIT code named in the process's perf map or jitdump. */
	name = dw_usnap_jit_lookup(c->jit, c->model, a->pid, a->time, a->look, &start, &size);
	if (!name)
		return 0;
	k.pid = a->pid;
	e.file = file_index(s, &k);
	e.start = start;
	e.size = size;
	e.name = name;
	ent_add(s, &e);
	return 1;
}

static void write_text(struct us_set *s, struct us_text *t)
{
	char hex[41];
	size_t i, j;

	for (i = 0; i < s->nr; i++) {
		const struct us_ent *e = &s->ents[i];

		if (!i || e->file != s->ents[i - 1].file) {
			const struct us_file_key *f = &s->files[e->file];

			for (j = 0; j < f->build_id_size; j++)
				sprintf(hex + 2 * j, "%02x", f->build_id[j]);
			hex[2 * j] = '\0';
			if (f->pid)
				us_printf(t, "P %u\n", f->pid);
			else
				us_printf(t, "D %s %s\n", j ? hex : "-", f->path);
		}
		if (e->kind == 1)
			us_printf(t, "L %" PRIx64 " %" PRIu64 " %d %s %s\n", e->start, e->size,
				  e->line, e->name ? e->name : "-", e->src ? e->src : "");
		else if (e->name)
			us_printf(t, "F %" PRIx64 " %" PRIx64 " %s\n", e->start, e->size, e->name);
		else
			us_printf(t, "U %" PRIx64 " %" PRIx64 "\n", e->start, e->size);
	}
}

/* Drop repeated entries; a function seen with several sizes keeps the largest. */
static void ents_compact(struct us_set *s, struct dw_usnap_stats *st)
{
	size_t i, n = 0;

	if (!s->nr)
		return;
	qsort(s->ents, s->nr, sizeof(*s->ents), ent_cmp);
	for (i = 0; i < s->nr; i++) {
		struct us_ent *e = &s->ents[i], *last = n ? &s->ents[n - 1] : NULL;

		if (last && last->file == e->file && last->kind == e->kind &&
		    last->start == e->start && (e->kind == 0 || last->size == e->size)) {
			if (e->size > last->size)
				last->size = e->size;
			continue;
		}
		s->ents[n++] = *e;
		if (e->kind)
			st->lines++;
		else
			st->funcs++;
	}
	s->nr = n;
}

/**
 * dw_usnap_write() - resolve what was collected and append the snapshot
 * @c:		collector that saw every record
 * @w:		the capture being written
 * @st:		filled with what the snapshot holds
 *
 * Context: user space, blocking; reads the mapped files' symbols and
 * debug info (libdwfl) and perf maps.
 * Return: 0 (also when no user address needed one: nothing is written),
 * -ENOMEM, or -errno of writing the capture.
 */
int dw_usnap_write(struct dw_usnap_writer *c, struct dw_capture_writer *w,
		   struct dw_usnap_stats *st)
{
	__u64 before = w->hdr.record_bytes;
	long long t0 = dw_now_ms();
	struct us_text t = { 0 };
	struct us_set s = { 0 };
	size_t i;
	int err = 0;

	memset(st, 0, sizeof(*st));
	st->via_map_files = c->via_map_files;
	st->not_found = c->not_found;
	snprintf(st->first_not_found, sizeof(st->first_not_found), "%s", c->first_not_found);
	if (c->failed)
		return -ENOMEM;
	addrs_compact(c);
	st->addrs = c->nr;
	for (i = 0; i < c->nr && !s.err; i++)
		if (!resolve_one(c, &s, &c->addrs[i]))
			st->unnamed++;
	if (!s.err)
		ents_compact(&s, st);
	st->files = s.nr_files;
	if (!s.err)
		write_text(&s, &t);
	err = s.err ? s.err : t.err;
	if (!err && t.len)
		err = dw_zchunk_write(w, DW_REC_USYMS, DW_USYMS_TEXT, t.buf, t.len);
	st->bytes = w->hdr.record_bytes - before;
	st->ms = dw_now_ms() - t0;
	free(t.buf);
	free(s.ents);
	free(s.files);
	return err;
}

/**
 * dw_usnap_writer_free() - free a collector
 * @c:		collector or NULL
 *
 * Context: user space.  Does not close the cached files (dso.c).
 */
void dw_usnap_writer_free(struct dw_usnap_writer *c)
{
	if (!c)
		return;
	dw_procs_free(c->model);
	dw_usnap_jit_free(c->jit);
	free(c->seen);
	free(c->addrs);
	free(c);
}
