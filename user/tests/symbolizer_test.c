// SPDX-License-Identifier: GPL-2.0
/*
 * The chain of symbolizers: asked in order, the first that answers names
 * the address and "not mine" passes it on; what a context read (perf
 * maps) is its own.  Real members on real inputs: this program's own
 * mappings, snapshots from their text, perf map files in a directory.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "usnap_text.h"
#include "analyze/profile_priv.h"
#include "symbols/symbolizer.h"

#define PID	77U
#define JIT	0x7f0000001010ULL

static volatile unsigned int sink;

__attribute__((noinline)) void symbolizer_test_leaf(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		sink += i * 5;
}

/* Write @text as DIR/perf-PID.map. 0 or -1. */
static int write_map(const char *dir, const char *text)
{
	char path[256];
	FILE *f;
	int e;

	snprintf(path, sizeof(path), "%s/perf-%u.map", dir, PID);
	f = fopen(path, "w");
	if (!f)
		return -1;
	e = fputs(text, f) < 0;
	return fclose(f) || e ? -1 : 0;
}

FIXTURE(chain) {
	char dir[2][64];
	struct dw_usnap *jit;		/* PID's JIT function, recorded */
	struct dw_mapres none;		/* an address no mapping covers */
	struct dw_symq q;
	struct dw_symans a;
};

FIXTURE_SETUP(chain)
{
	static const char snap[] = "P 77\nF 7f0000001000 100 jit_recorded\n";
	int i, e = 0;

	for (i = 0; i < 2; i++) {
		snprintf(self->dir[i], sizeof(self->dir[i]), "/tmp/dw_symbolizer_test.XXXXXX");
		ASSERT_NE(NULL, mkdtemp(self->dir[i]));
	}
	ASSERT_EQ(0, write_map(self->dir[0], "7f0000001000 100 jit_in_map_0\n"));
	ASSERT_EQ(0, write_map(self->dir[1], "7f0000001000 100 jit_in_map_1\n"));
	self->jit = usnap_text(snap, sizeof(snap) - 1, &e);
	ASSERT_NE(NULL, self->jit);
	ASSERT_EQ(0, e);
	memset(&self->none, 0, sizeof(self->none));
	self->q = (struct dw_symq){ .pid = PID, .addr = JIT, .map = &self->none };
}

FIXTURE_TEARDOWN(chain)
{
	char cmd[200];
	int i;

	dw_usnap_free(self->jit);
	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir[i]);
		if (system(cmd))
			TH_LOG("could not remove %s", self->dir[i]);
	}
}

/* Name @q with chain @chain (NULL: a profile's), perf maps from @dir. */
static const char *name_with(const struct dw_symbolizer *const *chain, struct dw_usnap *u,
			     const char *dir, const struct dw_symq *q, struct dw_symans *a,
			     char *out, size_t len)
{
	struct dw_symctx *ctx = dw_symctx_new(chain ? chain : prof_user_symbolizers, u, dir);
	int e = ctx ? dw_symbolize(ctx, q, a) : -ENOMEM;

	snprintf(out, len, "%s", e ? "-" : a->name ? a->name : "(range)");
	dw_symctx_free(ctx);
	return out;
}

TEST_F(chain, the_first_symbolizer_that_answers_wins)
{
	static const struct dw_symbolizer *const snap_first[] = {
		&dw_sym_snapshot_jit, &dw_sym_perfmap, NULL
	};
	static const struct dw_symbolizer *const map_first[] = {
		&dw_sym_perfmap, &dw_sym_snapshot_jit, NULL
	};
	char a[64], b[64];

	EXPECT_STREQ("jit_recorded", name_with(snap_first, self->jit, self->dir[0], &self->q,
					       &self->a, a, sizeof(a)));
	EXPECT_STREQ("jit_in_map_0", name_with(map_first, self->jit, self->dir[0], &self->q,
					       &self->a, b, sizeof(b)));
}

TEST_F(chain, not_mine_passes_the_address_on_to_the_next)
{
	struct dw_symctx *ctx = dw_symctx_new(prof_user_symbolizers, NULL, self->dir[1]);
	char map[300];

	/* No snapshot: the symbolizers before the perf map's say "not mine". */
	ASSERT_NE(NULL, ctx);
	ASSERT_EQ(0, dw_symbolize(ctx, &self->q, &self->a));
	snprintf(map, sizeof(map), "%s/perf-%u.map", self->dir[1], PID);
	EXPECT_STREQ("jit_in_map_1", self->a.name);
	EXPECT_STREQ(map, self->a.dso);
	EXPECT_EQ(0x10, self->a.off);
	EXPECT_FALSE(self->a.snapshot);
	dw_symctx_free(ctx);
}

TEST_F(chain, the_default_chain_asks_the_snapshot_before_the_perf_map)
{
	char name[64];

	EXPECT_STREQ("jit_recorded", name_with(NULL, self->jit, self->dir[0], &self->q, &self->a,
					       name, sizeof(name)));
	EXPECT_TRUE(self->a.snapshot);
	EXPECT_STREQ("/tmp/perf-77.map", self->a.dso);
}

TEST_F(chain, an_address_no_symbolizer_knows_is_enoent)
{
	struct dw_symctx *ctx = dw_symctx_new(prof_user_symbolizers, self->jit, self->dir[0]);

	ASSERT_NE(NULL, ctx);
	self->q.addr = JIT + 0x1000;
	EXPECT_EQ(-ENOENT, dw_symbolize(ctx, &self->q, &self->a));
	dw_symctx_free(ctx);
}

TEST_F(chain, each_context_keeps_the_perf_maps_it_read)
{
	struct dw_symctx *one = dw_symctx_new(prof_user_symbolizers, NULL, self->dir[0]), *two;

	ASSERT_NE(NULL, one);
	ASSERT_EQ(0, dw_symbolize(one, &self->q, &self->a));
	EXPECT_STREQ("jit_in_map_0", self->a.name);
	/* The map changes: a context made now reads it, the first keeps what it read. */
	ASSERT_EQ(0, write_map(self->dir[0], "7f0000001000 100 jit_rewritten\n"));
	two = dw_symctx_new(prof_user_symbolizers, NULL, self->dir[0]);
	ASSERT_NE(NULL, two);
	ASSERT_EQ(0, dw_symbolize(two, &self->q, &self->a));
	EXPECT_STREQ("jit_rewritten", self->a.name);
	ASSERT_EQ(0, dw_symbolize(one, &self->q, &self->a));
	EXPECT_STREQ("jit_in_map_0", self->a.name);
	dw_symctx_free(one);
	dw_symctx_free(two);
}

/* Our own code: the file's symbol, unless a chain asks the snapshot first. */
FIXTURE(file) {
	struct dw_maps *maps;
	struct dw_mapres r;
	struct dw_usnap *snap;
	struct dw_symq q;
	struct dw_symans a;
};

FIXTURE_SETUP(file)
{
	uint64_t addr = (uint64_t)(uintptr_t)symbolizer_test_leaf + 4;
	char text[600];
	int e = 0;

	symbolizer_test_leaf(3);
	self->maps = dw_maps_load(NULL, 0);
	ASSERT_NE(NULL, self->maps);
	ASSERT_EQ(0, dw_maps_resolve(self->maps, addr, 0, &self->r));
	ASSERT_TRUE(dw_dso_path_is_image(self->r.dso));
	/* The recorded file, by path: another name for the same function. */
	snprintf(text, sizeof(text), "D - %s\nF %" PRIx64 " 40 _Z13from_snapshotv\n", self->r.dso,
		 self->r.fstart);
	self->snap = usnap_text(text, strlen(text), &e);
	ASSERT_NE(NULL, self->snap);
	ASSERT_EQ(0, e);
	self->q = (struct dw_symq){ .pid = PID, .addr = addr, .map = &self->r, .image = 1 };
}

FIXTURE_TEARDOWN(file)
{
	dw_usnap_free(self->snap);
	dw_maps_free(self->maps);
}

TEST_F(file, the_files_own_symbol_comes_before_the_snapshot)
{
	char name[64];

	EXPECT_STREQ("symbolizer_test_leaf", name_with(NULL, self->snap, NULL, &self->q, &self->a,
						       name, sizeof(name)));
	EXPECT_TRUE(self->a.mangled);
	EXPECT_EQ(4, self->a.off);
	EXPECT_FALSE(self->a.snapshot);
}

TEST_F(file, a_chain_that_asks_the_snapshot_first_gets_its_name)
{
	static const struct dw_symbolizer *const snap_first[] = {
		&dw_sym_snapshot, &dw_sym_elf, NULL
	};
	char name[64];

	EXPECT_STREQ("_Z13from_snapshotv", name_with(snap_first, self->snap, NULL, &self->q,
						     &self->a, name, sizeof(name)));
	EXPECT_TRUE(self->a.snapshot);
	EXPECT_EQ(4, self->a.off);
}

TEST_F(file, a_file_mapping_is_not_the_perf_maps)
{
	static const struct dw_symbolizer *const jit_only[] = {
		&dw_sym_snapshot_jit, &dw_sym_perfmap, NULL
	};
	char name[64];

	EXPECT_STREQ("-", name_with(jit_only, self->snap, NULL, &self->q, &self->a, name,
				    sizeof(name)));
}

TEST_HARNESS_MAIN
