// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel symbol snapshot: written into a capture, read back into a
 * symbol table (module extents too), skipped by readers that do not know
 * it, refused (without failing the capture) when its chunks are damaged.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "files.h"
#include "capture/capture.h"
#include "symbols/kallsyms.h"
#include "capture/ksnap.h"

static char dir[] = "/tmp/dw_ksnap_test.XXXXXX";
static char cap[128], ks[128], mods[128];

/* Read @cap with the snapshot reader: the table, or NULL with @why. */
static struct dw_kallsyms *read_back(char *why, size_t len, unsigned long *chunks)
{
	struct dw_capture_reader r;
	const struct dunwind_rec_header *rec;
	struct dw_kallsyms *k = NULL;
	struct dw_ksnap *s;
	int e;

	*chunks = 0;
	e = dw_capture_open(&r, cap);	/* says why it failed */
	if (e) {
		snprintf(why, len, "%s: %s", cap, strerror(-e));
		return NULL;
	}
	s = dw_ksnap_new();
	while (s && (rec = dw_capture_next_any(&r))) {
		if (rec->type == DW_REC_KSYMS)
			(*chunks)++;
		dw_ksnap_add(s, rec);
	}
	if (s) {
		k = dw_ksnap_symbols(s);
		if (!k)
			snprintf(why, len, "%s", dw_ksnap_strerror(errno));
	}
	dw_ksnap_free(s);
	dw_capture_release(&r);
	return k;
}

#define KS_BASE		0xffffffff81000000ULL
#define KS_SYM(i)	(KS_BASE + 0x40ULL * (i))

static struct dunwind_config cfg = { .size = sizeof(cfg), .pid = 1, .sample_freq = 99 };

/*
 * A kallsyms file big enough for several chunks (200000 symbols of varied
 * names, every 7th a data symbol, one module symbol) and a module list.
 */
FIXTURE(snap) {
	struct dw_kallsyms *k;
	unsigned long chunks;
	char why[256];
	int written;
};

FIXTURE_SETUP(snap)
{
	struct dw_capture_writer w;
	FILE *f;
	int i;

	strcpy(dir, "/tmp/dw_ksnap_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	snprintf(mods, sizeof(mods), "%s/modules", dir);
	f = fopen(ks, "w");
	ASSERT_NE(NULL, f);
	for (i = 0; i < 200000; i++)
		fprintf(f, "%016llx %c sym_%d_%x\n", KS_SYM((unsigned)i), i % 7 ? 'T' : 'd', i,
			(unsigned)i * 2654435761U);
	fprintf(f, "ffffffffc0002000 t mod_fn\t[mymod]\n");
	fclose(f);
	write_text(mods, "mymod 8192 0 - Live 0xffffffffc0001000 (O)\n"
			 "hidden 4096 0 - Live 0x0000000000000000\n"
			 "garbage\n");
	self->written = dw_capture_create(&w, cap, &cfg) || dw_ksnap_write(&w, ks, mods) ||
			dw_capture_close(&w) ? -1 : 0;
	self->k = read_back(self->why, sizeof(self->why), &self->chunks);
}

FIXTURE_TEARDOWN(snap)
{
	dw_kallsyms_free(self->k);
	unlink(cap);
	unlink(ks);
	unlink(mods);
	rmdir(dir);
}

TEST_F(snap, a_capture_with_a_snapshot_is_written)
{
	EXPECT_EQ(0, self->written);
}

TEST_F(snap, it_reads_back_in_several_chunks)
{
	EXPECT_NE(NULL, self->k) TH_LOG("%s", self->why);
	EXPECT_GE(self->chunks, 3ul);
}

TEST_F(snap, the_right_core_symbol)
{
	const char *name, *mod;
	uint64_t off;

	ASSERT_NE(NULL, self->k);
	name = dw_kallsyms_lookup(self->k, KS_SYM(12345) + 5, &off, &mod);
	ASSERT_NE(NULL, name);
	EXPECT_EQ(0, strncmp(name, "sym_12345_", 10));
	EXPECT_EQ(5ull, off);
	EXPECT_STREQ("kernel.kallsyms", mod);
}

TEST_F(snap, data_symbols_are_left_out)
{
	const char *name, *mod;
	uint64_t off;

	ASSERT_NE(NULL, self->k);
	name = dw_kallsyms_lookup(self->k, KS_SYM(14) + 1, &off, &mod);
	ASSERT_NE(NULL, name);
	EXPECT_EQ(0, strncmp(name, "sym_13_", 7)) TH_LOG("%s", name);
	EXPECT_EQ(0x41ull, off);
}

TEST_F(snap, a_module_symbol)
{
	const char *name, *mod;
	uint64_t off;

	ASSERT_NE(NULL, self->k);
	name = dw_kallsyms_lookup(self->k, 0xffffffffc0002010ULL, &off, &mod);
	EXPECT_STREQ("mod_fn", name ?: "");
	EXPECT_STREQ("mymod", mod);
}

TEST_F(snap, module_extents_come_from_the_module_list)
{
	const char *mod;
	uint64_t off;

	ASSERT_NE(NULL, self->k);
	mod = dw_kallsyms_module(self->k, 0xffffffffc0001100ULL, &off);
	EXPECT_STREQ("mymod", mod ?: "");
	EXPECT_EQ(0x100ull, off);
}

TEST_F(snap, outside_every_module_none)
{
	uint64_t off;

	ASSERT_NE(NULL, self->k);
	EXPECT_EQ(NULL, dw_kallsyms_module(self->k, 0xffffffffc0004000ULL, &off));
	EXPECT_EQ(NULL, dw_kallsyms_module(self->k, 0x10, &off));
}

/* Only the symbols some IPs need: each containing symbol and its successor. */
static const __u64 ips[] = { KS_SYM(12345) + 5, KS_SYM(12345) + 9, 0xffffffffc0002010ULL };

static int write_for_ips(void)
{
	struct dw_capture_writer w;

	return dw_capture_create(&w, cap, &cfg) || dw_ksnap_write_ips(&w, ks, mods, ips, 3) ||
	       dw_capture_close(&w) ? -1 : 0;
}

TEST_F(snap, a_snapshot_of_the_symbols_3_ips_need_is_written)
{
	EXPECT_EQ(0, write_for_ips());
}

TEST_F(snap, it_is_one_chunk_of_symbols_and_one_of_modules)
{
	struct dw_kallsyms *k;
	unsigned long small;

	ASSERT_EQ(0, write_for_ips());
	k = read_back(self->why, sizeof(self->why), &small);
	EXPECT_NE(NULL, k);
	EXPECT_EQ(2ul, small);
	dw_kallsyms_free(k);
}

TEST_F(snap, an_ip_resolves_as_with_the_whole_snapshot)
{
	struct dw_kallsyms *k;
	const char *name, *mod;
	unsigned long small;
	uint64_t off;

	ASSERT_EQ(0, write_for_ips());
	k = read_back(self->why, sizeof(self->why), &small);
	ASSERT_NE(NULL, k);
	name = dw_kallsyms_lookup(k, ips[0], &off, &mod);
	ASSERT_NE(NULL, name);
	EXPECT_EQ(0, strncmp(name, "sym_12345_", 10));
	EXPECT_EQ(5ull, off);
	dw_kallsyms_free(k);
}

TEST_F(snap, a_module_ip_resolves_too)
{
	struct dw_kallsyms *k;
	const char *name, *mod;
	unsigned long small;
	uint64_t off;

	ASSERT_EQ(0, write_for_ips());
	k = read_back(self->why, sizeof(self->why), &small);
	ASSERT_NE(NULL, k);
	name = dw_kallsyms_lookup(k, ips[2], &off, &mod);
	EXPECT_STREQ("mod_fn", name ?: "");
	EXPECT_STREQ("mymod", mod);
	dw_kallsyms_free(k);
}

TEST_F(snap, a_symbol_no_ip_needs_is_left_out)
{
	struct dw_kallsyms *k;
	const char *name, *mod;
	unsigned long small;
	uint64_t off;

	ASSERT_EQ(0, write_for_ips());
	k = read_back(self->why, sizeof(self->why), &small);
	ASSERT_NE(NULL, k);
	name = dw_kallsyms_lookup(k, KS_SYM(500), &off, &mod);
	EXPECT_TRUE(!name || strncmp(name, "sym_500_", 8)) TH_LOG("%s", name);
	dw_kallsyms_free(k);
}

/* A capture without kernel IPs (every sample in user mode) needs no symbol. */
TEST_F(snap, no_ip_keeps_no_symbol_and_still_reads_back)
{
	static const __u64 none;
	struct dw_capture_writer w;
	struct dw_kallsyms *k;
	const char *mod;
	unsigned long small;
	uint64_t off;

	ASSERT_EQ(0, dw_capture_create(&w, cap, &cfg));
	EXPECT_EQ(0, dw_ksnap_write_ips(&w, ks, mods, &none, 0));
	EXPECT_EQ(0, dw_capture_close(&w));
	k = read_back(self->why, sizeof(self->why), &small);
	ASSERT_NE(NULL, k) TH_LOG("%s", self->why);
	EXPECT_EQ(NULL, dw_kallsyms_lookup(k, ips[0], &off, &mod));
	dw_kallsyms_free(k);
}

/*
 * A device without DUNWIND_IOC_KSYM (an older module; here /dev/null):
 * ENOTTY, and nothing written, so that the recorder reads kallsyms instead.
 */
TEST_F(snap, without_the_modules_ioctl_nothing_is_written)
{
	struct dw_capture_writer w;
	unsigned long chunks;
	struct dw_kallsyms *k;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dw_capture_create(&w, cap, &cfg));
	EXPECT_EQ(-ENOTTY, dw_ksnap_write_dev(&w, fd, mods, ips, 3));
	EXPECT_EQ(0, dw_capture_close(&w));
	close(fd);
	k = read_back(self->why, sizeof(self->why), &chunks);
	EXPECT_EQ(0, chunks);
	dw_kallsyms_free(k);
}

TEST_F(snap, the_whole_snapshot_can_be_written_again_after_a_partial_one)
{
	struct dw_capture_writer w;

	ASSERT_EQ(0, write_for_ips());
	EXPECT_EQ(0, dw_capture_create(&w, cap, &cfg));
	EXPECT_EQ(0, dw_ksnap_write(&w, ks, mods));
	EXPECT_EQ(0, dw_capture_close(&w));
}

TEST_F(snap, the_capture_validates)
{
	struct dw_capture_reader r;

	ASSERT_EQ(0, dw_capture_open(&r, cap));
	dw_capture_release(&r);
}

/* An old reader: the snapshot is skipped by size, records are intact. */
TEST_F(snap, a_reader_that_does_not_know_the_type_skips_every_chunk)
{
	struct dw_capture_reader r;
	unsigned long known = 0;

	ASSERT_EQ(0, dw_capture_open(&r, cap));
	while (dw_capture_next(&r))
		known++;
	EXPECT_EQ(0ul, known);
	EXPECT_EQ(self->chunks, r.skipped);
	dw_capture_release(&r);
}

/* Damage: drop a middle chunk (rewrite the file without it). */
TEST_F(snap, a_missing_chunk_gives_no_table_and_says_why)
{
	const struct dunwind_rec_header *rec;
	struct dw_capture_writer w2;
	struct dw_capture_reader r;
	struct dw_kallsyms *k;
	unsigned long nth = 0, chunks;
	char cap2[160];

	snprintf(cap2, sizeof(cap2), "%s/capture2", dir);
	ASSERT_EQ(0, dw_capture_open(&r, cap));
	ASSERT_EQ(0, dw_capture_create(&w2, cap2, &cfg));
	while ((rec = dw_capture_next_any(&r)))
		if (nth++ != 1)
			dw_capture_write(&w2, rec);
	dw_capture_close(&w2);
	dw_capture_release(&r);
	rename(cap2, cap);
	k = read_back(self->why, sizeof(self->why), &chunks);
	EXPECT_EQ(NULL, k);
	EXPECT_NE(NULL, strstr(self->why, "damaged")) TH_LOG("%s", self->why);
	dw_kallsyms_free(k);
}

TEST_F(snap, no_snapshot_says_so)
{
	struct dw_capture_writer w;
	struct dw_kallsyms *k;
	unsigned long chunks;

	dw_capture_create(&w, cap, &cfg);
	dw_capture_close(&w);
	k = read_back(self->why, sizeof(self->why), &chunks);
	EXPECT_EQ(NULL, k);
	EXPECT_NE(NULL, strstr(self->why, "no kernel symbol snapshot")) TH_LOG("%s", self->why);
	dw_kallsyms_free(k);
}

/* kptr_restrict: all-zero addresses are refused by the writer. */
TEST_F(snap, hidden_addresses_are_eperm)
{
	struct dw_capture_writer w;

	write_text(ks, "0000000000000000 T _stext\n0000000000000000 t helper\n");
	ASSERT_EQ(0, dw_capture_create(&w, cap, &cfg));
	EXPECT_EQ(-EPERM, dw_ksnap_write(&w, ks, mods));
	dw_capture_close(&w);
}

/* Without kernel IPs only the first line is read: hidden addresses still show. */
TEST_F(snap, hidden_addresses_are_eperm_without_ips_too)
{
	static const __u64 none;
	struct dw_capture_writer w;

	write_text(ks, "0000000000000000 T _stext\n0000000000000000 t helper\n");
	ASSERT_EQ(0, dw_capture_create(&w, cap, &cfg));
	EXPECT_EQ(-EPERM, dw_ksnap_write_ips(&w, ks, mods, &none, 0));
	dw_capture_close(&w);
}

TEST_F(snap, a_missing_kallsyms_is_enoent)
{
	struct dw_capture_writer w;

	ASSERT_EQ(0, dw_capture_create(&w, cap, &cfg));
	EXPECT_EQ(-ENOENT, dw_ksnap_write(&w, "/nonexistent", NULL));
	dw_capture_close(&w);
}

TEST_HARNESS_MAIN
