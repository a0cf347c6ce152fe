// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_corrupt MODE IN OUT: copy the ELF file IN to OUT and corrupt its
 * .sframe section in place (a host tool run at build time, for the tests
 * that the module falls back to frame pointers on a bad table):
 *   counts    num_fdes far beyond what the section holds
 *   unsorted  the first and last FDE swapped, the sorted flag kept
 *   offsets   one FDE's FRE offset beyond the FRE sub-section
 * The section keeps its size and place, so the program still runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SF_MAGIC	0xdee2
#define SF_HDR_SIZE	28
#define SF_F_SORTED	0x1

static int die(const char *what, const char *detail)
{
	fprintf(stderr, "sframe_corrupt: %s: %s\n", what, detail);
	return 1;
}

static uint32_t get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Copy @in to @out. 0 or -errno. */
static int copy_file(const char *in, const char *out)
{
	char buf[65536];
	int ifd, ofd, ret = 0;
	ssize_t n;

	ifd = open(in, O_RDONLY);
	if (ifd < 0)
		return -errno;
	ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (ofd < 0) {
		ret = -errno;
		close(ifd);
		return ret;
	}
	while ((n = read(ifd, buf, sizeof(buf))) > 0) {
		if (write(ofd, buf, n) != n) {
			ret = -EIO;
			break;
		}
	}
	if (n < 0)
		ret = -errno;
	close(ifd);
	if (close(ofd) && !ret)
		ret = -errno;
	return ret;
}

/* File offset and size of the section named .sframe. 0 or -ENOENT/-EINVAL. */
static int find_sframe(int fd, uint64_t *off, uint64_t *size)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int ret = -ENOENT;
	Elf *e;

	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx)) {
		if (e)
			elf_end(e);
		return -EINVAL;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".sframe") && sh.sh_type != SHT_NOBITS) {
			*off = sh.sh_offset;
			*size = sh.sh_size;
			ret = 0;
			break;
		}
	}
	elf_end(e);
	return ret;
}

/* Apply @mode to the section bytes @s of @size. 0, or 1 with a message. */
static int corrupt(const char *mode, unsigned char *s, uint64_t size)
{
	uint32_t nfdes, frelen, fdeoff, fde_size, i, j;
	unsigned char *first, *last, tmp[32];
	uint64_t fdes;

	if (size < SF_HDR_SIZE || (s[0] | s[1] << 8) != SF_MAGIC)
		return die("input", "no SFrame header in .sframe");
	if (s[2] == 1)
		fde_size = 17;
	else if (s[2] == 2)
		fde_size = 20;
	else
		return die("input", "only SFrame v1 and v2 are handled");
	nfdes = get32(s + 8);
	frelen = get32(s + 16);
	fdeoff = get32(s + 20);
	fdes = SF_HDR_SIZE + s[7] + (uint64_t)fdeoff;
	if (nfdes < 2 || fdes + (uint64_t)nfdes * fde_size > size)
		return die("input", "need a well-formed table with two FDEs or more");
	if (!strcmp(mode, "counts")) {
		put32(s + 8, 0x00ffffff);
	} else if (!strcmp(mode, "unsorted")) {
		if (!(s[3] & SF_F_SORTED))
			return die("input", "the table is not marked sorted");
		first = s + fdes;
		last = s + fdes + (uint64_t)(nfdes - 1) * fde_size;
		memcpy(tmp, first, fde_size);
		memcpy(first, last, fde_size);
		memcpy(last, tmp, fde_size);
		/* v1 start addresses are section-relative: swapped, they descend. */
		if ((int32_t)get32(first) <= (int32_t)get32(last))
			return die("input", "swapping did not unsort the FDEs");
	} else if (!strcmp(mode, "offsets")) {
		/* Every FDE points past the FRE sub-section: none can be trusted. */
		for (i = 0; i < nfdes; i++) {
			j = (uint32_t)(fdes + (uint64_t)i * fde_size);
			put32(s + j + 8, frelen + 0x1000 + i);
		}
	} else {
		return die(mode, "unknown mode (counts, unsorted, offsets)");
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t off, size;
	unsigned char *s;
	int fd, ret;

	if (argc != 4)
		return die("usage", "sframe_corrupt counts|unsorted|offsets IN OUT");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return die("libelf", elf_errmsg(-1));
	ret = copy_file(argv[2], argv[3]);
	if (ret)
		return die(argv[2], strerror(-ret));
	fd = open(argv[3], O_RDWR);
	if (fd < 0)
		return die(argv[3], strerror(errno));
	ret = find_sframe(fd, &off, &size);
	if (ret) {
		close(fd);
		unlink(argv[3]);
		return die(argv[2], "no .sframe section (built without -Wa,--gsframe?)");
	}
	s = malloc(size);
	if (!s || pread(fd, s, size, off) != (ssize_t)size) {
		close(fd);
		unlink(argv[3]);
		return die(argv[3], "cannot read .sframe");
	}
	ret = corrupt(argv[1], s, size);
	if (!ret && pwrite(fd, s, size, off) != (ssize_t)size)
		ret = die(argv[3], "cannot write .sframe");
	free(s);
	if (close(fd) && !ret)
		ret = die(argv[3], strerror(errno));
	if (ret)
		unlink(argv[3]);
	return ret;
}
