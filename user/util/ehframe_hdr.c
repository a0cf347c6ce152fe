// SPDX-License-Identifier: GPL-2.0
/* .eh_frame_hdr: see ehframe_hdr.h. */
#include <errno.h>
#include <stdlib.h>

#include "util/ehframe_hdr.h"
#include "util/elf.h"

/* DW_EH_PE_* pointer encodings accepted in .eh_frame_hdr. */
#define PE_ABSPTR	0x00
#define PE_UDATA4	0x03
#define PE_UDATA8	0x04
#define PE_SDATA4	0x0b
#define PE_SDATA8	0x0c
#define PE_PCREL	0x10
#define PE_DATAREL	0x30

/* Read one DW_EH_PE-encoded value of .eh_frame_hdr at *pos. */
static int read_enc(const __u8 *b, size_t len, size_t *pos, __u8 enc, __u64 hdr_vaddr,
			__u64 *val)
{
	size_t n, i;
	__u64 v = 0, base;

	switch (enc & 0x0f) {
	case PE_ABSPTR:
	case PE_UDATA8:
	case PE_SDATA8:
		n = 8;
		break;
	case PE_UDATA4:
	case PE_SDATA4:
		n = 4;
		break;
	default:
		return -EINVAL;
	}
	if (*pos > len || n > len - *pos)
		return -EINVAL;
	for (i = 0; i < n; i++)
		v |= (__u64)b[*pos + i] << (8 * i);
	if ((enc & 0x0f) == PE_SDATA4 && (v & 0x80000000u))
		v |= 0xffffffff00000000ull;
	switch (enc & 0x70) {
	case 0:
		base = 0;
		break;
	case PE_PCREL:
		base = hdr_vaddr + *pos;
		break;
	case PE_DATAREL:
		base = hdr_vaddr;
		break;
	default:
		return -EINVAL;
	}
	*val = base + v;
	*pos += n;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * dw_ehframe_hdr_starts() - the function starts .eh_frame_hdr's table lists
 * @b, @len:	the section's bytes (hostile: every read is checked)
 * @hdr_vaddr:	its address, for PC- and data-relative encodings
 * @starts:	set to a sorted array (free() it), or NULL when the table is
 *		absent, malformed or too large (EHFRAME_HDR_MAX_STARTS)
 * @n:		set to its length
 *
 * Context: user space.
 * Return: 0, or -ENOMEM.
 */
int dw_ehframe_hdr_starts(const __u8 *b, size_t len, __u64 hdr_vaddr, __u64 **starts,
			  size_t *n)
{
	size_t pos = 4, i, max;
	__u64 dummy, count, *v;

	*starts = NULL;
	*n = 0;
	if (len < 4 || b[0] != 1)
		return 0;
	if (read_enc(b, len, &pos, b[1], hdr_vaddr, &dummy) ||
	    read_enc(b, len, &pos, b[2] & 0x0f, hdr_vaddr, &count))
		return 0;
	if (!count)
		return 0;
	max = (len - pos) / 8;		/* at least 2 x 4 bytes per entry */
	if (count > max || count > EHFRAME_HDR_MAX_STARTS)
		return 0;
	v = calloc(count, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		if (read_enc(b, len, &pos, b[3], hdr_vaddr, &v[i]) ||
		    read_enc(b, len, &pos, b[3], hdr_vaddr, &dummy)) {
			free(v);
			return 0;
		}
	}
	qsort(v, count, sizeof(*v), cmp_u64);
	*starts = v;
	*n = count;
	return 0;
}

/**
 * dw_ehframe_hdr_find() - .eh_frame_hdr's bytes and address in an ELF file
 * @elf:	the file
 * @b, @len:	set to its bytes (libelf's: valid while @elf is open)
 * @vaddr:	set to its address
 *
 * The section, else the PT_GNU_EH_FRAME segment (a stripped file).
 *
 * Context: user space.
 * Return: 0, or -ENOENT.
 */
int dw_ehframe_hdr_find(Elf *elf, const __u8 **b, size_t *len, __u64 *vaddr)
{
	GElf_Shdr sh;
	GElf_Phdr ph;
	Elf_Data *d;
	Elf_Scn *scn;
	size_t phnum, i;

	scn = dw_elf_section(elf, ".eh_frame_hdr", &sh);
	if (scn && sh.sh_type == SHT_PROGBITS) {
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf) {
			*b = d->d_buf;
			*len = d->d_size;
			*vaddr = sh.sh_addr;
			return 0;
		}
	}
	if (elf_getphdrnum(elf, &phnum))
		return -ENOENT;
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_BYTE);
		if (!d || !d->d_buf)
			return -ENOENT;
		*b = d->d_buf;
		*len = d->d_size;
		*vaddr = ph.p_vaddr;
		return 0;
	}
	return -ENOENT;
}
