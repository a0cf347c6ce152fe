// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF files of perf.data's build-id directory (output/symelf.c,
 * output/perfdata_debug.c), read back with libelf and with binutils'
 * readelf and nm: the functions, their values and sizes, the build-id.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "analyze/profile.h"
#include "output/perfdata.h"
#include "output/symelf.h"

static const unsigned char bid[20] = {
	0xab, 0xcd, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18
};

static const struct dw_symelf_func funcs[] = {
	{ 0x1130, 0x40, "main" },
	{ 0x1200, 0x19, "compare_keys" },
	{ 0x24f10, 0x7, "qsort_r" },
};

FIXTURE(elf) {
	char dir[64];
	char path[128];
};

FIXTURE_SETUP(elf)
{
	FILE *f;

	strcpy(self->dir, "/tmp/dw_symelf_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/elf", self->dir);
	f = fopen(self->path, "w");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, dw_symelf_write(f, bid, sizeof(bid), funcs, 3));
	ASSERT_EQ(0, fclose(f));
}

FIXTURE_TEARDOWN(elf)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* The first line of @cmd's output that contains @needle, into @out. */
static int run_grep(const char *cmd, const char *needle, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");
	char line[512];
	int found = 0;

	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (!found && strstr(line, needle)) {
			snprintf(out, n, "%s", line);
			found = 1;
		}
	pclose(p);
	return found ? 0 : -1;
}

TEST_F(elf, libelf_reads_the_functions_back)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Ehdr eh;
	size_t shstrndx, nsyms = 0, i, seen = 0;
	Elf *e;
	int fd;

	ASSERT_NE(EV_NONE, elf_version(EV_CURRENT));
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ASSERT_NE(NULL, e);
	ASSERT_NE(NULL, gelf_getehdr(e, &eh));
	EXPECT_EQ(ET_DYN, eh.e_type);
	EXPECT_EQ(EM_X86_64, eh.e_machine);
	ASSERT_EQ(0, elf_getshdrstrndx(e, &shstrndx));
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;

		ASSERT_NE(NULL, gelf_getshdr(scn, &sh));
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		ASSERT_NE(NULL, d);
		nsyms = sh.sh_size / sh.sh_entsize;
		for (i = 1; i < nsyms; i++) {
			GElf_Sym s;
			const char *name;
			GElf_Shdr tsh;

			ASSERT_NE(NULL, gelf_getsym(d, (int)i, &s));
			name = elf_strptr(e, sh.sh_link, s.st_name);
			ASSERT_NE(NULL, name);
			EXPECT_STREQ(funcs[i - 1].name, name);
			EXPECT_EQ(funcs[i - 1].addr, s.st_value);
			EXPECT_EQ(funcs[i - 1].size, s.st_size);
			EXPECT_EQ(STT_FUNC, GELF_ST_TYPE(s.st_info));
			ASSERT_NE(NULL, gelf_getshdr(elf_getscn(e, s.st_shndx), &tsh));
			EXPECT_STREQ(".text", elf_strptr(e, shstrndx, tsh.sh_name));
			EXPECT_EQ(tsh.sh_addr, tsh.sh_offset);
			seen++;
		}
	}
	EXPECT_EQ(3, seen);
	elf_end(e);
	close(fd);
}

TEST_F(elf, libelf_finds_the_build_id_note)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;
	int found = 0, fd;
	Elf *e;

	ASSERT_NE(EV_NONE, elf_version(EV_CURRENT));
	fd = open(self->path, O_RDONLY);
	ASSERT_LE(0, fd);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ASSERT_NE(NULL, e);
	ASSERT_EQ(0, elf_getshdrstrndx(e, &shstrndx));
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t name_off, desc_off;

		ASSERT_NE(NULL, gelf_getshdr(scn, &sh));
		if (sh.sh_type != SHT_NOTE)
			continue;
		EXPECT_STREQ(".note.gnu.build-id", elf_strptr(e, shstrndx, sh.sh_name));
		d = elf_getdata(scn, NULL);
		ASSERT_NE(NULL, d);
		ASSERT_NE(0, gelf_getnote(d, 0, &nh, &name_off, &desc_off));
		EXPECT_EQ(NT_GNU_BUILD_ID, nh.n_type);
		EXPECT_STREQ("GNU", (char *)d->d_buf + name_off);
		ASSERT_EQ(sizeof(bid), nh.n_descsz);
		EXPECT_EQ(0, memcmp(bid, (char *)d->d_buf + desc_off, sizeof(bid)));
		found = 1;
	}
	EXPECT_TRUE(found);
	elf_end(e);
	close(fd);
}

TEST_F(elf, nm_lists_the_functions)
{
	char cmd[256], line[512];

	if (system("nm --version >/dev/null 2>&1"))
		SKIP(return, "nm not installed (binutils)");
	snprintf(cmd, sizeof(cmd), "nm -S %s 2>&1", self->path);
	ASSERT_EQ(0, run_grep(cmd, "compare_keys", line, sizeof(line)));
	EXPECT_STREQ("0000000000001200 0000000000000019 T compare_keys\n", line);
	ASSERT_EQ(0, run_grep(cmd, "qsort_r", line, sizeof(line)));
	EXPECT_STREQ("0000000000024f10 0000000000000007 T qsort_r\n", line);
}

TEST_F(elf, readelf_reads_it_without_a_warning)
{
	char cmd[256], line[512];

	if (system("readelf --version >/dev/null 2>&1"))
		SKIP(return, "readelf not installed (binutils)");
	snprintf(cmd, sizeof(cmd), "readelf -a -W %s 2>&1", self->path);
	EXPECT_NE(0, run_grep(cmd, "Warning", line, sizeof(line)));
	EXPECT_NE(0, run_grep(cmd, "Error", line, sizeof(line)));
	ASSERT_EQ(0, run_grep(cmd, "Build ID:", line, sizeof(line)));
	EXPECT_NE(NULL, strstr(line, "abcd0102030405060708090a0b0c0d0e0f101112"));
	ASSERT_EQ(0, run_grep(cmd, "FUNC", line, sizeof(line)));
}

TEST(refuses_bad_build_ids_and_empty_functions)
{
	struct dw_symelf_func empty = { 0x1000, 0, "x" };
	FILE *f = fopen("/dev/null", "w");

	ASSERT_NE(NULL, f);
	EXPECT_EQ(-EINVAL, dw_symelf_write(f, bid, 0, funcs, 3));
	EXPECT_EQ(-EINVAL, dw_symelf_write(f, bid, 21, funcs, 3));
	EXPECT_EQ(-EINVAL, dw_symelf_write(f, bid, sizeof(bid), &empty, 1));
	fclose(f);
}

/*
 * A profile by hand: two mappings of one file (one build-id), the kernel;
 * locations at file offsets in two functions, one of them twice.
 */
TEST(debug_dir_has_one_file_per_build_id_and_the_kernel)
{
	struct dw_prof_mapping maps[3] = {
		{ .start = 0x555555554000, .end = 0x555555555000, .file = "/usr/bin/prog",
		  .build_id_size = 20 },
		{ .start = 0x555555555000, .end = 0x555555556000, .pgoff = 0x1000,
		  .file = "/usr/bin/prog", .build_id_size = 20 },
		{ .kernel = 1, .file = "[kernel.kallsyms]" },
	};
	struct dw_prof_loc locs[] = {
		{ .ip = 0x555555555140, .mapping = 2, .sym = "main", .off = 0x10,
		  .dso_off = 0x1140 },
		{ .ip = 0x555555555160, .mapping = 2, .sym = "main", .off = 0x30,
		  .dso_off = 0x1160 },
		{ .ip = 0x555555554f00, .mapping = 1, .sym = "early", .off = 0x4,
		  .dso_off = 0xf00 },
		{ .ip = 0x555555554f80, .mapping = 1, .sym = NULL, .dso_off = 0xf80 },
		{ .ip = 0xffffffff81000010, .mapping = 3, .sym = "schedule", .off = 0x10,
		  .kernel = 1 },
	};
	struct dw_prof p = { .locs = locs, .nr_locs = 5, .mappings = maps, .nr_mappings = 3 };
	char dir[] = "/tmp/dw_symelf_dir.XXXXXX", cmd[512], line[512];
	const char *hex = "abcd0102030405060708090a0b0c0d0e0f101112";

	memcpy(maps[0].build_id, bid, 20);
	memcpy(maps[1].build_id, bid, 20);
	memset(p.hdr.boot_id, 0x11, sizeof(p.hdr.boot_id));
	ASSERT_NE(NULL, mkdtemp(dir));
	EXPECT_EQ(2, dw_perfdata_write_debug(&p, dir));
	snprintf(cmd, sizeof(cmd), "nm -S %s/.build-id/%.2s/%s/elf 2>&1", dir, hex, hex + 2);
	ASSERT_EQ(0, run_grep(cmd, "main", line, sizeof(line)));
	EXPECT_STREQ("0000000000001130 0000000000000031 T main\n", line);
	ASSERT_EQ(0, run_grep(cmd, "early", line, sizeof(line)));
	EXPECT_STREQ("0000000000000efc 0000000000000005 T early\n", line);
	snprintf(cmd, sizeof(cmd), "cat %s/'[kernel.kallsyms]'/64756e77%s/kallsyms", dir,
		 "11111111111111111111111111111111");
	ASSERT_EQ(0, run_grep(cmd, "schedule", line, sizeof(line)));
	EXPECT_STREQ("ffffffff81000000 t schedule\n", line);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

TEST_HARNESS_MAIN
