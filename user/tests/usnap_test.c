// SPDX-License-Identifier: GPL-2.0
/*
 * The user symbol snapshot: a capture of this program's own code, mapped
 * from a copy of it, is named the same once the copy is gone or replaced
 * (from the snapshot), not without a snapshot (and a warning names the
 * file), not from a damaged one; a stripped copy still names each function
 * once, by its FDE start, and so does its snapshot.  A file mapped again (the
 * same inode and build-id) is the one read for the earlier process.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <zlib.h>

#include "kselftest_harness.h"
#include "dso_cache.h"
#include "mkrec.h"
#include "selfmap.h"
#include "usnap_text.h"
#include "capture/capture.h"
#include "capture/usnap.h"
#include "analyze/profile.h"
#include "symbols/dso.h"

#define PID	4242U

static char prog[128], cap[128], cap_none[128];
static volatile unsigned int sink;

__attribute__((noinline)) void usnap_leaf(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		sink += i * 3;
}

__attribute__((noinline)) void usnap_caller(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		usnap_leaf(i);
		sink ^= i;
	}
}

static int run(const char *cmd)
{
	return system(cmd) == 0 ? 0 : -1;
}

/* Write a capture of one sample whose stack is @ips, mapped from @prog. */
static int write_capture(const char *path, const __u64 *ips, unsigned int nr, int snapshot)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = PID, .sample_freq = 99 };
	struct dw_usnap_writer *c = snapshot ? dw_usnap_writer_new(test_dsos()) : NULL;
	const unsigned char *id;
	struct dw_capture_writer w;
	struct dw_usnap_stats st;
	struct dw_dso *d;
	union rec_buf b;
	uint64_t start, end, off;
	char self[4096];
	struct dunwind_rec_mmap *m;
	int err = 0, n, i;
	const struct dunwind_rec_header *recs[4];

	if (!find_self((uintptr_t)usnap_leaf, &start, &end, &off, self))
		return -1;
	d = dw_dso_get(test_dsos(), prog, NULL, 0);
	n = d ? dw_dso_build_id(d, &id) : 0;
	if (dw_capture_create(&w, path, &cfg))
		return -1;
	for (i = 0; i < 4 && !err; i++) {
		switch (i) {
		case 0:
			recs[i] = mk_comm(&b, PID, PID, 1, "usnap", 1);
			break;
		case 1:
			recs[i] = mk_mmap(&b, PID, 2, start, end, off, prog, 0);
			m = (void *)&b;
			m->build_id_size = (__u32)n;
			memcpy(m->build_id, id, (size_t)n);
			break;
		case 2:
			recs[i] = mk_sample(&b, 1, 10, PID, PID, 0, 0);
			break;
		default:
			recs[i] = mk_stack(&b, 1, PID, PID, nr, 0, DUNWIND_STOP_END);
			memcpy(b.stack.ips, ips, nr * sizeof(*ips));
			b.stack.time = 11;
		}
		err = dw_capture_write(&w, recs[i]);
		if (!err && c)
			err = dw_usnap_collect(c, recs[i]);
	}
	if (!err && c)
		err = dw_usnap_write(c, &w, &st);
	if (!err && c && (!st.funcs || !st.bytes))
		err = -1;
	dw_usnap_writer_free(c);
	test_dsos_drop();
	return dw_capture_close(&w) || err ? -1 : 0;
}

/* Load @path; the names of its first sample's frames into @names. */
static const char *symfs, *debug_dir;

static int names_of(const char *path, char names[][128], unsigned int max, struct dw_prof **out)
{
	struct dw_prof_opts o = { .user_symbols = 1, .quiet = 1, .symfs = symfs,
				  .debug_dirs = debug_dir };
	uint32_t funcs[16];
	size_t n, i;

	if (dw_prof_load(out, path, &o) || !(*out)->nr_samples) {
		printf("# %s: no samples (or not loaded, said above)\n", path);
		return -1;
	}
	n = dw_prof_frames(*out, &(*out)->samples[0], 0, funcs, max < 16 ? max : 16);
	for (i = 0; i < n; i++)
		snprintf(names[i], 128, "%s", (*out)->funcs[funcs[i]].name);
	return (int)n;
}

static int flip_snapshot_byte(const char *path)
{
	struct dw_capture_reader r;
	const struct dunwind_rec_header *rec;
	long at = -1;
	FILE *f;

	if (dw_capture_open(&r, path))
		return -1;
	while ((rec = dw_capture_next_any(&r)))
		if (rec->type == DW_REC_USYMS && at < 0)
			at = (long)((const unsigned char *)rec - r.data) + r.hdr.header_size +
			     (long)sizeof(struct dw_rec_zchunk) + 2;
	dw_capture_release(&r);
	f = at < 0 ? NULL : fopen(path, "r+b");
	if (!f || fseek(f, at, SEEK_SET) || fputc(0x5a ^ 0xff, f) == EOF) {
		if (f)
			fclose(f);
		return -1;
	}
	return fclose(f);
}

/* Parse @text as a snapshot and look a few addresses up. 1 loaded, 0 refused. */
static int parse_text(const char *text, size_t len, char *first, size_t first_len)
{
	struct dw_usnap *u;
	struct dw_symres res;
	unsigned char id[20];
	int e;

	memset(id, 0xab, sizeof(id));
	u = usnap_text(text, len, &e);
	if (!u)
		return -1;
	if (!dw_usnap_lookup(u, id, 20, "/x", 0x1010, &res) && first)
		snprintf(first, first_len, "%s+%llx %u %s:%d", res.name, (unsigned long long)res.off,
			 res.nr_frames, res.nr_frames ? res.frames[0].func : "-",
			 res.nr_frames ? res.frames[0].line : 0);
	dw_usnap_lookup(u, NULL, 0, "/usr/lib/a b.so", 0x2000, &res);
	dw_usnap_lookup_jit(u, 77, 0x7f0000001010ULL, &res);
	dw_usnap_free(u);
	return !e;
}

/* The stack of every capture but the stripped ones: leaf, caller. */
static void stack_ips(__u64 ips[2])
{
	ips[0] = (__u64)(uintptr_t)usnap_leaf + 4;
	ips[1] = (__u64)(uintptr_t)usnap_caller + 13;
}

static int sh(const char *cmd)
{
	int rc = run(cmd);

	if (rc)
		printf("# failed: %s\n", cmd);
	return rc;
}

/* A copy of this program at @prog; @cap with a snapshot, @cap_none without. */
FIXTURE(usnap) {
	char dir[64];
	char got[2][128];
	struct dw_prof *p;
};

FIXTURE_SETUP(usnap)
{
	char cmd[1024];
	__u64 ips[2];

	usnap_caller(3);
	stack_ips(ips);
	self->p = NULL;
	strcpy(self->dir, "/tmp/dw_usnap_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(prog, sizeof(prog), "%s/prog", self->dir);
	snprintf(cap, sizeof(cap), "%s/cap", self->dir);
	snprintf(cap_none, sizeof(cap_none), "%s/cap-none", self->dir);
	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s", getpid(), prog);
	ASSERT_EQ(0, sh(cmd));
	ASSERT_EQ(0, write_capture(cap, ips, 2, 1));
	ASSERT_EQ(0, write_capture(cap_none, ips, 2, 0));
}

FIXTURE_TEARDOWN(usnap)
{
	char cmd[128];

	dw_prof_free(self->p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	run(cmd);
}

TEST_F(usnap, the_file_itself_names_the_stack)
{
	ASSERT_EQ(2, names_of(cap, self->got, 2, &self->p));
	EXPECT_STREQ("usnap_leaf", self->got[0]);
	EXPECT_STREQ("usnap_caller", self->got[1]);
}

TEST_F(usnap, without_the_file_the_snapshot_gives_the_same_names)
{
	unlink(prog);
	ASSERT_EQ(2, names_of(cap, self->got, 2, &self->p));
	EXPECT_STREQ("usnap_leaf", self->got[0]);
	EXPECT_STREQ("usnap_caller", self->got[1]);
}

TEST_F(usnap, without_the_file_both_locations_are_counted_as_from_the_snapshot)
{
	unlink(prog);
	ASSERT_EQ(2, names_of(cap, self->got, 2, &self->p));
	EXPECT_EQ(2, self->p->usyms_used);
}

TEST_F(usnap, without_the_file_and_a_snapshot_unknown_and_counted_for_the_warning)
{
	unlink(prog);
	ASSERT_EQ(2, names_of(cap_none, self->got, 2, &self->p));
	EXPECT_EQ(0, strncmp(self->got[0], "[unknown] (prog+0x", 18)) TH_LOG("%s", self->got[0]);
	EXPECT_EQ(2, self->p->unnamed);
}

/* --symfs DIR: the file as DIR/PATH. */
TEST_F(usnap, symfs_reads_the_file_under_its_root)
{
	char cmd[1024], root[160];

	unlink(prog);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/root%s && cp /proc/%d/exe %s/root%s", self->dir,
		 self->dir, getpid(), self->dir, prog);
	ASSERT_EQ(0, sh(cmd));
	snprintf(root, sizeof(root), "%s/root", self->dir);
	symfs = root;
	ASSERT_EQ(2, names_of(cap_none, self->got, 2, &self->p));
	EXPECT_STREQ("usnap_leaf", self->got[0]);
	EXPECT_STREQ("usnap_caller", self->got[1]);
	EXPECT_EQ(0, self->p->unnamed);
}

/* --debug-dir DIR: the executable as DIR/.build-id/xx/yyyy. */
TEST_F(usnap, debug_dir_finds_the_executable_by_build_id)
{
	char cmd[1024], dbg[160];

	unlink(prog);
	snprintf(cmd, sizeof(cmd), "id=$(readelf -n /proc/%d/exe | sed -n 's/.*Build ID: //p'); "
		 "d=%s/dbg/.build-id/$(echo $id | cut -c1-2); mkdir -p $d && "
		 "cp /proc/%d/exe $d/$(echo $id | cut -c3-)", getpid(), self->dir, getpid());
	ASSERT_EQ(0, sh(cmd));
	snprintf(dbg, sizeof(dbg), "%s/dbg", self->dir);
	debug_dir = dbg;
	ASSERT_EQ(2, names_of(cap_none, self->got, 2, &self->p));
	EXPECT_STREQ("usnap_leaf", self->got[0]);
	EXPECT_EQ(0, self->p->unnamed);
}

/* Another file at the path: its build-id differs, the snapshot names the stack. */
TEST_F(usnap, another_file_at_the_path_gets_the_snapshots_names)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "cp /bin/sh %s", prog);
	ASSERT_EQ(0, sh(cmd));
	ASSERT_EQ(2, names_of(cap, self->got, 2, &self->p));
	EXPECT_STREQ("usnap_leaf", self->got[0]);
	EXPECT_STREQ("usnap_caller", self->got[1]);
}

TEST_F(usnap, a_damaged_snapshot_is_not_used_and_the_capture_still_loads)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "cp /bin/sh %s", prog);
	ASSERT_EQ(0, sh(cmd));
	ASSERT_EQ(0, flip_snapshot_byte(cap));
	ASSERT_EQ(2, names_of(cap, self->got, 2, &self->p));
	EXPECT_STRNE("usnap_leaf", self->got[0]);
	EXPECT_NE(NULL, strstr(self->p->usyms_from, "files only (")) TH_LOG("%s",
									    self->p->usyms_from);
}

/* Stripped: no symbol at all, but .eh_frame; two addresses of usnap_leaf. */
static int stripped_capture(void)
{
	__u64 same[2] = { (__u64)(uintptr_t)usnap_leaf + 1, (__u64)(uintptr_t)usnap_leaf + 9 };
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "objcopy --strip-all /proc/%d/exe %s", getpid(), prog);
	if (run(cmd))
		return -ENOENT;
	return write_capture(cap, same, 2, 1) ? -EIO : 0;
}

TEST_F(usnap, stripped_two_addresses_of_one_function_are_one_function_by_its_fde)
{
	int err = stripped_capture();

	if (err == -ENOENT)
		SKIP(return, "objcopy failed (binutils missing?)");
	ASSERT_EQ(0, err);
	ASSERT_EQ(2, names_of(cap, self->got, 2, &self->p));
	EXPECT_EQ(0, strncmp(self->got[0], "prog+0x", 7)) TH_LOG("%s", self->got[0]);
	EXPECT_STREQ(self->got[0], self->got[1]);
}

TEST_F(usnap, stripped_without_the_file_the_snapshots_fde_range_names_it)
{
	char want[128];
	int err = stripped_capture();

	if (err == -ENOENT)
		SKIP(return, "objcopy failed (binutils missing?)");
	ASSERT_EQ(0, err);
	ASSERT_EQ(2, names_of(cap, self->got, 2, &self->p));
	strcpy(want, self->got[0]);
	dw_prof_free(self->p);
	self->p = NULL;
	unlink(prog);
	ASSERT_EQ(2, names_of(cap, self->got, 2, &self->p));
	EXPECT_STREQ(want, self->got[0]);
	EXPECT_STREQ(want, self->got[1]);
}

static char text[] =
	"D abababababababababababababababababababab /x\n"
	"F 1000 40 main\nU 1040 20\nL 1010 0 12 inl src/a.c\n"
	"L 1010 1 40 main src/main file.c\n"
	"D - /usr/lib/a b.so\nF 2000 10 _ZN3foo3barEv\n"
	"P 77\nF 7f0000001000 100 jit leaf fn\n";

/*
 * Two processes map this program: the first is alive, the second gone and
 * its path with it.  The second's mapping is the same inode, with the same
 * build-id or (@other_id) another: its snapshot's counts in @st.
 */
static int mapped_again(int other_id, struct dw_usnap_stats *st)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .sample_freq = 99 };
	const __u32 gone = 4194305;	/* above pid_max's highest: never alive */
	__u32 pids[2] = { (__u32)getpid(), gone };
	const char *paths[2] = { NULL, "/gone/prog" };
	struct dw_usnap_writer *c;
	struct dw_capture_writer w;
	struct dunwind_rec_mmap *m;
	const unsigned char *id;
	uint64_t start, end, off;
	char self[4096], out[] = "/tmp/dw_usnap_again.XXXXXX";
	union rec_buf b;
	struct stat sb;
	int n, i, fd, err = 0;

	if (!find_self((uintptr_t)usnap_leaf, &start, &end, &off, self) || stat(self, &sb))
		return -1;
	n = dw_dso_build_id(dw_dso_get(test_dsos(), self, NULL, 0), &id);
	if (n <= 0)
		return -ENOENT;
	paths[0] = self;
	fd = mkstemp(out);
	if (fd < 0)
		return -1;
	close(fd);
	c = dw_usnap_writer_new(test_dsos());
	if (!c || dw_capture_create(&w, out, &cfg)) {
		dw_usnap_writer_free(c);
		unlink(out);
		return -1;
	}
	for (i = 0; i < 2 && !err; i++) {
		mk_mmap(&b, pids[i], 2, start, end, off, paths[i], 0);
		m = (void *)&b;
		m->dev_major = major(sb.st_dev);
		m->dev_minor = minor(sb.st_dev);
		m->ino = sb.st_ino;
		m->build_id_size = (__u32)n;
		memcpy(m->build_id, id, (size_t)n);
		if (i && other_id)
			m->build_id[0] ^= 0xff;
		err = dw_usnap_collect(c, &b.hdr);
	}
	mk_stack(&b, 1, gone, gone, 1, (__u64)(uintptr_t)usnap_leaf + 4, DUNWIND_STOP_END);
	b.stack.time = 3;
	if (!err)
		err = dw_usnap_collect(c, &b.hdr);
	if (!err)
		err = dw_usnap_write(c, &w, st);
	dw_usnap_writer_free(c);
	test_dsos_drop();
	if (dw_capture_close(&w))
		err = -1;
	unlink(out);
	return err;
}

/* ... with the same build-id: the file read for the first names its stack. */
TEST(a_file_mapped_again_is_the_one_read_for_an_earlier_process)
{
	struct dw_usnap_stats st;
	int err = mapped_again(0, &st);

	if (err == -ENOENT)
		SKIP(return, "this program has no build-id: a mapping is known by its inode only with one");
	ASSERT_EQ(0, err);
	EXPECT_EQ(0, st.not_found);
	EXPECT_EQ(1, st.addrs);
	EXPECT_EQ(0, st.unnamed);
}

/* ... with another build-id: not that file (the inode was freed and reused). */
TEST(the_same_inode_with_another_build_id_is_not_the_file_read)
{
	struct dw_usnap_stats st;
	int err = mapped_again(1, &st);

	if (err == -ENOENT)
		SKIP(return, "this program has no build-id: a mapping is known by its inode only with one");
	ASSERT_EQ(0, err);
	EXPECT_EQ(1, st.not_found);
	EXPECT_EQ(1, st.addrs);
	EXPECT_EQ(1, st.unnamed);
}

TEST(a_hand_written_snapshot_text_parses_and_names_an_address)
{
	char first[256] = "";

	EXPECT_EQ(1, parse_text(text, strlen(text), first, sizeof(first)));
	EXPECT_STREQ("main+10 2 inl:12", first);
}

/* The vDSO has no path: its file line says [vdso], and its build-id finds it. */
TEST(a_vdso_file_line_parses_and_names_by_build_id)
{
	static const char vdso[] = "D abababababababababababababababababababab [vdso]\n"
				   "F 1000 40 __vdso_clock_gettime\n";
	char first[256] = "";

	EXPECT_EQ(1, parse_text(vdso, strlen(vdso), first, sizeof(first)));
	EXPECT_STREQ("__vdso_clock_gettime+10 0 -:0", first);
}

TEST(flipped_snapshot_texts_are_parsed_or_refused)
{
	static const unsigned char flips[] = { 0x01, 0x20, 0x80 };
	size_t len = strlen(text), i, loaded = 0;
	int k;

	for (i = 0; i < len; i++) {
		for (k = 0; k < 3; k++) {
			text[i] ^= flips[k];
			loaded += parse_text(text, len, NULL, 0) == 1;
			text[i] ^= flips[k];
		}
	}
	TH_LOG("%zu x 3 flipped texts: %zu parsed, the rest refused", len, loaded);
	EXPECT_LT(0, loaded);
	EXPECT_GT(3 * len, loaded);
}

TEST(a_capture_without_a_snapshot_is_enoent_and_finds_nothing)
{
	struct dw_usnap *u = dw_usnap_new();
	struct dw_symres res;

	ASSERT_NE(NULL, u);
	EXPECT_EQ(-ENOENT, dw_usnap_load(u));
	EXPECT_EQ(-ENOENT, dw_usnap_lookup(u, NULL, 0, "/x", 0, &res));
	dw_usnap_free(u);
}

TEST_HARNESS_MAIN
