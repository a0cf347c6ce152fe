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

#include "tap.h"

#define SRC	"../selftests/workloads/"

static char dir[] = "/tmp/dw_sframe_toolchain.XXXXXX";

/* The whole output of @cmd (NULL on failure; caller frees). */
static char *slurp(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *p = realloc(buf, cap + 65536);

			if (!p)
				break;
			buf = p;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	if (pclose(f) != 0 || !buf) {
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

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

static void check(const struct toolchain *tc, const char *dunwind, const char *what,
		  const char *src, const char *extra)
{
	char out[256], cmd[1024], want[64];
	char *theirs, *ours, *c;

	snprintf(out, sizeof(out), "%s/%s_%s", dir, tc->name, what);
	if (build(tc, src, extra, out)) {
		ok(0, "%s: builds %s with -Wa,--gsframe", tc->name, what);
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s --sframe=.sframe %s 2>/dev/null", tc->objdump, out);
	theirs = slurp(cmd);
	snprintf(cmd, sizeof(cmd), "%s sframe dump %s 2>&1", dunwind, out);
	ours = slurp(cmd);
	c = theirs ? strstr(theirs, "Contents of the SFrame section") : NULL;
	snprintf(want, sizeof(want), "Version: SFRAME_VERSION_%d\n", tc->version);
	ok(c && strstr(c, want), "%s: %s has an SFrame version %d section", tc->name, what,
	   tc->version);
	ok(c && ours && !strcmp(ours, c), "%s: %s: `dunwind sframe dump` is `objdump --sframe`",
	   tc->name, what);
	if (c && ours && strcmp(ours, c))
		printf("# ours:\n%s# theirs:\n%s", ours, c);
	free(theirs);
	free(ours);
}

int main(void)
{
	const char *dunwind = getenv("DUNWIND") ? getenv("DUNWIND") : "../out/dunwind";
	static const struct toolchain host = { "bookworm", "cc", "objdump", 1 };
	static const struct toolchain unstable = {
		"unstable", "../tools/toolchain cc -std=gnu17",
		"../tools/toolchain run objdump", 3,
	};
	char *sysroot, cmd[300];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	if (system("echo 'int x;' | cc -Wa,--gsframe -x c -c -o /dev/null - 2>/dev/null")) {
		tap_skip("bookworm toolchain", "the assembler lacks --gsframe (binutils >= 2.40)");
	} else {
		check(&host, dunwind, "chain", SRC "fp_chain.c", "");
		check(&host, dunwind, "deep", SRC "deep.c", "");
		check(&host, dunwind, "lib.so", SRC "mix_lib.c", "-fPIC -shared");
	}
	sysroot = slurp("../tools/toolchain path 2>/dev/null");
	if (!sysroot || !*sysroot) {
		tap_skip("unstable toolchain", "Debian unstable's gcc 16 is not fetched: "
			 "tools/toolchain fetch");
	} else if (geteuid() != 0) {
		tap_skip("unstable toolchain", "running its gcc needs chroot: run as root");
	} else {
		check(&unstable, dunwind, "chain", SRC "fp_chain.c", "");
		check(&unstable, dunwind, "deep", SRC "deep.c", "");
		check(&unstable, dunwind, "lib.so", SRC "mix_lib.c", "-fPIC -shared");
	}
	free(sysroot);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
