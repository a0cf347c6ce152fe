// SPDX-License-Identifier: GPL-2.0
/* An SFrame table read from a file: see sframe_file.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sframe/sframe_file.h"
#include "util/array.h"
#include "util/elf.h"

/**
 * dw_sframe_strerror() - what an error of the SFrame decoder means
 * @err:	a negative DUNWIND_SFRAME_E* or -errno
 *
 * Context: any.
 * Return: a constant string.
 */
const char *dw_sframe_strerror(int err)
{
	switch (-err) {
	case DUNWIND_SFRAME_ENOENT:
		return "no entry covers the address";
	case DUNWIND_SFRAME_EFAULT:
		return "read outside the section";
	case DUNWIND_SFRAME_EINVAL:
		return "malformed SFrame data";
	case DUNWIND_SFRAME_EOPNOTSUPP:
		return "unsupported SFrame ABI or version (only AMD64 little-endian v1-v3)";
	default:
		return strerror(-err);
	}
}

static int mem_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	const struct dw_sframe_file *f = ctx;

	if (off > f->len || len > f->len - off)
		return -DUNWIND_SFRAME_EFAULT;
	memcpy(dst, f->data + off, len);
	return 0;
}

/* The whole file at @path, into a new buffer. */
static int read_whole(const char *path, __u8 **data, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	__u8 *p = NULL;
	size_t cap = 0, n = 0, r;

	if (!fp)
		return -errno;
	do {
		if (DW_ARRAY_RESERVE(p, cap, n + 1, 65536)) {
			free(p);
			fclose(fp);
			return -ENOMEM;
		}
		r = fread(p + n, 1, cap - n, fp);
		n += r;
	} while (r);
	fclose(fp);
	*data = p;
	*len = n;
	return 0;
}

/**
 * dw_sframe_file_load_elf() - copy the SFrame table of an ELF file
 * @path:	the file
 * @f:		set: the .sframe section, else the PT_GNU_SFRAME segment
 *
 * Context: user space.
 * Return: 0, -ENODATA if it has neither, -ENOEXEC if not ELF, or -errno.
 */
int dw_sframe_file_load_elf(const char *path, struct dw_sframe_file *f)
{
	Elf *e = NULL;
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t nph, i;
	int fd, err = -ENODATA;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto out;
	}
	scn = dw_elf_section(e, ".sframe", &sh);
	if (scn && sh.sh_type != SHT_NOBITS) {
		Elf_Data *d = elf_getdata(scn, NULL);

		if (!d || !d->d_buf) {
			err = -EINVAL;
			goto out;
		}
		f->data = malloc(d->d_size ? d->d_size : 1);
		if (!f->data) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(f->data, d->d_buf, d->d_size);
		f->len = d->d_size;
		f->vaddr = sh.sh_addr;
		snprintf(f->name, sizeof(f->name), ".sframe");
		err = 0;
		goto out;
	}
	if (elf_getphdrnum(e, &nph) == 0) {
		for (i = 0; i < nph; i++) {
			GElf_Phdr ph;
			size_t flen;
			char *raw;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != DUNWIND_SFRAME_PT_GNU)
				continue;
			raw = elf_rawfile(e, &flen);
			if (!raw || ph.p_offset > flen || ph.p_filesz > flen - ph.p_offset) {
				err = -EINVAL;
				goto out;
			}
			f->data = malloc(ph.p_filesz ? ph.p_filesz : 1);
			if (!f->data) {
				err = -ENOMEM;
				goto out;
			}
			memcpy(f->data, raw + ph.p_offset, ph.p_filesz);
			f->len = ph.p_filesz;
			f->vaddr = ph.p_vaddr;
			snprintf(f->name, sizeof(f->name), "PT_GNU_SFRAME");
			err = 0;
			goto out;
		}
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return err;
}

/**
 * dw_sframe_file_load_raw() - a bare SFrame section from a file
 * @path:	the file
 * @vaddr:	where its first byte is mapped
 * @f:		set
 *
 * Context: user space.
 * Return: 0 or -errno.
 */
int dw_sframe_file_load_raw(const char *path, __u64 vaddr, struct dw_sframe_file *f)
{
	memset(f, 0, sizeof(*f));
	f->vaddr = vaddr;
	snprintf(f->name, sizeof(f->name), ".sframe");
	return read_whole(path, &f->data, &f->len);
}

/**
 * dw_sframe_file_open() - open the table of a loaded file with the decoder
 * @f:		the file, loaded (it must outlive @t)
 * @t:		set
 *
 * Context: user space.
 * Return: 0, or the decoder's error (dw_sframe_strerror()).
 */
int dw_sframe_file_open(struct dw_sframe_file *f, struct dunwind_sframe_table *t)
{
	struct dunwind_sframe_src src = { .read = mem_read, .ctx = f, .size = f->len };

	return dunwind_sframe_open(t, &src, f->vaddr);
}

/**
 * dw_sframe_file_rows() - every row of a table, decoded into encoder input
 * @t:		the open table
 * @funcs_out:	set to @t->num_fdes functions (each with its rows), even on
 *		error; free each one's rows, then the array
 *
 * Context: user space.
 * Return: 0, or the decoder's error.
 */
int dw_sframe_file_rows(const struct dunwind_sframe_table *t,
			struct dw_sframe_enc_func **funcs_out)
{
	struct dw_sframe_enc_func *funcs = calloc(t->num_fdes + 1, sizeof(*funcs));
	struct dunwind_sframe_fde fde;
	struct dunwind_sframe_fre fre;
	struct dunwind_sframe_row row;
	__u32 i, j;
	__u64 off;
	int err = 0;

	if (!funcs)
		return -ENOMEM;
	for (i = 0; !err && i < t->num_fdes; i++) {
		struct dw_sframe_enc_row *rows;

		err = dunwind_sframe_get_fde(t, i, &fde);
		if (err)
			break;
		rows = calloc(fde.num_fres + 1, sizeof(*rows));
		if (!rows) {
			err = -ENOMEM;
			break;
		}
		funcs[i].start = fde.start;
		funcs[i].size = fde.size;
		funcs[i].pc_type = fde.pc_type;
		funcs[i].rep_size = fde.rep_size;
		funcs[i].signal = fde.signal;
		funcs[i].rows = rows;
		funcs[i].nrows = fde.num_fres;
		off = fde.fres_off;
		for (j = 0; !err && j < fde.num_fres; j++) {
			err = dunwind_sframe_get_fre(t, &fde, off, &fre);
			if (!err)
				err = dunwind_sframe_fre_rules(t, &fde, &fre, &row);
			if (err)
				break;
			off += fre.len;
			rows[j].pc_off = fre.start;
			rows[j].ra_undef = !!(row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF);
			rows[j].cfa = row.cfa;
			rows[j].ra = row.ra;
			rows[j].fp = row.fp;
			rows[j].ra_mangled = !!(row.flags & DUNWIND_SFRAME_ROW_MANGLED_RA);
		}
	}
	*funcs_out = funcs;
	return err;
}
