// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame from real toolchains: the same sources built with bookworm's
 * gcc/binutils (`as --gsframe` writes version 1) and with Debian
 * unstable's gcc 16 / binutils 2.47 (version 3, run from its sysroot by
 * tools/toolchain).  For each: the section has the version that toolchain
 * writes, and `dunwind sframe dump` ($DUNWIND) prints exactly what that
 * toolchain's `objdump --sframe` prints.  The walk over the same binaries
 * is checked in the VM (selftests/sframe_test.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "files.h"

#define SRC	"../selftests/workloads/"

static char dir[] = "/tmp/dw_sframe_toolchain.XXXXXX";

struct toolchain {
	const char *name;
	const char *cc;		/* compiler command, flags added */
	const char *objdump;	/* objdump command */
	int version;		/* what its assembler writes */
};

/* Build @src into @out with @tc; 0 or -1. */
static int build(const struct toolchain *tc, const char *src, const char *extra,
		 const char *out)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s -O2 -g -fomit-frame-pointer -fno-optimize-sibling-calls "
		 "-Wa,--gsframe %s -o %s %s >/dev/null 2>&1", tc->cc, extra, out, src);
	return system(cmd) == 0 ? 0 : -1;
}

static const struct toolchain bookworm = { "bookworm", "cc", "objdump", 1 };
static const struct toolchain unstable = {
	"unstable", "../tools/toolchain cc -std=gnu17", "../tools/toolchain run objdump", 3,
};

/* Why @tc cannot be used here, or NULL. */
static const char *unusable(const struct toolchain *tc)
{
	char *sysroot;
	int none;

	if (tc == &bookworm)
		return system("echo 'int x;' | cc -Wa,--gsframe -x c -c -o /dev/null - "
			      "2>/dev/null") ? "the assembler lacks --gsframe (binutils >= 2.40)"
					     : NULL;
	sysroot = cmd_output("../tools/toolchain path 2>/dev/null");
	none = !sysroot || !*sysroot;
	free(sysroot);
	if (none)
		return "Debian unstable's gcc 16 is not fetched: tools/toolchain fetch";
	if (geteuid() != 0)
		return "running its gcc needs chroot: run as root";
	return NULL;
}

/* One program built by one toolchain with -Wa,--gsframe. */
FIXTURE(built) {
	char out[256];
	char *theirs, *ours;	/* objdump --sframe's and dunwind sframe dump's output */
	const char *c;		/* theirs, from "Contents of the SFrame section" */
};

FIXTURE_VARIANT(built) {
	const struct toolchain *tc;
	const char *what, *src, *extra;
};

#define VARIANT(tcn, name, file, flags) \
FIXTURE_VARIANT_ADD(built, tcn##_##name) { \
	.tc = &tcn, .what = #name, .src = SRC file, .extra = flags, \
}
VARIANT(bookworm, chain, "fp_chain.c", "");
VARIANT(bookworm, deep, "deep.c", "");
VARIANT(bookworm, lib_so, "mix_lib.c", "-fPIC -shared");
VARIANT(unstable, chain, "fp_chain.c", "");
VARIANT(unstable, deep, "deep.c", "");
VARIANT(unstable, lib_so, "mix_lib.c", "-fPIC -shared");

FIXTURE_SETUP(built)
{
	const char *dunwind = getenv("DUNWIND") ? getenv("DUNWIND") : "../out/dunwind";
	const char *why = unusable(variant->tc);
	char cmd[1024];

	self->theirs = self->ours = NULL;
	self->c = NULL;
	if (why)
		SKIP(return, "%s toolchain: %s", variant->tc->name, why);
	strcpy(dir, "/tmp/dw_sframe_toolchain.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(self->out, sizeof(self->out), "%s/%s_%s", dir, variant->tc->name, variant->what);
	ASSERT_EQ(0, build(variant->tc, variant->src, variant->extra, self->out))
		TH_LOG("%s cannot build %s with -Wa,--gsframe", variant->tc->name, variant->src);
	snprintf(cmd, sizeof(cmd), "%s --sframe=.sframe %s 2>/dev/null", variant->tc->objdump,
		 self->out);
	self->theirs = cmd_output(cmd);
	snprintf(cmd, sizeof(cmd), "%s sframe dump %s 2>&1", dunwind, self->out);
	self->ours = cmd_output(cmd);
	self->c = self->theirs ? strstr(self->theirs, "Contents of the SFrame section") : NULL;
}

FIXTURE_TEARDOWN(built)
{
	char cmd[300];

	free(self->theirs);
	free(self->ours);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (dir[sizeof("/tmp/dw_sframe_toolchain.") - 1] != 'X' && system(cmd))
		ksft_print_msg("could not remove %s\n", dir);
}

TEST_F(built, has_the_sframe_version_its_toolchain_writes)
{
	char want[64];

	snprintf(want, sizeof(want), "Version: SFRAME_VERSION_%d\n", variant->tc->version);
	ASSERT_NE(NULL, self->c) TH_LOG("objdump --sframe printed no SFrame section");
	EXPECT_NE(NULL, strstr(self->c, want));
}

TEST_F(built, dunwind_sframe_dump_prints_what_objdump_sframe_prints)
{
	ASSERT_NE(NULL, self->c);
	ASSERT_NE(NULL, self->ours);
	EXPECT_STREQ(self->c, self->ours);
}

TEST_HARNESS_MAIN
