// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_reg_test: SFrame tables generated from CFI and registered with
 * DUNWIND_IOC_SFRAME_REGISTER (user/sframe/sframe_reg.h) make stacks through
 * Debian's libc (no frame pointers, no .sframe) complete: a comparator
 * under qsort, write(2) and nanosleep(2) in the kernel.  Malformed
 * registrations fail with their documented errno and change nothing, and
 * registered tables are counted until their session closes (unless pinned).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "arch.h"
#include "chain.h"
#include "records.h"
#include "sframe/sframe_gen.h"
#include "sframe/sframe_reg.h"
#include "symbols/symtab.h"
#include "workload.h"

#include "sframe.h"

#define FREQ		1000	/* Hz */
#define PROFILE_MS	6000
#define MAX_MS		20000	/* profile longer until enough samples came */
#define MIN_JUDGED	1000
#define MIN_KERNEL	500	/* kernel-mode samples, at least */

/*
 * tools/kernel's debug kernel (release "...-debug"): KASAN and lockdep under
 * TCG slow its system calls about 20 times, and perf lowers
 * perf_event_max_sample_rate as the earlier tests' handlers run long, so a
 * mostly sleeping workload gets a handful of CPU samples (1 in 20 s in a
 * whole-suite run there, where 6.12 gives 1000).
 */
static int debug_kernel(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.release, "-debug");
}
/* The guest has HOME=/ and maybe no XDG_CACHE_HOME: cache in /tmp. */
#define CACHE_DIR	"/tmp/dunwind-sframe-cache"

static const struct dw_frame_pat qsort_want[] = {
	DW_FN("cmp"), DW_IN_N("libc.so", 1, 32), DW_FN("sorter"), DW_FN("main"),
};

static const struct dw_frame_pat write_want[] = {
	DW_IN_N("libc.so", 1, 8), DW_FN("do_write"), DW_FN("b"), DW_FN("a"), DW_FN("main"),
};

static const struct dw_frame_pat sleep_want[] = {
	DW_IN_N("libc.so", 1, 8), DW_FN("do_sleep"), DW_FN("b"), DW_FN("a"), DW_FN("main"),
};

/* What registering the target's files on the session did. */
struct reg_ctx {
	int pid;
	int ret;
	struct dw_sframe_reg_pid res;
	int libc;		/* libc's table was registered */
};

static int reg_hook(struct dw_session *s, void *arg)
{
	struct dw_sframe_reg_opts o = { .cache_dir = CACHE_DIR };
	struct reg_ctx *c = arg;
	unsigned int i;

	c->ret = dw_sframe_register_pid(s->fd, c->pid, &o, &c->res);
	for (i = 0; i < c->res.nfiles; i++) {
		const struct dw_sframe_reg_file *f = &c->res.files[i];

		if (strstr(f->path, "/libc.so") && !f->err && !f->skipped)
			c->libc = 1;
	}
	return c->ret;
}

struct profile {
	const char *prog;
	const char *arg;
	int freq;			/* Hz, 0: FREQ */
	size_t min_judged;		/* samples the test needs */
	int reg;			/* register tables before START */
	struct dw_chain_opts opts;	/* pid filled in */
};

/*
 * Run workloads/@p->prog, profile it (registering its files' tables first
 * when @p->reg) and judge its stacks into *@res.
 * Return: 0, or 1 when the test was skipped or failed an assertion.
 */
static int profile_chain(struct __test_metadata *_metadata, struct profile *p,
			 struct dw_chain_result *res)
{
	/* Twice the samples judged at least, unless the guest is starved for long. */
	struct dw_records_opts o = { .ms = PROFILE_MS, .max_ms = MAX_MS,
				     .min_samples = 2 * p->min_judged };
	const char *argv[] = { p->arg, NULL };
	struct reg_ctx rc = { 0 };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_maps *maps;
	unsigned int i;
	int ret;

	ret = dw_workload_start(&w, p->prog, p->arg ? argv : NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start workload %s: %s", p->prog, strerror(-ret));
	maps = dw_maps_load(NULL, w.pid);
	if (!maps)
		dw_workload_stop(&w);
	ASSERT_NE(NULL, maps) TH_LOG("cannot read the symbols of %s", p->prog);
	dw_records_config(&cfg, w.pid, 0, p->freq ? p->freq : FREQ);
	rc.pid = w.pid;
	o.before_start = p->reg ? reg_hook : NULL;
	o.arg = &rc;
	ret = dw_records_profile_opts(&r, &cfg, &o, NULL);
	dw_workload_stop(&w);
	if (p->reg) {
		for (i = 0; i < rc.res.nfiles; i++) {
			const struct dw_sframe_reg_file *f = &rc.res.files[i];

			TH_LOG("%s: %s%s, %llu-byte table, source %d, gen %llu ms", f->path,
			       f->skipped ? "skipped (own .sframe)" :
			       dw_sframe_reg_strerror(f->err),
			       f->cache_err ? " (cache problem)" : "",
			       (unsigned long long)f->table_size, f->source,
			       (unsigned long long)(f->gen_ns / 1000000));
		}
		dw_sframe_reg_pid_free(&rc.res);
	}
	if (ret || (p->reg && !rc.libc)) {
		dw_maps_free(maps);
		dw_records_free(&r);
	}
	ASSERT_EQ(0, ret) TH_LOG("session or registration failed: %s", strerror(-ret));
	if (p->reg)
		ASSERT_EQ(1, rc.libc) TH_LOG("libc's table was not registered");
	EXPECT_EQ(0, r.lost) TH_LOG("%llu records lost", (unsigned long long)r.lost);
	p->opts.pid = w.pid;
	ret = dw_chain_check(&r, maps, &p->opts, res);
	dw_maps_free(maps);
	dw_records_free(&r);
	ASSERT_EQ(0, ret) TH_LOG("stitching failed: %s", strerror(-ret));
	TH_LOG("%s%s%s: %zu samples, judged %zu, chain %zu, reach main %zu, with sframe %zu",
	       p->prog, p->arg ? " " : "", p->arg ? p->arg : "", res->samples, res->judged,
	       res->matched, res->reach_main, res->with_sframe);
	return 0;
}

FIXTURE(gen) {
	int unused;
};

FIXTURE_SETUP(gen)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(gen)
{
}

/* With libc's table: cmp, libc's qsort frames, sorter, main. */
TEST_F_TIMEOUT(gen, qsort_registered, 400)
{
	struct profile p = { .prog = "qsort_loop", .reg = 1,
			     .min_judged = MIN_JUDGED,
			     .opts = { .want = qsort_want, .nr_want = 4, .in_func = "cmp" } };
	struct dw_chain_result res;

	if (profile_chain(_metadata, &p, &res))
		return;
	EXPECT_GE(res.judged, p.min_judged) TH_LOG("too few samples in cmp()");
	EXPECT_GE(res.matched * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks are cmp, libc..., sorter, main", res.matched,
		       res.judged);
}

/* Without it the walk is lost in libc: most stacks never reach main. */
TEST_F_TIMEOUT(gen, qsort_unregistered_breaks, 120)
{
	struct profile p = { .prog = "qsort_loop",
			     .min_judged = MIN_JUDGED,
			     .opts = { .want = qsort_want, .nr_want = 4, .in_func = "cmp" } };
	struct dw_chain_result res;

	DW_SKIP_WITHOUT(DW_ARCH_LIBC_FRAME_RECORDS);
	if (profile_chain(_metadata, &p, &res))
		return;
	EXPECT_GE(res.judged, p.min_judged) TH_LOG("too few samples in cmp()");
	EXPECT_LT(res.reach_main * 2, res.judged)
		TH_LOG("%zu of %zu stacks reached main through libc without a table",
		       res.reach_main, res.judged);
}

/*
 * Samples in write(2) (in the kernel, entered from libc): the user part goes
 * through libc's wrapper to main.
 */
TEST_F_TIMEOUT(gen, write_loop, 400)
{
	struct profile p = { .prog = "syscall_loop", .arg = "write", .reg = 1,
			     .min_judged = MIN_KERNEL,
			     .opts = { .want = write_want, .nr_want = 5, .kernel_only = 1,
				       .in_dso = "libc.so" } };
	struct dw_chain_result res;

	if (profile_chain(_metadata, &p, &res))
		return;
	EXPECT_GE(res.judged, p.min_judged) TH_LOG("too few samples in the kernel");
	EXPECT_GE(res.matched * 100, res.judged * 95)
		TH_LOG("only %zu of %zu kernel samples have libc, do_write, b, a, main",
		       res.matched, res.judged);
}

/* On-CPU samples of nanosleep(2) paths: complete through libc to main. */
TEST_F_TIMEOUT(gen, blocking_sleep, 400)
{
	/* Mostly asleep: sample its CPU time more often for enough samples. */
	struct profile p = { .prog = "syscall_loop", .arg = "sleep", .reg = 1, .freq = 5000,
			     .min_judged = MIN_KERNEL,
			     .opts = { .want = sleep_want, .nr_want = 5, .kernel_only = 1,
				       .in_dso = "libc.so" } };
	struct dw_chain_result res;

	if (profile_chain(_metadata, &p, &res))
		return;
	EXPECT_GE(res.matched * 100, res.judged * 95)
		TH_LOG("only %zu of %zu kernel samples have libc, do_sleep, b, a, main",
		       res.matched, res.judged);
	/* The stacks it got were right; too few of them is the debug kernel's speed. */
	if (res.judged < p.min_judged && res.matched * 100 >= res.judged * 95 && debug_kernel())
		SKIP(return, "debug kernel: %zu kernel-mode samples of the sleeping workload, "
		     "%zu wanted (write_loop covers the same path)", res.judged, p.min_judged);
	EXPECT_GE(res.judged, p.min_judged) TH_LOG("too few samples in the kernel");
}

/* The module-wide registry counters. */
static int reg_stats(int fd, __u64 *tables, __u64 *bytes)
{
	struct dunwind_stats st;

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	if (ioctl(fd, DUNWIND_IOC_STATS, &st))
		return -errno;
	if (st.size < DUNWIND_STATS_SIZE_VER1)
		return -EOPNOTSUPP;
	*tables = st.reg_tables;
	*bytes = st.reg_bytes;
	return 0;
}

/* How a registration is spoiled. */
enum badreg_kind {
	BAD_NONE, BAD_MAGIC, BAD_UNSORTED, BAD_TRUNCATED, BAD_BUILD_ID, BAD_FD, BAD_NOT_ELF,
	BAD_DIRECTORY,
	BAD_RBX_V2,		/* DUNWIND_REG_RBX on a v2 table */
	BAD_RBX_A64,		/* DUNWIND_REG_RBX on an AArch64 v3 table */
};

FIXTURE(badreg) {
	int dev;			/* an unconfigured session */
	char path[4096];		/* the ELF file the table is for */
	struct dw_sframe_gen_result gen;
	struct dw_sframe_reg_file id;	/* its build-id */
};

FIXTURE_VARIANT(badreg) {
	enum badreg_kind kind;
	int err;			/* expected errno, 0: success */
};

FIXTURE_VARIANT_ADD(badreg, valid) { .kind = BAD_NONE, .err = 0 };
FIXTURE_VARIANT_ADD(badreg, bad_magic) { .kind = BAD_MAGIC, .err = EINVAL };
FIXTURE_VARIANT_ADD(badreg, unsorted) { .kind = BAD_UNSORTED, .err = EINVAL };
FIXTURE_VARIANT_ADD(badreg, truncated) { .kind = BAD_TRUNCATED, .err = EINVAL };
FIXTURE_VARIANT_ADD(badreg, wrong_build_id) { .kind = BAD_BUILD_ID, .err = ESTALE };
FIXTURE_VARIANT_ADD(badreg, bad_fd) { .kind = BAD_FD, .err = EBADF };
FIXTURE_VARIANT_ADD(badreg, not_elf) { .kind = BAD_NOT_ELF, .err = ENOEXEC };
FIXTURE_VARIANT_ADD(badreg, directory) { .kind = BAD_DIRECTORY, .err = ENOEXEC };
FIXTURE_VARIANT_ADD(badreg, rbx_on_v2) { .kind = BAD_RBX_V2, .err = EINVAL };
FIXTURE_VARIANT_ADD(badreg, rbx_on_aarch64) { .kind = BAD_RBX_A64, .err = EINVAL };

FIXTURE_SETUP(badreg)
{
	/* Absolute FDE start addresses: swapping two FDEs really unsorts them. */
	struct dw_sframe_gen_opts go = { .flags = DW_SFRAME_GEN_ABS };
	struct dw_sframe_reg_opts ro = { .flags = DW_SFRAME_REG_NO_CACHE };
	int ret;

	self->dev = -1;
	if (variant->kind == BAD_RBX_V2)
		DW_SKIP_WITHOUT(DW_ARCH_NO_RBX);
	if (variant->kind == BAD_RBX_A64) {
		DW_SKIP_UNLESS_A64(DW_ARCH_ONLY_A64_TABLE);
		go.version = DUNWIND_SFRAME_V3;
	}
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	self->dev = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->dev) TH_LOG("open %s: %s", DUNWIND_DEVICE, strerror(errno));
	ASSERT_EQ(0, dw_workload_path("qsort_loop", self->path, sizeof(self->path)));
	ret = dw_sframe_gen(self->path, &go, &self->gen);
	ASSERT_EQ(0, ret) TH_LOG("cannot generate a table for %s: %s", self->path,
				 strerror(-ret));
	ret = dw_sframe_register_file(-1, self->path, &ro, &self->id);
	ASSERT_EQ(0, ret) TH_LOG("cannot read %s: %s", self->path, strerror(-ret));
	ASSERT_LT(0, self->id.build_id_size) TH_LOG("%s has no build-id", self->path);
}

FIXTURE_TEARDOWN(badreg)
{
	dw_sframe_gen_free(&self->gen);
	if (self->dev >= 0)
		close(self->dev);
}

/* Swap the first and last FDE of a v2 table; 0 or -EINVAL if it cannot. */
static int unsort(__u8 *t, size_t size)
{
	__u32 nfdes, fdeoff;
	__s32 first, last;
	__u8 tmp[DUNWIND_SFRAME_FDE_V2_SIZE];
	size_t fdes, lastoff;

	if (size < DUNWIND_SFRAME_HDR_SIZE || t[2] != DUNWIND_SFRAME_V2 ||
	    (t[3] & DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL) || !(t[3] & DUNWIND_SFRAME_F_FDE_SORTED))
		return -EINVAL;
	memcpy(&nfdes, t + 8, 4);
	memcpy(&fdeoff, t + 20, 4);
	fdes = DUNWIND_SFRAME_HDR_SIZE + t[7] + (size_t)fdeoff;
	if (nfdes < 2 || fdes + (size_t)nfdes * DUNWIND_SFRAME_FDE_V2_SIZE > size)
		return -EINVAL;
	lastoff = fdes + (size_t)(nfdes - 1) * DUNWIND_SFRAME_FDE_V2_SIZE;
	memcpy(tmp, t + fdes, sizeof(tmp));
	memcpy(t + fdes, t + lastoff, sizeof(tmp));
	memcpy(t + lastoff, tmp, sizeof(tmp));
	memcpy(&first, t + fdes, 4);
	memcpy(&last, t + lastoff, 4);
	return first > last ? 0 : -EINVAL;
}

/* A malformed registration fails with its errno and registers nothing. */
TEST_F(badreg, register_errno)
{
	struct dunwind_sframe_reg reg;
	__u64 tables0, bytes0, tables1, bytes1;
	char tmp[] = "/tmp/dw_not_elf.XXXXXX";
	__u8 *table;
	int fd = -1, ret;

	table = malloc(self->gen.table_size);
	ASSERT_NE(NULL, table);
	memcpy(table, self->gen.table, self->gen.table_size);
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.build_id_size = self->id.build_id_size;
	memcpy(reg.build_id, self->id.build_id, self->id.build_id_size);
	reg.table = (__u64)(unsigned long)table;
	reg.table_size = self->gen.table_size;
	reg.sec_vaddr = self->gen.sec_vaddr;

	switch (variant->kind) {
	case BAD_NONE:
		break;
	case BAD_MAGIC:
		table[0] ^= 0xff;
		break;
	case BAD_UNSORTED:
		ASSERT_EQ(0, unsort(table, self->gen.table_size))
			TH_LOG("the generated table cannot be unsorted");
		break;
	case BAD_TRUNCATED:
		reg.table_size = self->gen.table_size / 2;
		break;
	case BAD_BUILD_ID:
		reg.build_id[0] ^= 1;
		break;
	case BAD_FD:
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		close(fd);	/* a descriptor number that is surely closed */
		break;
	case BAD_NOT_ELF:
		fd = mkstemp(tmp);
		ASSERT_LE(0, fd);
		unlink(tmp);
		ASSERT_EQ(64, write(fd, "not an ELF file, only text" "                        "
				    "              ", 64));
		break;
	case BAD_DIRECTORY:
		fd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		break;
	case BAD_RBX_V2:
		ASSERT_EQ(DUNWIND_SFRAME_V2, table[2]);
		reg.flags = DUNWIND_REG_RBX;
		break;
	case BAD_RBX_A64:
		ASSERT_EQ(DUNWIND_SFRAME_V3, table[2]);
		ASSERT_EQ(DUNWIND_SFRAME_ABI_AARCH64_LE, table[4]);
		reg.flags = DUNWIND_REG_RBX;
		break;
	}
	if (variant->kind != BAD_FD && variant->kind != BAD_NOT_ELF &&
	    variant->kind != BAD_DIRECTORY) {
		fd = open(self->path, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
	}
	reg.fd = fd;

	ASSERT_EQ(0, reg_stats(self->dev, &tables0, &bytes0));
	ret = ioctl(self->dev, DUNWIND_IOC_SFRAME_REGISTER, &reg) ? errno : 0;
	ASSERT_EQ(0, reg_stats(self->dev, &tables1, &bytes1));
	EXPECT_EQ(variant->err, ret) TH_LOG("register: %s, expected %s", strerror(ret),
					    strerror(variant->err));
	if (variant->err) {
		EXPECT_EQ(tables0, tables1) TH_LOG("a failed registration added a table");
		EXPECT_EQ(bytes0, bytes1);
	} else {
		EXPECT_EQ(tables0 + 1, tables1);
		EXPECT_EQ(bytes0 + self->gen.table_size, bytes1);
	}
	if (variant->kind != BAD_FD)
		close(fd);
	free(table);
}

/* Registered tables are counted while a session holds them. */
FIXTURE(reglife) {
	int obs;		/* an observer session: reads the counters */
	char copy[64];		/* a private copy of a workload: its own inode */
	__u64 tables0, bytes0;
};

FIXTURE_SETUP(reglife)
{
	char src[4096];
	int ret;

	self->obs = -1;
	self->copy[0] = '\0';
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	self->obs = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->obs);
	ASSERT_EQ(0, dw_workload_path("qsort_loop", src, sizeof(src)));
	snprintf(self->copy, sizeof(self->copy), "/tmp/dw_reglife.%d", getpid());
	ret = dw_copy_file(src, self->copy, 0755);
	ASSERT_EQ(0, ret) TH_LOG("copy %s: %s", src, strerror(-ret));
	ASSERT_EQ(0, reg_stats(self->obs, &self->tables0, &self->bytes0));
}

FIXTURE_TEARDOWN(reglife)
{
	if (self->copy[0])
		unlink(self->copy);
	if (self->obs >= 0)
		close(self->obs);
}

/* Register self->copy on a new session @*dev with @flags; its table size in *@size. */
static int reg_copy(struct __test_metadata *_metadata, const char *path, unsigned int flags,
		    int *dev, __u64 *size)
{
	struct dw_sframe_reg_opts o = { .flags = flags | DW_SFRAME_REG_NO_CACHE };
	struct dw_sframe_reg_file res;
	int ret;

	*dev = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, *dev) TH_LOG("open %s: %s", DUNWIND_DEVICE, strerror(errno));
	ret = dw_sframe_register_file(*dev, path, &o, &res);
	ASSERT_EQ(0, ret) TH_LOG("register %s: %s", path, dw_sframe_reg_strerror(ret));
	*size = res.table_size;
	return 0;
}

/* Up by one table on registration, back down when the session closes. */
TEST_F(reglife, counted_until_close)
{
	__u64 tables, bytes, size;
	int dev;

	reg_copy(_metadata, self->copy, 0, &dev, &size);
	ASSERT_EQ(0, reg_stats(self->obs, &tables, &bytes));
	EXPECT_EQ(self->tables0 + 1, tables);
	EXPECT_EQ(self->bytes0 + size, bytes);
	close(dev);
	ASSERT_EQ(0, reg_stats(self->obs, &tables, &bytes));
	EXPECT_EQ(self->tables0, tables) TH_LOG("the table outlived its session");
	EXPECT_EQ(self->bytes0, bytes);
}

/* Two sessions registering one file share one copy until both close. */
TEST_F(reglife, shared_between_sessions)
{
	__u64 tables, bytes, size;
	int dev1, dev2;

	reg_copy(_metadata, self->copy, 0, &dev1, &size);
	reg_copy(_metadata, self->copy, 0, &dev2, &size);
	ASSERT_EQ(0, reg_stats(self->obs, &tables, &bytes));
	EXPECT_EQ(self->tables0 + 1, tables);
	EXPECT_EQ(self->bytes0 + size, bytes);
	close(dev1);
	ASSERT_EQ(0, reg_stats(self->obs, &tables, &bytes));
	EXPECT_EQ(self->tables0 + 1, tables) TH_LOG("the other session's reference was dropped");
	close(dev2);
	ASSERT_EQ(0, reg_stats(self->obs, &tables, &bytes));
	EXPECT_EQ(self->tables0, tables);
	EXPECT_EQ(self->bytes0, bytes);
}

/* The same session registering a file twice: EEXIST, nothing added. */
TEST_F(reglife, twice_is_eexist)
{
	struct dw_sframe_reg_opts o = { .flags = DW_SFRAME_REG_NO_CACHE };
	__u64 tables, bytes, size;
	int dev, ret;

	reg_copy(_metadata, self->copy, 0, &dev, &size);
	ret = dw_sframe_register_file(dev, self->copy, &o, NULL);
	EXPECT_EQ(-EEXIST, ret) TH_LOG("second registration: %s", strerror(-ret));
	ASSERT_EQ(0, reg_stats(self->obs, &tables, &bytes));
	EXPECT_EQ(self->tables0 + 1, tables);
	close(dev);
}

/*
 * DUNWIND_REG_PIN keeps the table after the session closes (until the
 * module is unloaded: the copy's inode is never reused meanwhile).
 */
TEST_F(reglife, pinned_outlives_session)
{
	__u64 tables, bytes, size;
	int dev;

	reg_copy(_metadata, self->copy, DW_SFRAME_REG_PIN, &dev, &size);
	close(dev);
	ASSERT_EQ(0, reg_stats(self->obs, &tables, &bytes));
	EXPECT_EQ(self->tables0 + 1, tables) TH_LOG("the pinned table went with its session");
	EXPECT_EQ(self->bytes0 + size, bytes);
}

TEST_HARNESS_MAIN
