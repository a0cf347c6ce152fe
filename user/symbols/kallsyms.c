// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols from a kallsyms file: "ADDR TYPE NAME [MODULE]" lines.
 * Only text symbols are kept; a symbol ends where the next one starts.
 * All-zero addresses mean kptr_restrict hides them: the load fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/kallsyms.h"
#include "util/array.h"
#include "util/search.h"
#include "util/text.h"

/* The last symbol has no successor: accept this much past its start. */
#define DW_KSYM_LAST_SPAN	4096

struct dw_ksym {
	uint64_t addr;
	size_t name, mod;		/* offsets in names */
};

struct dw_kmod {
	uint64_t start, end;
	size_t name;			/* offset in names */
};

struct dw_kallsyms {
	struct dw_ksym *syms;
	size_t nr;
	struct dw_kmod *mods;		/* from a module list, sorted */
	size_t nr_mods;
	char *names;
	size_t names_len, names_cap;
};

static long add_str(struct dw_kallsyms *k, const char *s)
{
	size_t len = strlen(s) + 1;
	long at;

	if (DW_ARRAY_RESERVE(k->names, k->names_cap, k->names_len + len, 1 << 16))
		return -1;
	memcpy(k->names + k->names_len, s, len);
	at = (long)k->names_len;
	k->names_len += len;
	return at;
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct dw_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The table being read, and what its lines said. */
struct ks_reader {
	struct dw_kallsyms *k;
	size_t cap;
	long kern;			/* "kernel.kallsyms" in names */
	int nonzero, seen;
};

/* One "ADDR TYPE NAME [MOD]" line; text symbols are kept.  0 or -ENOMEM. */
static int ks_line(char *line, void *arg)
{
	struct ks_reader *r = arg;
	struct dw_kallsyms *k = r->k;
	unsigned long long addr;
	char type, name[512], mod[128];
	int n = sscanf(line, "%llx %c %511s [%127[^]]]", &addr, &type, name, mod);
	long noff, moff = r->kern;

	if (n < 3)
		return 0;
	r->seen++;
	if (addr)
		r->nonzero = 1;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (DW_ARRAY_RESERVE(k->syms, r->cap, k->nr + 1, 4096))
		return -ENOMEM;
	noff = add_str(k, name);
	if (n == 4)
		moff = add_str(k, mod);
	if (noff < 0 || moff < 0)
		return -ENOMEM;
	k->syms[k->nr++] = (struct dw_ksym){ .addr = addr, .name = (size_t)noff,
					     .mod = (size_t)moff };
	return 0;
}

/* Read the lines of @f (closed here; NULL: errno says why). */
static struct dw_kallsyms *kallsyms_read(FILE *f)
{
	struct ks_reader r = { 0 };
	struct dw_kallsyms *k;

	if (!f)
		return NULL;
	k = r.k = calloc(1, sizeof(*k));
	if (k)
		r.kern = add_str(k, "kernel.kallsyms");
	if (!k || r.kern < 0) {
		fclose(f);
		dw_kallsyms_free(k);
		errno = ENOMEM;
		return NULL;
	}
	if (dw_text_lines(f, ks_line, &r)) {
		dw_kallsyms_free(k);
		errno = ENOMEM;
		return NULL;
	}
	if (r.seen && !r.nonzero) {
		dw_kallsyms_free(k);
		errno = EPERM;
		return NULL;
	}
	if (!k->nr) {
		dw_kallsyms_free(k);
		errno = ENOENT;
		return NULL;
	}
	qsort(k->syms, k->nr, sizeof(*k->syms), ksym_cmp);
	return k;
}

/**
 * dw_kallsyms_load() - read the text symbols of a kallsyms file
 * @path:	file, NULL for /proc/kallsyms
 *
 * Context: user space, blocking I/O.
 * Return: the table, or NULL with errno set: from fopen(), EPERM if
 * every address reads as zero (kptr_restrict: run as root), ENOENT if
 * the file holds no text symbol, ENOMEM.
 */
struct dw_kallsyms *dw_kallsyms_load(const char *path)
{
	return kallsyms_read(fopen(path ? path : "/proc/kallsyms", "re"));
}

/**
 * dw_kallsyms_parse() - read the text symbols of kallsyms text in memory
 * @text:	the text (need not be NUL-terminated)
 * @len:	its length
 *
 * Context: user space.
 * Return: as dw_kallsyms_load().
 */
struct dw_kallsyms *dw_kallsyms_parse(const char *text, size_t len)
{
	return kallsyms_read(dw_text_open(text, len, ENOENT));
}

/**
 * dw_kallsyms_empty() - a table without symbols
 *
 * Context: user space.  For a capture whose samples needed no kernel
 * symbol: every lookup finds none, modules may still be added.
 * Return: the table, or NULL (errno ENOMEM).
 */
struct dw_kallsyms *dw_kallsyms_empty(void)
{
	return calloc(1, sizeof(struct dw_kallsyms));
}

static int kmod_cmp(const void *a, const void *b)
{
	const struct dw_kmod *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/**
 * dw_kallsyms_add_modules() - learn module extents from a module list
 * @k:		table
 * @text:	/proc/modules text: "NAME SIZE REFS DEPS STATE ADDR ..." lines
 * @len:	its length
 *
 * Context: user space.  Lines that do not parse, and modules at address 0
 * (addresses hidden), are skipped.
 * Return: modules added, or -ENOMEM.
 */
int dw_kallsyms_add_modules(struct dw_kallsyms *k, const char *text, size_t len)
{
	size_t cap = k->nr_mods, pos = 0;
	int added = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - text - pos) : len - pos;
		char line[512], name[128];
		unsigned long long size, addr;
		long noff;

		if (n < sizeof(line)) {
			memcpy(line, text + pos, n);
			line[n] = '\0';
			if (sscanf(line, "%127s %llu %*s %*s %*s %llx", name, &size, &addr) == 3 &&
			    addr && size && addr + size > addr) {
				if (DW_ARRAY_RESERVE(k->mods, cap, k->nr_mods + 1, 64))
					return -ENOMEM;
				noff = add_str(k, name);
				if (noff < 0)
					return -ENOMEM;
				k->mods[k->nr_mods++] = (struct dw_kmod){
					.start = addr, .end = addr + size, .name = (size_t)noff };
				added++;
			}
		}
		pos += n + 1;
	}
	if (k->nr_mods)
		qsort(k->mods, k->nr_mods, sizeof(*k->mods), kmod_cmp);
	return added;
}

/**
 * dw_kallsyms_module() - the module whose core holds @addr
 * @k:		table with modules from dw_kallsyms_add_modules()
 * @addr:	kernel address
 * @off:	set to the offset from the module's start (if not NULL)
 *
 * Context: user space; O(log n).
 * Return: the module's name, or NULL.
 */
const char *dw_kallsyms_module(const struct dw_kallsyms *k, uint64_t addr, uint64_t *off)
{
	size_t lo = DW_UPPER_BOUND(k->mods, k->nr_mods, start, addr);

	if (lo == 0 || addr >= k->mods[lo - 1].end)
		return NULL;
	if (off)
		*off = addr - k->mods[lo - 1].start;
	return k->names + k->mods[lo - 1].name;
}

/**
 * dw_kallsyms_lookup() - the symbol containing @addr
 * @k:		table from dw_kallsyms_load()
 * @addr:	kernel address
 * @off:	set to the offset from the symbol's start (if not NULL)
 * @mod:	set to the module's name, "kernel.kallsyms" for the core
 *		kernel (if not NULL)
 *
 * Context: user space; O(log n).
 * Return: the name, valid until dw_kallsyms_free(); NULL if @addr is
 * below the first symbol or too far past the last.
 */
const char *dw_kallsyms_lookup(const struct dw_kallsyms *k, uint64_t addr, uint64_t *off,
			       const char **mod)
{
	size_t lo = DW_UPPER_BOUND(k->syms, k->nr, addr, addr);
	const struct dw_ksym *s;

	if (lo == 0)
		return NULL;
	s = &k->syms[lo - 1];
	if (lo == k->nr && addr - s->addr >= DW_KSYM_LAST_SPAN)
		return NULL;
	if (off)
		*off = addr - s->addr;
	if (mod)
		*mod = k->names + s->mod;
	return k->names + s->name;
}

/**
 * dw_kallsyms_free() - free a table
 * @k:		table or NULL
 *
 * Context: user space.
 */
void dw_kallsyms_free(struct dw_kallsyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->mods);
	free(k->names);
	free(k);
}
