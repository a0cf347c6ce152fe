// SPDX-License-Identifier: GPL-2.0
/*
 * interp/cpython_cold.c on real interpreters: the range it finds for the
 * eval loop's cold part must be where the eval function's jumps go, as
 * objdump disassembles them (an oracle of its own: a decoder, not our
 * byte scan).  Debian 12's python3.11 always; unstable's python3.13 and
 * 3.14 (profile-guided, where the cold part runs the program) where
 * tools/python_test unpacked them ($DUNWIND_CACHE/python-unstable).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "interp/cpython_elf.h"

/* Jumps objdump sees from [@lo, @hi) of @path into [@tlo, @thi); -1: no objdump. */
static int jumps_into(const char *path, __u64 lo, __u64 hi, __u64 tlo, __u64 thi)
{
	char cmd[1024], line[512], *p;
	unsigned long long t;
	int n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "objdump -d --no-show-raw-insn --start-address=%#llx --stop-address=%#llx %s 2>/dev/null",
		 (unsigned long long)lo, (unsigned long long)hi, path);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "\tj");
		if (!p || !(p = strchr(p + 1, ' ')))
			continue;
		while (*p == ' ')
			p++;
		if (sscanf(p, "%llx", &t) == 1 && t >= tlo && t < thi)
			n++;
	}
	return pclose(f) ? -1 : n;
}

static void cold_is_where_jumps_go(struct __test_metadata *_metadata, const char *path)
{
	struct dw_cpython py;
	int n;

	if (access(path, R_OK))
		SKIP(return, "no %s (tools/python_test unpacks unstable's interpreters)", path);
	ASSERT_EQ(0, dw_cpython_elf(path, &py));
	ASSERT_LT(py.cold_lo, py.cold_hi);
	/* Outside the function itself. */
	ASSERT_TRUE(py.cold_hi <= py.eval_lo || py.cold_lo >= py.eval_hi);
	n = jumps_into(path, py.eval_lo, py.eval_hi, py.cold_lo, py.cold_hi);
	if (n < 0)
		SKIP(return, "objdump cannot disassemble %s", path);
	TH_LOG("%s: cold part %#llx-%#llx, %d jumps into it", path,
	       (unsigned long long)py.cold_lo, (unsigned long long)py.cold_hi, n);
	ASSERT_GE(n, 2);
}

TEST(python311_cold_part_is_where_its_jumps_go)
{
	cold_is_where_jumps_go(_metadata, "/usr/bin/python3.11");
}

static void unstable(struct __test_metadata *_metadata, const char *v)
{
	char path[512];
	const char *cache = getenv("DUNWIND_CACHE");

	snprintf(path, sizeof(path), "%s/python-unstable/usr/bin/python%s",
		 cache ? cache : "/var/cache/dunwind", v);
	cold_is_where_jumps_go(_metadata, path);
}

TEST(python313_cold_part_is_where_its_jumps_go)
{
	unstable(_metadata, "3.13");
}

TEST(python314_cold_part_is_where_its_jumps_go)
{
	unstable(_metadata, "3.14");
}

TEST_HARNESS_MAIN
