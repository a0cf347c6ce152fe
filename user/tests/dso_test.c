// SPDX-License-Identifier: GPL-2.0
/*
 * dso.c with real files: a small program compiled here with DWARF
 * (gcc -g -O1), then the same stripped with its debug info found by
 * .gnu_debuglink and by <debug dir>/.build-id/xx/yyyy.debug; inline
 * frames with their call lines; a build-id that does not match; and
 * perf's JIT map parser.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "dso_cache.h"
#include "symbols/debuginfod.h"
#include "symbols/dso.h"
#include "symbols/perfmap.h"
#include "util/vdso.h"

static char dir[] = "/tmp/dw_dso_test.XXXXXX";

/* Line numbers below are asserted: keep them in step with the text. */
static const char prog_src[] =
	"static volatile int sink;\n"					/* 1 */
	"\n"								/* 2 */
	"static inline __attribute__((always_inline)) int inl(int x)\n"	/* 3 */
	"{\n"								/* 4 */
	"\tsink = x;\n"							/* 5 */
	"\treturn sink * 3;\n"						/* 6 */
	"}\n"								/* 7 */
	"\n"								/* 8 */
	"__attribute__((noinline)) int outer(int x)\n"			/* 9 */
	"{\n"								/* 10 */
	"\treturn inl(x) + 2;\n"					/* 11 */
	"}\n"								/* 12 */
	"\n"								/* 13 */
	"int main(int argc, char **argv)\n"				/* 14 */
	"{\n"								/* 15 */
	"\t(void)argv;\n"						/* 16 */
	"\treturn outer(argc);\n"					/* 17 */
	"}\n"								/* 18 */
	"\n"								/* 19 */
	"__attribute__((noinline)) int framed(int x)\n"			/* 20 */
	"{\n"								/* 21 */
	"\treturn outer(x) * outer(x + 1);\n"				/* 22 */
	"}\n";								/* 23 */

static int sh(const char *cmd)
{
	char full[2048];

	snprintf(full, sizeof(full), "cd %s && (%s) >/dev/null 2>&1", dir, cmd);
	return system(full);
}

/* The hex number at the start of @name in the test directory (a shell command wrote it). */
static int read_hex(const char *name, unsigned long long *v)
{
	char path[PATH_MAX + 64];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%llx", v);
	fclose(f);
	return n == 1 ? 0 : -1;
}

/* st_value and st_size of @name in the .symtab of @path. */
static int find_sym(const char *path, const char *name, uint64_t *addr, uint64_t *size)
{
	Elf_Scn *scn = NULL;
	int fd = open(path, O_RDONLY), found = -1;
	Elf *elf;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (!gelf_getsym(d, (int)i, &s))
				break;
			n = elf_strptr(elf, sh.sh_link, s.st_name);
			if (n && !strcmp(n, name) && s.st_shndx != SHN_UNDEF) {
				*addr = s.st_value;
				*size = s.st_size;
				found = 0;
				break;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

static const char *base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p ? p : "(null)";
}

/* Made once, before the tests (main()): prog, its debug file, stripped copies. */
static uint64_t outer, outer_size, framed, framed_size;
static unsigned char id[20];
static char hex[41], not_built[128] = "not built yet";
static int made_dir;

static void build(void)
{
	char path[PATH_MAX + 64], cmd[PATH_MAX + 128];
	const unsigned char *idp;
	struct dw_dso *d;
	FILE *f;
	int n, i;

	if (!mkdtemp(dir)) {
		snprintf(not_built, sizeof(not_built), "mkdtemp failed");
		return;
	}
	made_dir = 1;
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	f = fopen(path, "w");
	if (f) {
		fputs(prog_src, f);
		fclose(f);
	}
	if (sh("gcc -g -O1 -fno-omit-frame-pointer -Wl,--build-id -o prog prog.c") ||
	    sh("objcopy --only-keep-debug prog prog.debug") ||
	    sh("strip --strip-all -o prog.stripped prog && "
	       "objcopy --add-gnu-debuglink=prog.debug prog.stripped") ||
	    sh("strip --strip-all -o prog.nolink prog")) {
		snprintf(not_built, sizeof(not_built), "gcc, objcopy or strip failed "
			 "(Debian: gcc, binutils)");
		return;
	}
	snprintf(path, sizeof(path), "%s/prog", dir);
	if (find_sym(path, "outer", &outer, &outer_size) || !outer_size ||
	    find_sym(path, "framed", &framed, &framed_size) || framed_size < 2) {
		snprintf(not_built, sizeof(not_built), "the test program has no outer or framed");
		return;
	}
	snprintf(path, sizeof(path), "%s/prog.nolink", dir);
	d = dw_dso_get(test_dsos(), path, NULL, 0);
	n = d ? dw_dso_build_id(d, &idp) : 0;
	if (n != 20) {
		snprintf(not_built, sizeof(not_built), "the program has no GNU build-id (%d)", n);
		test_dsos_drop();
		return;
	}
	memcpy(id, idp, sizeof(id));
	test_dsos_drop();
	for (i = 0; i < 20; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	/* No debuglink: only the build-id directory can lead to prog.debug. */
	snprintf(cmd, sizeof(cmd), "mkdir -p dbg/.build-id/%.2s && "
		 "cp prog.debug dbg/.build-id/%.2s/%s.debug", hex, hex, hex + 2);
	if (sh(cmd)) {
		snprintf(not_built, sizeof(not_built), "could not make dbg/.build-id");
		return;
	}
	not_built[0] = '\0';
}

#define NEED_BUILT() do {					\
	if (not_built[0])					\
		SKIP(return, "%s", not_built);			\
} while (0)

/* @path names outer's first byte outer. */
static void expect_outer_symbol(struct __test_metadata *_metadata, const char *path)
{
	struct dw_dso *d = dw_dso_get(test_dsos(), path, NULL, 0);
	struct dw_symres r;

	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, dw_dso_resolve(d, outer, DW_DSO_SRC, &r));
	EXPECT_STREQ("outer", r.name);
	EXPECT_EQ(0, r.off);
}

/* DWARF puts outer's first byte in outer, prog.c lines 9..11. */
static void expect_outer_line(struct __test_metadata *_metadata, const char *path)
{
	struct dw_dso *d = dw_dso_get(test_dsos(), path, NULL, 0);
	struct dw_symres r;
	unsigned int n;

	ASSERT_NE(NULL, d);
	dw_dso_resolve(d, outer, DW_DSO_SRC, &r);
	n = r.nr_frames;
	ASSERT_LE(1, n);
	EXPECT_STREQ("prog.c", base(r.frames[n - 1].file));
	ASSERT_NE(NULL, r.frames[n - 1].func);
	EXPECT_STREQ("outer", r.frames[n - 1].func);
	EXPECT_LE(9, r.frames[n - 1].line);
	EXPECT_GE(11, r.frames[n - 1].line);
}

/* Some address in outer is inl (line 5 or 6) inlined at prog.c:11. */
static void expect_inline_frame(struct __test_metadata *_metadata, const char *path)
{
	struct dw_dso *d = dw_dso_get(test_dsos(), path, NULL, 0);
	struct dw_symres r;
	int inl_found = 0;
	uint64_t a;

	ASSERT_NE(NULL, d);
	for (a = outer; a < outer + outer_size && !inl_found; a++) {
		if (dw_dso_resolve(d, a, DW_DSO_SRC, &r) || r.nr_frames < 2)
			continue;
		if (getenv("DW_VERBOSE"))
			printf("# %#lx: %s %s:%d <- %s %s:%d\n", (unsigned long)a, r.frames[0].func,
			       base(r.frames[0].file), r.frames[0].line, r.frames[1].func,
			       base(r.frames[1].file), r.frames[1].line);
		inl_found = r.frames[0].func && !strcmp(r.frames[0].func, "inl") &&
			    (r.frames[0].line == 5 || r.frames[0].line == 6) &&
			    !strcmp(r.frames[r.nr_frames - 1].func, "outer") &&
			    r.frames[r.nr_frames - 1].line == 11 && r.nr_frames == 2;
	}
	EXPECT_TRUE(inl_found);
}

/*
 * debuginfod: a local HTTP server with buildid/HEX/{debuginfo,executable}
 * serves prog's; DEBUGINFOD_URLS points at it.  *@server: it runs.
 */
static void stop_debuginfod(int *server)
{
	char cmd[PATH_MAX + 64];

	unsetenv("DEBUGINFOD_URLS");
	snprintf(cmd, sizeof(cmd), "kill $(cat %s/server.pid) 2>/dev/null", dir);
	if (*server && system(cmd))
		printf("# could not stop the HTTP server\n");
	*server = 0;
}

static void start_debuginfod(struct __test_metadata *_metadata, int *server)
{
	char cmd[1024], url[64], cache[PATH_MAX + 16];
	int port = 20000 + getpid() % 20000, i;

	snprintf(cmd, sizeof(cmd), "mkdir -p srv/buildid/%s && cp prog.debug "
		 "srv/buildid/%s/debuginfo && cp prog srv/buildid/%s/executable", hex, hex, hex);
	ASSERT_EQ(0, sh(cmd));
	if (system("command -v python3 >/dev/null 2>&1"))
		SKIP(return, "python3 (for a local HTTP server) is not installed");
	snprintf(cmd, sizeof(cmd), "cd %s/srv && (python3 -m http.server %d --bind 127.0.0.1 "
		 ">/dev/null 2>&1 & echo $! >../server.pid)", dir, port);
	if (system(cmd))
		SKIP(return, "could not start a local HTTP server");
	*server = 1;
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	setenv("DEBUGINFOD_URLS", url, 1);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	setenv("DEBUGINFOD_TIMEOUT", "5", 1);
	/* Wait until the server answers (up to 5 s). */
	snprintf(cmd, sizeof(cmd), "python3 -c 'import urllib.request as u; "
		 "u.urlopen(\"%s/buildid/%s/executable\", timeout=1)' >/dev/null 2>&1", url, hex);
	for (i = 0; i < 50 && system(cmd); i++)
		usleep(100000);
	if (!dw_debuginfod_enabled()) {
		stop_debuginfod(server);
		SKIP(return, "libdebuginfod.so.1 is not installed (Debian: libdebuginfod1)");
	}
}

/* The program, and where its symbols and debug info come from. */
FIXTURE(symbolised) {
	char path[PATH_MAX + 64];
	int server;
};

FIXTURE_VARIANT(symbolised) {
	const char *file;
	int debug_dir;			/* dbg/ as a --debug-dir */
	int debuginfod;
};

FIXTURE_VARIANT_ADD(symbolised, unstripped) {
	.file = "prog",
};

FIXTURE_VARIANT_ADD(symbolised, stripped_with_gnu_debuglink) {
	.file = "prog.stripped",
};

FIXTURE_VARIANT_ADD(symbolised, stripped_with_build_id_debug_dir) {
	.file = "prog.nolink",
	.debug_dir = 1,
};

FIXTURE_VARIANT_ADD(symbolised, stripped_with_debuginfod) {
	.file = "prog.nolink",
	.debuginfod = 1,
};

FIXTURE_SETUP(symbolised)
{
	char dbg[PATH_MAX + 8];

	self->server = 0;
	NEED_BUILT();
	snprintf(self->path, sizeof(self->path), "%s/%s", dir, variant->file);
	snprintf(dbg, sizeof(dbg), "%s/dbg", dir);
	if (variant->debug_dir)
		ASSERT_EQ(0, dw_dso_set_debug_dirs(test_dsos(), dbg));
	if (variant->debuginfod)
		start_debuginfod(_metadata, &self->server);
}

FIXTURE_TEARDOWN(symbolised)
{
	test_dsos_drop();
	stop_debuginfod(&self->server);
}

/* "[vdso]" is read from this process's own vDSO image: its functions are named. */
TEST(vdso_named_from_our_own_image)
{
	const char *own = dw_vdso_file();
	uint64_t addr, size;
	struct dw_symres res;
	struct dw_dso *d;

	if (!own)
		SKIP(return, "this process maps no vDSO");
	ASSERT_EQ(0, find_sym(own, "__vdso_clock_gettime", &addr, &size));
	d = dw_dso_get(test_dsos(), DW_VDSO_NAME, NULL, 0);
	ASSERT_NE(NULL, d);
	ASSERT_TRUE(dw_dso_usable(d));
	ASSERT_EQ(0, dw_dso_resolve(d, addr + 1, 0, &res));
	ASSERT_NE(NULL, res.name);
	EXPECT_NE(NULL, strstr(res.name, "clock_gettime")) TH_LOG("named %s", res.name);
}

/* Another kernel's vDSO (another build-id) is not named by ours. */
TEST(another_vdso_is_not_named_by_ours)
{
	static const unsigned char other[20] = { 0xde, 0xad };
	struct dw_dso *d;

	if (!dw_vdso_file())
		SKIP(return, "this process maps no vDSO");
	d = dw_dso_get(test_dsos(), DW_VDSO_NAME, other, sizeof(other));
	ASSERT_NE(NULL, d);
	EXPECT_FALSE(dw_dso_usable(d));
}

TEST_F(symbolised, outers_first_byte_is_named_outer)
{
	expect_outer_symbol(_metadata, self->path);
}

TEST_F(symbolised, dwarf_puts_it_in_outer_at_prog_c_lines_9_to_11)
{
	expect_outer_line(_metadata, self->path);
}

TEST_F(symbolised, an_address_in_outer_is_inl_inlined_at_line_11)
{
	expect_inline_frame(_metadata, self->path);
}

/*
 * An address is answered once from the file and then from the file's
 * memo of answers (symbols/resolved.c): asked first without source lines,
 * it still gets them when asked with.
 */
TEST_F(symbolised, an_address_asked_without_lines_then_with_them_gets_its_lines)
{
	struct dw_dso *d = dw_dso_get(test_dsos(), self->path, NULL, 0);
	struct dw_symres r;

	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, dw_dso_resolve(d, outer, 0, &r));
	EXPECT_EQ(0u, r.nr_frames);
	expect_outer_line(_metadata, self->path);
}

/* Every address of outer asked twice: the second answer (the memo's) is the first. */
TEST_F(symbolised, an_address_asked_again_gets_the_same_answer)
{
	struct dw_dso *d = dw_dso_get(test_dsos(), self->path, NULL, 0);
	struct dw_symres first, again;
	unsigned int i, with_frames = 0;
	uint64_t a;

	ASSERT_NE(NULL, d);
	for (a = outer; a < outer + outer_size; a++) {
		int ret = dw_dso_resolve(d, a, DW_DSO_SRC, &first);

		ASSERT_EQ(ret, dw_dso_resolve(d, a, DW_DSO_SRC, &again));
		EXPECT_EQ(first.name, again.name);
		EXPECT_EQ(first.off, again.off);
		EXPECT_EQ(first.start, again.start);
		EXPECT_EQ(first.size, again.size);
		EXPECT_EQ(first.fde, again.fde);
		ASSERT_EQ(first.nr_frames, again.nr_frames);
		for (i = 0; i < first.nr_frames; i++) {
			EXPECT_EQ(first.frames[i].func, again.frames[i].func);
			EXPECT_EQ(first.frames[i].file, again.frames[i].file);
			EXPECT_EQ(first.frames[i].line, again.frames[i].line);
		}
		with_frames += first.nr_frames > 1;
	}
	/* inl's addresses have two frames: the memo keeps more than one. */
	EXPECT_LT(0u, with_frames);
}

/* The mapped file is gone: the recorded executable comes from debuginfod. */
/* Two caches of files: what one is told (--debug-dir, --symfs) is not the other's. */
FIXTURE(two_caches) {
	struct dw_dso_cache *with, *without;
	char path[PATH_MAX + 64];
};

FIXTURE_SETUP(two_caches)
{
	NEED_BUILT();
	self->with = dw_dso_cache_new();
	self->without = dw_dso_cache_new();
	ASSERT_NE(NULL, self->with);
	ASSERT_NE(NULL, self->without);
}

FIXTURE_TEARDOWN(two_caches)
{
	dw_dso_cache_free(self->with);
	dw_dso_cache_free(self->without);
}

/* The symbol cache @c finds at outer's first byte in @path, or "(none)". */
static const char *outer_in(struct dw_dso_cache *c, const char *path)
{
	struct dw_symres r;

	return dw_dso_resolve(dw_dso_get(c, path, NULL, 0), outer, 0, &r) ? "(none)" : r.name;
}

TEST_F(two_caches, debug_dirs_given_to_one_are_not_the_others)
{
	snprintf(self->path, sizeof(self->path), "%s/dbg", dir);
	ASSERT_EQ(0, dw_dso_set_debug_dirs(self->with, self->path));
	snprintf(self->path, sizeof(self->path), "%s/prog.nolink", dir);
	EXPECT_STREQ("outer", outer_in(self->with, self->path));
	EXPECT_STREQ("(none)", outer_in(self->without, self->path));
}

TEST_F(two_caches, a_symfs_given_to_one_is_not_the_others)
{
	ASSERT_EQ(0, dw_dso_set_symfs(self->with, dir));
	EXPECT_STREQ("outer", outer_in(self->with, "/prog"));
	EXPECT_STREQ("(none)", outer_in(self->without, "/prog"));
}

TEST(a_missing_file_is_fetched_from_debuginfod_by_its_build_id)
{
	struct dw_symres r;
	struct dw_dso *d;
	int server = 0;

	NEED_BUILT();
	start_debuginfod(_metadata, &server);
	if (!server)
		return;
	d = dw_dso_get(test_dsos(), "/nonexistent/prog", id, 20);
	ASSERT_NE(NULL, d);
	EXPECT_FALSE(dw_dso_stale(d));
	ASSERT_EQ(0, dw_dso_resolve(d, outer + 1, 0, &r));
	EXPECT_STREQ("outer", r.name);
	test_dsos_drop();
	stop_debuginfod(&server);
}

TEST(a_stripped_file_keeps_its_gnu_build_id)
{
	char path[PATH_MAX + 64];
	const unsigned char *idp;
	struct dw_dso *d;

	NEED_BUILT();
	snprintf(path, sizeof(path), "%s/prog.nolink", dir);
	d = dw_dso_get(test_dsos(), path, NULL, 0);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(20, dw_dso_build_id(d, &idp));
	test_dsos_drop();
}

TEST(without_debug_info_a_stripped_pie_names_nothing_at_outer)
{
	char path[PATH_MAX + 64];
	struct dw_symres r;
	struct dw_dso *d;

	NEED_BUILT();
	snprintf(path, sizeof(path), "%s/prog.nolink", dir);
	d = dw_dso_get(test_dsos(), path, NULL, 0);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(-ENOENT, dw_dso_resolve(d, outer + 1, 0, &r));
	EXPECT_EQ(NULL, r.name);
	test_dsos_drop();
}

/* In the stripped file without debug info, @addr is in the FDE @start+@size. */
static void expect_fde(struct __test_metadata *_metadata, uint64_t addr, uint64_t start,
		       uint64_t size)
{
	char path[PATH_MAX + 64];
	struct dw_symres r;
	struct dw_dso *d;

	snprintf(path, sizeof(path), "%s/prog.nolink", dir);
	d = dw_dso_get(test_dsos(), path, NULL, 0);
	ASSERT_NE(NULL, d);
	dw_dso_resolve(d, addr, 0, &r);
	EXPECT_TRUE(r.fde);
	EXPECT_EQ(start, r.start);
	EXPECT_EQ(size, r.size);
	EXPECT_EQ(addr - start, r.off);
	test_dsos_drop();
}

TEST(without_debug_info_the_eh_frame_fde_gives_outers_range)
{
	NEED_BUILT();
	expect_fde(_metadata, outer + 1, outer, outer_size);
}

/* framed keeps a frame pointer: several CFI rows, one FDE, one function. */
TEST(without_debug_info_a_function_with_a_frame_is_its_whole_fde)
{
	NEED_BUILT();
	expect_fde(_metadata, framed + framed_size - 1, framed, framed_size);
}

/*
 * The entry point's routine with neither symbol nor FDE (glibc's ld.so:
 * RTLD_START has no CFI, and its .symtab is stripped) is _start, up to the
 * next FDE's function.
 */
TEST(an_entry_point_without_symbol_or_fde_is_start)
{
	char path[PATH_MAX + 64];
	unsigned long long entry = 0;
	struct dw_symres r, next;
	struct dw_dso *d;

	NEED_BUILT();
	if (sh("printf '.text\\n.globl ent\\nent:\\n\\txor %%ebp, %%ebp\\n\\tcall f\\n\\thlt\\n"
	       "f:\\n\\t.cfi_startproc\\n\\tret\\n\\t.cfi_endproc\\n' >ent.s && "
	       "gcc -nostdlib -static -Wl,-e,ent -Wl,--eh-frame-hdr -o ent ent.s && strip ent && "
	       "readelf -h ent | sed -n 's/.*Entry point address: *//p' >ent.txt"))
		SKIP(return, "gcc, strip or readelf failed (Debian: gcc, binutils)");
	ASSERT_EQ(0, read_hex("ent.txt", &entry));
	snprintf(path, sizeof(path), "%s/ent", dir);
	d = dw_dso_get(test_dsos(), path, NULL, 0);
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, dw_dso_resolve(d, entry + 2, 0, &r));
	EXPECT_STREQ("_start", r.name);
	EXPECT_EQ(entry, r.start);
	EXPECT_EQ(2, r.off);
	EXPECT_EQ(-ENOENT, dw_dso_resolve(d, entry + r.size, 0, &next));
	EXPECT_TRUE(next.fde);
	EXPECT_EQ(entry + r.size, next.start);
	test_dsos_drop();
}

/* Four bytes into the PLT stub at @stub of @path: @name, from @stub. */
static void expect_plt_stub(struct __test_metadata *_metadata, const char *path,
			    uint64_t stub, const char *name)
{
	struct dw_symres r;
	struct dw_dso *d = dw_dso_get(test_dsos(), path, NULL, 0);

	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, dw_dso_resolve(d, stub + 4, 0, &r));
	EXPECT_STREQ(name, r.name);
	EXPECT_EQ(stub, r.start);
	EXPECT_EQ(4, r.off);
	test_dsos_drop();
}

/* PLT stubs: "puts@plt", from .rela.plt, as objdump names them. */
TEST(a_plt_stub_is_named_func_at_plt)
{
	char path[PATH_MAX + 64];
	unsigned long long plt = 0;

	NEED_BUILT();
	if (sh("printf '#include <stdio.h>\\nint main(void) { return puts(\"x\"); }\\n' "
	       ">plt.c && gcc -O1 -o plt plt.c && objdump -d plt | grep '<puts@plt>:' >plt.txt"))
		SKIP(return, "gcc or objdump failed (Debian: gcc, binutils)");
	ASSERT_EQ(0, read_hex("plt.txt", &plt));
	snprintf(path, sizeof(path), "%s/plt", dir);
	expect_plt_stub(_metadata, path, plt, "puts@plt");
}

/*
 * AArch64: PLT0 is two stubs long, and the linker marks .plt with the
 * mapping symbol "$x", the nearest symbol below every stub, which names
 * nothing: "ext_fn@plt" all the same.
 */
TEST(an_aarch64_plt_stub_is_named_func_at_plt)
{
	char path[PATH_MAX + 64];
	unsigned long long plt = 0;

	NEED_BUILT();
	if (sh("aarch64-linux-gnu-gcc --version"))
		SKIP(return, "no aarch64-linux-gnu-gcc: apt-get install gcc-aarch64-linux-gnu");
	ASSERT_EQ(0, sh("printf '\t.text\n\t.globl f\n\t.type f, %%function\nf:\n"
			"\tstp x29, x30, [sp, -16]!\n\tbl ext_fn\n\tbl ext_gn\n"
			"\tldp x29, x30, [sp], 16\n\tret\n\t.size f, .-f\n' >a64plt.s && "
			"aarch64-linux-gnu-gcc -shared -nostdlib -o a64plt.so a64plt.s && "
			"readelf -sW a64plt.so | grep -q ' [$]x$' && "
			"aarch64-linux-gnu-objdump -d a64plt.so | grep '<ext_gn@plt>:' >a64plt.txt"));
	ASSERT_EQ(0, read_hex("a64plt.txt", &plt));
	snprintf(path, sizeof(path), "%s/a64plt.so", dir);
	expect_plt_stub(_metadata, path, plt, "ext_gn@plt");
}

/*
 * libc's own calls to its IFUNCs (memcpy) go through IRELATIVE PLT slots
 * that are not in stub order: "*ABS*+0xRESOLVER@plt" to objdump, the
 * IFUNC symbol at RESOLVER to us ("memcpy@plt").
 */
TEST(an_irelative_plt_stub_is_named_after_its_ifunc)
{
	char path[PATH_MAX + 64], name[256] = "";
	unsigned long long stub = 0;
	FILE *f;

	NEED_BUILT();
	if (sh("libc=$(ldd /bin/sh | sed -n 's/.*libc\\.so\\.6 => \\([^ ]*\\) .*/\\1/p') && "
	       "objdump -d -j .plt $libc | sed -n 's/^\\([0-9a-f]*\\) <\\*ABS\\*+0x\\([0-9a-f]*\\)@plt>:/\\1 \\2/p' |"
	       " head -n 1 >irel.stub && read a r <irel.stub && "
	       "readelf -sW $libc | awk -v r=$(printf %016x 0x$r) '$2 == r && $4 == \"IFUNC\" "
	       "{ sub(/@.*/, \"\", $8); print \"'$a' \" $8 \"@plt\"; exit }' >irel.txt && "
	       "[ -s irel.txt ] && echo $libc >>irel.txt"))
		SKIP(return, "no libc stub that objdump names *ABS*+0x...@plt");
	snprintf(path, sizeof(path), "%s/irel.txt", dir);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(3, fscanf(f, "%llx %255s %4095s", &stub, name, path));
	fclose(f);
	expect_plt_stub(_metadata, path, stub, name);
}

/* The recorded build-id is another: stale, nothing named, not misattributed. */
FIXTURE(other_id) {
	char path[PATH_MAX + 64];
	unsigned char wrong[20];
};

FIXTURE_SETUP(other_id)
{
	NEED_BUILT();
	snprintf(self->path, sizeof(self->path), "%s/prog", dir);
	memset(self->wrong, 0xee, sizeof(self->wrong));
	dw_dso_set_quiet(test_dsos(), 1);
}

FIXTURE_TEARDOWN(other_id)
{
	test_dsos_drop();
}

TEST_F(other_id, a_file_whose_build_id_is_not_the_recorded_one_is_stale_names_nothing)
{
	struct dw_dso *d = dw_dso_get(test_dsos(), self->path, self->wrong, sizeof(self->wrong));
	struct dw_symres r;

	ASSERT_NE(NULL, d);
	EXPECT_TRUE(dw_dso_stale(d));
	EXPECT_EQ(-ENOENT, dw_dso_resolve(d, outer, DW_DSO_SRC, &r));
	EXPECT_EQ(NULL, r.name);
}

TEST_F(other_id, the_same_file_without_a_recorded_build_id_is_used)
{
	struct dw_symres r;
	struct dw_dso *d;

	dw_dso_get(test_dsos(), self->path, self->wrong, sizeof(self->wrong));
	d = dw_dso_get(test_dsos(), self->path, NULL, 0);
	ASSERT_NE(NULL, d);
	EXPECT_FALSE(dw_dso_stale(d));
	ASSERT_EQ(0, dw_dso_resolve(d, outer + 1, 0, &r));
	EXPECT_EQ(1, r.off);
}

/* Open file descriptors of this process. */
static int nr_fds(void)
{
	char path[64];
	int n = 0, fd;

	for (fd = 0; fd < 4096; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n += !access(path, F_OK);
	}
	return n;
}

/*
 * prog at @path (made here), asked for with the build-id it has: that
 * copy, usable, its build-id at *@id (*@n bytes); NULL if not.
 */
static struct dw_dso *prog_by_its_id(char *path, size_t size, const unsigned char **id, int *n)
{
	struct dw_dso *d;

	snprintf(path, size, "%s/prog", dir);
	d = dw_dso_get(test_dsos(), path, NULL, 0);
	*n = d ? dw_dso_build_id(d, id) : 0;
	if (*n <= 0)
		return NULL;
	d = dw_dso_get(test_dsos(), path, *id, (size_t)*n);
	return d && dw_dso_usable(d) ? d : NULL;
}

/*
 * A recorder sees one file under a name per process (/proc/PID/root/PATH):
 * another name of a file open already is that copy, with no fd more.
 */
TEST(another_name_of_an_open_file_is_the_same_copy)
{
	char path[PATH_MAX + 64], alias[PATH_MAX + 96];
	const unsigned char *id;
	struct dw_dso *d, *e;
	int n, fds;

	NEED_BUILT();
	d = prog_by_its_id(path, sizeof(path), &id, &n);
	ASSERT_NE(NULL, d);
	snprintf(alias, sizeof(alias), "/proc/self/root%s", path);
	fds = nr_fds();
	e = dw_dso_get(test_dsos(), alias, id, (size_t)n);
	EXPECT_EQ(d, e);
	EXPECT_EQ(fds, nr_fds());
	/* And again by that name. */
	EXPECT_EQ(d, dw_dso_get(test_dsos(), alias, id, (size_t)n));
	test_dsos_drop();
}

/*
 * A machine's capture names each library once per process root
 * (/proc/PID/root/PATH): 3,000 names of one file ("//PATH", "/./PATH"
 * and so on) are all the same copy, each asked again by its name too,
 * and no file is opened for them; its path with another build-id is
 * another file.
 */
TEST(thousands_of_names_of_one_file_are_one_copy)
{
	char path[PATH_MAX + 64], alias[PATH_MAX + 256];
	static const unsigned char other[20] = { 0xde, 0xad };
	const unsigned char *id;
	struct dw_dso *d;
	int n, fds, i, same = 0, again = 0;

	NEED_BUILT();
	d = prog_by_its_id(path, sizeof(path), &id, &n);
	ASSERT_NE(NULL, d);
	fds = nr_fds();
	/* Name i: 1 + i % 60 slashes, then i / 60 "./" steps, then the path's rest. */
	for (i = 0; i < 3000; i++) {
		int k, len = 0;

		for (k = 0; k < 1 + i % 60; k++)
			alias[len++] = '/';
		for (k = 0; k < i / 60; k++)
			len += snprintf(alias + len, sizeof(alias) - len, "./");
		snprintf(alias + len, sizeof(alias) - len, "%s", path + 1);
		same += dw_dso_get(test_dsos(), alias, id, (size_t)n) == d;
		again += dw_dso_get(test_dsos(), alias, id, (size_t)n) == d;
	}
	EXPECT_EQ(3000, same);
	EXPECT_EQ(3000, again);
	EXPECT_EQ(fds, nr_fds());
	EXPECT_NE(d, dw_dso_get(test_dsos(), path, other, sizeof(other)));
	test_dsos_drop();
}

/* A file replaced at its path since is not taken for the copy open before. */
TEST(a_file_replaced_at_its_path_is_not_the_copy_open_before)
{
	char path[PATH_MAX + 64], alias[PATH_MAX + 96], cmd[4 * PATH_MAX];
	const unsigned char *id;
	struct dw_dso *d, *e;
	int n;

	NEED_BUILT();
	snprintf(path, sizeof(path), "%s/replaced", dir);
	snprintf(alias, sizeof(alias), "/proc/self/root%s", path);
	snprintf(cmd, sizeof(cmd), "cp %s/prog %s", dir, path);
	ASSERT_EQ(0, system(cmd));
	d = dw_dso_get(test_dsos(), path, NULL, 0);
	n = dw_dso_build_id(d, &id);
	ASSERT_LT(0, n);
	d = dw_dso_get(test_dsos(), path, id, (size_t)n);
	ASSERT_TRUE(dw_dso_usable(d));
	/* Another program renamed over it: a new inode, another build-id. */
	snprintf(cmd, sizeof(cmd), "cp /bin/sh %s.new && mv %s.new %s", path, path, path);
	ASSERT_EQ(0, system(cmd));
	dw_dso_set_quiet(test_dsos(), 1);
	e = dw_dso_get(test_dsos(), alias, id, (size_t)n);
	ASSERT_NE(NULL, e);
	EXPECT_NE(d, e);
	EXPECT_TRUE(dw_dso_stale(e));
	unlink(path);
	test_dsos_drop();
}

TEST(a_missing_file_resolves_nothing_without_error)
{
	struct dw_dso *d = dw_dso_get(test_dsos(), "/nonexistent/file", NULL, 0);
	struct dw_symres r;

	ASSERT_NE(NULL, d);
	EXPECT_EQ(-ENOENT, dw_dso_resolve(d, 0x1000, 0, &r));
	test_dsos_drop();
}

/* perf's JIT map. */
static const char jit_map[] = "7f0000001000 100 jit_a\n"
			      "garbage line\n"
			      "0x7f0000002000 0x10 jit b with spaces\n"
			      "7f0000001000 80 jit_a_v2\n";

FIXTURE(perfmap) {
	struct dw_perfmap *pm;
};

FIXTURE_SETUP(perfmap)
{
	self->pm = dw_perfmap_parse(jit_map, sizeof(jit_map) - 1);
	ASSERT_NE(NULL, self->pm);
}

FIXTURE_TEARDOWN(perfmap)
{
	dw_perfmap_free(self->pm);
}

TEST_F(perfmap, the_later_entry_for_a_start_wins)
{
	uint64_t off = 0;

	EXPECT_STREQ("jit_a_v2", dw_perfmap_lookup(self->pm, 0x7f0000001010ULL, &off, NULL));
	EXPECT_EQ(0x10, off);
}

TEST_F(perfmap, hex_prefixes_and_names_with_spaces_are_read)
{
	uint64_t off = 0;

	EXPECT_STREQ("jit b with spaces",
		     dw_perfmap_lookup(self->pm, 0x7f000000200fULL, &off, NULL));
	EXPECT_EQ(0xf, off);
}

TEST_F(perfmap, past_an_entrys_end_no_name)
{
	uint64_t off;

	EXPECT_EQ(NULL, dw_perfmap_lookup(self->pm, 0x7f0000002010ULL, &off, NULL));
	/* jit_a_v2 replaced jit_a: its shorter range counts. */
	EXPECT_EQ(NULL, dw_perfmap_lookup(self->pm, 0x7f0000001080ULL, &off, NULL));
}

TEST_F(perfmap, below_the_first_entry_no_name)
{
	uint64_t off;

	EXPECT_EQ(NULL, dw_perfmap_lookup(self->pm, 1, &off, NULL));
}

TEST(a_malformed_perf_map_line_is_skipped_not_fatal)
{
	static const char text[] = "garbage line\n";
	struct dw_perfmap *pm = dw_perfmap_parse(text, sizeof(text) - 1);
	uint64_t off;

	ASSERT_NE(NULL, pm);
	EXPECT_EQ(NULL, dw_perfmap_lookup(pm, 0, &off, NULL));
	dw_perfmap_free(pm);
}

TEST(empty_perf_map_text_is_einval)
{
	errno = 0;
	EXPECT_EQ(NULL, dw_perfmap_parse(jit_map, 0));
	EXPECT_EQ(EINVAL, errno);
}

/* The harness exits from test_harness_run(): remove the files at exit. */
static void remove_dir(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (made_dir && system(cmd))
		printf("# could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
	atexit(remove_dir);
	build();
	return test_harness_run(argc, argv);
}
