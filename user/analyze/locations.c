// SPDX-License-Identifier: GPL-2.0
/*
 * The profile's locations, each resolved on first sight.
 *
 * Kernel addresses are named from the kernel symbols (the capture's
 * snapshot, --kallsyms, or this boot's /proc/kallsyms).  User addresses
 * are found in the process's mappings (MMAP records, else the live
 * process) and named by the chain of symbolizers (symbolizer.c: the
 * mapped file's symbols, the capture's snapshot, the FDE's range, JIT
 * code from the snapshot or /tmp/perf-PID.map).  What stays unnamed is
 * "[unknown] (dso+off)", and
 * its files are named once at the end (prof_warn_unnamed()).  A stack
 * cut short ends in a marker location "[truncated: REASON]".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/profile_priv.h"
#include "interp/linetable.h"
#include "symbols/dso.h"
#include "symbols/symbolizer.h"
#include "util/log.h"

/*
 * The order is the order of trust: the mapped file's own symbols (and
 * debug info), then the capture's snapshot of the recorded file when the
 * file here is not that one, then the range of the function's FDE (a
 * stripped function is still one function); for code outside any file
 * (JIT), the snapshot's copy of the process's perf map, then the perf map
 * here.  A new kind of name (an interpreter's frames) is one more entry.
 */
const struct dw_symbolizer *const prof_user_symbolizers[] = {
	&dw_sym_elf,
	&dw_sym_snapshot,
	&dw_sym_fde,
	&dw_sym_snapshot_jit,
	&dw_sym_perfmap,
	NULL
};

/* A mapped file some of whose addresses got no name: for the warning. */
struct unnamed_file {
	struct unnamed_file *next;
	const char *path;
	char stale_id[41];		/* the file here is another one: the recorded id */
	unsigned long locs;
};

/* A file's base name; pseudo paths ("//anon", "[heap]") stay whole. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	if (path[0] != '/' || path[1] == '/')
		return path;
	return s && s[1] ? s + 1 : path;
}

/* Fill location @l (already holding ip/kind) with its lines from @sr, or one line. */
static void loc_lines(struct dw_prof *p, struct dw_prof_loc *l, const struct dw_symres *sr,
		      const char *fname)
{
	struct prof_priv *pp = p->priv;
	unsigned int i, n = sr ? sr->nr_frames : 0;

	l->first_line = (uint32_t)p->nr_lines;
	if (!fname)
		fname = l->sym ? l->sym : prof_intern(p, "[unknown]");
	if (!n || !l->sym) {
		const char *file = n ? prof_intern(p, sr->frames[n - 1].file) : NULL;

		prof_add_line(p, prof_func_get(p, fname, l->dso, file),
			      n ? sr->frames[n - 1].line : 0);
		l->nr_lines = 1;
		return;
	}
	/* Without --inline only the real function, at its line of the address. */
	for (i = pp->o->inline_frames ? 0 : n - 1; i < n; i++) {
		const char *name = i == n - 1 ? l->sym : sr->frames[i].func;

		if (!name)
			name = "[unknown]";
		if (i != n - 1)
			name = prof_intern_sym(p, name);
		prof_add_line(p, prof_func_get(p, name, l->dso, prof_intern(p, sr->frames[i].file)),
			      sr->frames[i].line);
		l->nr_lines++;
	}
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

/* Name location @l (@look: its address as looked up) as symbolizer answer @a says. */
static void name_user(struct dw_prof *p, struct dw_prof_loc *l, uint64_t look,
		      const struct dw_symans *a)
{
	if (a->name) {
		l->sym = a->mangled ? prof_intern_sym(p, a->name) : prof_intern(p, a->name);
		l->off = a->off + (l->ip - look);
	} else {
		l->sym = prof_internf(p, "%s+0x%" PRIx64, base_name(l->dso), a->fstart);
		l->off = l->dso_off - a->fstart;
	}
	if (a->dso)
		l->dso = prof_intern(p, a->dso);
	if (a->snapshot)
		p->usyms_used++;
	loc_lines(p, l, a->src, a->src ? NULL : l->sym);
}

static void user_loc(struct dw_prof *p, struct dw_prof_loc *l, __u32 pid, __u64 time, int adj,
		     struct dw_maps *live)
{
	struct prof_priv *pp = p->priv;
	struct dw_symq q = { .pid = pid, .addr = l->ip - (adj ? 1 : 0) };
	struct dw_mapres r;
	struct dw_symans a;
	const char *name;

	memset(&r, 0, sizeof(r));
	if (pp->o->user_symbols && dw_procs_has_maps(pp->model, pid))
		dw_procs_resolve(pp->model, pid, time, q.addr, pp->dso_flags, &r);
	else if (pp->o->user_symbols && live)
		dw_maps_resolve(live, q.addr, pp->dso_flags, &r);
	q.map = &r;
	q.image = r.mapped && r.dso && dw_dso_path_is_image(r.dso);
	if (r.mapped && r.dso) {
		struct dw_prof_mapping m = { .start = r.start, .end = r.end, .pgoff = r.pgoff,
					     .file = prof_intern(p, r.dso) };

		if (r.build_id_size && r.build_id_size <= sizeof(m.build_id)) {
			memcpy(m.build_id, r.build_id, r.build_id_size);
			m.build_id_size = r.build_id_size;
		}
		l->mapping = prof_mapping_get(p, &m);
		l->dso = m.file;
		l->dso_off = l->ip - r.start + r.pgoff;
	}
	if (pp->o->user_symbols && !dw_symbolize(pp->syms, &q, &a)) {
		name_user(p, l, q.addr, &a);
		return;
	}
	if (q.image && pp->o->user_symbols)
		note_unnamed(p, l->dso, &r);
	if (l->dso)
		name = prof_internf(p, "[unknown] (%s+0x%" PRIx64 ")", base_name(l->dso),
				    l->dso_off);
	else
		name = prof_intern(p, "[unknown]");
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
		l->sym = prof_intern(p, name);
		l->off = off + (l->ip - look);
		l->dso = prof_internf(p, "[%s]", mod);
	} else if (pp->ksyms && (mod = dw_kallsyms_module(pp->ksyms, l->ip, &off))) {
		l->dso = prof_internf(p, "[%s]", mod);
		l->dso_off = off;
	} else {
		l->dso = prof_intern(p, "[kernel.kallsyms]");
		l->dso_off = l->ip;
	}
	m.file = l->dso;
	l->mapping = prof_mapping_get(p, &m);
	if (l->sym)
		loc_lines(p, l, NULL, l->sym);
	else if (strcmp(l->dso, "[kernel.kallsyms]"))
		loc_lines(p, l, NULL, prof_internf(p, "[unknown] (%s+0x%" PRIx64 ")", l->dso,
					      l->dso_off));
	else
		loc_lines(p, l, NULL, prof_internf(p, "[unknown] (0x%" PRIx64 ")", l->ip));
}

/* Why a Python chain was cut, as its marker says it. */
static const char *py_stop_name(uint64_t why)
{
	static const char *const names[DUNWIND_INTERP_STOP_MAX] = {
		[DUNWIND_INTERP_STOP_END] = "end",
		[DUNWIND_INTERP_STOP_NO_THREAD] = "no thread state",
		[DUNWIND_INTERP_STOP_MAX_DEPTH] = "too deep",
		[DUNWIND_INTERP_STOP_FAULT] = "fault",
		[DUNWIND_INTERP_STOP_BAD_FRAME] = "bad frame",
		[DUNWIND_INTERP_STOP_CYCLE] = "cycle",
		[DUNWIND_INTERP_STOP_BOUND] = "bound",
	};

	if (why < DUNWIND_INTERP_STOP_MAX)
		return names[why];
	return why == LOC_PY_STOP_ENTRY ? "malformed entry" : "not a code object";
}

/*
 * The line of the instruction at byte offset @insn of code object @c
 * (negative: not started, its first line); 0 if unknown.
 */
static int py_line(const struct dw_pysnap_code *c, __s32 insn)
{
	int line = 0;

	if (insn < 0)
		return c->firstlineno > 0 ? c->firstlineno : 0;
	if (!c->table_len || dw_py_line(c->table, c->table_len, c->firstlineno, insn, &line) ||
	    line < 0)
		return 0;
	return line;
}

/*
 * A Python frame: "qualname (file.py:LINE)", its function's file the
 * source file, from the capture's code objects; and, for pprof, the
 * Python function itself (qualname, file, first line: @l->py_func).  One
 * the capture does not know is a marker: the chain cannot be named there.
 * The code object is the record of the stack's time (@k->image), so an
 * address that held two objects is two locations.
 */
static void python_loc(struct dw_prof *p, struct dw_prof_loc *l, const struct loc_key *k)
{
	const struct dw_pysnap_code *c = k->image;
	const char *name, *file;
	long fn;
	int line;

	l->dso = prof_intern(p, DW_PROF_PYTHON_DSO);
	if (!c) {
		l->marker = 1;
		l->ip = 0;
		l->dso = prof_intern(p, DW_PROF_MARKER_DSO);
		loc_lines(p, l, NULL, prof_intern(p, "[python: not a code object]"));
		return;
	}
	l->python = 1;
	line = py_line(c, k->insn);
	if (line > 0)
		name = prof_internf(p, "%s (%s:%d)", c->name[0] ? c->name : "?", base_name(c->file),
				    line);
	else
		name = prof_internf(p, "%s (%s)", c->name[0] ? c->name : "?", base_name(c->file));
	l->sym = name;
	file = prof_intern(p, c->file);
	l->first_line = (uint32_t)p->nr_lines;
	prof_add_line(p, prof_func_get(p, name, l->dso, file), line);
	l->nr_lines = 1;
	fn = prof_func_get_at(p, prof_intern(p, c->name[0] ? c->name : "?"), l->dso, file,
			      c->firstlineno > 0 ? c->firstlineno : 0);
	l->py_func = fn >= 0 ? (uint32_t)fn : 0;	/* -1: pp->err says ENOMEM */
}

/**
 * prof_push_user() - push user stack entry @i of @u (and what goes with it)
 * @p:		the profile
 * @u:		the stack
 * @i:		the entry
 * @image:	the process image, @live: the live process's maps, or NULL
 *
 * A Python frame is a tagged entry and its code address, a Python stop
 * one tagged entry (Documentation/abi.rst, "Interpreter frames"); a
 * tagged entry that is neither, or a frame without its code address, is
 * a marker.
 * Return: the index of the last entry used.
 */
unsigned int prof_push_user(struct dw_prof *p, const struct dunwind_rec_user_stack *u,
			    unsigned int i, const void *image, struct dw_maps *live)
{
	__u64 e = u->ips[i];
	struct loc_key k = { .ip = e, .kind = i ? LOC_USER_RET : LOC_USER, .pid = u->pid,
			     .image = image };

	if (!DUNWIND_IP_IS_INTERP(e)) {
		prof_push_loc(p, &k, u->time, live);
		return i;
	}
	k = (struct loc_key){ .ip = LOC_PY_STOP_ENTRY, .kind = LOC_PY_STOP };
	if (DW_IS_PY_FRAME(e) && i + 1 < u->nr) {
		struct prof_priv *pp = p->priv;

		/* The object at the address when the stack was taken: the key. */
		k = (struct loc_key){ .ip = u->ips[i + 1], .kind = LOC_PY, .pid = u->pid,
				      .insn = (__s32)(__u32)e,
				      .image = dw_pysnap_find(&pp->pysnap, u->pid, u->ips[i + 1],
							      u->time) };
		i++;
	} else if (DW_IS_PY_STOP(e)) {
		k.ip = e & 0xff;
	}
	prof_push_loc(p, &k, u->time, NULL);
	return i;
}

static int loc_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_prof *p = ctx;
	const struct prof_priv *pp = p->priv;
	const struct loc_key *a = &pp->loc_keys[id], *b = key;

	return a->ip == b->ip && a->kind == b->kind && a->pid == b->pid && a->image == b->image &&
	       a->insn == b->insn;
}

/* Index of the location for @k, resolved on first sight; -1 on ENOMEM. */
static long loc_get(struct dw_prof *p, const struct loc_key *k, __u64 time, struct dw_maps *live)
{
	struct prof_priv *pp = p->priv;
	uint64_t h = dw_hash_ptr(k->image, dw_hash_bytes(k, offsetof(struct loc_key, kind) +
							 sizeof(k->kind), DW_HASH_INIT));
	struct dw_prof_loc *l;
	long id = dw_htab_find(&pp->loc_ht, h, loc_eq, p, k);

	if (id >= 0)
		return id;
	if (PROF_GROW(p->locs, pp->cap_locs, p->nr_locs) ||
	    PROF_GROW(pp->loc_keys, pp->cap_loc_keys, p->nr_locs))
		goto nomem;
	if (dw_htab_insert(&pp->loc_ht, h, (uint32_t)p->nr_locs))
		goto nomem;
	pp->loc_keys[p->nr_locs] = *k;
	l = &p->locs[p->nr_locs];
	memset(l, 0, sizeof(*l));
	l->ip = k->ip;
	switch (k->kind) {
	case LOC_STOP:
		l->marker = 1;
		l->ip = 0;
		l->dso = prof_intern(p, DW_PROF_MARKER_DSO);
		loc_lines(p, l, NULL, prof_internf(p, "[truncated: %s]",
						   dw_prof_stop_name((int)k->ip)));
		break;
	case LOC_PY:
		python_loc(p, l, k);
		break;
	case LOC_PY_STOP:
		l->marker = 1;
		l->ip = 0;
		l->dso = prof_intern(p, DW_PROF_MARKER_DSO);
		loc_lines(p, l, NULL, prof_internf(p, "[python: %s]", py_stop_name(k->ip)));
		break;
	case LOC_WALK:
		l->marker = 1;
		l->dso = prof_intern(p, DW_PROF_WALK_FRAME);
		loc_lines(p, l, NULL, prof_intern(p, DW_PROF_WALK_FRAME));
		break;
	case LOC_KERNEL:
	case LOC_KERNEL_RET:
		kernel_loc(p, l, k->kind == LOC_KERNEL_RET);
		break;
	case LOC_USER:
	case LOC_USER_RET:
		user_loc(p, l, k->pid, time, k->kind == LOC_USER_RET, live);
		break;
	}
	return (long)p->nr_locs++;
nomem:
	pp->err = -ENOMEM;
	return -1;
}

int prof_push_loc(struct dw_prof *p, const struct loc_key *k, __u64 time, struct dw_maps *live)
{
	struct prof_priv *pp = p->priv;
	long id = loc_get(p, k, time, live);

	if (id < 0 || PROF_GROW(p->stack, pp->cap_stack, p->nr_stack)) {
		pp->err = -ENOMEM;
		return -ENOMEM;
	}
	p->stack[p->nr_stack++] = (uint32_t)id;
	return 0;
}

/* Name the files whose addresses stayed unnamed, and say what to do. */
void prof_warn_unnamed(const struct dw_prof *p)
{
	const struct prof_priv *pp = p->priv;
	const struct unnamed_file *u;
	char *files = NULL;
	size_t len = 0;
	FILE *f;
	int n = 0;

	if (!pp->unnamed)
		return;
	f = open_memstream(&files, &len);
	for (u = pp->unnamed; f && u; u = u->next, n++) {
		if (n < 8)
			fprintf(f, " %s%s%s%s", u->path, u->stale_id[0] ? " (not the recorded "
				"file: that had build-id " : "", u->stale_id, u->stale_id[0] ? ")" : "");
	}
	if (f && n > 8)
		fprintf(f, " and %d more", n - 8);
	if (f && fclose(f)) {
		free(files);
		files = NULL;
	}
	dw_warn("no function names for %lu addresses in:%s\ndunwind: to name them: %s; or give "
		"the recorded files with --symfs DIR (a copy of the recording machine's root) or "
		"--debug-dir DIR (.build-id/xx/yyyy[.debug]), or set DEBUGINFOD_URLS\n",
		p->unnamed, files ? files : " (out of memory for their names)", pp->usnap ?
		"the capture's snapshot does not know them (stripped files without .eh_frame?)" :
		"record without --no-symbol-snapshot so the capture names them");
	free(files);
}

/* Free the symbolizers' context and the list of unnamed files. */
void prof_locations_free(struct prof_priv *pp)
{
	dw_symctx_free(pp->syms);
	while (pp->unnamed) {
		struct unnamed_file *u = pp->unnamed;

		pp->unnamed = u->next;
		free(u);
	}
	free(pp->loc_keys);
	dw_htab_free(&pp->loc_ht);
}
