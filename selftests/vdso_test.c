// SPDX-License-Identifier: GPL-2.0
/*
 * vdso_test: stacks through the vDSO.  The vDSO has .eh_frame but no file
 * and (on the kernels tested) no .sframe; dunwind record registers a table
 * made from its own vDSO image (DUNWIND_REG_VDSO), so that a walk from
 * clock_gettime() in the vDSO reaches libc and the program's root even in
 * the vDSO's prologue, where its frame pointer is not set up yet; and the
 * capture carries the vDSO's symbols, so that reports elsewhere name its
 * frames.  Malformed vDSO registrations fail with their documented errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "arch.h"
#include "analyze/profile.h"
#include "capture/capture.h"
#include "capture/usnap.h"
#include "sframe/sframe_gen.h"
#include "sframe/sframe_reg.h"
#include "util/exec_path.h"
#include "util/vdso.h"
#include "workload.h"

#define CAPTURE		"/tmp/vdso_test.data"
#define PROG		"vdso_loop"	/* bench/programs/vdso_loop.c, no frame pointers */
#define SECONDS		"3"
#define MIN_JUDGED	200		/* stacks through the vDSO, at least */
#define MIN_COMPLETE	99		/* percent of those that reach the root */

/* How a vDSO registration is spoiled. */
enum vdsoreg_kind { VDSO_VALID, VDSO_WITH_FD, VDSO_WRONG_BUILD_ID };

FIXTURE(vdsoreg) {
	int dev;				/* an unconfigured session */
	struct dw_sframe_gen_result gen;	/* the table of our vDSO */
	struct dw_sframe_reg_file id;		/* its build-id */
};

FIXTURE_VARIANT(vdsoreg) {
	enum vdsoreg_kind kind;
	int err;				/* expected errno, 0: success */
};

FIXTURE_VARIANT_ADD(vdsoreg, valid) { .kind = VDSO_VALID, .err = 0 };
FIXTURE_VARIANT_ADD(vdsoreg, with_fd) { .kind = VDSO_WITH_FD, .err = EINVAL };
FIXTURE_VARIANT_ADD(vdsoreg, wrong_build_id) { .kind = VDSO_WRONG_BUILD_ID, .err = ESTALE };

FIXTURE_SETUP(vdsoreg)
{
	DW_SKIP_WITHOUT(DW_ARCH_VDSO_NO_CFI);
	struct dw_sframe_gen_opts go = { 0 };
	struct dw_sframe_reg_opts ro = { .flags = DW_SFRAME_REG_NO_CACHE };
	int ret;

	self->dev = -1;
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	if (dw_vdso_fd() == -ENOENT)
		SKIP(return, "this process maps no vDSO");
	self->dev = open(DUNWIND_DEVICE, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->dev) TH_LOG("open %s: %s", DUNWIND_DEVICE, strerror(errno));
	ret = dw_sframe_gen_fd(dw_vdso_fd(), &go, &self->gen);
	ASSERT_EQ(0, ret) TH_LOG("cannot generate the vDSO's table: %s", strerror(-ret));
	ret = dw_sframe_register_vdso(-1, &ro, &self->id);
	ASSERT_EQ(0, ret) TH_LOG("cannot read the vDSO: %s", strerror(-ret));
	ASSERT_LT(0, self->id.build_id_size) TH_LOG("the vDSO has no build-id");
}

FIXTURE_TEARDOWN(vdsoreg)
{
	dw_sframe_gen_free(&self->gen);
	if (self->dev >= 0)
		close(self->dev);
}

static int reg_tables(int fd, __u64 *tables)
{
	struct dunwind_stats st;

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	if (ioctl(fd, DUNWIND_IOC_STATS, &st))
		return -errno;
	*tables = st.reg_tables;
	return 0;
}

/* DUNWIND_REG_VDSO takes no file and our own vDSO's build-id only. */
TEST_F(vdsoreg, register_errno)
{
	struct dunwind_sframe_reg reg;
	__u64 tables0 = 0, tables1 = 0;
	int ret;

	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.flags = DUNWIND_REG_VDSO;
	reg.fd = -1;
	reg.build_id_size = self->id.build_id_size;
	memcpy(reg.build_id, self->id.build_id, self->id.build_id_size);
	reg.table = (__u64)(unsigned long)self->gen.table;
	reg.table_size = self->gen.table_size;
	reg.sec_vaddr = self->gen.sec_vaddr;
	if (variant->kind == VDSO_WITH_FD)
		reg.fd = dw_vdso_fd();
	else if (variant->kind == VDSO_WRONG_BUILD_ID)
		reg.build_id[0] ^= 1;

	ASSERT_EQ(0, reg_tables(self->dev, &tables0));
	ret = ioctl(self->dev, DUNWIND_IOC_SFRAME_REGISTER, &reg) ? errno : 0;
	ASSERT_EQ(0, reg_tables(self->dev, &tables1));
	EXPECT_EQ(variant->err, ret) TH_LOG("register: %s, expected %s", strerror(ret),
					    strerror(variant->err));
	if (variant->err) {
		EXPECT_EQ(tables0, tables1) TH_LOG("a failed registration added a table");
	} else {
		EXPECT_EQ(tables0 + 1, tables1);
	}
}

FIXTURE(vdsorec) {
	pid_t pid;			/* the program dunwind record ran */
};

/* dunwind record -- vdso_loop SECONDS, which must succeed. */
FIXTURE_SETUP(vdsorec)
{
	char dunwind[4096], prog[4096];
	const char *argv[] = { "record", "-f", "-o", CAPTURE, "--", prog, SECONDS, NULL };
	struct dw_workload w;
	int ret;

	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
	if (dw_vdso_fd() == -ENOENT)
		SKIP(return, "this process maps no vDSO");
	if (dw_find_in_path("dunwind", dunwind, sizeof(dunwind)))
		SKIP(return, "no dunwind in PATH (tools/vm/run adds out/dunwind)");
	ASSERT_EQ(0, dw_workload_path(PROG, prog, sizeof(prog)));
	ret = dw_workload_start_path(&w, dunwind, argv, 60000);
	ASSERT_EQ(0, ret) TH_LOG("dunwind record -- %s: %s", PROG, strerror(-ret));
	ret = dw_workload_wait(&w, 120000);
	dw_workload_stop(&w);
	ASSERT_TRUE(!ret && WIFEXITED(w.status) && !WEXITSTATUS(w.status))
		TH_LOG("dunwind record -- %s: %s (status 0x%x)", PROG,
		       ret ? "did not end with its command" : "failed", w.status);
}

FIXTURE_TEARDOWN(vdsorec)
{
	unlink(CAPTURE);
}

/* The capture's profile, named as 'dunwind report' names it.  0 or -errno (@why). */
static int vdso_prof(struct dw_prof **p, char *why, size_t len)
{
	const struct dw_prof_opts o = { .user_symbols = 1, .quiet = 1 };

	int e;

	*p = NULL;
	e = dw_prof_load(p, CAPTURE, &o);
	if (e)
		snprintf(why, len, "%s (said above)", strerror(-e));
	return e;
}

static int in_vdso(const struct dw_prof_loc *l)
{
	return !l->kernel && !l->marker && l->dso && !strcmp(l->dso, DW_VDSO_NAME);
}

/* The @j-th frame of @s from the leaf if it is a user frame, else NULL. */
static const struct dw_prof_loc *user_loc(const struct dw_prof *p,
					  const struct dw_prof_sample *s, size_t j)
{
	const struct dw_prof_loc *l = &p->locs[p->stack[s->first + j]];

	return l->kernel || l->marker ? NULL : l;
}

/*
 * Is @out, where the walk ended a stack with stop END, a root: _start or
 * a thread's clone3/clone, or a function of a stripped file known only by
 * its FDE (FILE+0xSTART: libc's clone3 child side), where the module's
 * word that it is outermost stands, as in tools/programs?
 */
static int is_root(const struct dw_prof_loc *out)
{
	const char *base;

	if (!out->dso || out->dso[0] != '/')
		return 0;
	base = strrchr(out->dso, '/') + 1;
	return !out->sym || !strcmp(out->sym, "_start") || strstr(out->sym, "clone") ||
	       (!strncmp(out->sym, base, strlen(base)) && !strncmp(out->sym + strlen(base), "+0x", 3));
}

/* Every stack that passes through the vDSO reaches the program's root. */
TEST_F_TIMEOUT(vdsorec, stacks_through_vdso_reach_the_root, 300)
{
	DW_SKIP_WITHOUT(DW_ARCH_VDSO_NO_CFI);
	size_t judged = 0, complete = 0, shown = 0, i, j;
	char why[256] = "";
	struct dw_prof *p;

	ASSERT_EQ(0, vdso_prof(&p, why, sizeof(why))) TH_LOG("%s: %s", CAPTURE, why);
	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];
		const struct dw_prof_loc *l, *out = NULL;
		int vdso = 0;

		for (j = 0; j < s->nr; j++) {
			l = user_loc(p, s, j);
			if (l) {
				vdso |= in_vdso(l);
				out = l;
			}
		}
		if (!vdso || s->stop == DUNWIND_STOP_EXITED)
			continue;
		judged++;
		if (s->stop == DUNWIND_STOP_END && is_root(out))
			complete++;
		else if (shown++ < 5)
			TH_LOG("incomplete: stop %s, outermost %s in %s",
			       dw_prof_stop_name(s->stop), out->sym ? out->sym : "?",
			       out->dso ? out->dso : "?");
	}
	dw_prof_free(p);
	TH_LOG("FIGURE vdso: %zu stacks through the vDSO, %zu reach the root", judged, complete);
	ASSERT_GE(judged, MIN_JUDGED) TH_LOG("too few samples in the vDSO");
	EXPECT_GE(complete * 100, judged * MIN_COMPLETE);
}

/*
 * Does the snapshot give file offset @foff of the vDSO @m the name @sym:
 * its symbol, or for a function without one, the FDE's range it is named
 * after ([vdso]+0xSTART)?
 */
static int snap_names(const struct dw_usnap *u, const struct dunwind_rec_mmap *m, uint64_t foff,
		      const char *sym)
{
	struct dw_symres sr;
	char fde[64];

	if (!sym || dw_usnap_lookup(u, m->build_id, m->build_id_size, DW_VDSO_NAME, foff, &sr))
		return 0;
	if (sr.name)
		return !strcmp(sr.name, sym);
	snprintf(fde, sizeof(fde), "%s+0x%llx", DW_VDSO_NAME, (unsigned long long)sr.start);
	return sr.fde && !strcmp(fde, sym);
}

/*
 * The vDSO's frames are named, and by the capture itself: its user symbol
 * snapshot names each of them as this machine's vDSO does, so a report
 * on a machine with another kernel names them too.
 */
TEST_F_TIMEOUT(vdsorec, vdso_frames_named_by_the_capture, 300)
{
	size_t frames = 0, named = 0, snapped = 0, shown = 0, i;
	const struct dunwind_rec_header *rec;
	const struct dunwind_rec_mmap *vdso = NULL;
	struct dw_capture_reader r;
	struct dw_usnap *u;
	char err[256] = "";
	struct dw_prof *p;
	int e;

	ASSERT_EQ(0, vdso_prof(&p, err, sizeof(err))) TH_LOG("%s: %s", CAPTURE, err);
	u = dw_usnap_new();
	ASSERT_NE(NULL, u);
	ASSERT_EQ(0, dw_capture_open(&r, CAPTURE));	/* says why not */
	while ((rec = dw_capture_next_any(&r))) {
		if (rec->type == DUNWIND_REC_MMAP &&
		    !strcmp(((const struct dunwind_rec_mmap *)rec)->path, DW_VDSO_NAME))
			vdso = (const void *)rec;
		ASSERT_EQ(0, dw_usnap_add(u, rec));
	}
	ASSERT_NE(NULL, vdso) TH_LOG("no MMAP record of the vDSO");
	ASSERT_LT(0, vdso->build_id_size) TH_LOG("the vDSO's MMAP record has no build-id");
	e = dw_usnap_load(u);
	ASSERT_EQ(0, e) TH_LOG("%s", dw_usnap_strerror(e));
	for (i = 0; i < p->nr_locs; i++) {
		const struct dw_prof_loc *l = &p->locs[i];

		if (!in_vdso(l))
			continue;
		frames++;
		named += !!l->sym;
		/* Looked up at the IP (the leaf) or a return address minus one. */
		if (snap_names(u, vdso, l->dso_off, l->sym) ||
		    snap_names(u, vdso, l->dso_off - 1, l->sym))
			snapped++;
		else if (shown++ < 5)
			TH_LOG("[vdso]+0x%llx: named %s here, not so in the capture",
			       (unsigned long long)l->dso_off, l->sym ? l->sym : "(none)");
	}
	dw_usnap_free(u);
	dw_capture_release(&r);
	dw_prof_free(p);
	TH_LOG("FIGURE vdso: %zu locations in the vDSO, %zu named, %zu from the capture",
	       frames, named, snapped);
	ASSERT_LT(0, frames) TH_LOG("no frame in the vDSO");
	EXPECT_EQ(frames, named);
	EXPECT_EQ(frames, snapped);
}

TEST_HARNESS_MAIN
