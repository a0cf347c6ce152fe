// SPDX-License-Identifier: GPL-2.0
/* libelf helpers: see elf.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/elf.h"

/**
 * dw_elf_section() - an ELF file's section by name
 * @elf:	the file
 * @name:	".text", ".sframe", ...
 * @sh:		set to its header
 *
 * Context: user space.
 * Return: the section, or NULL if there is none of that name.
 */
Elf_Scn *dw_elf_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *n;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

static int dw_elf_cmp_range(const void *a, const void *b)
{
	const struct dw_elf_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/**
 * dw_elf_exec_ranges() - the executable PT_LOAD ranges, sorted and merged
 * @elf:	the file
 * @rg:		set: the ranges
 * @max:	room at @rg
 * @n:		set: how many
 * @base:	set: the lowest address
 *
 * Context: user space.
 * Return: 0, or -ENOEXEC if there is none.
 */
int dw_elf_exec_ranges(Elf *elf, struct dw_elf_range *rg, size_t max, size_t *n, __u64 *base)
{
	size_t phnum, i, k = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &phnum))
		return -ENOEXEC;
	for (i = 0; i < phnum && k < max; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || !ph.p_memsz || ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
			continue;
		rg[k].lo = ph.p_vaddr;
		rg[k].hi = ph.p_vaddr + ph.p_memsz;
		k++;
	}
	if (!k)
		return -ENOEXEC;
	qsort(rg, k, sizeof(*rg), dw_elf_cmp_range);
	for (i = 1, *n = 1; i < k; i++) {
		struct dw_elf_range *last = &rg[*n - 1];

		if (rg[i].lo <= last->hi) {
			if (rg[i].hi > last->hi)
				last->hi = rg[i].hi;
		} else {
			rg[(*n)++] = rg[i];
		}
	}
	*base = rg[0].lo;
	return 0;
}

/**
 * dw_elf_exec_bytes() - the file's bytes at [lo, hi) of an executable PT_LOAD
 * @elf:	the file
 * @lo, @hi:	addresses
 * @seg:	the segment read last (zeroed at first): read once, kept by libelf
 *
 * Context: user space.
 * Return: the bytes, or NULL if no executable segment holds them in the file.
 */
const __u8 *dw_elf_exec_bytes(Elf *elf, __u64 lo, __u64 hi, struct dw_elf_seg *seg)
{
	size_t phnum, i;
	GElf_Phdr ph;
	Elf_Data *d;

	if (seg->bytes && lo >= seg->lo && hi <= seg->hi)
		return seg->bytes + (lo - seg->lo);
	if (elf_getphdrnum(elf, &phnum))
		return NULL;
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || lo < ph.p_vaddr || hi > ph.p_vaddr + ph.p_filesz)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_BYTE);
		if (!d || d->d_size != ph.p_filesz)
			return NULL;
		seg->bytes = d->d_buf;
		seg->lo = ph.p_vaddr;
		seg->hi = ph.p_vaddr + ph.p_filesz;
		return seg->bytes + (lo - seg->lo);
	}
	return NULL;
}
