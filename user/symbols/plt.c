// SPDX-License-Identifier: GPL-2.0
/*
 * PLT stubs named "func@plt", as perf names them: the symbol each stub's
 * .rela.plt relocation binds, read from a file's sections on first need.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/plt.h"

/*
 * An IRELATIVE slot (libc calling its own memcpy) has no symbol: its addend
 * is the IFUNC resolver, which the function's own symbol points to.
 */
static const char *ifunc_name(Elf *elf, Elf_Data *sd, GElf_Shdr *ssh, GElf_Addr resolver)
{
	size_t i, n = ssh->sh_entsize ? ssh->sh_size / ssh->sh_entsize : 0;
	GElf_Sym sym;

	for (i = 1; i < n; i++)
		if (gelf_getsym(sd, (int)i, &sym) && sym.st_value == resolver &&
		    GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC)
			return elf_strptr(elf, ssh->sh_link, sym.st_name);
	return NULL;
}

/* The symbols .rela.plt relocates, in order, as "name@plt". */
static int read_plt_names(struct dw_plt *p, Elf *elf, Elf_Scn *rela, GElf_Shdr *rsh)
{
	Elf_Scn *dynsym = elf_getscn(elf, rsh->sh_link);
	Elf_Data *rd = elf_getdata(rela, NULL), *sd;
	GElf_Shdr ssh;
	size_t i, n;

	if (!dynsym || !rd || !gelf_getshdr(dynsym, &ssh) || !(sd = elf_getdata(dynsym, NULL)) ||
	    !rsh->sh_entsize)
		return -1;
	n = rsh->sh_size / rsh->sh_entsize;
	p->names = calloc(n ? n : 1, sizeof(*p->names));
	if (!p->names)
		return -1;
	p->nr_names = n;
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getrela(rd, (int)i, &r))
			continue;
		if (!GELF_R_SYM(r.r_info))
			name = GELF_R_TYPE(r.r_info) == R_X86_64_IRELATIVE ?
			       ifunc_name(elf, sd, &ssh, (GElf_Addr)r.r_addend) : NULL;
		else if (gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &sym))
			name = elf_strptr(elf, ssh.sh_link, sym.st_name);
		else
			continue;
		if (name && *name && asprintf(&p->names[i], "%s@plt", name) < 0)
			p->names[i] = NULL;
	}
	return 0;
}

/*
 * Where the PLT stubs are: with .plt.sec (IBT), its entry i jumps through
 * .rela.plt[i] and the .plt entry i + 1 is its lazy-binding half; without,
 * .plt entry i + 1 does (entry 0 is the resolver's).  AArch64's resolver
 * entry (PLT0) is 32 bytes, two of its 16-byte stubs: .plt entry i + 2.
 */
static void read_plt(struct dw_plt *p, Dwfl_Module *mod)
{
	GElf_Shdr sh, rsh = { 0 };
	Elf_Scn *scn = NULL, *rela = NULL;
	GElf_Addr bias;
	GElf_Ehdr eh;
	Elf *elf;
	size_t shstrndx, first = 1;

	p->read = 1;
	elf = dwfl_module_getelf(mod, &bias);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) || !gelf_getehdr(elf, &eh))
		return;
	if (eh.e_machine == EM_AARCH64)
		first = 2;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".rela.plt") && sh.sh_type == SHT_RELA) {
			rela = scn;
			rsh = sh;
		} else if (!strcmp(name, ".plt") && sh.sh_type == SHT_PROGBITS) {
			/* The resolver's entries first: entry k is relocation k - first. */
			p->sec[0] = (struct dw_plt_sec){ sh.sh_addr, sh.sh_size,
							 sh.sh_entsize ? sh.sh_entsize : 16, first };
			p->lazy = elf_getdata(scn, NULL);
		} else if (!strcmp(name, ".plt.sec") && sh.sh_type == SHT_PROGBITS) {
			p->sec[1] = (struct dw_plt_sec){ sh.sh_addr, sh.sh_size,
							 sh.sh_entsize ? sh.sh_entsize : 16, 0 };
		}
	}
	if (!rela || read_plt_names(p, elf, rela, &rsh))
		memset(p->sec, 0, sizeof(p->sec));
}

/*
 * The .rela.plt index that lazy stub @k of .plt pushes (push imm32 after
 * "jmp *GOT(%rip)", or after endbr64 with .plt.sec): an IRELATIVE slot is
 * not where its stub is (libc), the pushed index always is. -1: none.
 */
static int64_t pushed_index(const struct dw_plt *p, uint64_t k)
{
	const struct dw_plt_sec *s = &p->sec[0];
	const unsigned char *e;
	uint32_t idx;
	int at;

	if (!p->lazy || !p->lazy->d_buf || s->entsize < 16 ||
	    k >= p->lazy->d_size / s->entsize)
		return -1;
	e = (const unsigned char *)p->lazy->d_buf + k * s->entsize;
	if (e[0] == 0xff && e[1] == 0x25 && e[6] == 0x68)
		at = 7;
	else if (e[0] == 0xf3 && e[1] == 0x0f && e[2] == 0x1e && e[3] == 0xfa && e[4] == 0x68)
		at = 5;
	else
		return -1;
	memcpy(&idx, e + at, sizeof(idx));
	return idx < p->nr_names ? (int64_t)idx : -1;
}

/**
 * dw_plt_resolve() - the PLT stub that covers an address, "func@plt"
 * @p:		the file's PLT, read on first need
 * @mod:	the file's module
 * @vaddr:	link-time address
 * @res:	name and range set if a stub covers @vaddr
 *
 * Context: user space.
 */
void dw_plt_resolve(struct dw_plt *p, Dwfl_Module *mod, uint64_t vaddr, struct dw_symres *res)
{
	int i;

	if (!p->read)
		read_plt(p, mod);
	for (i = 0; i < 2; i++) {
		const struct dw_plt_sec *s = &p->sec[i];
		uint64_t k;
		int64_t r;

		if (!s->size || vaddr < s->start || vaddr - s->start >= s->size)
			continue;
		k = (vaddr - s->start) / s->entsize;
		/* .plt.sec's entry k goes with .plt's lazy stub k + 1. */
		r = pushed_index(p, k + 1 - s->first);
		if (r < 0)
			r = (int64_t)k - (int64_t)s->first;
		if (r < 0 || (uint64_t)r >= p->nr_names || !p->names[r])
			return;
		res->name = p->names[r];
		res->start = s->start + k * s->entsize;
		res->size = s->entsize;
		res->off = vaddr - res->start;
		return;
	}
}

/* dw_plt_free() - forget @p's names; it is read again on next need. */
void dw_plt_free(struct dw_plt *p)
{
	size_t i;

	for (i = 0; i < p->nr_names; i++)
		free(p->names[i]);
	free(p->names);
	p->names = NULL;
	p->nr_names = 0;
	memset(p->sec, 0, sizeof(p->sec));
	p->lazy = NULL;
	p->read = 0;
}
