// SPDX-License-Identifier: GPL-2.0
/* Recognising CPython in an ELF file: see cpython_elf.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "interp/cpython_elf.h"

/* Symbols looked for, and where each lands. */
enum { S_RUNTIME, S_EVAL, S_VERSION, S_CODE, S_STR, S_BYTES, S_COLD, S_NR };
static const char *const py_syms[S_NR] = {
	"_PyRuntime", "_PyEval_EvalFrameDefault", "Py_Version",
	"PyCode_Type", "PyUnicode_Type", "PyBytes_Type",
	"_PyEval_EvalFrameDefault.cold",	/* GCC's cold part: .symtab only */
};

/* Bytes of .PyRuntime read for _Py_DebugOffsets (3.14's is 760 bytes). */
#define PY_DEBUG_READ	1024

static void py_scan_symtab(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, GElf_Sym *found)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n, k;
	const char *name;
	GElf_Sym sym;

	if (!data || !sh->sh_entsize)
		return;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		if (!gelf_getsym(data, (int)i, &sym) || !sym.st_value ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || (name[0] != '_' && name[0] != 'P'))
			continue;
		for (k = 0; k < S_NR; k++)
			if (!found[k].st_value && !strcmp(name, py_syms[k]))
				found[k] = sym;
	}
}

/* Read @len bytes at ELF address @vaddr from the section holding them. */
static int py_read_vaddr(Elf *elf, int fd, __u64 vaddr, void *dst, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	ssize_t n;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    vaddr < sh.sh_addr || vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		if (len > sh.sh_size - (vaddr - sh.sh_addr))
			len = sh.sh_size - (vaddr - sh.sh_addr);
		n = pread(fd, dst, len, (off_t)(sh.sh_offset + (vaddr - sh.sh_addr)));
		return n < 0 ? -errno : (int)n;
	}
	return -ENOENT;
}

/* The version and layout: _Py_DebugOffsets first (3.13+), else Py_Version's data. */
static int py_layout(Elf *elf, int fd, const GElf_Sym *found, struct dw_cpython *py)
{
	const struct dw_cpython_layout *known;
	__u8 buf[PY_DEBUG_READ];
	__u64 version;
	int n, err;

	n = py_read_vaddr(elf, fd, py->runtime, buf, sizeof(buf));
	if (n < 0)
		return n;
	err = dw_cpython_layout_from_debug(buf, (size_t)n, &py->layout);
	if (err != -ENOENT) {
		py->version = py->layout.version;
		return err;
	}
	if (!found[S_VERSION].st_value)
		return -EOPNOTSUPP;		/* before 3.11 */
	n = py_read_vaddr(elf, fd, found[S_VERSION].st_value, &version, sizeof(version));
	if (n != (int)sizeof(version))
		return n < 0 ? n : -EINVAL;
	py->version = (__u32)version;
	known = dw_cpython_layout_known(py->version);
	if (!known)
		return -EOPNOTSUPP;
	py->layout = *known;
	py->layout.version = py->version;
	return 0;
}

/* The PT_LOAD segment that holds the eval loop: its p_vaddr and p_offset. */
static int py_text_segment(Elf *elf, struct dw_cpython *py)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    py->eval_lo < ph.p_vaddr || py->eval_hi > ph.p_vaddr + ph.p_memsz)
			continue;
		py->text_vaddr = ph.p_vaddr;
		py->text_offset = ph.p_offset;
		return 0;
	}
	return -EINVAL;
}

static int py_elf(Elf *elf, int fd, struct dw_cpython *py)
{
	GElf_Sym found[S_NR];
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(found, 0, sizeof(found));
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
			py_scan_symtab(elf, scn, &sh, found);
	if (!found[S_RUNTIME].st_value || !found[S_EVAL].st_value)
		return -ENOENT;
	memset(py, 0, sizeof(*py));
	py->runtime = found[S_RUNTIME].st_value;
	py->eval_lo = found[S_EVAL].st_value;
	py->eval_hi = py->eval_lo + found[S_EVAL].st_size;
	py->code_type = found[S_CODE].st_value;
	py->str_type = found[S_STR].st_value;
	py->bytes_type = found[S_BYTES].st_value;
	if (found[S_COLD].st_value && found[S_COLD].st_size) {
		py->cold_lo = found[S_COLD].st_value;
		py->cold_hi = py->cold_lo + found[S_COLD].st_size;
	}
	if (py->eval_hi <= py->eval_lo || py_text_segment(elf, py))
		return -EINVAL;
	if (dw_cpython_cold(elf, fd, py))
		return -ENOMEM;
	return py_layout(elf, fd, found, py);
}

int dw_cpython_elf(const char *path, struct dw_cpython *py)
{
	Elf *elf;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || gelf_getclass(elf) != ELFCLASS64)
		err = -ENOENT;
	else
		err = py_elf(elf, fd, py);
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}
