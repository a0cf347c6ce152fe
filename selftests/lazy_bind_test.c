// SPDX-License-Identifier: GPL-2.0
/*
 * lazy_bind_test: stacks through ld.so's lazy-binding resolver.
 * _dl_runtime_resolve_xsave(c) realigns its stack and keeps its CFA in
 * %rbx (CFA = %rbx + N), so its frame and every frame below it are found
 * only by a walk that follows %rbx from the interrupted registers through
 * the frames above (_dl_fixup, _dl_lookup_symbol_x, do_lookup_x, strcmp),
 * as dunwind's %rbx extension of generated tables lets it
 * (DUNWIND_REG_RBX, Documentation/sframe.rst).
 *
 * The workload dlopens a library bound with -z lazy, calls 36 libm
 * functions through its PLT and dlcloses it, again and again.  This test
 * is its recorder: it registers the tables of every file as `dunwind
 * record` does (v3 with the extension), or as v2 tables, which cannot
 * express the resolver's CFA (the control: those stacks end there), and
 * judges every stack with a frame in a resolver function, which it finds
 * from ld.so's own CFI (the functions whose CFA is based on %rbx).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "arch.h"
#include "records.h"
#include "sframe.h"
#include "sframe/sframe_gen.h"
#include "sframe/sframe_reg.h"
#include "workload.h"

#define FREQ		1000		/* Hz */
#define MIN_JUDGED	5		/* stacks through the resolver (6.12-debug: 8-15) */
#define MAX_RANGES	16

/* ld.so's resolver functions, as ELF addresses, and where ld.so is mapped. */
struct resolver {
	char path[256];
	__u64 lo[MAX_RANGES], hi[MAX_RANGES];
	int n;
	__u64 start, end, pgoff;	/* its executable mapping */
};

/* Does an executable PT_LOAD of @path have p_vaddr != p_offset? 1, 0, or -errno. */
static int shifted_segments(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), shifted = 0;
	size_t phnum, i;
	GElf_Phdr ph;
	Elf *e;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getphdrnum(e, &phnum)) {
		shifted = -ENOEXEC;
		phnum = 0;
	}
	for (i = 0; i < phnum; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X) && ph.p_vaddr != ph.p_offset)
			shifted = 1;
	if (e)
		elf_end(e);
	close(fd);
	return shifted;
}

static int mem_read(void *ctx, __u64 off, void *dst, __u32 len)
{
	memcpy(dst, (const __u8 *)ctx + off, len);
	return 0;
}

/* Add FDE @fde's function if one of its rows has its CFA on %rbx. */
static void add_if_rbx_cfa(const struct dunwind_sframe_table *t,
			   const struct dunwind_sframe_fde *fde, struct resolver *res)
{
	struct dunwind_sframe_fre fre;
	struct dunwind_sframe_row row;
	__u64 off = fde->fres_off;
	__u32 j;

	for (j = 0; j < fde->num_fres && res->n < MAX_RANGES; j++) {
		if (dunwind_sframe_get_fre(t, fde, off, &fre) ||
		    dunwind_sframe_fre_rules(t, fde, &fre, &row))
			return;
		off += fre.len;
		if (!(row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF) &&
		    row.cfa.reg == DUNWIND_SFRAME_REG_BX) {
			res->lo[res->n] = fde->start;
			res->hi[res->n++] = fde->start + fde->size;
			return;
		}
	}
}

/* The functions of ld.so at @res->path whose CFA is based on %rbx. 0 or -errno. */
static int find_resolvers(struct resolver *res)
{
	struct dw_sframe_gen_opts o = { .version = 3, .flags = DW_SFRAME_GEN_RBX };
	struct dw_sframe_gen_result g;
	struct dunwind_sframe_table t;
	struct dunwind_sframe_src src = { .read = mem_read };
	struct dunwind_sframe_fde fde;
	__u32 i;
	int err = dw_sframe_gen(res->path, &o, &g);

	if (err)
		return err;
	src.ctx = g.table;
	src.size = g.table_size;
	err = dunwind_sframe_open(&t, &src, g.sec_vaddr);
	t.ext = DUNWIND_SFRAME_EXT_RBX;
	for (i = 0; !err && i < t.num_fdes; i++) {
		err = dunwind_sframe_get_fde(&t, i, &fde);
		if (!err)
			add_if_rbx_cfa(&t, &fde, res);
	}
	dw_sframe_gen_free(&g);
	return err;
}

/* Is the run-time @pc in a resolver function? */
static int in_resolver(const struct resolver *res, __u64 pc)
{
	__u64 elf = pc - res->start + res->pgoff;
	int i;

	if (pc < res->start || pc >= res->end)
		return 0;
	for (i = 0; i < res->n; i++)
		if (elf >= res->lo[i] && elf < res->hi[i])
			return 1;
	return 0;
}

/* The registration before START: every file of the workload, and its library. */
struct reg_arg {
	int pid;
	unsigned int version;
	const char *lib;
	int err;
};

static int reg_hook(struct dw_session *s, void *arg)
{
	struct reg_arg *a = arg;
	struct dw_sframe_reg_opts o = { .flags = DW_SFRAME_REG_NO_CACHE, .version = a->version };
	struct dw_sframe_reg_file f;
	struct dw_sframe_reg_pid p;
	int err = dw_sframe_register_pid(s->fd, a->pid, &o, &p);

	if (!err && p.failed)
		err = -EIO;
	dw_sframe_reg_pid_free(&p);
	if (!err) {
		err = dw_sframe_register_file(s->fd, a->lib, &o, &f);
		if (err == -EEXIST)
			err = 0;
	}
	a->err = err;
	return err;
}

/* What the stacks through the resolver came to. */
struct judged {
	size_t through, whole, cut_no_info;
};

/* ld.so's executable mapping from the MMAP records. 0, or -ENOENT. */
static int find_ldso(const struct dw_records *r, struct resolver *res)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_mmap *m = (const void *)r->v[i];

		if (r->v[i]->type != DUNWIND_REC_MMAP || !(m->prot & 4 /* PROT_EXEC */) ||
		    !strstr(m->path, "/ld-linux-x86-64.so"))
			continue;
		snprintf(res->path, sizeof(res->path), "%s", m->path);
		res->start = m->start;
		res->end = m->end;
		res->pgoff = m->pgoff;
		return 0;
	}
	return -ENOENT;
}

static void judge(const struct dw_records *r, const struct resolver *res, struct judged *j)
{
	size_t i;
	__u16 k;

	memset(j, 0, sizeof(*j));
	for (i = 0; i < r->n; i++) {
		const struct dunwind_rec_user_stack *st = (const void *)r->v[i];

		if (st->hdr.type != DUNWIND_REC_USER_STACK)
			continue;
		for (k = 0; k < st->nr && !in_resolver(res, k ? st->ips[k] - 1 : st->ips[k]); k++)
			;
		if (k == st->nr)
			continue;
		j->through++;
		j->whole += st->stop == DUNWIND_STOP_END;
		j->cut_no_info += st->stop == DUNWIND_STOP_NO_INFO;
	}
}

/* Profile lazy_bind with tables of @version (0: what the recorder registers). */
static void profile(struct __test_metadata *_metadata, unsigned int version, struct judged *j)
{
	struct dw_records_opts o = { .ms = 3000, .max_ms = 30000, .min_samples = 1500,
				     .before_start = reg_hook };
	struct resolver res = { .n = 0 };
	struct dw_records r = { 0 };
	struct dunwind_config cfg;
	struct reg_arg a = { .version = version };
	struct dw_workload w;
	char line[PATH_MAX];
	int ret;

	ret = dw_workload_start(&w, "lazy_bind", NULL, 10000);
	ASSERT_EQ(0, ret) TH_LOG("cannot start lazy_bind: %s", strerror(-ret));
	ret = dw_workload_line(&w, line, sizeof(line), 5000);
	if (ret || strncmp(line, "lib ", 4)) {
		dw_workload_stop(&w);
		ASSERT_EQ(0, 1) TH_LOG("lazy_bind did not say where its library is");
	}
	a.pid = w.pid;
	a.lib = line + 4;
	dw_records_config(&cfg, w.pid, 0, FREQ);
	o.arg = &a;
	ret = dw_records_profile_opts(&r, &cfg, &o, NULL);
	dw_workload_stop(&w);
	if (!ret)
		ret = find_ldso(&r, &res);
	if (!ret && shifted_segments(res.path))
		ret = -EOPNOTSUPP;
	if (!ret)
		ret = find_resolvers(&res);
	if (!ret)
		judge(&r, &res, j);
	dw_records_free(&r);
	ASSERT_EQ(0, a.err) TH_LOG("registering the tables: %s", dw_sframe_reg_strerror(a.err));
	ASSERT_EQ(0, ret) TH_LOG("session, or finding ld.so's resolver: %s", strerror(-ret));
	ASSERT_LT(0, res.n) TH_LOG("%s has no function with its CFA on %%rbx", res.path);
	TH_LOG("v%u tables: %zu stacks through the resolver, %zu whole, %zu cut (no-unwind-info)",
	       version ? version : 3, j->through, j->whole, j->cut_no_info);
	ASSERT_GE(j->through, MIN_JUDGED) TH_LOG("too few samples in lazy binding");
}

FIXTURE(lazy) {
	int unused;
};

FIXTURE_SETUP(lazy)
{
	DW_SKIP_WITHOUT(DW_ARCH_NO_RBX_CFA);
	if (access(DUNWIND_DEVICE, F_OK))
		SKIP(return, "no %s: is the module loaded?", DUNWIND_DEVICE);
}

FIXTURE_TEARDOWN(lazy)
{
}

/* The recorder's tables: every stack through the resolver reaches the root. */
TEST_F_TIMEOUT(lazy, stacks_through_resolver_reach_root, 300)
{
	struct judged j;

	profile(_metadata, 0, &j);
	EXPECT_EQ(j.through, j.whole);
}

/* v2 tables cannot say the resolver's CFA: those stacks end there, honestly. */
TEST_F_TIMEOUT(lazy, without_rbx_extension_stacks_are_cut, 300)
{
	struct judged j;

	profile(_metadata, 2, &j);
	EXPECT_LT(j.whole, j.through) TH_LOG("whole without the extension: the test proves "
					     "nothing");
	EXPECT_EQ(j.through, j.whole + j.cut_no_info);
}

TEST_HARNESS_MAIN
