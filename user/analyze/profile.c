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
 * share an index, so the outputs aggregate by index.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/demangle.h"
#include "symbols/dso.h"
#include "symbols/kallsyms.h"
#include "capture/ksnap.h"
#include "symbols/perfmap.h"
#include "capture/usnap.h"
#include "analyze/procs.h"
#include "analyze/profile.h"
#include "symbols/symtab.h"

/* Open-addressing hash table of indices; the key lives in the caller's arrays. */
struct htab {
	struct { uint64_t hash; uint32_t id1; } *slot;	/* id1: index + 1, 0 free */
	size_t cap, n;
};

typedef int (*ht_eq)(const struct dw_prof *p, uint32_t id, const void *key);

struct live_proc {
	struct live_proc *next;
	int pid;
	char comm[32];
	struct dw_maps *maps;
};

struct perfmap_ent {
	struct perfmap_ent *next;
	__u32 pid;
	struct dw_perfmap *map;		/* NULL: no map file */
	const char *path;
};

/* A mapped file some of whose addresses got no name: for the warning. */
struct unnamed_file {
	struct unnamed_file *next;
	const char *path;
	char stale_id[41];		/* the file here is another one: the recorded id */
	unsigned long locs;
};

struct loc_key {
	const void *image;		/* process image, or NULL (kernel, markers) */
	uint64_t ip;
	__u32 pid;
	int kind;			/* 0 user, 1 user - 1, 2 kernel, 3 kernel - 1, 4 marker */
};

struct prof_priv {
	char **strs;
	size_t nr_strs, cap_strs;
	struct htab str_ht, func_ht, loc_ht, map_ht;
	struct loc_key *loc_keys;
	size_t cap_samples, cap_stack, cap_locs, cap_lines, cap_funcs, cap_maps;

	const struct dw_prof_opts *o;
	struct dw_procs *model;
	struct dw_kallsyms *ksyms;
	struct live_proc *live;
	struct perfmap_ent *perfmaps;
	struct dw_usnap *usnap;		/* the capture's user symbols, or NULL */
	struct unnamed_file *unnamed;
	int other_boot;
	unsigned long long lost_stacks;
	unsigned int dso_flags;
	int err;
};

static uint64_t hash_bytes(const void *buf, size_t len, uint64_t h)
{
	const unsigned char *b = buf;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t hash_ptr(const void *p, uint64_t h)
{
	uintptr_t v = (uintptr_t)p;

	return hash_bytes(&v, sizeof(v), h);
}

#define HASH0	0xcbf29ce484222325ULL

/* Find @key; returns its index, or -1 with *@at the free slot to use. */
static long ht_find(const struct dw_prof *p, struct htab *h, uint64_t hash, ht_eq eq,
		    const void *key, size_t *at)
{
	size_t i;

	if (!h->cap)
		return -1;
	for (i = hash & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		if (!h->slot[i].id1) {
			*at = i;
			return -1;
		}
		if (h->slot[i].hash == hash && eq(p, h->slot[i].id1 - 1, key))
			return h->slot[i].id1 - 1;
	}
}

/* Insert index @id with @hash (not present); grows the table. 0 or -ENOMEM. */
static int ht_insert(struct htab *h, uint64_t hash, uint32_t id)
{
	size_t i;

	if ((h->n + 1) * 2 > h->cap) {
		size_t ncap = h->cap ? h->cap * 2 : 1024, j;
		void *ns = calloc(ncap, sizeof(*h->slot));

		if (!ns)
			return -ENOMEM;
		for (j = 0; j < h->cap; j++) {
			if (!h->slot[j].id1)
				continue;
			for (i = h->slot[j].hash & (ncap - 1); ((typeof(h->slot))ns)[i].id1;
			     i = (i + 1) & (ncap - 1))
				;
			((typeof(h->slot))ns)[i] = h->slot[j];
		}
		free(h->slot);
		h->slot = ns;
		h->cap = ncap;
	}
	for (i = hash & (h->cap - 1); h->slot[i].id1; i = (i + 1) & (h->cap - 1))
		;
	h->slot[i].hash = hash;
	h->slot[i].id1 = id + 1;
	h->n++;
	return 0;
}

/* Grow an array to hold one more element. 0 or -ENOMEM. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *na;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 256;
	na = realloc(*arr, ncap * elem);
	if (!na)
		return -ENOMEM;
	*arr = na;
	*cap = ncap;
	return 0;
}

static int str_eq(const struct dw_prof *p, uint32_t id, const void *key)
{
	const struct prof_priv *pp = p->priv;

	return !strcmp(pp->strs[id], key);
}

/* The pooled copy of @s (NULL stays NULL); NULL with pp->err on ENOMEM. */
static const char *intern(struct dw_prof *p, const char *s)
{
	struct prof_priv *pp = p->priv;
	uint64_t h;
	size_t at;
	long id;

	if (!s)
		return NULL;
	h = hash_bytes(s, strlen(s), HASH0);
	id = ht_find(p, &pp->str_ht, h, str_eq, s, &at);
	if (id >= 0)
		return pp->strs[id];
	if (grow((void **)&pp->strs, &pp->cap_strs, pp->nr_strs, sizeof(char *)))
		goto nomem;
	pp->strs[pp->nr_strs] = strdup(s);
	if (!pp->strs[pp->nr_strs] || ht_insert(&pp->str_ht, h, (uint32_t)pp->nr_strs))
		goto nomem;
	return pp->strs[pp->nr_strs++];
nomem:
	pp->err = -ENOMEM;
	return NULL;
}

/* The pooled readable form of symbol @raw: demangled (unless --no-demangle), unversioned. */
static const char *intern_sym(struct dw_prof *p, const char *raw)
{
	struct prof_priv *pp = p->priv;
	const char *s;
	char *d;

	if (!raw)
		return NULL;
	d = dw_demangle(raw, !pp->o->no_demangle);
	if (!d) {
		pp->err = -ENOMEM;
		return NULL;
	}
	s = intern(p, d);
	free(d);
	return s;
}

__attribute__((format(printf, 2, 3)))
static const char *internf(struct dw_prof *p, const char *fmt, ...)
{
	char buf[4200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return intern(p, buf);
}

static int func_eq(const struct dw_prof *p, uint32_t id, const void *key)
{
	const struct dw_prof_func *a = &p->funcs[id], *b = key;

	return a->name == b->name && a->dso == b->dso && a->file == b->file;
}

/* Index of the function (@name, @dso, @file), all interned. -1 on ENOMEM. */
static long func_get(struct dw_prof *p, const char *name, const char *dso, const char *file)
{
	struct prof_priv *pp = p->priv;
	struct dw_prof_func f = { name, dso, file };
	uint64_t h = hash_ptr(file, hash_ptr(dso, hash_ptr(name, HASH0)));
	size_t at;
	long id = ht_find(p, &pp->func_ht, h, func_eq, &f, &at);

	if (id >= 0)
		return id;
	if (grow((void **)&p->funcs, &pp->cap_funcs, p->nr_funcs, sizeof(f)) ||
	    ht_insert(&pp->func_ht, h, (uint32_t)p->nr_funcs)) {
		pp->err = -ENOMEM;
		return -1;
	}
	p->funcs[p->nr_funcs] = f;
	return (long)p->nr_funcs++;
}

static int map_eq(const struct dw_prof *p, uint32_t id, const void *key)
{
	const struct dw_prof_mapping *a = &p->mappings[id], *b = key;

	return a->file == b->file && a->start == b->start && a->end == b->end &&
	       a->pgoff == b->pgoff && a->kernel == b->kernel;
}

/* Index + 1 of the mapping like @m (file interned); 0 on ENOMEM. */
static uint32_t mapping_get(struct dw_prof *p, const struct dw_prof_mapping *m)
{
	struct prof_priv *pp = p->priv;
	uint64_t h = hash_ptr(m->file, hash_bytes(&m->start, sizeof(m->start), HASH0));
	size_t at;
	long id;

	h = hash_bytes(&m->end, sizeof(m->end), hash_bytes(&m->pgoff, sizeof(m->pgoff), h));
	id = ht_find(p, &pp->map_ht, h, map_eq, m, &at);
	if (id >= 0)
		return (uint32_t)id + 1;
	if (grow((void **)&p->mappings, &pp->cap_maps, p->nr_mappings, sizeof(*m)) ||
	    ht_insert(&pp->map_ht, h, (uint32_t)p->nr_mappings)) {
		pp->err = -ENOMEM;
		return 0;
	}
	p->mappings[p->nr_mappings++] = *m;
	return (uint32_t)p->nr_mappings;
}

static int add_line(struct dw_prof *p, long func, int line)
{
	struct prof_priv *pp = p->priv;

	if (func < 0 || grow((void **)&p->lines, &pp->cap_lines, p->nr_lines, sizeof(*p->lines))) {
		pp->err = -ENOMEM;
		return -ENOMEM;
	}
	p->lines[p->nr_lines++] = (struct dw_prof_line){ (uint32_t)func, line };
	return 0;
}

/* A file's base name; pseudo paths ("//anon", "[heap]") stay whole. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	if (path[0] != '/' || path[1] == '/')
		return path;
	return s && s[1] ? s + 1 : path;
}

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

/* Fill location @l (already holding ip/kind) with its lines from @sr, or one line. */
static void loc_lines(struct dw_prof *p, struct dw_prof_loc *l, const struct dw_symres *sr,
		      const char *fname)
{
	struct prof_priv *pp = p->priv;
	unsigned int i, n = sr ? sr->nr_frames : 0;

	l->first_line = (uint32_t)p->nr_lines;
	if (!fname)
		fname = l->sym ? l->sym : intern(p, "[unknown]");
	if (!n || !l->sym) {
		const char *file = n ? intern(p, sr->frames[n - 1].file) : NULL;

		add_line(p, func_get(p, fname, l->dso, file), n ? sr->frames[n - 1].line : 0);
		l->nr_lines = 1;
		return;
	}
	/* Without --inline only the real function, at its line of the address. */
	for (i = pp->o->inline_frames ? 0 : n - 1; i < n; i++) {
		const char *name = i == n - 1 ? l->sym : sr->frames[i].func;

		if (!name)
			name = "[unknown]";
		add_line(p, func_get(p, i == n - 1 ? l->sym : intern_sym(p, name), l->dso,
				     intern(p, sr->frames[i].file)),
			 sr->frames[i].line);
		l->nr_lines++;
	}
}

static const struct dw_perfmap *perfmap_get(struct dw_prof *p, __u32 pid, const char **path)
{
	struct prof_priv *pp = p->priv;
	struct perfmap_ent *e;
	char file[64];

	for (e = pp->perfmaps; e; e = e->next)
		if (e->pid == pid)
			goto out;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	snprintf(file, sizeof(file), "/tmp/perf-%u.map", pid);
	e->pid = pid;
	e->map = dw_perfmap_load(file);
	e->path = intern(p, file);
	e->next = pp->perfmaps;
	pp->perfmaps = e;
out:
	*path = e->path;
	return e->map;
}

/* Remember that @path (a file) left a location unnamed. */
static void note_unnamed(struct dw_prof *p, const char *path, const struct dw_mapres *r)
{
	struct prof_priv *pp = p->priv;
	struct unnamed_file *u;
	size_t i;

	p->unnamed++;
	for (u = pp->unnamed; u; u = u->next)
		if (u->path == path)
			break;
	if (!u) {
		u = calloc(1, sizeof(*u));
		if (!u)
			return;
		u->path = path;
		u->next = pp->unnamed;
		pp->unnamed = u;
	}
	for (i = 0; r->stale && !u->locs && i < r->build_id_size && i < 20; i++)
		sprintf(u->stale_id + 2 * i, "%02x", r->build_id[i]);
	u->locs++;
}

/*
 * No symbol in the file here (not the recorded one, absent, or stripped):
 * the capture's snapshot of the recorded one, if it knows the address.
 */
static int from_snapshot(struct dw_prof *p, struct dw_mapres *r)
{
	struct prof_priv *pp = p->priv;
	struct dw_symres sr;

	if (!pp->usnap || dw_usnap_lookup(pp->usnap, r->build_id, r->build_id_size, r->dso,
					  r->foff, &sr))
		return -ENOENT;
	/* A named function beats an FDE range found here. */
	if (!sr.name && r->sym.fde)
		return -ENOENT;
	r->sym = sr;
	r->fstart = sr.start;
	p->usyms_used++;
	return 0;
}

static void user_loc(struct dw_prof *p, struct dw_prof_loc *l, __u32 pid, __u64 time, int adj,
		     struct dw_maps *live)
{
	struct prof_priv *pp = p->priv;
	uint64_t look = l->ip - (adj ? 1 : 0);
	const struct dw_perfmap *pm;
	const char *pm_path, *name;
	struct dw_mapres r;
	struct dw_symres sr;
	int e = -ESRCH, file;

	memset(&r, 0, sizeof(r));
	if (pp->o->user_symbols && dw_procs_has_maps(pp->model, pid))
		e = dw_procs_resolve(pp->model, pid, time, look, pp->dso_flags, &r);
	else if (pp->o->user_symbols && live)
		e = dw_maps_resolve(live, look, pp->dso_flags, &r);
	file = r.mapped && r.dso && r.dso[0] == '/' && r.dso[1] != '/';
	if (r.mapped && r.dso) {
		struct dw_prof_mapping m = { .start = r.start, .end = r.end, .pgoff = r.pgoff,
					     .file = intern(p, r.dso) };

		if (r.build_id_size && r.build_id_size <= sizeof(m.build_id)) {
			memcpy(m.build_id, r.build_id, r.build_id_size);
			m.build_id_size = r.build_id_size;
		}
		l->mapping = mapping_get(p, &m);
		l->dso = m.file;
		l->dso_off = l->ip - r.start + r.pgoff;
	}
	if (e && file && pp->o->user_symbols && !from_snapshot(p, &r))
		e = r.sym.name ? 0 : -ENOENT;
	if (!e) {
		l->sym = intern_sym(p, r.sym.name);
		l->off = r.sym.off + (l->ip - look);
		loc_lines(p, l, &r.sym, NULL);
		return;
	}
	/* No symbol: still one function, the one its FDE describes. */
	if (file && r.sym.fde) {
		l->sym = internf(p, "%s+0x%" PRIx64, base_name(l->dso), r.fstart);
		l->off = l->dso_off - r.fstart;
		loc_lines(p, l, &r.sym, NULL);
		return;
	}
	/* JIT code lives in anonymous memory, or outside any recorded mapping. */
	if (pp->o->user_symbols && !file && pp->usnap &&
	    !dw_usnap_lookup_jit(pp->usnap, pid, look, &sr)) {
		l->sym = intern(p, sr.name);
		l->off = sr.off + (l->ip - look);
		l->dso = internf(p, "/tmp/perf-%u.map", pid);
		p->usyms_used++;
		loc_lines(p, l, NULL, l->sym);
		return;
	}
	if (pp->o->user_symbols && !file &&
	    (pm = perfmap_get(p, pid, &pm_path)) &&
	    (name = dw_perfmap_lookup(pm, look, &l->off, NULL))) {
		l->sym = intern(p, name);
		l->off += l->ip - look;
		l->dso = pm_path;
		loc_lines(p, l, NULL, l->sym);
		return;
	}
	if (file && pp->o->user_symbols)
		note_unnamed(p, l->dso, &r);
	if (l->dso)
		name = internf(p, "[unknown] (%s+0x%" PRIx64 ")", base_name(l->dso), l->dso_off);
	else
		name = intern(p, "[unknown]");
	loc_lines(p, l, NULL, name);
}

static void kernel_loc(struct dw_prof *p, struct dw_prof_loc *l, int adj)
{
	struct prof_priv *pp = p->priv;
	uint64_t look = l->ip - (adj ? 1 : 0), off = 0;
	const char *name = NULL, *mod = NULL;
	struct dw_prof_mapping m = { .kernel = 1 };

	l->kernel = 1;
	if (pp->ksyms)
		name = dw_kallsyms_lookup(pp->ksyms, look, &off, &mod);
	if (name) {
		l->sym = intern(p, name);
		l->off = off + (l->ip - look);
		l->dso = internf(p, "[%s]", mod);
	} else if (pp->ksyms && (mod = dw_kallsyms_module(pp->ksyms, l->ip, &off))) {
		l->dso = internf(p, "[%s]", mod);
		l->dso_off = off;
	} else {
		l->dso = intern(p, "[kernel.kallsyms]");
		l->dso_off = l->ip;
	}
	m.file = l->dso;
	l->mapping = mapping_get(p, &m);
	if (l->sym)
		loc_lines(p, l, NULL, l->sym);
	else if (strcmp(l->dso, "[kernel.kallsyms]"))
		loc_lines(p, l, NULL, internf(p, "[unknown] (%s+0x%" PRIx64 ")", l->dso,
					      l->dso_off));
	else
		loc_lines(p, l, NULL, internf(p, "[unknown] (0x%" PRIx64 ")", l->ip));
}

static int loc_eq(const struct dw_prof *p, uint32_t id, const void *key)
{
	const struct prof_priv *pp = p->priv;
	const struct loc_key *a = &pp->loc_keys[id], *b = key;

	return a->ip == b->ip && a->kind == b->kind && a->pid == b->pid && a->image == b->image;
}

/* Index of the location for @k, resolved on first sight; -1 on ENOMEM. */
static long loc_get(struct dw_prof *p, const struct loc_key *k, __u64 time, struct dw_maps *live)
{
	struct prof_priv *pp = p->priv;
	uint64_t h = hash_ptr(k->image, hash_bytes(k, offsetof(struct loc_key, kind) + sizeof(int),
						   HASH0));
	struct dw_prof_loc *l;
	size_t at, cap = pp->cap_locs;
	long id = ht_find(p, &pp->loc_ht, h, loc_eq, k, &at);

	if (id >= 0)
		return id;
	if (grow((void **)&p->locs, &pp->cap_locs, p->nr_locs, sizeof(*p->locs)))
		goto nomem;
	if (cap != pp->cap_locs) {
		struct loc_key *nk = realloc(pp->loc_keys, pp->cap_locs * sizeof(*nk));

		if (!nk)
			goto nomem;
		pp->loc_keys = nk;
	}
	if (ht_insert(&pp->loc_ht, h, (uint32_t)p->nr_locs))
		goto nomem;
	pp->loc_keys[p->nr_locs] = *k;
	l = &p->locs[p->nr_locs];
	memset(l, 0, sizeof(*l));
	l->ip = k->ip;
	if (k->kind == 4) {
		l->marker = 1;
		l->ip = 0;
		l->dso = intern(p, DW_PROF_MARKER_DSO);
		loc_lines(p, l, NULL, internf(p, "[truncated: %s]", dw_prof_stop_name((int)k->ip)));
	} else if (k->kind >= 2) {
		kernel_loc(p, l, k->kind == 3);
	} else {
		user_loc(p, l, k->pid, time, k->kind == 1, live);
	}
	return (long)p->nr_locs++;
nomem:
	pp->err = -ENOMEM;
	return -1;
}

static int push_loc(struct dw_prof *p, const struct loc_key *k, __u64 time, struct dw_maps *live)
{
	struct prof_priv *pp = p->priv;
	long id = loc_get(p, k, time, live);

	if (id < 0 || grow((void **)&p->stack, &pp->cap_stack, p->nr_stack, sizeof(*p->stack))) {
		pp->err = -ENOMEM;
		return -ENOMEM;
	}
	p->stack[p->nr_stack++] = (uint32_t)id;
	return 0;
}

/* Boot-time start of process @pid in ns, or 0 if unknown. */
static unsigned long long proc_start_ns(int pid)
{
	char path[64], buf[1024], *s;
	unsigned long long ticks = 0;
	long hz = sysconf(_SC_CLK_TCK);
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	s = strrchr(buf, ')');		/* comm may hold spaces */
	if (!s || hz <= 0)
		return 0;
	for (i = 3; i <= 22 && s; i++)	/* starttime is field 22 */
		s = strchr(s + 1, ' ');
	if (!s || sscanf(s + 1, "%llu", &ticks) != 1)
		return 0;
	return ticks * (1000000000ULL / (unsigned long long)hz);
}

/* What the running system says about @pid, if it is the recorded process. */
static struct live_proc *live_get(struct dw_prof *p, int pid)
{
	struct prof_priv *pp = p->priv;
	struct live_proc *lp;
	unsigned long long start;
	char path[64];
	FILE *f;

	for (lp = pp->live; lp; lp = lp->next)
		if (lp->pid == pid)
			return lp;
	lp = calloc(1, sizeof(*lp));
	if (!lp)
		return NULL;
	lp->pid = pid;
	snprintf(lp->comm, sizeof(lp->comm), ":%d", pid);	/* perf's "unknown" */
	lp->next = pp->live;
	pp->live = lp;
	if (pp->other_boot) {
		p->live_refused++;
		return lp;
	}
	start = proc_start_ns(pid);
	if (!start || !p->hdr.created_boottime_ns || start > p->hdr.created_boottime_ns)
		return lp;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(lp->comm, sizeof(lp->comm), f))
			lp->comm[strcspn(lp->comm, "\n")] = '\0';
		fclose(f);
	}
	if (pp->o->user_symbols)
		lp->maps = dw_maps_load(pid);
	return lp;
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
		lp = live_get(p, (int)s->pid);
	if (!comm)
		comm = lp ? lp->comm : "[unknown]";
	if (o->comm && strcmp(o->comm, comm)) {
		p->filtered++;
		return;
	}
	if (grow((void **)&p->samples, &pp->cap_samples, p->nr_samples, sizeof(*ps))) {
		pp->err = -ENOMEM;
		return;
	}
	ps = &p->samples[p->nr_samples++];
	*ps = (struct dw_prof_sample){ .pid = s->pid, .tid = s->tid, .cpu = s->cpu,
				       .time = s->time, .period = s->period, .flags = s->flags,
				       .comm = intern(p, comm), .first = (uint32_t)p->nr_stack };
	p->total_period += s->period;
	if (s->flags & DUNWIND_SAMPLE_OFF_CPU) {
		p->offcpu++;
		p->offcpu_period += s->period;
		p->offcpu_open += !!(s->flags & DUNWIND_SAMPLE_OFF_CPU_OPEN);
	}
	if (s->flags & DUNWIND_SAMPLE_KERNEL_TRUNC)
		p->kernel_trunc++;
	for (i = 0; i < s->nr_kernel; i++) {
		k = (struct loc_key){ .ip = s->ips[i], .kind = i ? 3 : 2 };
		push_loc(p, &k, s->time, NULL);
	}
	ps->stop = DUNWIND_STOP_END;
	if (u) {
		ut = u->time;
		for (i = 0; i < u->nr; i++) {
			k = (struct loc_key){ .ip = u->ips[i], .kind = i ? 1 : 0, .pid = s->pid,
					      .image = dw_procs_image(pp->model, s->pid, ut) };
			push_loc(p, &k, ut, lp ? lp->maps : NULL);
		}
		ps->stop = u->stop;
		p->stacks_by_method[u->methods & 3]++;
		p->nr_fp += u->nr_fp;
		p->nr_sframe += u->nr_sframe;
		p->user_frames += u->nr;
	} else if (s->cookie && !(s->flags & DUNWIND_SAMPLE_NO_USER)) {
		ps->stop = pp->lost_stacks ? DW_PROF_STOP_LOST : DW_PROF_STOP_MISSING;
		if (s->flags & DUNWIND_SAMPLE_OFF_CPU_OPEN)
			ps->stop = DW_PROF_STOP_BLOCKED;
	}
	if (ps->stop != DUNWIND_STOP_END) {
		k = (struct loc_key){ .ip = (uint64_t)ps->stop, .kind = 4 };
		push_loc(p, &k, 0, NULL);
	}
	p->stops[ps->stop]++;
	ps->nr = (uint32_t)(p->nr_stack - ps->first);
}

/* Kernel symbols: --kallsyms, else the snapshot, else this boot's /proc/kallsyms. */
static void load_ksyms(struct dw_prof *p, struct dw_ksnap *snap, const char *path)
{
	struct prof_priv *pp = p->priv;
	char why[200];

	if (pp->o->kallsyms) {
		pp->ksyms = dw_kallsyms_load(pp->o->kallsyms);
		snprintf(p->ksyms_from, sizeof(p->ksyms_from), "%s%s%s", pp->o->kallsyms,
			 pp->ksyms ? "" : ": ", pp->ksyms ? "" : strerror(errno));
		return;
	}
	pp->ksyms = dw_ksnap_symbols(snap, why, sizeof(why));
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
	char why[200];
	int e = dw_usnap_load(pp->usnap, why, sizeof(why));

	if (e == -ENOMEM)
		return e;
	if (e) {
		snprintf(p->usyms_from, sizeof(p->usyms_from), "the mapped files only (%s)", why);
		dw_usnap_free(pp->usnap);
		pp->usnap = NULL;
		return 0;
	}
	snprintf(p->usyms_from, sizeof(p->usyms_from), "the mapped files when they are the "
		 "recorded ones, else the capture's snapshot");
	return 0;
}

/* Name the files whose addresses stayed unnamed, and say what to do. */
static void warn_unnamed(const struct dw_prof *p)
{
	const struct prof_priv *pp = p->priv;
	const struct unnamed_file *u;
	int n = 0;

	if (!pp->unnamed)
		return;
	fprintf(stderr, "dunwind: no function names for %lu addresses in:", p->unnamed);
	for (u = pp->unnamed; u; u = u->next, n++) {
		if (n < 8)
			fprintf(stderr, " %s%s%s%s", u->path, u->stale_id[0] ? " (not the recorded "
				"file: that had build-id " : "", u->stale_id, u->stale_id[0] ? ")" : "");
	}
	if (n > 8)
		fprintf(stderr, " and %d more", n - 8);
	fprintf(stderr, "\ndunwind: to name them: %s; or give the recorded files with --symfs "
		"DIR (a copy of the recording machine's root) or --debug-dir DIR (.build-id/xx/"
		"yyyy[.debug]), or set DEBUGINFOD_URLS\n", pp->usnap ?
		"the capture's snapshot does not know them (stripped files without .eh_frame?)" :
		"record without --no-symbol-snapshot so the capture names them");
}

/**
 * dw_prof_load() - read, stitch and symbolise a capture
 * @out:	set to the profile (free with dw_prof_free())
 * @path:	capture file
 * @o:		options
 * @err:	set to a message on failure
 * @errlen:	size of @err
 *
 * Context: user space; reads the capture, the mapped files and their
 * debug info (maybe from debuginfod).
 * Return: 0; -ENOENT (no such capture); -EINVAL (malformed, @err says
 * how); -ENOMEM.
 */
int dw_prof_load(struct dw_prof **out, const char *path, const struct dw_prof_opts *o,
		 char *err, size_t errlen)
{
	const struct dunwind_rec_header *rec;
	struct dw_capture_reader r;
	struct prof_priv *pp;
	struct dw_ksnap *snap = NULL;
	struct dw_stitch *st = NULL;
	struct dw_prof *p;
	int e;

	*out = NULL;
	e = dw_capture_open(&r, path);
	if (e) {
		snprintf(err, errlen, "%s: %s", path, e == -ENOENT ?
			 "no such file: record one with 'dunwind record' or give -i FILE" : r.err);
		return e;
	}
	if (r.cut)
		fprintf(stderr, "dunwind: %s: %s\n", path, r.err);
	p = calloc(1, sizeof(*p));
	pp = calloc(1, sizeof(*pp));
	if (!p || !pp) {
		free(p);
		free(pp);
		dw_capture_release(&r);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	p->priv = pp;
	p->hdr = r.hdr;
	pp->o = o;
	pp->dso_flags = (o->src || o->inline_frames) ? DW_DSO_SRC : 0;
	/* Replaced and missing files: one warning at the end (warn_unnamed()). */
	dw_dso_set_quiet(1);
	if ((o->debug_dirs && dw_dso_set_debug_dirs(o->debug_dirs)) ||
	    (o->symfs && dw_dso_set_symfs(o->symfs)))
		goto nomem;
	st = dw_stitch_new();
	pp->model = dw_procs_new();
	snap = dw_ksnap_new();
	pp->usnap = dw_usnap_new();
	if (!st || !pp->model || !snap || !pp->usnap)
		goto nomem;
	while ((rec = dw_capture_next_any(&r))) {
		if (rec->type >= DUNWIND_REC_MAX) {
			if (rec->type == DW_REC_KSYMS)
				e = dw_ksnap_add(snap, rec);
			else if (rec->type == DW_REC_USYMS)
				e = dw_usnap_add(pp->usnap, rec);
			else
				p->skipped++;
		} else {
			const struct dunwind_rec_lost *lost = (const void *)rec;

			if (rec->type == DUNWIND_REC_LOST)
				pp->lost_stacks += lost->lost[DUNWIND_REC_USER_STACK];
			e = dw_stitch_add(st, rec);
			if (!e && (o->user_symbols || rec->type != DUNWIND_REC_MMAP))
				e = dw_procs_add(pp->model, rec);
		}
		if (e)
			goto nomem;
	}
	pp->other_boot = dw_capture_same_boot(&r.hdr) == 0;
	p->other_boot = pp->other_boot;
	load_ksyms(p, snap, path);
	if (load_usyms(p))
		goto nomem;
	dw_stitch_finish(st, on_sample, p, &p->counts);
	if (pp->err)
		goto nomem;
	if (!o->quiet)
		warn_unnamed(p);
	dw_stitch_free(st);
	dw_ksnap_free(snap);
	dw_capture_release(&r);
	*out = p;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
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
	struct live_proc *lp, *lnext;
	struct perfmap_ent *pe, *pnext;
	size_t i;

	if (!p)
		return;
	pp = p->priv;
	if (pp) {
		for (i = 0; i < pp->nr_strs; i++)
			free(pp->strs[i]);
		free(pp->strs);
		free(pp->str_ht.slot);
		free(pp->func_ht.slot);
		free(pp->loc_ht.slot);
		free(pp->map_ht.slot);
		free(pp->loc_keys);
		for (lp = pp->live; lp; lp = lnext) {
			lnext = lp->next;
			dw_maps_free(lp->maps);
			free(lp);
		}
		for (pe = pp->perfmaps; pe; pe = pnext) {
			pnext = pe->next;
			dw_perfmap_free(pe->map);
			free(pe);
		}
		dw_procs_free(pp->model);
		dw_kallsyms_free(pp->ksyms);
		dw_usnap_free(pp->usnap);
		while (pp->unnamed) {
			struct unnamed_file *u = pp->unnamed;

			pp->unnamed = u->next;
			free(u);
		}
		free(pp);
	}
	free(p->samples);
	free(p->stack);
	free(p->locs);
	free(p->lines);
	free(p->funcs);
	free(p->mappings);
	free(p);
	dw_dso_cache_free();
}
