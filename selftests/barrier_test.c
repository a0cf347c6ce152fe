// SPDX-License-Identifier: GPL-2.0
/*
 * barrier_test: the table barrier (DUNWIND_CFG_TABLE_BARRIER).  A program
 * dlopens a library that has neither frame pointers nor .sframe and
 * computes in it at once; this test is its recorder and registers the
 * library's table generated from .eh_frame a while after the library's
 * MMAP record came (as a recorder that had to generate it would), and
 * says "none" for every other file.  With the barrier, the first sample
 * in the library is walked through it (its caller in the program is in
 * the stack); without, the first samples fall back to frame pointers,
 * which skip that caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "invariants.h"
#include "records.h"
#include "sframe/sframe_reg.h"
#include "workload.h"

#define FREQ		1000		/* Hz */
#define DELAY_MS	300		/* from the library's MMAP record to its table */
#define AFTER_MS	1000		/* profiled after the registration */
#define MAX_MS		20000		/* waiting for the library's first samples */
#define CALL_LIB_BYTES	64		/* call_lib()'s code is shorter */
#define CACHE_DIR	"/tmp/dunwind-sframe-cache"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* What the recorder saw and did. */
struct run {
	struct dw_records r;
	size_t done;			/* records handled */
	__u64 lib_lo, lib_hi;		/* the library's executable mapping */
	__u64 lib_pgoff;		/* its file offset */
	__u64 spin_lo, spin_hi;		/* dl_spin_*()'s code, file offsets */
	char lib_path[256];
	long long lib_seen_ms;		/* its MMAP record came; 0: not yet */
	int reg_err;			/* its registration: 1 not yet, else -errno */
	size_t nones, none_errs;
	unsigned long long call_lib;	/* the program's caller of the library */
};

/* The recorder's answer to an MMAP record: remember the library, "none" for the rest. */
static void on_mmap(struct run *u, int fd, const struct dunwind_rec_mmap *m)
{
	struct dunwind_sframe_none n = {
		.size = sizeof(n), .ino = m->ino, .dev_major = m->dev_major,
		.dev_minor = m->dev_minor,
	};

	if (!(m->prot & PROT_EXEC) || m->path[0] != '/' || !m->ino)
		return;
	if (strstr(m->path, "/libdl_spin.so")) {
		u->lib_lo = m->start;
		u->lib_hi = m->end;
		u->lib_pgoff = m->pgoff;
		snprintf(u->lib_path, sizeof(u->lib_path), "%s", m->path);
		if (!u->lib_seen_ms)
			u->lib_seen_ms = now_ms();
		return;
	}
	u->nones++;
	if (ioctl(fd, DUNWIND_IOC_SFRAME_NONE, &n))
		u->none_errs++;
}

/* Handle the records drained since the last call; register the library's table when due. */
static void recorder_step(struct run *u, int fd)
{
	static const struct dw_sframe_reg_opts o = { .cache_dir = CACHE_DIR };
	struct dw_sframe_reg_file f;

	for (; u->done < u->r.n; u->done++)
		if (u->r.v[u->done]->type == DUNWIND_REC_MMAP)
			on_mmap(u, fd, (const void *)u->r.v[u->done]);
	if (u->lib_seen_ms && u->reg_err == 1 && now_ms() - u->lib_seen_ms >= DELAY_MS) {
		dw_sframe_register_file(fd, u->lib_path, &o, &f);
		u->reg_err = f.err;
	}
}

/*
 * The file offsets of the library's dl_spin_*() functions, which call_lib
 * calls, from its symbol table: [*@lo, *@hi).  Return: 0 or -errno.
 */
static int spin_range(const char *path, __u64 *lo, __u64 *hi)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENOENT;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *e;

	*lo = ~0ull;
	*hi = 0;
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !d || !sh.sh_entsize)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			const char *name;
			GElf_Shdr tsh;
			GElf_Sym sym;
			__u64 off;

			if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !sym.st_size || !(name = elf_strptr(e, sh.sh_link, sym.st_name)) ||
			    strncmp(name, "dl_spin_", 8) ||
			    !gelf_getshdr(elf_getscn(e, sym.st_shndx), &tsh))
				continue;
			off = tsh.sh_offset + (sym.st_value - tsh.sh_addr);
			*lo = off < *lo ? off : *lo;
			*hi = off + sym.st_size > *hi ? off + sym.st_size : *hi;
			ret = 0;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/* Is @ip in dl_spin_*()'s code (not the library's constructors, say)? */
static int in_spin(const struct run *u, __u64 ip)
{
	__u64 off = ip - u->lib_lo + u->lib_pgoff;

	return ip >= u->lib_lo && ip < u->lib_hi && off >= u->spin_lo && off < u->spin_hi;
}

/* Does @st, a stack whose first frame is in the library, hold call_lib()'s frame? */
static int through_call_lib(const struct run *u, const struct dunwind_rec_user_stack *st)
{
	unsigned int i;

	for (i = 1; i < st->nr; i++)
		if (st->ips[i] > u->call_lib && st->ips[i] - u->call_lib < CALL_LIB_BYTES)
			return 1;
	return 0;
}

/*
 * Profile dl_spin with or without the barrier, acting as its recorder,
 * until AFTER_MS after the library's table was registered.  Fills @u.
 */
static void profile(struct __test_metadata *_metadata, struct run *u, int barrier,
		    struct dunwind_stats *st)
{
	struct dunwind_config cfg;
	struct dw_invariants inv;
	struct dw_workload w;
	struct dw_session s;
	char line[64];
	long long t0, reg_ms = 0;
	int ret;

	memset(u, 0, sizeof(*u));
	u->reg_err = 1;
	ret = dw_workload_start(&w, "dl_spin", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start dl_spin: %s", strerror(-ret));
	ret = dw_workload_line(&w, line, sizeof(line), 5000);
	if (!ret && sscanf(line, "call_lib %llx", &u->call_lib) != 1)
		ret = -EPROTO;
	if (ret)
		dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("dl_spin did not say where call_lib is");
	dw_records_config(&cfg, w.pid, 0, FREQ);
	cfg.flags = barrier ? DUNWIND_CFG_TABLE_BARRIER : 0;
	ret = dw_session_open(&s, NULL, &cfg);
	if (!ret)
		ret = dw_session_start(&s);
	if (!ret)
		ret = dw_workload_send(&w, "go");
	for (t0 = now_ms(); !ret && now_ms() - t0 < MAX_MS; ) {
		ret = dw_records_collect(&s, &u->r, 10);
		recorder_step(u, s.fd);
		if (u->reg_err != 1 && !reg_ms)
			reg_ms = now_ms();
		if (reg_ms && now_ms() - reg_ms >= AFTER_MS)
			break;
	}
	if (!ret)
		ret = dw_session_stop(&s);
	if (!ret)
		ret = dw_records_collect(&s, &u->r, 300);
	if (!ret)
		ret = dw_session_stats(&s, st);
	dw_session_close(&s);
	dw_workload_stop(&w);
	ASSERT_EQ(0, ret) TH_LOG("session: %s", strerror(-ret));
	ASSERT_EQ(0, u->r.lost) TH_LOG("records lost: the test cannot judge");
	ASSERT_NE(0, u->lib_seen_ms) TH_LOG("no MMAP record of libdl_spin.so");
	ASSERT_EQ(0, spin_range(u->lib_path, &u->spin_lo, &u->spin_hi))
		TH_LOG("no dl_spin_* symbols in %s", u->lib_path);
	ASSERT_EQ(0, u->reg_err) TH_LOG("registering %s: %s", u->lib_path,
					dw_sframe_reg_strerror(u->reg_err));
	EXPECT_EQ(0, u->none_errs) TH_LOG("DUNWIND_IOC_SFRAME_NONE failed");
	/* Every cookie answered once, and walks == deferred samples. */
	ASSERT_EQ(0, dw_invariants_scan_records(&u->r, &inv));
	EXPECT_EQ(0, inv.no_stack);
	EXPECT_EQ(0, inv.dup_cookies);
	EXPECT_EQ(st->samples_deferred, st->walks);
}

/*
 * The USER_STACKs whose first frame is in the library's dl_spin_*()
 * functions, in ring order: how many, how many whole.  The library's
 * constructors (crtstuff's frame_dummy, run by dlopen() before call_lib
 * exists on the stack, and walked through ld.so, for which this recorder
 * registers no table) are not judged.
 */
static size_t lib_stacks(const struct run *u, size_t *whole, int *first_whole)
{
	size_t i, n = 0;

	*whole = 0;
	*first_whole = -1;
	for (i = 0; i < u->r.n; i++) {
		const struct dunwind_rec_user_stack *st = (const void *)u->r.v[i];

		if (st->hdr.type != DUNWIND_REC_USER_STACK || !st->nr || !in_spin(u, st->ips[0]))
			continue;
		if (*first_whole < 0)
			*first_whole = through_call_lib(u, st);
		*whole += through_call_lib(u, st);
		n++;
	}
	return n;
}

FIXTURE(barrier) {
	struct run u;
};

FIXTURE_SETUP(barrier)
{
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(barrier)
{
	dw_records_free(&self->u.r);
}

/* What one profile of dl_spin gave: stacks in the library, and the module's counts. */
struct judged {
	size_t n, whole;		/* stacks in the library; through call_lib */
	int first;			/* the first one went through call_lib */
	struct dunwind_stats st;
};

static void profile_judge(struct __test_metadata *_metadata, struct run *u, int barrier,
			  struct judged *j)
{
	j->st.size = sizeof(j->st);
	profile(_metadata, u, barrier, &j->st);
	j->n = lib_stacks(u, &j->whole, &j->first);
	TH_LOG("%zu stacks in the library, %zu through call_lib; %llu waits (%llu missed), "
	       "%.1f ms", j->n, j->whole, (unsigned long long)j->st.barrier_waits,
	       (unsigned long long)j->st.barrier_missed, j->st.barrier_ns / 1e6);
	ASSERT_GT(j->n, 0) TH_LOG("no sample in the library");
}

/* The first walk in the library waits for its table: every stack there is whole. */
TEST_F_TIMEOUT(barrier, late_library_unwound_from_first_sample, 120)
{
	struct judged j = { 0 };

	profile_judge(_metadata, &self->u, 1, &j);
	EXPECT_EQ(1, j.first) TH_LOG("the first stack in the library skipped call_lib");
	EXPECT_EQ(j.n, j.whole);
	EXPECT_GT(j.st.barrier_waits, 0);
	EXPECT_EQ(0, j.st.barrier_missed);
}

/* Without it, the samples before the registration fall back to frame pointers. */
TEST_F_TIMEOUT(barrier, without_barrier_first_samples_are_cut, 120)
{
	struct judged j = { 0 };

	profile_judge(_metadata, &self->u, 0, &j);
	EXPECT_EQ(0, j.first) TH_LOG("the first stack in the library went through call_lib "
				     "without a table: the test proves nothing");
	EXPECT_LT(j.whole, j.n);
	EXPECT_EQ(0, j.st.barrier_waits);
}

TEST_HARNESS_MAIN
