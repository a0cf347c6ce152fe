// SPDX-License-Identifier: GPL-2.0
/*
 * A small ELF file that holds only names (see symelf.h), written from the
 * ELF specification (the System V gABI and <elf.h>):
 *
 *   ELF header | one PT_LOAD | build-id note | .strtab | .shstrtab |
 *   .symtab | section headers: NULL .text .note.gnu.build-id .symtab
 *   .strtab .shstrtab
 *
 * .text is SHT_NOBITS (no bytes, it only gives the functions a text
 * section) with sh_addr == sh_offset, and the PT_LOAD maps address 0 at
 * file offset 0: whichever way a reader turns a symbol's value into a
 * file offset (perf does so for ET_EXEC and the vDSO), it is the value.
 * The functions are STT_FUNC, STB_GLOBAL, in .text.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/symelf.h"
#include "util/buf.h"

enum { SEC_NULL, SEC_TEXT, SEC_NOTE, SEC_SYMTAB, SEC_STRTAB, SEC_SHSTRTAB, SEC_NR };

static const char shstrtab[] =
	"\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";
/* Offsets of the names above. */
static const Elf64_Word sec_name[SEC_NR] = { 0, 1, 7, 26, 34, 42 };

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The text section's span: the lowest start, the highest end. */
static void text_span(const struct dw_symelf_func *funcs, size_t nr,
		      uint64_t *lo, uint64_t *hi)
{
	size_t i;

	*lo = nr ? funcs[0].addr : 0;
	*hi = *lo;
	for (i = 0; i < nr; i++) {
		if (funcs[i].addr < *lo)
			*lo = funcs[i].addr;
		if (funcs[i].addr + funcs[i].size > *hi)
			*hi = funcs[i].addr + funcs[i].size;
	}
}

/* The section headers, from the layout's offsets and sizes. */
static void sections(Elf64_Shdr *sh, const size_t off[SEC_NR], const size_t size[SEC_NR],
		     uint64_t lo, uint64_t hi)
{
	static const Elf64_Word type[SEC_NR] = {
		SHT_NULL, SHT_NOBITS, SHT_NOTE, SHT_SYMTAB, SHT_STRTAB, SHT_STRTAB
	};
	int i;

	memset(sh, 0, SEC_NR * sizeof(*sh));
	for (i = 1; i < SEC_NR; i++) {
		sh[i].sh_name = sec_name[i];
		sh[i].sh_type = type[i];
		sh[i].sh_offset = off[i];
		sh[i].sh_size = size[i];
		sh[i].sh_addralign = 1;
	}
	sh[SEC_TEXT].sh_flags = SHF_ALLOC | SHF_EXECINSTR;
	sh[SEC_TEXT].sh_addr = lo;
	sh[SEC_TEXT].sh_offset = lo;
	sh[SEC_TEXT].sh_size = hi - lo;
	sh[SEC_NOTE].sh_addralign = 4;
	sh[SEC_SYMTAB].sh_addralign = 8;
	sh[SEC_SYMTAB].sh_entsize = sizeof(Elf64_Sym);
	sh[SEC_SYMTAB].sh_link = SEC_STRTAB;
	sh[SEC_SYMTAB].sh_info = 1;	/* the first global: all but the null symbol */
}

/* The ELF header and the one program header. */
static void headers(Elf64_Ehdr *eh, Elf64_Phdr *ph, size_t shoff, uint64_t hi)
{
	memset(eh, 0, sizeof(*eh));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_shoff = shoff;
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = SEC_NR;
	eh->e_shstrndx = SEC_SHSTRTAB;
	memset(ph, 0, sizeof(*ph));
	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_memsz = hi;
	ph->p_align = 0x1000;
}

/* .strtab and .symtab of the functions. 0 or -ENOMEM. */
static int symbols(struct dw_buf *str, struct dw_buf *sym,
		   const struct dw_symelf_func *funcs, size_t nr)
{
	Elf64_Sym s = { 0 };
	size_t i;

	dw_buf_put(str, "", 1);
	dw_buf_put(sym, &s, sizeof(s));
	for (i = 0; i < nr; i++) {
		s.st_name = (Elf64_Word)str->len;
		s.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		s.st_shndx = SEC_TEXT;
		s.st_value = funcs[i].addr;
		s.st_size = funcs[i].size;
		dw_buf_put(str, funcs[i].name, strlen(funcs[i].name) + 1);
		dw_buf_put(sym, &s, sizeof(s));
	}
	return str->err ? str->err : sym->err;
}

/**
 * dw_symelf_write() - write an ELF file of @funcs with a build-id note
 * @f:			output, written sequentially from its start
 * @build_id:		the build-id (1 to 20 bytes)
 * @build_id_size:	its length
 * @funcs:		the functions (names of < 4 GiB in all)
 * @nr:			how many
 *
 * Context: user space.
 * Return: 0, -EINVAL (a bad build-id size, an empty function), -ENOMEM or -EIO.
 */
int dw_symelf_write(FILE *f, const unsigned char *build_id, size_t build_id_size,
		    const struct dw_symelf_func *funcs, size_t nr)
{
	struct dw_buf str = { 0 }, sym = { 0 };
	size_t off[SEC_NR] = { 0 }, size[SEC_NR] = { 0 }, i;
	Elf64_Nhdr nh = { 4, (Elf64_Word)build_id_size, NT_GNU_BUILD_ID };
	Elf64_Shdr sh[SEC_NR];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	uint64_t lo, hi;
	static const char zero[8];
	int ret;

	if (!build_id_size || build_id_size > 20)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (!funcs[i].size || !funcs[i].name || funcs[i].addr + funcs[i].size < funcs[i].addr)
			return -EINVAL;
	ret = symbols(&str, &sym, funcs, nr);
	if (ret)
		goto out;
	text_span(funcs, nr, &lo, &hi);
	off[SEC_NOTE] = sizeof(eh) + sizeof(ph);
	size[SEC_NOTE] = sizeof(nh) + 4 + ((build_id_size + 3) & ~(size_t)3);
	off[SEC_STRTAB] = off[SEC_NOTE] + size[SEC_NOTE];
	size[SEC_STRTAB] = str.len;
	off[SEC_SHSTRTAB] = off[SEC_STRTAB] + str.len;
	size[SEC_SHSTRTAB] = sizeof(shstrtab);
	off[SEC_SYMTAB] = align8(off[SEC_SHSTRTAB] + sizeof(shstrtab));
	size[SEC_SYMTAB] = sym.len;
	sections(sh, off, size, lo, hi);
	headers(&eh, &ph, align8(off[SEC_SYMTAB] + sym.len), hi);

	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(&ph, sizeof(ph), 1, f);
	fwrite(&nh, sizeof(nh), 1, f);
	fwrite("GNU", 4, 1, f);
	fwrite(build_id, 1, build_id_size, f);
	fwrite(zero, 1, size[SEC_NOTE] - sizeof(nh) - 4 - build_id_size, f);
	fwrite(str.p, 1, str.len, f);
	fwrite(shstrtab, 1, sizeof(shstrtab), f);
	fwrite(zero, 1, off[SEC_SYMTAB] - off[SEC_SHSTRTAB] - sizeof(shstrtab), f);
	fwrite(sym.p, 1, sym.len, f);
	fwrite(zero, 1, eh.e_shoff - off[SEC_SYMTAB] - sym.len, f);
	fwrite(sh, sizeof(sh), 1, f);
	ret = ferror(f) ? -EIO : 0;
out:
	free(str.p);
	free(sym.p);
	return ret;
}
