/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The .sframe section of an ELF file, read with libelf, for the host
 * tests that compare our tables with the assembler's: written once here
 * for sframe_binaries_test.c and sframe_gen_a64_test.c.
 */
#ifndef DW_TEST_ELF_SFRAME_H
#define DW_TEST_ELF_SFRAME_H

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/types.h>

/*
 * load_sframe() - @path's .sframe: a malloc()ed copy in *@data (*@len
 * bytes, its address *@vaddr).  0, -ENOENT without one, -ENOMEM, or
 * -errno from open().
 */
static inline int load_sframe(const char *path, __u8 **data, size_t *len, __u64 *vaddr)
{
	int fd = open(path, O_RDONLY), err = -ENOENT;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *e;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !elf_getshdrstrndx(e, &shstrndx) && (scn = elf_nextscn(e, scn))) {
		const char *name;
		Elf_Data *d;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".sframe") || !(d = elf_getdata(scn, NULL)))
			continue;
		*data = malloc(d->d_size ? d->d_size : 1);
		err = *data ? 0 : -ENOMEM;
		if (*data) {
			memcpy(*data, d->d_buf, d->d_size);
			*len = d->d_size;
			*vaddr = sh.sh_addr;
		}
		break;
	}
	if (e)
		elf_end(e);
	close(fd);
	return err;
}

#endif /* DW_TEST_ELF_SFRAME_H */
