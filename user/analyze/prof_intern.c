// SPDX-License-Identifier: GPL-2.0
/*
 * The profile's strings, functions and mappings, interned: equal ones
 * share one index (one pointer for strings), so the outputs aggregate by
 * index and compare by pointer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/profile_priv.h"
#include "symbols/demangle.h"

static int str_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_prof *p = ctx;
	const struct prof_priv *pp = p->priv;

	return !strcmp(pp->strs[id], key);
}

/* The pooled copy of @s (NULL stays NULL); NULL with pp->err on ENOMEM. */
const char *prof_intern(struct dw_prof *p, const char *s)
{
	struct prof_priv *pp = p->priv;
	uint64_t h;
	long id;

	if (!s)
		return NULL;
	h = dw_hash_bytes(s, strlen(s), DW_HASH_INIT);
	id = dw_htab_find(&pp->str_ht, h, str_eq, p, s);
	if (id >= 0)
		return pp->strs[id];
	if (PROF_GROW(pp->strs, pp->cap_strs, pp->nr_strs))
		goto nomem;
	pp->strs[pp->nr_strs] = strdup(s);
	if (!pp->strs[pp->nr_strs] || dw_htab_insert(&pp->str_ht, h, (uint32_t)pp->nr_strs))
		goto nomem;
	return pp->strs[pp->nr_strs++];
nomem:
	pp->err = -ENOMEM;
	return NULL;
}

/* The pooled readable form of symbol @raw: demangled (unless --no-demangle), unversioned. */
const char *prof_intern_sym(struct dw_prof *p, const char *raw)
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
	s = prof_intern(p, d);
	free(d);
	return s;
}

const char *prof_internf(struct dw_prof *p, const char *fmt, ...)
{
	char buf[4200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return prof_intern(p, buf);
}

static int func_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_prof *p = ctx;
	const struct dw_prof_func *a = &p->funcs[id], *b = key;

	return a->name == b->name && a->dso == b->dso && a->file == b->file &&
	       a->start_line == b->start_line;
}

/*
 * Index of the function (@name, @dso, @file), all interned, that starts
 * at line @start_line (a Python function's; 0 for others).  -1 on ENOMEM.
 */
long prof_func_get_at(struct dw_prof *p, const char *name, const char *dso, const char *file,
		      int start_line)
{
	struct prof_priv *pp = p->priv;
	struct dw_prof_func f = { name, dso, file, start_line };
	uint64_t h = dw_hash_ptr(file, dw_hash_ptr(dso, dw_hash_ptr(name, DW_HASH_INIT)));
	long id;

	h = dw_hash_bytes(&start_line, sizeof(start_line), h);
	id = dw_htab_find(&pp->func_ht, h, func_eq, p, &f);

	if (id >= 0)
		return id;
	if (PROF_GROW(p->funcs, pp->cap_funcs, p->nr_funcs) ||
	    dw_htab_insert(&pp->func_ht, h, (uint32_t)p->nr_funcs)) {
		pp->err = -ENOMEM;
		return -1;
	}
	p->funcs[p->nr_funcs] = f;
	return (long)p->nr_funcs++;
}

/* Index of the function (@name, @dso, @file), all interned. -1 on ENOMEM. */
long prof_func_get(struct dw_prof *p, const char *name, const char *dso, const char *file)
{
	return prof_func_get_at(p, name, dso, file, 0);
}

static int map_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct dw_prof *p = ctx;
	const struct dw_prof_mapping *a = &p->mappings[id], *b = key;

	return a->file == b->file && a->start == b->start && a->end == b->end &&
	       a->pgoff == b->pgoff && a->kernel == b->kernel;
}

/* Index + 1 of the mapping like @m (file interned); 0 on ENOMEM. */
uint32_t prof_mapping_get(struct dw_prof *p, const struct dw_prof_mapping *m)
{
	struct prof_priv *pp = p->priv;
	uint64_t h = dw_hash_ptr(m->file, dw_hash_bytes(&m->start, sizeof(m->start), DW_HASH_INIT));
	long id;

	h = dw_hash_bytes(&m->end, sizeof(m->end), dw_hash_bytes(&m->pgoff, sizeof(m->pgoff), h));
	id = dw_htab_find(&pp->map_ht, h, map_eq, p, m);
	if (id >= 0)
		return (uint32_t)id + 1;
	if (PROF_GROW(p->mappings, pp->cap_maps, p->nr_mappings) ||
	    dw_htab_insert(&pp->map_ht, h, (uint32_t)p->nr_mappings)) {
		pp->err = -ENOMEM;
		return 0;
	}
	p->mappings[p->nr_mappings++] = *m;
	return (uint32_t)p->nr_mappings;
}

int prof_add_line(struct dw_prof *p, long func, int line)
{
	struct prof_priv *pp = p->priv;

	if (func < 0 || PROF_GROW(p->lines, pp->cap_lines, p->nr_lines)) {
		pp->err = -ENOMEM;
		return -ENOMEM;
	}
	p->lines[p->nr_lines++] = (struct dw_prof_line){ (uint32_t)func, line };
	return 0;
}

/* Free the string pool and the tables; the arrays are the profile's. */
void prof_intern_free(struct prof_priv *pp)
{
	size_t i;

	for (i = 0; i < pp->nr_strs; i++)
		free(pp->strs[i]);
	free(pp->strs);
	dw_htab_free(&pp->str_ht);
	dw_htab_free(&pp->func_ht);
	dw_htab_free(&pp->map_ht);
}
