// SPDX-License-Identifier: GPL-2.0
/*
 * ovl_test: a program run from an overlayfs mount, as in a container.  The
 * module must name its files as user space sees them in /proc/PID/maps
 * (file_user_inode()/file_user_path() from 6.8, kmod/compat.h), and a
 * table the recorder registers for the file it opens at that path must
 * apply to its walks.
 *
 * Needs overlay.ko for the booted kernel (overlay.h); the tests SKIP
 * without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "chain.h"
#include "overlay.h"
#include "records.h"
#include "sframe/sframe_reg.h"
#include "symbols/symtab.h"
#include "workload.h"

#define TOP		"/tmp/dw-ovl"
#define MERGED		TOP "/merged"
#define PROG		"eh_chain"	/* no frame pointers, .eh_frame only */
#define CACHE_DIR	"/tmp/dunwind-sframe-cache"
#define FREQ		1000		/* Hz */
#define MIN_JUDGED	300

/* The chain of fp_chain.c, which eh_chain is built from. */
static const struct dw_frame_pat chain_want[] = {
	DW_FN("leaf"), DW_FN("c"), DW_FN("b"), DW_FN("a"), DW_FN("main"),
};

FIXTURE(ovl) {
	int mounted;		/* 1: tmpfs at TOP, 2: and the overlay */
	char path[256];		/* the program, in the merged view */
};

FIXTURE_SETUP(ovl)
{
	char src[512], why[256];
	int ret;

	ret = dw_ovl_ready(why, sizeof(why));
	if (!ret)
		SKIP(return, "%s", why);
	ASSERT_EQ(1, ret) TH_LOG("%s", why);
	ASSERT_EQ(0, dw_workload_path(PROG, src, sizeof(src)));
	if (access(src, X_OK))
		SKIP(return, "no workload %s", src);
	ret = dw_ovl_scratch(TOP, &self->mounted);
	ASSERT_EQ(0, ret) TH_LOG("a tmpfs for the overlay at %s: %s", TOP, strerror(-ret));
	ASSERT_EQ(0, dw_copy_file(src, TOP "/lower/" PROG, 0755));
	ASSERT_EQ(0, mount("overlay", MERGED, "overlay", 0,
			   "lowerdir=" TOP "/lower,upperdir=" TOP "/upper,workdir=" TOP "/work"))
		TH_LOG("overlay on %s: %s", MERGED, strerror(errno));
	self->mounted = 2;
	snprintf(self->path, sizeof(self->path), "%s/%s", MERGED, PROG);
}

FIXTURE_TEARDOWN(ovl)
{
	if (self->mounted >= 2)
		umount2(MERGED, MNT_DETACH);
	if (self->mounted >= 1)
		umount2(TOP, MNT_DETACH);
}

/* Register the target's files (as the recorder does) before START. */
static int reg_hook(struct dw_session *s, void *arg)
{
	struct dw_sframe_reg_opts o = { .cache_dir = CACHE_DIR };
	struct dw_sframe_reg_pid res;
	int pid = *(int *)arg, ret;

	ret = dw_sframe_register_pid(s->fd, pid, &o, &res);
	dw_sframe_reg_pid_free(&res);
	return ret;
}

/*
 * Where /proc/@pid/maps maps @path: its device and inode (as the maps file
 * shows them). 0, or -ENOENT.
 */
static int maps_identity(int pid, const char *path, unsigned int *maj, unsigned int *min,
			 unsigned long long *ino)
{
	char file[64], line[4400], name[4096];
	int ret = -ENOENT;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/maps", pid);
	f = fopen(file, "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*x-%*x %*s %*x %x:%x %llu %4095s", maj, min, ino, name) == 4 &&
		    !strcmp(name, path))
			ret = 0;
	fclose(f);
	return ret;
}

/*
 * The program's MMAP record names it as /proc/PID/maps does: the merged
 * path, with the overlay's device and inode (stat(2)'s) from 6.8, where
 * the mapping's backing file knows them; on 6.1, whose overlayfs maps the
 * real file under the overlay's path, the real file's.  The recorder
 * matches the two to find the file and its table.
 */
TEST_F_TIMEOUT(ovl, mmap_record_names_the_merged_file, 120)
{
	struct dw_records_opts o = { .ms = 1000, .max_ms = 15000, .min_samples = 100 };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	size_t i, seen = 0, right = 0;
	unsigned long long ino = 0;
	unsigned int maj = 0, min = 0;
	struct stat st;
	int ret;

	ASSERT_EQ(0, stat(self->path, &st));
	ret = dw_workload_start_path(&w, self->path, NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start %s: %s", self->path, strerror(-ret));
	ret = maps_identity(w.pid, self->path, &maj, &min, &ino);
	if (ret)
		dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("%s not in /proc/%d/maps", self->path, w.pid);
	TH_LOG("maps: %s %x:%x %llu; stat: %x:%x %llu", self->path, maj, min, ino,
	       major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino);
	dw_records_config(&cfg, w.pid, 0, FREQ);
	ret = dw_records_profile_opts(&r, &cfg, &o, NULL);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session failed: %s", strerror(-ret));
	for (i = 0; i < r.n; i++) {
		const struct dunwind_rec_mmap *m = (const void *)r.v[i];

		if (r.v[i]->type != DUNWIND_REC_MMAP || !strstr(m->path, "/" PROG))
			continue;
		seen++;
		if (!strcmp(m->path, self->path) && m->ino == ino && m->dev_major == maj &&
		    m->dev_minor == min)
			right++;
		else
			TH_LOG("MMAP %s dev %x:%x ino %llu; maps says %s %x:%x %llu", m->path,
			       m->dev_major, m->dev_minor, (unsigned long long)m->ino, self->path,
			       maj, min, ino);
	}
	dw_records_free(&r);
	ASSERT_GT(seen, 0) TH_LOG("no MMAP record for %s", PROG);
	EXPECT_EQ(seen, right);
}

/*
 * The program has no frame pointers and no .sframe: its stacks are
 * complete only through the table generated and registered for it by the
 * path and inode user space sees.
 */
TEST_F_TIMEOUT(ovl, registered_table_applies, 300)
{
	struct dw_records_opts o = { .ms = 2000, .max_ms = 20000, .min_samples = 2 * MIN_JUDGED,
				     .before_start = reg_hook };
	struct dw_chain_opts co = { .want = chain_want, .nr_want = 5, .in_func = "leaf" };
	struct dw_chain_result res;
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct dw_workload w;
	struct dw_maps *maps;
	int ret;

	ret = dw_workload_start_path(&w, self->path, NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start %s: %s", self->path, strerror(-ret));
	maps = dw_maps_load(NULL, w.pid);
	if (!maps)
		dw_workload_stop(&w);
	ASSERT_NE(NULL, maps) TH_LOG("cannot read the symbols of %s", self->path);
	dw_records_config(&cfg, w.pid, 0, FREQ);
	o.arg = &w.pid;
	ret = dw_records_profile_opts(&r, &cfg, &o, NULL);
	dw_workload_stop(&w);
	co.pid = w.pid;
	if (!ret)
		ret = dw_chain_check(&r, maps, &co, &res);
	dw_maps_free(maps);
	dw_records_free(&r);
	ASSERT_EQ(0, ret) TH_LOG("session, registration or stitching failed: %s",
				 strerror(-ret));
	TH_LOG("%zu samples, judged %zu, chain %zu, with sframe %zu", res.samples, res.judged,
	       res.matched, res.with_sframe);
	ASSERT_GE(res.judged, MIN_JUDGED) TH_LOG("too few samples in leaf()");
	EXPECT_GE(res.matched * 100, res.judged * 99)
		TH_LOG("only %zu of %zu stacks are leaf, c, b, a, main", res.matched, res.judged);
	EXPECT_GE(res.with_sframe * 100, res.judged * 99);
}

TEST_HARNESS_MAIN
