// SPDX-License-Identifier: GPL-2.0
/*
 * interp/cpython_layout.c against CPython's own headers: the generator
 * cpython_layout_gen.c is compiled here against python3.11-dev's internal
 * headers and must print the 3.11 layout we keep as data; and where
 * unstable's libpython3.13/3.14 (library and -dev) are unpacked under
 * out/unstable/root (tools/unstable apt-get download ..., dpkg-deb -x),
 * the layout read from the library's _Py_DebugOffsets must be what their
 * headers say.  Run from user/ (make test does).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "interp.h"
#include "interp/cpython_elf.h"

#define GEN_SRC		"tests/cpython_layout_gen.c"
#define UNSTABLE	"../out/unstable/root"

#define F(name)	{ #name, offsetof(struct dw_cpython_layout, name) }
static const struct {
	const char *name;
	size_t off;
} fields[] = {
	F(rt_interp_head), F(is_next), F(is_threads_head), F(ts_next), F(ts_native_tid),
	F(ts_cframe), F(cframe_current), F(ts_current_frame), F(fr_code), F(fr_prev),
	F(fr_insn), F(fr_entry), F(co_filename), F(co_name), F(co_qualname), F(co_linetable),
	F(co_firstlineno), F(co_code), F(ob_type), F(bytes_size), F(bytes_sval), F(str_state),
	F(str_length), F(str_ascii_size), F(str_compact_size),
};

/*
 * Build the generator with @incs, run it, compare every line with @l.
 * Return: fields compared, or -1 if it could not be built.
 */
static int compare(struct __test_metadata *_metadata, const char *incs,
		   const struct dw_cpython_layout *l)
{
	char cmd[1024], name[64], exe[] = "/tmp/dw_layout_gen.XXXXXX";
	unsigned long value;
	__u32 ours;
	size_t i;
	int fd, n = 0, known;
	FILE *f;

	fd = mkstemp(exe);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "cc %s -o %s %s 2>&1", incs, exe, GEN_SRC);
	if (system(cmd)) {
		unlink(exe);
		return -1;
	}
	f = popen(exe, "r");
	while (f && fscanf(f, "%63s %lu", name, &value) == 2) {
		if (!strcmp(name, "entry_value")) {
			EXPECT_EQ(value, l->entry_value);
			n++;
			continue;
		}
		for (i = 0, known = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			if (strcmp(name, fields[i].name))
				continue;
			memcpy(&ours, (const char *)l + fields[i].off, sizeof(ours));
			EXPECT_EQ(value, ours) TH_LOG("%s: headers say %lu, we have %u",
						      name, value, ours);
			known = n++ >= 0;
		}
		EXPECT_TRUE(known) TH_LOG("generator field %s unknown", name);
	}
	if (f)
		EXPECT_EQ(0, pclose(f));
	unlink(exe);
	return n;
}

TEST(python311_data_matches_its_headers)
{
	const struct dw_cpython_layout *l = dw_cpython_layout_known(DW_PY_VERSION(3, 11));

	ASSERT_NE(NULL, l);
	if (access("/usr/include/python3.11/internal/pycore_frame.h", R_OK))
		SKIP(return, "no python3.11 internal headers: apt-get install python3.11-dev");
	if (access(GEN_SRC, R_OK))
		SKIP(return, "run from user/ (%s)", GEN_SRC);
	EXPECT_EQ(24, compare(_metadata, "-I/usr/include/python3.11", l));
}

/* Unstable's 3.13 or 3.14: the library's _Py_DebugOffsets against the headers. */
static void debug_offsets_match(struct __test_metadata *_metadata, const char *v)
{
	char lib[256], hdr[256], incs[600];
	struct dunwind_interp_desc desc;
	struct dw_cpython py;

	snprintf(lib, sizeof(lib), UNSTABLE "/usr/lib/x86_64-linux-gnu/libpython%s.so.1.0", v);
	snprintf(hdr, sizeof(hdr), UNSTABLE "/usr/include/python%s", v);
	if (access(lib, R_OK) || access(hdr, R_OK) || access(GEN_SRC, R_OK)) {
		SKIP(return, "no %s: unpack unstable's libpython%s and libpython%s-dev there", lib, v, v);
	}
	ASSERT_EQ(0, dw_cpython_elf(lib, &py));
	EXPECT_EQ(strtoul(v + 2, NULL, 10), DW_PY_MINOR(py.version));
	EXPECT_EQ(1, py.layout.entry_shim);
	dw_cpython_desc(&py.layout, py.runtime, &desc);
	EXPECT_EQ(0, dunwind_interp_validate(&desc));
	snprintf(incs, sizeof(incs), "-I%s -I" UNSTABLE "/usr/include", hdr);
	EXPECT_EQ(24, compare(_metadata, incs, &py.layout));
}

TEST(python313_debug_offsets_match_its_headers)
{
	debug_offsets_match(_metadata, "3.13");
}

TEST(python314_debug_offsets_match_its_headers)
{
	debug_offsets_match(_metadata, "3.14");
}

TEST(debug_offsets_are_checked)
{
	struct dw_cpython_layout l;
	__u8 buf[1024];
	__u64 v;

	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(-ENOENT, dw_cpython_layout_from_debug(buf, sizeof(buf), &l));
	memcpy(buf, DW_PY_DEBUG_COOKIE, 8);
	v = 0x030c04f0;					/* 3.12: none we know */
	memcpy(buf + 8, &v, 8);
	EXPECT_EQ(-EOPNOTSUPP, dw_cpython_layout_from_debug(buf, sizeof(buf), &l));
	v = 0x030d05f0;					/* 3.13, all offsets 0 */
	memcpy(buf + 8, &v, 8);
	EXPECT_EQ(0, dw_cpython_layout_from_debug(buf, sizeof(buf), &l));
	v = 1;						/* free-threaded */
	memcpy(buf + 16, &v, 8);
	EXPECT_EQ(-EOPNOTSUPP, dw_cpython_layout_from_debug(buf, sizeof(buf), &l));
	v = 0;
	memcpy(buf + 16, &v, 8);
	v = 9;						/* thread_state.next misaligned */
	memcpy(buf + 168, &v, 8);
	EXPECT_EQ(-EINVAL, dw_cpython_layout_from_debug(buf, sizeof(buf), &l));
	v = 1ULL << 40;					/* far out */
	memcpy(buf + 168, &v, 8);
	EXPECT_EQ(-EINVAL, dw_cpython_layout_from_debug(buf, sizeof(buf), &l));
	v = 8;
	memcpy(buf + 168, &v, 8);
	v = 4096;					/* a frame field past what a walk reads */
	memcpy(buf + 232, &v, 8);
	EXPECT_EQ(-EINVAL, dw_cpython_layout_from_debug(buf, sizeof(buf), &l));
	/* Cut short. */
	EXPECT_EQ(-EINVAL, dw_cpython_layout_from_debug(buf, 300, &l));
	EXPECT_EQ(-ENOENT, dw_cpython_layout_from_debug(buf, 10, &l));
}

TEST_HARNESS_MAIN
