// SPDX-License-Identifier: GPL-2.0
/*
 * What DWARF says about one address of a file opened with libdwfl (dso.c):
 * its source line and inline frames (.debug_info, .debug_line), and the
 * range of the CFI FDE that covers it (.eh_frame, .debug_frame).
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>

#include "util/ehframe_hdr.h"
#include "symbols/dwarf.h"

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	return n;
}

/* The index of the first function-like scope at or after @i, or -1. */
static int next_func(Dwarf_Die *scopes, int n, int i)
{
	for (; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram ||
		    tag == DW_TAG_entry_point)
			return i;
	}
	return -1;
}

/**
 * dw_dwarf_src() - source lines and inline frames of an address
 * @mod:	the file's module
 * @addr:	module address
 * @res:	its frames appended, innermost first
 *
 * Context: user space; may read the debug file the first time.
 *
 * The scopes of
 * an address run from the innermost inlined instance outwards, but past
 * an inlined instance they follow its abstract origin; the concrete
 * function that holds it comes from the instance's own scopes
 * (dwarf_getscopes_die), so we restart there after each instance.
 */
void dw_dwarf_src(Dwfl_Module *mod, Dwarf_Addr addr, struct dw_symres *res)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
	Dwarf_Files *files = NULL;
	const char *file = NULL;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr dbias;
	size_t nfiles = 0;
	int lineno = 0, n, i;

	if (line)
		file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	cu = dwfl_module_addrdie(mod, addr, &dbias);
	n = cu ? dwarf_getscopes(cu, addr - dbias, &scopes) : 0;
	if (cu && dwarf_getsrcfiles(cu, &files, &nfiles))
		files = NULL;
	i = n > 0 ? next_func(scopes, n, 0) : -1;
	while (i >= 0 && res->nr_frames < DW_DSO_MAX_INLINE) {
		Dwarf_Die die = scopes[i];
		Dwarf_Attribute a;
		Dwarf_Word v;

		res->frames[res->nr_frames++] =
			(struct dw_srcframe){ die_name(&die), file, lineno };
		if (dwarf_tag(&die) != DW_TAG_inlined_subroutine)
			break;
		/* The caller continues at the call site. */
		file = NULL;
		lineno = 0;
		if (files && !dwarf_formudata(dwarf_attr(&die, DW_AT_call_file, &a), &v) &&
		    v < nfiles)
			file = dwarf_filesrc(files, v, NULL, NULL);
		if (!dwarf_formudata(dwarf_attr(&die, DW_AT_call_line, &a), &v))
			lineno = (int)v;
		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&die, &scopes);
		i = n > 1 ? next_func(scopes, n, 1) : -1;
	}
	free(scopes);
	if (!res->nr_frames && file)	/* line info but no DIE */
		res->frames[res->nr_frames++] = (struct dw_srcframe){ NULL, file, lineno };
}

/* The last FDE start at or below @pc, and the next one (or ~0). */
static int fde_start_of(Dwfl_Module *mod, struct dw_fdes *fdes, Dwarf_Addr pc, __u64 *start,
			__u64 *next)
{
	size_t lo = 0, hi, mid;

	if (!fdes->read) {
		const __u8 *b;
		size_t len;
		__u64 vaddr;
		GElf_Addr ebias;
		Elf *elf = dwfl_module_getelf(mod, &ebias);

		fdes->read = 1;
		if (!elf || dw_ehframe_hdr_find(elf, &b, &len, &vaddr) ||
		    dw_ehframe_hdr_starts(b, len, vaddr, &fdes->starts, &fdes->n))
			fdes->n = 0;
	}
	hi = fdes->n;
	while (lo < hi) {	/* the first start above @pc */
		mid = lo + (hi - lo) / 2;
		if (fdes->starts[mid] <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	*next = lo < fdes->n ? fdes->starts[lo] : ~0ULL;
	if (!lo)
		return -ENOENT;
	*start = fdes->starts[lo - 1];
	return 0;
}

/*
 * A CFI row covers [*start, *end): widen it to its FDE's, from the FDE
 * starts of .eh_frame_hdr and the rows that follow up to the next FDE (a
 * row's range is only where one CFA rule holds: a function that pushes
 * registers has several).
 */
static void fde_range(Dwfl_Module *mod, struct dw_fdes *fdes, Dwarf_CFI *cfi, Dwarf_Addr pc,
		      Dwarf_Addr *start, Dwarf_Addr *end)
{
	__u64 fstart, next;
	Dwarf_Frame *f;
	Dwarf_Addr s, e;
	bool signal;

	if (fde_start_of(mod, fdes, pc, &fstart, &next) || fstart > *start)
		return;
	*start = fstart;
	while (*end < next && !dwarf_cfi_addrframe(cfi, *end, &f)) {
		int r = dwarf_frame_info(f, &s, &e, &signal);

		free(f);
		if (r < 0 || s != *end || e <= s)
			break;
		*end = e;
	}
}

/**
 * dw_dwarf_fde() - the range of the CFI FDE that covers an address
 * @mod:	the file's module
 * @fdes:	the file's FDE starts (read here on first need)
 * @bias:	its bias (link-time address = module address - @bias)
 * @addr:	module address no symbol covers
 * @res:	@res->fde set and the range (link-time), if an FDE covers @addr
 *
 * Context: user space.  .eh_frame, else .debug_frame: the compiler's own
 * idea of where the function begins and ends.
 */
void dw_dwarf_fde(Dwfl_Module *mod, struct dw_fdes *fdes, GElf_Addr bias, Dwarf_Addr addr,
		  struct dw_symres *res)
{
	Dwarf_Addr cbias, start, end;
	Dwarf_Frame *frame = NULL;
	bool signal;
	int i;

	for (i = 0; i < 2; i++) {
		Dwarf_CFI *cfi = i ? dwfl_module_dwarf_cfi(mod, &cbias) :
				     dwfl_module_eh_cfi(mod, &cbias);

		if (!cfi || dwarf_cfi_addrframe(cfi, addr - cbias, &frame))
			continue;
		if (dwarf_frame_info(frame, &start, &end, &signal) >= 0 && end > start) {
			if (!i)
				fde_range(mod, fdes, cfi, addr - cbias, &start, &end);
			res->fde = 1;
			res->start = start + cbias - bias;
			res->size = end - start;
			res->off = addr - (start + cbias);
		}
		free(frame);
		return;
	}
}

/* Past the entry point, how far code with no FDE after it counts as its routine. */
#define ENTRY_MAX_NO_FDE	256

/**
 * dw_dwarf_entry() - the ELF entry point's routine, which has no FDE
 * @mod:	the file's module
 * @fdes:	the file's FDE starts (read here on first need)
 * @vaddr:	link-time address no symbol and no FDE covers
 * @res:	@res->name "_start" and its range, if @vaddr lies in it
 *
 * The dynamic loader's _start (glibc's RTLD_START) has no CFI, and
 * distributions strip ld.so's .symtab: the root frame of every stack
 * taken while it loads a program would be unnamed.  The routine runs from
 * e_entry to the next FDE start; it is _start by the ABI's convention.
 *
 * Context: user space.
 */
void dw_dwarf_entry(Dwfl_Module *mod, struct dw_fdes *fdes, __u64 vaddr, struct dw_symres *res)
{
	__u64 start, next;
	GElf_Addr ebias;
	GElf_Ehdr eh;
	Elf *elf = dwfl_module_getelf(mod, &ebias);

	if (!elf || !gelf_getehdr(elf, &eh) || !eh.e_entry || vaddr < eh.e_entry)
		return;
	if (!fde_start_of(mod, fdes, vaddr, &start, &next) && start >= eh.e_entry)
		return;			/* a function with an FDE lies in between */
	if (next == ~0ULL ? vaddr - eh.e_entry >= ENTRY_MAX_NO_FDE : vaddr >= next)
		return;
	res->name = "_start";
	res->start = eh.e_entry;
	res->size = next == ~0ULL ? 0 : next - eh.e_entry;
	res->off = vaddr - eh.e_entry;
}

/* dw_dwarf_fdes_free() - forget @fdes; they are read again on next need. */
void dw_dwarf_fdes_free(struct dw_fdes *fdes)
{
	free(fdes->starts);
	fdes->starts = NULL;
	fdes->n = 0;
	fdes->read = 0;
}
