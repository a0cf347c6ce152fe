// SPDX-License-Identifier: GPL-2.0
/*
 * One file's symbols sorted by address (symindex.h).
 *
 * The choice is dwfl_module_addrinfo()'s: among the named symbols of a
 * section (not a section, file or TLS symbol) that start at or below the
 * address, a sized one that holds it, the highest start first, then the
 * strongest binding (global, weak, local), then the smallest; the global
 * symbols are asked first and the local ones only if no global one holds
 * it (and no global label is exactly at it).  Without a sized one, the
 * nearest label (size 0) below in the address's section, its end included
 * (an absolute one only at its own address), unless a sized symbol that starts below the
 * address ends above the label; of labels at one address, the last in the
 * table.  libdwfl breaks the rarest ties by table order, which this keeps
 * only at equal addresses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <gelf.h>

#include "symbols/symindex.h"
#include "util/array.h"
#include "util/search.h"

struct dw_symindex_ent {
	uint64_t start;			/* Dwfl address */
	uint64_t size;
	uint64_t end_max;		/* highest end of the sized ones up to here... */
	uint64_t end_max_global;	/* ... and of the global ones */
	uint64_t scn_lo, scn_hi;	/* a label's section (Dwfl addresses); 0, 0: absolute */
	const char *name;
	GElf_Sym sym;
	uint32_t ndx;			/* in libdwfl's table */
	uint8_t global;			/* at or after first_global */
};

static int bind_rank(const GElf_Sym *s)
{
	switch (GELF_ST_BIND(s->st_info)) {
	case STB_GLOBAL:
		return 3;
	case STB_WEAK:
		return 2;
	case STB_LOCAL:
		return 1;
	default:
		return 0;
	}
}

static int ent_cmp(const void *a, const void *b)
{
	const struct dw_symindex_ent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->ndx < y->ndx ? -1 : x->ndx > y->ndx;
}

/*
 * Is @e a better choice than @best?  The highest start, then the strongest
 * binding, then the smallest; then the first in the table for a sized
 * symbol, the last for a label (@last_wins), as libdwfl.
 */
static int better(const struct dw_symindex_ent *e, const struct dw_symindex_ent *best,
		  int last_wins)
{
	if (!best)
		return 1;
	if (e->start != best->start)
		return e->start > best->start;
	if (bind_rank(&e->sym) != bind_rank(&best->sym))
		return bind_rank(&e->sym) > bind_rank(&best->sym);
	if (e->size != best->size)
		return e->size < best->size;
	return last_wins ? e->ndx > best->ndx : e->ndx < best->ndx;
}

/*
 * A label names only addresses of its own section (@e's range), an
 * absolute one only its own address (0, 0).  0 if its section is unknown.
 */
static int label_section(Elf *elf, Dwarf_Addr bias, GElf_Word shndx, struct dw_symindex_ent *e)
{
	GElf_Shdr mem, *sh;
	Elf_Scn *scn;

	if (shndx >= SHN_LORESERVE)
		return 1;
	scn = elf ? elf_getscn(elf, shndx) : NULL;
	sh = scn ? gelf_getshdr(scn, &mem) : NULL;
	if (!sh)
		return 0;
	e->scn_lo = sh->sh_addr + bias;
	e->scn_hi = e->scn_lo + sh->sh_size;
	return 1;
}

/*
 * May label @e name @addr (at or above it)?  An absolute one only its own
 * address; else one of its section's, its end included (as libdwfl).
 */
static int label_covers(const struct dw_symindex_ent *e, uint64_t addr)
{
	return e->start == addr || (addr >= e->scn_lo && addr <= e->scn_hi);
}

static int build(struct dw_symindex *x, Dwfl_Module *mod)
{
	size_t cap_sized = 0, cap_labels = 0, i;
	uint64_t hi = 0, hi_global = 0;
	int n = dwfl_module_getsymtab(mod), k;

	x->first_global = dwfl_module_getsymtab_first_global(mod);
	if (n < 0 || x->first_global < 0)
		return -ENOENT;
	for (k = 1; k < n; k++) {
		struct dw_symindex_ent e = { 0 };
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		const char *name = dwfl_module_getsym_info(mod, k, &e.sym, &addr, &shndx, &elf,
							   &bias);
		int type = GELF_ST_TYPE(e.sym.st_info);

		if (!name || !name[0] || e.sym.st_shndx == SHN_UNDEF || type == STT_SECTION ||
		    type == STT_FILE || type == STT_TLS)
			continue;
		e.start = addr;
		e.size = e.sym.st_size;
		e.name = name;
		e.ndx = (uint32_t)k;
		e.global = k >= x->first_global;
		if (e.size) {
			if (DW_ARRAY_RESERVE(x->sized, cap_sized, x->nr_sized + 1, 256))
				return -ENOMEM;
			x->sized[x->nr_sized++] = e;
		} else {
			if (!label_section(elf, bias, shndx, &e))
				continue;	/* in no section: never chosen */
			if (DW_ARRAY_RESERVE(x->labels, cap_labels, x->nr_labels + 1, 256))
				return -ENOMEM;
			x->labels[x->nr_labels++] = e;
		}
	}
	if (x->nr_sized)
		qsort(x->sized, x->nr_sized, sizeof(*x->sized), ent_cmp);
	if (x->nr_labels)
		qsort(x->labels, x->nr_labels, sizeof(*x->labels), ent_cmp);
	for (i = 0; i < x->nr_sized; i++) {
		struct dw_symindex_ent *e = &x->sized[i];
		uint64_t end = e->start + e->size < e->start ? UINT64_MAX : e->start + e->size;

		if (end > hi)
			hi = end;
		if (e->global && end > hi_global)
			hi_global = end;
		e->end_max = hi;
		e->end_max_global = hi_global;
	}
	return 0;
}

/* The best sized symbol holding @addr (globals only, or all); NULL if none. */
static const struct dw_symindex_ent *sized_at(const struct dw_symindex *x, uint64_t addr,
					      int globals_only)
{
	size_t n = DW_UPPER_BOUND(x->sized, x->nr_sized, start, addr);
	const struct dw_symindex_ent *best = NULL;

	/* Back while a symbol at or below may still reach past @addr. */
	while (n-- && x->sized[n].end_max > addr) {
		const struct dw_symindex_ent *e = &x->sized[n];

		if ((globals_only && !e->global) || addr - e->start >= e->size)
			continue;
		if (better(e, best, 0))
			best = e;
	}
	return best;
}

/* The best label at or below @addr (globals only, or all); NULL if none. */
static const struct dw_symindex_ent *label_at(const struct dw_symindex *x, uint64_t addr,
					      int globals_only)
{
	size_t n = DW_UPPER_BOUND(x->labels, x->nr_labels, start, addr);
	const struct dw_symindex_ent *best = NULL;

	while (n--) {
		const struct dw_symindex_ent *e = &x->labels[n];

		if (best && e->start < best->start)
			break;		/* the highest start is found */
		if ((!globals_only || e->global) && label_covers(e, addr) &&
		    better(e, best, 1))
			best = e;
	}
	return best;
}

/* Highest end of the sized symbols (globals only, or all) starting at or below @addr. */
static uint64_t min_label(const struct dw_symindex *x, uint64_t addr, int globals_only)
{
	size_t n = DW_UPPER_BOUND(x->sized, x->nr_sized, start, addr);

	if (!n)
		return 0;
	return globals_only ? x->sized[n - 1].end_max_global : x->sized[n - 1].end_max;
}

/**
 * dw_symindex_lookup() - the symbol dwfl_module_addrinfo() would give
 * @x:		the file's index (built on first use)
 * @mod:	the file's module
 * @addr:	a Dwfl address
 * @off:	set to @addr's offset from the symbol
 * @sym:	set to the symbol
 *
 * Context: user space; the first call goes through every symbol once.
 * Return: the name (libdwfl's string), or NULL if no symbol is chosen.
 * An index that cannot be built (no memory) asks libdwfl.
 */
const char *dw_symindex_lookup(struct dw_symindex *x, Dwfl_Module *mod, Dwarf_Addr addr,
			       GElf_Off *off, GElf_Sym *sym)
{
	const struct dw_symindex_ent *best, *label;
	int globals_only = 1;
	uint64_t floor;

	if (!x->state)
		x->state = build(x, mod) ? -1 : 1;
	if (x->state < 0)
		return dwfl_module_addrinfo(mod, addr, off, sym, NULL, NULL, NULL);
	/* Only a file whose table has globals apart (first_global > 1) has locals to ask after. */
	if (x->first_global <= 1)
		globals_only = 0;
	best = sized_at(x, addr, globals_only);
	label = label_at(x, addr, globals_only);
	if (!best && globals_only && !(label && label->start == addr)) {
		globals_only = 0;
		best = sized_at(x, addr, 0);
		label = label_at(x, addr, 0);
	}
	floor = min_label(x, addr, globals_only);
	if (!best && label && label->start >= floor)
		best = label;
	if (!best)
		return NULL;
	*off = addr - best->start;
	*sym = best->sym;
	return best->name;
}

/**
 * dw_symindex_free() - free an index (it is built again if asked)
 * @x:		the index
 *
 * Context: user space.
 */
void dw_symindex_free(struct dw_symindex *x)
{
	free(x->sized);
	free(x->labels);
	memset(x, 0, sizeof(*x));
}
