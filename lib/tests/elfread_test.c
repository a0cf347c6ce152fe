// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for lib/elfread.c, the ELF reader the module and user space
 * share: real files and images (cross-checked with libelf) and hostile
 * headers built here byte by byte.  Every read the reader makes is checked
 * to stay inside the source and to be at most 64 bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "elfread.h"
#include "sframe.h"

/* A byte buffer source that aborts on a read out of bounds. */
struct buf {
	const __u8 *p;
	size_t n;
	unsigned long reads;
};

static int buf_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	struct buf *b = ctx;

	b->reads++;
	if (len > 64)
		abort();
	if (off > b->n || len > b->n - off)
		return -EFAULT;
	memcpy(dst, b->p + off, len);
	return 0;
}

static int parse_buf(const void *p, size_t n, struct dunwind_elf_info *info)
{
	struct buf b = { p, n, 0 };
	struct dunwind_elf_src src = { buf_read, &b };

	return dunwind_elf_parse(&src, 0, info);
}

static int fd_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	ssize_t n = pread(*(int *)ctx, dst, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

/* libelf's view of a file's build-id, to check ours against. */
static size_t libelf_build_id(int fd, __u8 *id)
{
	size_t phnum, i, off, name_off, desc_off, n = 0;
	GElf_Phdr ph;
	GElf_Nhdr nh;
	Elf_Data *d;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getphdrnum(elf, &phnum))
		return 0;
	for (i = 0; i < phnum && !n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		off = 0;
		while (d && off < d->d_size &&
		       (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_descsz <= 20) {
				memcpy(id, (char *)d->d_buf + desc_off, nh.n_descsz);
				n = nh.n_descsz;
				break;
			}
		}
	}
	elf_end(elf);
	return n;
}

/* A minimal ELF: header, @nph program headers, then a build-id note. */
#define T_PHOFF		64
#define T_NOTE		(T_PHOFF + 4 * 56)
#define T_SIZE		(T_NOTE + 12 + 4 + 20)

static void put16(__u8 *p, __u32 v) { p[0] = (__u8)v; p[1] = (__u8)(v >> 8); }
static void put32(__u8 *p, __u32 v) { put16(p, v); put16(p + 2, v >> 16); }
static void put64(__u8 *p, __u64 v) { put32(p, (__u32)v); put32(p + 4, (__u32)(v >> 32)); }

static void phdr(__u8 *img, int i, __u32 type, __u64 off, __u64 vaddr, __u64 size)
{
	__u8 *p = img + T_PHOFF + i * 56;

	put32(p, type);
	put64(p + 8, off);
	put64(p + 16, vaddr);
	put64(p + 32, size);
	put64(p + 40, size);
}

static void make_elf(__u8 *img)
{
	int i;

	memset(img, 0, T_SIZE);
	memcpy(img, "\177ELF", 4);
	img[4] = 2;		/* ELFCLASS64 */
	img[5] = 1;		/* ELFDATA2LSB */
	put16(img + 18, 62);	/* EM_X86_64 */
	put64(img + 32, T_PHOFF);
	put16(img + 54, 56);
	put16(img + 56, 3);
	phdr(img, 0, PT_LOAD, 0, 0x400000, T_SIZE);
	phdr(img, 1, PT_NOTE, T_NOTE, 0x400000 + T_NOTE, 12 + 4 + 20);
	phdr(img, 2, DUNWIND_SFRAME_PT_GNU, 0x100, 0x400100, 0x40);
	put32(img + T_NOTE, 4);
	put32(img + T_NOTE + 4, 20);
	put32(img + T_NOTE + 8, NT_GNU_BUILD_ID);
	memcpy(img + T_NOTE + 12, "GNU", 4);
	for (i = 0; i < 20; i++)
		img[T_NOTE + 16 + i] = (__u8)(0xa0 + i);
}

TEST(synthetic_file)
{
	__u8 img[T_SIZE];
	struct dunwind_elf_info info;

	make_elf(img);
	ASSERT_EQ(0, parse_buf(img, sizeof(img), &info));
	EXPECT_EQ(0x400000, info.load_vaddr);
	EXPECT_EQ(0x400100, info.sframe_vaddr);
	EXPECT_EQ(0x100, info.sframe_offset);
	EXPECT_EQ(0x40, info.sframe_size);
	ASSERT_EQ(20, info.build_id_size);
	EXPECT_EQ(0xa0, info.build_id[0]);
	EXPECT_EQ(0xb3, info.build_id[19]);
}

TEST(not_elf_or_not_ours)
{
	__u8 img[T_SIZE];
	struct dunwind_elf_info info;

	make_elf(img);
	img[1] = 'X';
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	make_elf(img);
	img[4] = 1;		/* 32-bit */
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	make_elf(img);
	img[5] = 2;		/* big-endian */
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	make_elf(img);
	put16(img + 18, 183);	/* aarch64 */
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	make_elf(img);
	put16(img + 54, 32);	/* phentsize */
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
}

TEST(program_headers_out_of_range)
{
	__u8 img[T_SIZE];
	struct dunwind_elf_info info;

	make_elf(img);
	put16(img + 56, 0);
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	make_elf(img);
	put16(img + 56, DUNWIND_ELF_MAX_PHNUM + 1);
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	make_elf(img);
	put64(img + 32, DUNWIND_ELF_MAX_PHOFF + 1);
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	/* In range but past the end: the source's error comes back. */
	make_elf(img);
	put16(img + 56, 40);
	EXPECT_EQ(-EFAULT, parse_buf(img, sizeof(img), &info));
	/* Truncated anywhere: an error or a result, never a read outside. */
	for (size_t n = 0; n < sizeof(img); n++)
		parse_buf(img, n, &info);
}

TEST(no_load_at_offset_zero)
{
	__u8 img[T_SIZE];
	struct dunwind_elf_info info;

	make_elf(img);
	phdr(img, 0, PT_LOAD, 0x1000, 0x401000, 0x100);
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
}

TEST(sframe_segment_checked)
{
	__u8 img[T_SIZE];
	struct dunwind_elf_info info;

	make_elf(img);
	phdr(img, 2, DUNWIND_SFRAME_PT_GNU, 0x100, 0x400100, (__u64)DUNWIND_ELF_MAX_SFRAME + 1);
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	make_elf(img);
	phdr(img, 2, DUNWIND_SFRAME_PT_GNU, 0x100, 0x1000, 0x40);	/* below the load */
	EXPECT_EQ(-DUNWIND_ELF_ENOEXEC, parse_buf(img, sizeof(img), &info));
	make_elf(img);
	put16(img + 56, 2);		/* no PT_GNU_SFRAME */
	ASSERT_EQ(0, parse_buf(img, sizeof(img), &info));
	EXPECT_EQ(0, info.sframe_size);
}

TEST(hostile_notes)
{
	__u8 img[T_SIZE];
	struct dunwind_elf_info info;

	make_elf(img);
	put32(img + T_NOTE + 4, 0xfffffff0);	/* descsz past the segment */
	ASSERT_EQ(0, parse_buf(img, sizeof(img), &info));
	EXPECT_EQ(0, info.build_id_size);
	make_elf(img);
	put32(img + T_NOTE + 4, 21);		/* longer than a build-id may be */
	phdr(img, 1, PT_NOTE, T_NOTE, 0x400000 + T_NOTE, 12 + 4 + 24);
	ASSERT_EQ(0, parse_buf(img, sizeof(img), &info));
	EXPECT_EQ(0, info.build_id_size);
	make_elf(img);
	memcpy(img + T_NOTE + 12, "GNX", 4);	/* not GNU's */
	ASSERT_EQ(0, parse_buf(img, sizeof(img), &info));
	EXPECT_EQ(0, info.build_id_size);
	make_elf(img);
	phdr(img, 1, PT_NOTE, T_NOTE, 0x400000 + T_NOTE, 1ull << 40);	/* huge segment */
	ASSERT_EQ(0, parse_buf(img, sizeof(img), &info));
	EXPECT_EQ(20, info.build_id_size);
}

TEST(random_corruption_stays_in_bounds)
{
	__u8 img[T_SIZE], orig[T_SIZE];
	struct dunwind_elf_info info;
	unsigned int seed = 1;

	make_elf(orig);
	for (int i = 0; i < 20000; i++) {
		memcpy(img, orig, sizeof(img));
		for (int k = 0; k < 4; k++)
			img[rand_r(&seed) % sizeof(img)] = (__u8)rand_r(&seed);
		if (!parse_buf(img, sizeof(img), &info))
			ASSERT_LE(info.build_id_size, DUNWIND_BUILD_ID_MAX);
	}
}

/* The test binary itself, as a file: the same build-id libelf finds. */
TEST(own_executable_file)
{
	struct dunwind_elf_src src = { fd_read, NULL };
	struct dunwind_elf_info info;
	__u8 id[20];
	size_t n;
	int fd = open("/proc/self/exe", O_RDONLY);

	ASSERT_LE(0, fd);
	src.ctx = &fd;
	n = libelf_build_id(fd, id);
	if (!n) {
		close(fd);
		SKIP(return, "the test binary has no build-id (linker without --build-id)");
	}
	ASSERT_EQ(0, dunwind_elf_parse(&src, 0, &info));
	close(fd);
	ASSERT_EQ(n, info.build_id_size);
	EXPECT_EQ(0, memcmp(id, info.build_id, n));
}

static int mem_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	memcpy(dst, (const char *)ctx + off, len);
	return 0;
}

static int first_object(struct dl_phdr_info *i, size_t size, void *data)
{
	(void)size;
	*(struct dl_phdr_info *)data = *i;
	return 1;
}

/* The test binary as mapped (what the module reads): the same facts. */
TEST(own_executable_mapped)
{
	struct dunwind_elf_info file_info, mem_info;
	struct dunwind_elf_src src = { fd_read, NULL };
	struct dl_phdr_info self;
	__u64 first_load = 0;
	int fd = open("/proc/self/exe", O_RDONLY);

	ASSERT_LE(0, fd);
	src.ctx = &fd;
	ASSERT_EQ(0, dunwind_elf_parse(&src, 0, &file_info));
	close(fd);
	dl_iterate_phdr(first_object, &self);
	for (int i = 0; i < self.dlpi_phnum; i++)
		if (self.dlpi_phdr[i].p_type == PT_LOAD && !self.dlpi_phdr[i].p_offset) {
			first_load = self.dlpi_phdr[i].p_vaddr;
			break;
		}
	src.read = mem_read;
	src.ctx = (void *)(self.dlpi_addr + first_load);
	ASSERT_EQ(0, dunwind_elf_parse(&src, 1, &mem_info));
	EXPECT_EQ(file_info.load_vaddr, mem_info.load_vaddr);
	ASSERT_EQ(file_info.build_id_size, mem_info.build_id_size);
	EXPECT_EQ(0, memcmp(file_info.build_id, mem_info.build_id, mem_info.build_id_size));
}

TEST_HARNESS_MAIN
