// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data's names where the programs are not: a build-id directory
 * beside the perf.data (by default "perf.data.debug") that 'perf
 * --buildid-dir DIR report' reads, made from the names the profile
 * already has:
 *
 *   DIR/.build-id/xx/yyyy.../elf	(and .../vdso for the vDSO): per mapped
 *					file with a build-id, an ELF file of
 *					the functions the samples hit
 *					(symelf.c): their start and how far
 *					into them a sample reached;
 *   DIR/PATH/ID/elf			the same file (a hard link) where
 *					perf's own cache keeps it, by the
 *					file's recorded path: where hotspot
 *					(--debugPaths DIR) looks;
 *   DIR/.build-id/xx/yyyy.../elf	the Python frames' file, under the
 *					build-id the export gives it
 *					(perfdata_python.c): one function
 *					per Python frame name (and its
 *					link DIR/[python]/ID/elf);
 *   DIR/[kernel.kallsyms]/ID/kallsyms	the kernel's functions, under the
 *					identity perf.data gives the kernel
 *					(the recording boot's).
 *
 * perf looks a user address up as a file offset (address - mapping start
 * + pgoff) in the file found by its build-id; a location's file offset
 * minus its offset in its function is that function's start.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "output/perfdata.h"
#include "output/perfdata_priv.h"
#include "output/symelf.h"

/* mkdir -p @path (mode 0755). 0 or -errno. */
static int mkdirs(const char *path)
{
	char buf[PATH_MAX];
	size_t i, n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		buf[i] = path[i];
	}
	return 0;
}

/* "xx/yyyy..." of a build-id. */
static void id_path(char *out, const unsigned char *id, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		out[o++] = hex[id[i] >> 4];
		out[o++] = hex[id[i] & 15];
		if (i == 0)
			out[o++] = '/';
	}
	out[o] = '\0';
}

static int func_cmp(const void *a, const void *b)
{
	const struct dw_symelf_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int same_file(const struct dw_prof_mapping *a, const struct dw_prof_mapping *b)
{
	return a->build_id_size == b->build_id_size &&
	       !memcmp(a->build_id, b->build_id, a->build_id_size);
}

/*
 * The named functions the samples hit in the file of mapping @m, sorted,
 * one entry each (as large as the farthest offset seen).  Their count, or
 * -ENOMEM.
 */
static long file_funcs(const struct dw_prof *p, const struct dw_prof_mapping *m,
		       struct dw_symelf_func **out)
{
	struct dw_symelf_func *f = malloc((p->nr_locs ? p->nr_locs : 1) * sizeof(*f));
	size_t i, n = 0, k;

	if (!f)
		return -ENOMEM;
	for (i = 0; i < p->nr_locs; i++) {
		const struct dw_prof_loc *l = &p->locs[i];

		if (l->kernel || l->marker || !l->sym || !l->mapping || l->off > l->dso_off ||
		    !same_file(&p->mappings[l->mapping - 1], m))
			continue;
		f[n].addr = l->dso_off - l->off;
		f[n].size = l->off + 1;
		f[n++].name = l->sym;
	}
	qsort(f, n, sizeof(*f), func_cmp);
	for (i = 0, k = 0; i < n; i++) {
		if (k && f[k - 1].addr == f[i].addr && !strcmp(f[k - 1].name, f[i].name)) {
			if (f[i].size > f[k - 1].size)
				f[k - 1].size = f[i].size;
			continue;
		}
		f[k++] = f[i];
	}
	*out = f;
	return (long)k;
}

/* A recorded path that stays under DIR: absolute, no "." or ".." part. */
static int path_is_plain(const char *file)
{
	const char *c;

	if (file[0] != '/')
		return 0;
	for (c = file; (c = strstr(c, "/.")); c++)
		if (c[2] == '/' || c[2] == '\0' || (c[2] == '.' && (c[3] == '/' || !c[3])))
			return 0;
	return 1;
}

/*
 * DIR/PATH/ID/elf, a hard link to @built (DIR/.build-id/xx/yyyy/elf), for
 * a file recorded at an absolute path (not the vDSO).  0 or -errno.
 */
static int link_by_path(const struct dw_prof_mapping *m, const char *dir, const char *built)
{
	char path[PATH_MAX], id[64];
	char *slash;
	int ret;

	if (!m->file || !path_is_plain(m->file))
		return 0;
	id_path(id, m->build_id, m->build_id_size);
	memmove(id + 2, id + 3, strlen(id + 3) + 1);	/* the whole id, no '/' */
	if ((size_t)snprintf(path, sizeof(path), "%s%s/%s/elf", dir, m->file, id) >= sizeof(path))
		return -ENAMETOOLONG;
	slash = strrchr(path, '/');
	*slash = '\0';
	ret = mkdirs(path);
	if (ret)
		return ret;
	*slash = '/';
	if (link(built, path) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * DIR/.build-id/xx/yyyy/BASE: an ELF file of @funcs with build-id @id;
 * its path in @path (PATH_MAX).  0 or -errno.
 */
static int write_elf(char *path, const char *dir, const char *base, const unsigned char *id,
		     size_t id_size, const struct dw_symelf_func *funcs, size_t n)
{
	char hex[64];
	FILE *f;
	int ret;

	id_path(hex, id, id_size);
	if ((size_t)snprintf(path, PATH_MAX, "%s/.build-id/%s", dir, hex) >= PATH_MAX)
		return -ENAMETOOLONG;
	ret = mkdirs(path);
	if (ret)
		return ret;
	strcat(path, "/");
	strcat(path, base);	/* room: PATH_MAX is far beyond a build-id path */
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = dw_symelf_write(f, id, id_size, funcs, n);
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

/* DIR/.build-id/xx/yyyy/BASE for mapping @m. 0 or -errno. */
static int write_file(const struct dw_prof *p, const struct dw_prof_mapping *m,
		      const char *dir, const char *base)
{
	char path[PATH_MAX];
	struct dw_symelf_func *funcs;
	long n = file_funcs(p, m, &funcs);
	int ret;

	if (n < 0)
		return (int)n;
	ret = write_elf(path, dir, base, m->build_id, m->build_id_size, funcs, (size_t)n);
	if (!ret && !strcmp(base, "elf"))
		ret = link_by_path(m, dir, path);
	free(funcs);
	return ret;
}

/*
 * DIR/.build-id/xx/yyyy/elf for the Python frames (perfdata_python.c),
 * and its link by path.  1 if written, 0 if the profile has none, or -errno.
 */
static int write_python(const struct dw_prof *p, const char *dir)
{
	struct perfdata_py py = { 0 };
	struct dw_prof_mapping m = { .file = PERFDATA_PY_FILE, .build_id_size = 20 };
	char path[PATH_MAX];
	int ret = perfdata_py_build(&py, p);

	_Static_assert(sizeof(m.build_id) == sizeof(py.build_id), "build-id sizes");
	memcpy(m.build_id, py.build_id, sizeof(m.build_id));
	if (!ret && py.nr)
		ret = write_elf(path, dir, "elf", py.build_id, sizeof(py.build_id), py.funcs,
				py.nr);
	if (!ret && py.nr)
		ret = link_by_path(&m, dir, path);
	if (!ret)
		ret = !!py.nr;
	perfdata_py_free(&py);
	return ret;
}

/* DIR/[kernel.kallsyms]/ID/kallsyms. 0 or -errno. */
static int write_kernel(const struct dw_prof *p, const char *dir)
{
	char path[PATH_MAX], hex[48];
	__u8 kid[20];
	size_t i;
	FILE *f;
	int ret;

	perfdata_kernel_id(p, kid);
	for (i = 0; i < sizeof(kid); i++)
		snprintf(hex + 2 * i, 3, "%02x", kid[i]);
	if ((size_t)snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s", dir, hex) >=
	    sizeof(path) - sizeof("/kallsyms"))
		return -ENAMETOOLONG;
	ret = mkdirs(path);
	if (ret)
		return ret;
	strcat(path, "/kallsyms");
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = dw_perfdata_write_kallsyms(f, p);
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

/**
 * dw_perfdata_write_debug() - the build-id directory of a perf.data
 *	written from @p: 'perf --buildid-dir @dir report' then names the
 *	functions where the programs are not
 * @p:		profile
 * @dir:	the directory (made if missing)
 *
 * Context: user space.
 * Return: the number of files written (kernel included), or -ENOMEM,
 * -ENAMETOOLONG or -errno of a directory or file that could not be made.
 */
int dw_perfdata_write_debug(const struct dw_prof *p, const char *dir)
{
	size_t i, j;
	int ret, n = 0;

	for (i = 0; i < p->nr_mappings; i++) {
		const struct dw_prof_mapping *m = &p->mappings[i];

		if (m->kernel || !m->build_id_size || m->build_id_size > sizeof(m->build_id))
			continue;
		for (j = 0; j < i && !same_file(&p->mappings[j], m); j++)
			;
		if (j < i)
			continue;
		ret = write_file(p, m, dir, "elf");
		if (!ret && m->file && !strcmp(m->file, "[vdso]"))
			ret = write_file(p, m, dir, "vdso");
		if (ret)
			return ret;
		n++;
	}
	ret = write_python(p, dir);
	if (ret < 0)
		return ret;
	n += ret;
	if (dw_perfdata_has_kernel(p)) {
		ret = write_kernel(p, dir);
		if (ret)
			return ret;
		n++;
	}
	return n;
}
