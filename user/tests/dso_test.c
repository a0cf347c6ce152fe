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

#include "tap.h"
#include "symbols/debuginfod.h"
#include "symbols/dso.h"
#include "symbols/perfmap.h"

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
	"}\n";								/* 18 */

static int sh(const char *cmd)
{
	char full[2048];

	snprintf(full, sizeof(full), "cd %s && (%s) >/dev/null 2>&1", dir, cmd);
	return system(full);
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

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (!gelf_getsym(d, (int)i, &s))
				break;
			n = elf_strptr(elf, sh.sh_link, s.st_name);
			if (n && !strcmp(n, name)) {
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

/* Check @path resolves outer (by name and line, and its inline frame). */
static void check_file(const char *path, const char *what, uint64_t outer, uint64_t size)
{
	struct dw_dso *d = dw_dso_get(path, NULL, 0);
	struct dw_symres r;
	uint64_t a;
	int inl_found = 0;
	unsigned int n;

	ok(d && !dw_dso_resolve(d, outer, DW_DSO_SRC, &r) && r.name && !strcmp(r.name, "outer") &&
	   r.off == 0, "%s: the symbol of outer's first byte", what);
	n = r.nr_frames;
	ok(d && n >= 1 && !strcmp(base(r.frames[n - 1].file), "prog.c") &&
	   r.frames[n - 1].func && !strcmp(r.frames[n - 1].func, "outer") &&
	   r.frames[n - 1].line >= 9 && r.frames[n - 1].line <= 11,
	   "%s: DWARF puts it in outer at prog.c lines 9..11 (%s:%d)", what,
	   base(n ? r.frames[n - 1].file : NULL), n ? r.frames[n - 1].line : 0);
	for (a = outer; d && a < outer + size && !inl_found; a++) {
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
	ok(inl_found, "%s: an address in outer is inl (line 5 or 6) inlined at prog.c:11", what);
}

/* @hex as bytes into @out (20). Returns @out. */
static unsigned char *id_bytes(const char *hex, unsigned char *out)
{
	int i;

	for (i = 0; i < 20; i++) {
		unsigned int v = 0;

		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (unsigned char)v;
	}
	return out;
}

static void check_debuginfod(const char *hex, const unsigned char *id, uint64_t outer,
			     uint64_t size)
{
	char cmd[1024], url[64], path[PATH_MAX + 64];
	struct dw_symres r;
	struct dw_dso *d;
	int port = 20000 + getpid() % 20000, i;

	snprintf(cmd, sizeof(cmd), "mkdir -p srv/buildid/%s && cp prog.debug "
		 "srv/buildid/%s/debuginfo && cp prog srv/buildid/%s/executable", hex, hex, hex);
	if (sh(cmd) || system("command -v python3 >/dev/null 2>&1")) {
		tap_skip("debuginfod", "python3 (for a local HTTP server) is not installed");
		return;
	}
	snprintf(cmd, sizeof(cmd), "cd %s/srv && (python3 -m http.server %d --bind 127.0.0.1 "
		 ">/dev/null 2>&1 & echo $! >../server.pid)", dir, port);
	if (system(cmd)) {
		tap_skip("debuginfod", "could not start a local HTTP server");
		return;
	}
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	snprintf(cmd, sizeof(cmd), "%s/cache", dir);
	setenv("DEBUGINFOD_URLS", url, 1);
	setenv("DEBUGINFOD_CACHE_PATH", cmd, 1);
	setenv("DEBUGINFOD_TIMEOUT", "5", 1);
	/* Wait until the server answers (up to 5 s). */
	snprintf(cmd, sizeof(cmd), "python3 -c 'import urllib.request as u; "
		 "u.urlopen(\"%s/buildid/%s/executable\", timeout=1)' >/dev/null 2>&1", url, hex);
	for (i = 0; i < 50 && system(cmd); i++)
		usleep(100000);
	dw_dso_cache_free();
	if (!dw_debuginfod_enabled()) {
		tap_skip("debuginfod", "libdebuginfod.so.1 is not installed "
			 "(Debian: libdebuginfod1)");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/prog.nolink", dir);
	check_file(path, "stripped, debug info from debuginfod", outer, size);
	dw_dso_cache_free();
	/* The mapped file is gone: the recorded executable comes from debuginfod. */
	d = dw_dso_get("/nonexistent/prog", id, 20);
	ok(d && !dw_dso_stale(d) && !dw_dso_resolve(d, outer + 1, 0, &r) && r.name &&
	   !strcmp(r.name, "outer"), "a missing file: the executable by build-id from debuginfod");
	dw_dso_cache_free();
out:
	unsetenv("DEBUGINFOD_URLS");
	snprintf(cmd, sizeof(cmd), "kill $(cat %s/server.pid) 2>/dev/null", dir);
	if (system(cmd))
		printf("# could not stop the HTTP server\n");
}

int main(void)
{
	char path[PATH_MAX + 64], bid_path[PATH_MAX + 128], hex[41];
	const unsigned char *id;
	unsigned char wrong[20];
	struct dw_perfmap *pm;
	struct dw_symres r;
	uint64_t outer = 0, size = 0, off = 0;
	struct dw_dso *d;
	FILE *f;
	int n, i;

	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp\n");
		return 1;
	}
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
		tap_skip("DWARF symbolisation", "gcc, objcopy or strip failed "
			 "(Debian: gcc, binutils)");
		goto jit;
	}
	snprintf(path, sizeof(path), "%s/prog", dir);
	ok(!find_sym(path, "outer", &outer, &size) && size > 0, "the test program has outer");
	check_file(path, "unstripped", outer, size);

	snprintf(path, sizeof(path), "%s/prog.stripped", dir);
	check_file(path, "stripped + .gnu_debuglink", outer, size);

	/* No debuglink: only the build-id directory can lead to prog.debug. */
	snprintf(path, sizeof(path), "%s/prog.nolink", dir);
	d = dw_dso_get(path, NULL, 0);
	n = d ? dw_dso_build_id(d, &id) : 0;
	ok(n == 20, "the stripped file keeps its GNU build-id (%d bytes)", n);
	ok(d && dw_dso_resolve(d, outer + 1, 0, &r) == -ENOENT && !r.name,
	   "without debug info a stripped PIE names nothing at outer");
	ok(r.fde && r.start == outer && r.size == size && r.off == 1,
	   "... but its .eh_frame FDE gives outer's range (0x%llx+0x%llx)",
	   (unsigned long long)r.start, (unsigned long long)r.size);
	for (i = 0; i < n && i < 20; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	dw_dso_cache_free();
	snprintf(bid_path, sizeof(bid_path), "mkdir -p dbg/.build-id/%.2s && "
		 "cp prog.debug dbg/.build-id/%.2s/%s.debug", hex, hex, hex + 2);
	if (n == 20 && !sh(bid_path)) {
		snprintf(bid_path, sizeof(bid_path), "%s/dbg", dir);
		ok(dw_dso_set_debug_dirs(bid_path) == 0, "set a debug directory");
		check_file(path, "stripped + .build-id/xx/yyyy.debug", outer, size);
		dw_dso_cache_free();
	}

	/* PLT stubs: "puts@plt", from .rela.plt, as objdump names them. */
	if (sh("printf '#include <stdio.h>\\nint main(void) { return puts(\"x\"); }\\n' "
	       ">plt.c && gcc -O1 -o plt plt.c && objdump -d plt | grep '<puts@plt>:' >plt.txt")) {
		tap_skip("PLT stubs", "gcc or objdump failed (Debian: gcc, binutils)");
	} else {
		unsigned long long plt = 0;
		int e;

		snprintf(path, sizeof(path), "%s/plt.txt", dir);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%llx", &plt) != 1)
			plt = 0;
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), "%s/plt", dir);
		d = dw_dso_get(path, NULL, 0);
		e = d && plt ? dw_dso_resolve(d, plt + 4, 0, &r) : -1;
		ok(!e && !strcmp(r.name, "puts@plt") && r.start == plt && r.off == 4,
		   "a PLT stub is named func@plt (%s)", !e ? r.name : "-");
		dw_dso_cache_free();
	}

	/* debuginfod: a local HTTP server with buildid/HEX/{debuginfo,executable}. */
	if (n == 20)
		check_debuginfod(hex, id_bytes(hex, wrong), outer, size);

	/* The recorded build-id is another: stale, nothing named, not misattributed. */
	snprintf(path, sizeof(path), "%s/prog", dir);
	memset(wrong, 0xee, sizeof(wrong));
	dw_dso_set_quiet(1);
	d = dw_dso_get(path, wrong, sizeof(wrong));
	ok(d && dw_dso_stale(d) && dw_dso_resolve(d, outer, DW_DSO_SRC, &r) == -ENOENT && !r.name,
	   "a file whose build-id is not the recorded one is stale and names nothing");
	d = dw_dso_get(path, NULL, 0);
	ok(d && !dw_dso_stale(d) && !dw_dso_resolve(d, outer + 1, 0, &r) && r.off == 1,
	   "the same file without a recorded build-id is used");
	dw_dso_cache_free();
	ok(dw_dso_get("/nonexistent/file", NULL, 0) &&
	   dw_dso_resolve(dw_dso_get("/nonexistent/file", NULL, 0), 0x1000, 0, &r) == -ENOENT,
	   "a missing file resolves nothing, without error");
	dw_dso_cache_free();

jit:
	{
		static const char map[] = "7f0000001000 100 jit_a\n"
					  "garbage line\n"
					  "0x7f0000002000 0x10 jit b with spaces\n"
					  "7f0000001000 80 jit_a_v2\n";

		pm = dw_perfmap_parse(map, sizeof(map) - 1);
	}
	ok(pm != NULL, "parse a perf map");
	ok(pm && !strcmp(dw_perfmap_lookup(pm, 0x7f0000001010ULL, &off, NULL), "jit_a_v2") && off == 0x10,
	   "the later entry for a start wins");
	ok(pm && !strcmp(dw_perfmap_lookup(pm, 0x7f000000200fULL, &off, NULL),
			 "jit b with spaces") && off == 0xf, "0x prefixes and names with spaces");
	ok(pm && !dw_perfmap_lookup(pm, 0x7f0000002010ULL, &off, NULL) &&
	   !dw_perfmap_lookup(pm, 0x7f0000001080ULL, &off, NULL) && !dw_perfmap_lookup(pm, 1, &off, NULL),
	   "outside every entry: no name");
	dw_perfmap_free(pm);

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		printf("# cleanup failed\n");
	return tap_done();
}
