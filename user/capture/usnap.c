// SPDX-License-Identifier: GPL-2.0
/*
 * User symbol snapshot (usnap.h).
 *
 * Writer: while recording, MMAP and COMM records feed a process model
 * (analyze/procs.c; an MMAP record opens its file then, so a file
 * replaced later is still read as it was mapped), and the addresses of
 * USER_STACK records are gathered, each once per process image.  At the
 * end each address is resolved: its file, the function holding it (the
 * ELF symbol, else the CFI FDE) and its source frames; JIT addresses in
 * /tmp/perf-PID.map.  The text holds only what the addresses need:
 *
 *	D BUILDID|- PATH		a mapped file; the lines below are its
 *	F START SIZE NAME		a function: file offsets, hex
 *	U START SIZE			an FDE without a symbol
 *	L ADDR DEPTH LINE FUNC|- FILE	a source frame of ADDR (a file offset
 *					as looked up), DEPTH 0 innermost
 *	P PID				JIT code of PID: F lines with addresses
 *
 * Reader: parse into per-file tables sorted by start (and address), found
 * by build-id (else by path), searched by binary search.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/procs.h"
#include "capture/usnap.h"
#include "symbols/perfmap.h"
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
	struct dw_procs *model;
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
 *
 * Context: user space.
 * Return: the collector, or NULL (ENOMEM).
 */
struct dw_usnap_writer *dw_usnap_writer_new(void)
{
	struct dw_usnap_writer *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->model = dw_procs_new();
	if (!c->model) {
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

/**
 * dw_usnap_collect() - take in one record as the ring gives it
 * @c:		collector
 * @rec:	a record that passed dunwind_rec_check()
 *
 * Context: user space.  An MMAP record reads its file (once per file).
 * Return: 0, or -ENOMEM (the snapshot will be left out).
 */
int dw_usnap_collect(struct dw_usnap_writer *c, const struct dunwind_rec_header *rec)
{
	const struct dunwind_rec_user_stack *u = (const void *)rec;
	struct us_addr a;
	__u16 i;

	if (c->failed)
		return -ENOMEM;
	if (rec->type == DUNWIND_REC_MMAP) {
		const struct dunwind_rec_mmap *m = (const void *)rec;
		char file[4200];
		enum dw_proc_file_how how = DW_PROC_FILE_NONE;

		/* The process's own view of the file, while it still maps it. */
		if (m->path[0] == '/' && m->path[1] != '/')
			how = dw_proc_file((int)m->pid, m->path, m->start, m->end,
					   m->build_id_size ? m->build_id : NULL,
					   m->build_id_size, file, sizeof(file));
		if (how == DW_PROC_FILE_MAPPED)
			c->via_map_files++;
		else if (how == DW_PROC_FILE_NONE && m->build_id_size && m->path[0] == '/' &&
			 m->path[1] != '/' && !dw_dso_usable(dw_dso_get(m->path, m->build_id,
									  m->build_id_size)) &&
			 !c->not_found++)
			snprintf(c->first_not_found, sizeof(c->first_not_found), "%s", m->path);
		if (dw_procs_add_file(c->model, rec, how == DW_PROC_FILE_NONE ? NULL : file) ==
		    -ENOMEM)
			c->failed = 1;
	} else if (rec->type == DUNWIND_REC_COMM) {
		if (dw_procs_add(c->model, rec) == -ENOMEM)
			c->failed = 1;
	} else if (rec->type == DUNWIND_REC_USER_STACK) {
		a.image = dw_procs_image(c->model, u->pid, u->time);
		a.time = u->time;
		a.pid = u->pid;
		/* Return addresses are looked up inside their call (as reports do). */
		for (i = 0; i < u->nr && !c->failed; i++) {
			a.look = u->ips[i] - (i ? 1 : 0);
			addrs_add(c, &a);
		}
	}
	return c->failed ? -ENOMEM : 0;
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
static int resolve_one(struct dw_usnap_writer *c, struct us_set *s, const struct us_addr *a,
		       struct dw_perfmap **pm, __u32 *pm_pid)
{
	struct us_file_key k = { 0 };
	struct us_ent e = { 0 };
	struct dw_mapres r;
	unsigned int i;
	const char *name;
	uint64_t off, size;
	int err;

	err = dw_procs_resolve(c->model, a->pid, a->time, a->look, DW_DSO_SRC, &r);
	if (r.mapped && r.dso && r.dso[0] == '/' && r.dso[1] != '/') {
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
	/* Anonymous memory: JIT code named in the process's perf map. */
	if (*pm_pid != a->pid) {
		char path[64];

		dw_perfmap_free(*pm);
		snprintf(path, sizeof(path), "/tmp/perf-%u.map", a->pid);
		*pm = dw_perfmap_load(path);
		*pm_pid = a->pid;
	}
	if (!*pm || !(name = dw_perfmap_lookup(*pm, a->look, &off, &size)))
		return 0;
	k.pid = a->pid;
	e.file = file_index(s, &k);
	e.start = a->look - off;
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
	struct dw_perfmap *pm = NULL;
	struct us_text t = { 0 };
	struct us_set s = { 0 };
	__u32 pm_pid = 0;
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
		if (!resolve_one(c, &s, &c->addrs[i], &pm, &pm_pid))
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
	dw_perfmap_free(pm);
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
	free(c->seen);
	free(c->addrs);
	free(c);
}

/* Reader. */

struct us_func {
	uint64_t start, size;
	const char *name;		/* NULL: FDE range */
};

struct us_line {
	uint64_t addr;
	uint32_t depth;
	struct dw_srcframe fr;
};

struct us_file {
	unsigned char build_id[20];
	size_t build_id_size;
	const char *path;		/* NULL for JIT */
	__u32 pid;
	struct us_func *funcs;		/* sorted by start */
	size_t nr_funcs, cap_funcs;
	struct us_line *lines;		/* sorted by address, then depth */
	size_t nr_lines, cap_lines;
};

struct dw_usnap {
	struct dw_zchunk text;
	char *buf;			/* the inflated text; strings point into it */
	struct us_file *files;
	size_t nr_files, cap_files;
};

/**
 * dw_usnap_new() - an empty snapshot reader
 *
 * Context: user space.
 * Return: the reader, or NULL (ENOMEM).
 */
struct dw_usnap *dw_usnap_new(void)
{
	return calloc(1, sizeof(struct dw_usnap));
}

/**
 * dw_usnap_add() - take in one capture record
 * @u:		reader
 * @rec:	a record of any type whose header is sound
 *
 * Context: user space.  Other types and kinds are ignored; a damaged
 * chunk spoils the snapshot, not the capture.
 * Return: 0 or -ENOMEM.
 */
int dw_usnap_add(struct dw_usnap *u, const struct dunwind_rec_header *rec)
{
	const struct dw_rec_zchunk *r = (const void *)rec;

	if (rec->type != DW_REC_USYMS || rec->size < sizeof(*r) || r->kind != DW_USYMS_TEXT)
		return 0;
	return dw_zchunk_add(&u->text, rec);
}

/* The next space-separated field of *@p, NUL-terminated; NULL at the end. */
static char *field(char **p)
{
	char *start = *p, *sp;

	if (!*start)
		return NULL;
	sp = strchr(start, ' ');
	if (sp) {
		*sp = '\0';
		*p = sp + 1;
	} else {
		*p = start + strlen(start);
	}
	return start;
}

/* A whole field as a number in @base, at most @max; 0 or -1. */
static int number(char **p, int base, uint64_t max, uint64_t *v)
{
	char *f = field(p), *end;

	if (!f || !isxdigit((unsigned char)f[0]))
		return -1;
	errno = 0;
	*v = strtoull(f, &end, base);
	return errno || *end || *v > max ? -1 : 0;
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static int parse_file(struct dw_usnap *u, char *s, int jit)
{
	struct us_file *f;
	uint64_t pid;
	char *id;
	size_t i, n;

	if (DW_ARRAY_RESERVE(u->files, u->cap_files, u->nr_files + 1, 256))
		return -ENOMEM;
	f = &u->files[u->nr_files];
	memset(f, 0, sizeof(*f));
	if (jit) {
		if (number(&s, 10, UINT32_MAX, &pid) || !pid || *s)
			return -EINVAL;
		f->pid = (__u32)pid;
	} else {
		id = field(&s);
		n = id ? strlen(id) : 0;
		if (!id || s[0] != '/' || (strcmp(id, "-") && (n % 2 || n > 40)))
			return -EINVAL;
		for (i = 0; strcmp(id, "-") && i < n; i += 2) {
			if (!isxdigit((unsigned char)id[i]) || !isxdigit((unsigned char)id[i + 1]))
				return -EINVAL;
			f->build_id[i / 2] = (unsigned char)(hexval(id[i]) << 4 | hexval(id[i + 1]));
		}
		f->build_id_size = strcmp(id, "-") ? n / 2 : 0;
		f->path = s;
	}
	u->nr_files++;
	return 0;
}

/* One line of the text, NUL-terminated, in place: 0, -EINVAL (malformed) or -ENOMEM. */
static int parse_line(struct dw_usnap *u, char *s)
{
	struct us_file *f = u->nr_files ? &u->files[u->nr_files - 1] : NULL;
	uint64_t a, b, depth, line;
	char type = s[0], *name;

	if (!type || s[1] != ' ')
		return -EINVAL;
	s += 2;
	if (type == 'D' || type == 'P')
		return parse_file(u, s, type == 'P');
	if (!f || number(&s, 16, UINT64_MAX, &a))
		return -EINVAL;
	switch (type) {
	case 'F':
	case 'U':
		if (number(&s, 16, UINT64_MAX, &b) || !b || a + b < a || (type == 'F') != !!*s ||
		    (f->pid && type == 'U'))
			return -EINVAL;
		if (DW_ARRAY_RESERVE(f->funcs, f->cap_funcs, f->nr_funcs + 1, 256))
			return -ENOMEM;
		f->funcs[f->nr_funcs++] = (struct us_func){ a, b, type == 'F' ? s : NULL };
		return 0;
	case 'L':
		if (f->pid || number(&s, 10, DW_DSO_MAX_INLINE - 1, &depth) ||
		    number(&s, 10, INT32_MAX, &line) || !(name = field(&s)))
			return -EINVAL;
		if (DW_ARRAY_RESERVE(f->lines, f->cap_lines, f->nr_lines + 1, 256))
			return -ENOMEM;
		f->lines[f->nr_lines++] = (struct us_line){
			a, (uint32_t)depth,
			{ strcmp(name, "-") ? name : NULL, *s ? s : NULL, (int)line } };
		return 0;
	default:
		return -EINVAL;
	}
}

static int func_cmp(const void *a, const void *b)
{
	const struct us_func *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int line_cmp(const void *a, const void *b)
{
	const struct us_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static void usnap_free_tables(struct dw_usnap *u)
{
	size_t i;

	for (i = 0; i < u->nr_files; i++) {
		free(u->files[i].funcs);
		free(u->files[i].lines);
	}
	free(u->files);
	u->files = NULL;
	u->nr_files = u->cap_files = 0;
}

/**
 * dw_usnap_load() - parse the snapshot once every record was added
 * @u:		reader
 * @err:	set to a reason when the snapshot is not usable
 * @errlen:	size of @err
 *
 * Context: user space.
 * Return: 0; -ENOENT if the capture has none; -EINVAL if it is damaged
 * or malformed (@err says how; the reader then finds nothing); -ENOMEM.
 */
int dw_usnap_load(struct dw_usnap *u, char *err, size_t errlen)
{
	char *s, *nl;
	size_t i, lineno = 0;
	int e;

	if (!u->text.next_seq && !u->text.bad) {
		snprintf(err, errlen, "the capture has no user symbol snapshot");
		return -ENOENT;
	}
	u->buf = dw_zchunk_text(&u->text, "user symbol", err, errlen);
	if (!u->buf)
		return -EINVAL;
	for (s = u->buf; *s; s = nl + 1) {
		lineno++;
		nl = strchr(s, '\n');
		if (!nl) {
			e = -EINVAL;
			goto bad;
		}
		*nl = '\0';
		e = parse_line(u, s);
		if (e)
			goto bad;
	}
	for (i = 0; i < u->nr_files; i++) {
		struct us_file *f = &u->files[i];

		if (f->nr_funcs)
			qsort(f->funcs, f->nr_funcs, sizeof(*f->funcs), func_cmp);
		if (f->nr_lines)
			qsort(f->lines, f->nr_lines, sizeof(*f->lines), line_cmp);
	}
	return 0;
bad:
	if (e == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	else
		snprintf(err, errlen, "the capture's user symbol snapshot is malformed (line %zu)",
			 lineno);
	usnap_free_tables(u);
	return e;
}

/* The file of the snapshot for a mapping: by build-id when both have one, else by path. */
static const struct us_file *find_file(const struct dw_usnap *u, const unsigned char *id,
				       size_t id_size, const char *path)
{
	size_t i;

	for (i = 0; i < u->nr_files; i++) {
		const struct us_file *f = &u->files[i];

		if (f->pid)
			continue;
		if (id_size && f->build_id_size) {
			if (id_size == f->build_id_size && !memcmp(id, f->build_id, id_size))
				return f;
		} else if (path && !strcmp(path, f->path)) {
			return f;
		}
	}
	return NULL;
}

/* The function of @f holding @addr, filled into @res; 0 or -ENOENT. */
static int find_func(const struct us_file *f, uint64_t addr, struct dw_symres *res)
{
	size_t lo = 0, hi = f->nr_funcs, i;
	const struct us_func *fn;

	memset(res, 0, sizeof(*res));
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->funcs[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - f->funcs[lo - 1].start >= f->funcs[lo - 1].size)
		return -ENOENT;
	fn = &f->funcs[lo - 1];
	res->name = fn->name;
	res->fde = !fn->name;
	res->start = fn->start;
	res->size = fn->size;
	res->off = addr - fn->start;
	lo = 0;
	hi = f->nr_lines;
	while (lo < hi) {		/* first source frame at or above @addr */
		size_t mid = lo + (hi - lo) / 2;

		if (f->lines[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < f->nr_lines && f->lines[i].addr == addr &&
	     f->lines[i].depth == res->nr_frames; i++)
		res->frames[res->nr_frames++] = f->lines[i].fr;
	return 0;
}

/**
 * dw_usnap_lookup() - what the snapshot says about an address of a file
 * @u:		loaded reader
 * @build_id:	the mapping's recorded build-id, or NULL
 * @build_id_size: its length
 * @path:	the mapped file's path (matched when a build-id is missing)
 * @foff:	file offset of the address as looked up
 * @res:	filled: @name (NULL with @fde for a function known only by its
 *		FDE), @start and @size in file offsets, @off, source frames
 *
 * Context: user space; O(log n).
 * Return: 0, or -ENOENT if the snapshot does not know the address.
 */
int dw_usnap_lookup(const struct dw_usnap *u, const unsigned char *build_id, size_t build_id_size,
		    const char *path, uint64_t foff, struct dw_symres *res)
{
	const struct us_file *f = find_file(u, build_id, build_id_size, path);

	memset(res, 0, sizeof(*res));
	return f ? find_func(f, foff, res) : -ENOENT;
}

/**
 * dw_usnap_lookup_jit() - the JIT function of process @pid holding @addr
 * @u:		loaded reader
 * @pid:	process id as in the records
 * @addr:	user address as looked up
 * @res:	filled as by dw_usnap_lookup() (addresses, not file offsets)
 *
 * Context: user space.
 * Return: 0, or -ENOENT.
 */
int dw_usnap_lookup_jit(const struct dw_usnap *u, __u32 pid, uint64_t addr,
			struct dw_symres *res)
{
	size_t i;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < u->nr_files; i++)
		if (u->files[i].pid == pid)
			return find_func(&u->files[i], addr, res);
	return -ENOENT;
}

/**
 * dw_usnap_free() - free a reader
 * @u:		reader or NULL
 *
 * Context: user space; names it returned become invalid.
 */
void dw_usnap_free(struct dw_usnap *u)
{
	if (!u)
		return;
	usnap_free_tables(u);
	dw_zchunk_release(&u->text);
	free(u->buf);
	free(u);
}
