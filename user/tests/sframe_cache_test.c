// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of registration's cache (sframe_reg.c, sframe_cache.c) without
 * a module: dev_fd < 0, or a fd that is not a dunwind session.
 *
 * Generating a libc table takes seconds, so main() registers libc once
 * into a seed cache, then this whole process into a second one, before the
 * harness forks its tests; each test works on its own copy of a seed.
 * The file under test is $DW_TEST_LIBC, default /lib/x86_64-linux-gnu/libc.so.6.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "sframe/sframe_gen.h"
#include "sframe/sframe_reg.h"

#define DEFAULT_LIBC	"/lib/x86_64-linux-gnu/libc.so.6"

static char tmpdir[] = "/tmp/sframe_cache_test.XXXXXX";
static char seed_libc[300], seed_pid[300];
static const char *libc;
static int libc_ok;

/* Made in main(): libc registered into seed_libc, this process into seed_pid. */
static struct dw_sframe_reg_file a;
static int a_err, pid_err;
static struct dw_sframe_reg_pid pid1;
static struct dw_sframe_gen_result g;
static int g_err;

/* The cache entry of @f under $XDG_CACHE_HOME: 0, or -1. */
static int cache_file(const struct dw_sframe_reg_file *f, char *buf, size_t len)
{
	char dir[256];
	size_t n;
	__u32 i;

	if (dw_sframe_cache_dir(NULL, dir, sizeof(dir)))
		return -1;
	n = (size_t)snprintf(buf, len, "%s/", dir);
	for (i = 0; i < f->build_id_size && n + 3 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%02x", f->build_id[i]);
	return 0;
}

/* Make $XDG_CACHE_HOME a new directory, a copy of @seed if not NULL: 0 or not. */
static int own_cache(const char *seed)
{
	char dir[300], cmd[1000];

	snprintf(dir, sizeof(dir), "%s/t%d", tmpdir, (int)getpid());
	if (seed)
		snprintf(cmd, sizeof(cmd), "cp -r %s %s", seed, dir);
	else
		snprintf(cmd, sizeof(cmd), "mkdir %s", dir);
	setenv("XDG_CACHE_HOME", dir, 1);
	return system(cmd);
}

FIXTURE(reg) {
	char cpath[400];
	struct dw_sframe_reg_file b;
	struct stat st;
};

/* Every test starts from its own copy of the libc seed. */
FIXTURE_SETUP(reg)
{
	if (!libc_ok)
		SKIP(return, "%s not readable: set DW_TEST_LIBC", libc);
	ASSERT_EQ(0, a_err);
	ASSERT_EQ(0, own_cache(seed_libc));
	ASSERT_EQ(0, cache_file(&a, self->cpath, sizeof(self->cpath)));
	ASSERT_EQ(0, stat(self->cpath, &self->st)) TH_LOG("no cache entry %s", self->cpath);
}

FIXTURE_TEARDOWN(reg)
{
}

TEST_F(reg, libc_generated)
{
	EXPECT_EQ(DW_SFRAME_SRC_GENERATED, a.source);
	EXPECT_EQ(0, a.cache_err);
	EXPECT_NE(0, a.table_size);
	EXPECT_EQ(20, a.build_id_size);
}

TEST_F(reg, cache_entry_written_mode_0600)
{
	EXPECT_TRUE(S_ISREG(self->st.st_mode));
	EXPECT_EQ(0600, self->st.st_mode & 0777);
	EXPECT_GT((__u64)self->st.st_size, a.table_size);
}

TEST_F(reg, second_time_from_the_cache)
{
	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, NULL, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_CACHE, self->b.source);
	EXPECT_EQ(a.table_size, self->b.table_size);
	EXPECT_EQ(0, self->b.gen_ns);
	printf("# loaded in %.2f ms, generated in %.2f ms\n", (double)self->b.load_ns / 1e6,
	       (double)a.gen_ns / 1e6);
}

/* The cached table is byte for byte what the generator makes. */
TEST_F(reg, cached_table_equals_generated)
{
	long hdr = self->st.st_size - (long)g.table_size;
	__u8 *buf;
	FILE *f;

	ASSERT_EQ(0, g_err);
	ASSERT_GT(hdr, 0);
	buf = malloc(g.table_size);
	f = fopen(self->cpath, "rb");
	ASSERT_TRUE(buf && f);
	ASSERT_EQ(0, fseek(f, hdr, SEEK_SET));
	ASSERT_EQ(g.table_size, fread(buf, 1, g.table_size, f));
	EXPECT_EQ(0, memcmp(buf, g.table, g.table_size));
	fclose(f);
	free(buf);
}

/* One byte of the table flipped: detected, regenerated, rewritten. */
TEST_F(reg, corrupt_entry_regenerated_and_rewritten)
{
	__u8 x;
	int fd = open(self->cpath, O_RDWR);

	ASSERT_LE(0, fd);
	ASSERT_EQ(1, pread(fd, &x, 1, self->st.st_size - 3));
	x ^= 0x5a;
	ASSERT_EQ(1, pwrite(fd, &x, 1, self->st.st_size - 3));
	close(fd);
	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, NULL, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_GENERATED, self->b.source);
	EXPECT_EQ(-EBADMSG, self->b.cache_err);
	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, NULL, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_CACHE, self->b.source);
}

TEST_F(reg, truncated_entry_regenerated)
{
	ASSERT_EQ(0, truncate(self->cpath, 40));
	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, NULL, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_GENERATED, self->b.source);
	EXPECT_EQ(-EBADMSG, self->b.cache_err);
}

/* v2 asked, v3 (the default) cached: another table, then cached too. */
TEST_F(reg, another_version_is_another_entry)
{
	struct dw_sframe_reg_opts v2 = { .version = 2 };

	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, &v2, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_GENERATED, self->b.source);
	EXPECT_NE(a.table_size, self->b.table_size);
	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, &v2, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_CACHE, self->b.source);
}

TEST_F(reg, unwritable_cache_is_skipped)
{
	struct dw_sframe_reg_opts badc = { .cache_dir = "/dev/null/sub" };

	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, &badc, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_GENERATED, self->b.source);
	EXPECT_NE(0, self->b.cache_err);
}

TEST_F(reg, no_cache_generates)
{
	struct dw_sframe_reg_opts noc = { .flags = DW_SFRAME_REG_NO_CACHE };

	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, &noc, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_GENERATED, self->b.source);
	EXPECT_EQ(0, self->b.cache_err);
}

/* Cached only (dunwind record -a's first pass): a cached table is loaded. */
TEST_F(reg, cache_only_loads_a_cached_table)
{
	struct dw_sframe_reg_opts co = { .flags = DW_SFRAME_REG_CACHE_ONLY };

	ASSERT_EQ(0, dw_sframe_register_file(-1, libc, &co, &self->b));
	EXPECT_EQ(DW_SFRAME_SRC_CACHE, self->b.source);
	EXPECT_EQ(a.table_size, self->b.table_size);
	EXPECT_EQ(0, self->b.gen_ns);
}

/* ... and where the cache has none, nothing is generated or written. */
TEST(cache_only_generates_nothing)
{
	struct dw_sframe_reg_opts co = { .flags = DW_SFRAME_REG_CACHE_ONLY };
	struct dw_sframe_reg_file b;
	char path[400];
	struct stat st;

	if (!libc_ok)
		SKIP(return, "%s not readable: set DW_TEST_LIBC", libc);
	ASSERT_EQ(0, own_cache(NULL));
	EXPECT_EQ(-EAGAIN, dw_sframe_register_file(-1, libc, &co, &b));
	EXPECT_EQ(DW_SFRAME_SRC_NONE, b.source);
	EXPECT_EQ(0, b.gen_ns);
	EXPECT_EQ(0, b.table_size);
	ASSERT_EQ(0, cache_file(&b, path, sizeof(path)));
	EXPECT_EQ(-1, stat(path, &st)) TH_LOG("%s written", path);
}

/* A fd that is not a dunwind session: the ioctl fails like an old module's. */
TEST_F(reg, enotty_from_the_ioctl_is_reported)
{
	int fd = open("/dev/null", O_RDWR), err;

	ASSERT_LE(0, fd);
	err = dw_sframe_register_file(fd, libc, NULL, &self->b);
	close(fd);
	EXPECT_EQ(-ENOTTY, err);
	EXPECT_NE(NULL, strstr(dw_sframe_reg_strerror(err), "too old"));
}

TEST_F(reg, pid_stops_at_enotty)
{
	struct dw_sframe_reg_pid p;
	int fd = open("/dev/null", O_RDWR), err;

	ASSERT_LE(0, fd);
	err = dw_sframe_register_pid(fd, getpid(), NULL, &p);
	close(fd);
	EXPECT_EQ(-ENOTTY, err);
	EXPECT_LE(1, p.nfiles);
	dw_sframe_reg_pid_free(&p);
}

/* main()'s pass over this process, with libc in the cache already. */
TEST_F(reg, pid_own_process)
{
	const struct dw_sframe_reg_pid *p = &pid1;
	unsigned int i, libc_seen = 0, libc_mapped = 0;

	for (i = 0; i < p->nfiles; i++) {
		printf("# %s: %s%s, %llu bytes, cache %d\n", p->files[i].path,
		       p->files[i].skipped ? "skipped (has .sframe)" :
		       dw_sframe_reg_strerror(p->files[i].err),
		       p->files[i].source == DW_SFRAME_SRC_CACHE ? " (cache)" :
		       p->files[i].source == DW_SFRAME_SRC_GENERATED ? " (generated)" : "",
		       (unsigned long long)p->files[i].table_size, p->files[i].cache_err);
		if (p->files[i].build_id_size == a.build_id_size &&
		    !memcmp(p->files[i].build_id, a.build_id, a.build_id_size)) {
			libc_mapped = 1;
			libc_seen = p->files[i].source == DW_SFRAME_SRC_CACHE && !p->files[i].err;
		}
	}
	printf("# pid: %u files, %u prepared, %u skipped, %u failed; %u generated (%.1f ms), "
	       "%u from cache (%.1f ms)\n", p->nfiles, p->registered, p->skipped, p->failed,
	       p->generated, (double)p->gen_ns / 1e6, p->from_cache, (double)p->load_ns / 1e6);
	EXPECT_EQ(0, pid_err);
	EXPECT_LE(2, p->nfiles);
	/* The file under test came from the cache if this process maps it. */
	EXPECT_EQ(libc_mapped, libc_seen);
	EXPECT_EQ(p->nfiles, p->registered + p->skipped + p->failed);
}

TEST(pid_second_time_all_from_the_cache)
{
	struct dw_sframe_reg_pid p;

	if (!libc_ok)
		SKIP(return, "%s not readable: set DW_TEST_LIBC", libc);
	ASSERT_EQ(0, pid_err);
	ASSERT_EQ(0, own_cache(seed_pid));
	ASSERT_EQ(0, dw_sframe_register_pid(-1, getpid(), NULL, &p));
	EXPECT_EQ(0, p.generated);
	EXPECT_EQ(p.registered, p.from_cache);
	printf("# %u from the cache in %.1f ms\n", p.from_cache, (double)p.load_ns / 1e6);
	dw_sframe_reg_pid_free(&p);
}

TEST(pid_no_such_process)
{
	struct dw_sframe_reg_pid p;

	EXPECT_EQ(-ESRCH, dw_sframe_register_pid(-1, 0x3fffffff, NULL, &p));
	dw_sframe_reg_pid_free(&p);
}

/* The seeds: libc alone, then libc and everything else this process maps. */
/* What registration generates by default: v3 with the %rbx extension. */
static const struct dw_sframe_gen_opts rec_gen = { .version = 3, .flags = DW_SFRAME_GEN_RBX };

static void make_seeds(void)
{
	char cmd[700];

	snprintf(seed_libc, sizeof(seed_libc), "%s/seed-libc", tmpdir);
	snprintf(seed_pid, sizeof(seed_pid), "%s/seed-pid", tmpdir);
	setenv("XDG_CACHE_HOME", seed_libc, 1);
	a_err = dw_sframe_register_file(-1, libc, NULL, &a);
	g_err = dw_sframe_gen(libc, &rec_gen, &g);
	snprintf(cmd, sizeof(cmd), "cp -r %s %s", seed_libc, seed_pid);
	pid_err = system(cmd) ? -EIO : 0;
	setenv("XDG_CACHE_HOME", seed_pid, 1);
	if (!pid_err)
		pid_err = dw_sframe_register_pid(-1, getpid(), NULL, &pid1);
	setenv("XDG_CACHE_HOME", seed_libc, 1);
}

int main(int argc, char **argv)
{
	char cmd[300];
	int rc;

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	libc = getenv("DW_TEST_LIBC") ? getenv("DW_TEST_LIBC") : DEFAULT_LIBC;
	libc_ok = !access(libc, R_OK);
	if (libc_ok)
		make_seeds();
	rc = test_harness_run(argc, argv);
	if (libc_ok) {
		dw_sframe_reg_pid_free(&pid1);
		if (!g_err)
			dw_sframe_gen_free(&g);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		printf("# could not remove %s\n", tmpdir);
	return rc;
}
