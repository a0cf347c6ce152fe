// SPDX-License-Identifier: GPL-2.0
/*
 * A program's interpreter and DT_NEEDED closure, found as the loader finds
 * them (see needed.h).  Files are read with libelf and treated as hostile:
 * anything malformed is skipped, never trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "sframe/needed.h"
#include "util/array.h"

#define NEEDED_MAX_FILES	512
#define NEEDED_MAX_DIRS		128
#define NEEDED_CONF_DEPTH	4

/* What one ELF file says about where its libraries are. */
struct needed_elf {
	char interp[PATH_MAX];		/* "" if none */
	char rpath[PATH_MAX];		/* DT_RPATH, "" if none */
	char runpath[PATH_MAX];		/* DT_RUNPATH, "" if none */
	char **needed;			/* DT_NEEDED names, malloc()ed */
	size_t nr_needed, cap_needed;
};

/* Directories of ld.so.conf and the defaults, read once per closure. */
struct needed_dirs {
	char *v[NEEDED_MAX_DIRS];
	size_t n;
};

static int needed_add(struct dw_needed *out, const char *path)
{
	size_t i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->paths[i], path))
			return 0;
	if (out->n == NEEDED_MAX_FILES)
		return 0;
	if (DW_ARRAY_RESERVE(out->paths, out->cap, out->n + 1, 16))
		return -ENOMEM;
	out->paths[out->n] = strdup(path);
	if (!out->paths[out->n])
		return -ENOMEM;
	out->n++;
	return 0;
}

static void needed_elf_free(struct needed_elf *e)
{
	size_t i;

	for (i = 0; i < e->nr_needed; i++)
		free(e->needed[i]);
	free(e->needed);
	memset(e, 0, sizeof(*e));
}

/* Copy the string at @off of string table section @strndx into @buf. */
static int needed_str(Elf *elf, size_t strndx, GElf_Xword off, char *buf, size_t len)
{
	const char *s = elf_strptr(elf, strndx, off);

	if (!s || strlen(s) >= len)
		return -EINVAL;
	strcpy(buf, s);
	return 0;
}

/* The interpreter (from the program headers) of @elf, into @e->interp. */
static void needed_interp(Elf *elf, int fd, struct needed_elf *e)
{
	size_t i, phnum;
	GElf_Phdr ph;
	ssize_t n;

	if (elf_getphdrnum(elf, &phnum))
		return;
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz < 2 || ph.p_filesz > sizeof(e->interp))
			return;
		n = pread(fd, e->interp, ph.p_filesz, (off_t)ph.p_offset);
		if (n != (ssize_t)ph.p_filesz || e->interp[n - 1] || e->interp[0] != '/')
			e->interp[0] = '\0';
		return;
	}
}

/* Read @path's interpreter, DT_NEEDED, DT_RPATH and DT_RUNPATH. */
static int needed_read(const char *path, struct needed_elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int fd, err = 0;
	Elf *elf;

	memset(e, 0, sizeof(*e));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != DUNWIND_ARCH_ELF_MACHINE) {
		err = -ENOEXEC;
		goto out;
	}
	needed_interp(elf, fd, e);
	while (!err && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		n = d->d_size / sh.sh_entsize;
		for (i = 0; i < n && !err; i++) {
			char name[PATH_MAX];
			GElf_Dyn dyn;

			if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag == DT_RPATH)
				needed_str(elf, sh.sh_link, dyn.d_un.d_val, e->rpath, sizeof(e->rpath));
			else if (dyn.d_tag == DT_RUNPATH)
				needed_str(elf, sh.sh_link, dyn.d_un.d_val, e->runpath,
					   sizeof(e->runpath));
			if (dyn.d_tag != DT_NEEDED ||
			    needed_str(elf, sh.sh_link, dyn.d_un.d_val, name, sizeof(name)) ||
			    e->nr_needed >= NEEDED_MAX_FILES)
				continue;
			if (DW_ARRAY_RESERVE(e->needed, e->cap_needed, e->nr_needed + 1, 8) ||
			    !(e->needed[e->nr_needed] = strdup(name))) {
				err = -ENOMEM;
				break;
			}
			e->nr_needed++;
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	if (err)
		needed_elf_free(e);
	return err;
}

/* Is @path an ELF file of this machine (lib/arch.h) we can open? */
static int needed_usable(const char *path)
{
	unsigned char id[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = pread(fd, id, sizeof(id), 0);
	close(fd);
	return n == (ssize_t)sizeof(id) && !memcmp(id, ELFMAG, SELFMAG) &&
	       id[EI_CLASS] == ELFCLASS64 && id[18] == (DUNWIND_ARCH_ELF_MACHINE & 0xff) &&
	       id[19] == DUNWIND_ARCH_ELF_MACHINE >> 8;
}

static void needed_dir_add(struct needed_dirs *d, const char *dir, size_t len)
{
	size_t i;

	if (!len || dir[0] != '/' || d->n == NEEDED_MAX_DIRS)
		return;
	for (i = 0; i < d->n; i++)
		if (strlen(d->v[i]) == len && !strncmp(d->v[i], dir, len))
			return;
	d->v[d->n] = strndup(dir, len);
	if (d->v[d->n])
		d->n++;
}

/* The directories an ld.so.conf file names, and those of the files it includes. */
static void needed_conf(struct needed_dirs *d, const char *path, int depth)
{
	char line[PATH_MAX];
	FILE *f;

	if (depth > NEEDED_CONF_DEPTH)
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *end;

		end = strpbrk(s, "#\n");
		if (end)
			*end = '\0';
		s += strspn(s, " \t");
		end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t')) {
			glob_t g;
			size_t i;

			s += 8 + strspn(s + 8, " \t");
			if (!glob(s, 0, NULL, &g)) {
				for (i = 0; i < g.gl_pathc; i++)
					needed_conf(d, g.gl_pathv[i], depth + 1);
				globfree(&g);
			}
			continue;
		}
		needed_dir_add(d, s, strlen(s));
	}
	fclose(f);
}

static void needed_dirs_init(struct needed_dirs *d)
{
	static const char *const defaults[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
		"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib", "/usr/lib",
	};
	size_t i;

	memset(d, 0, sizeof(*d));
	needed_conf(d, "/etc/ld.so.conf", 0);
	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		needed_dir_add(d, defaults[i], strlen(defaults[i]));
}

static void needed_dirs_free(struct needed_dirs *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i]);
}

/*
 * Look for @name in the colon-separated @list, $ORIGIN being @origin.
 * 0 with the path in @buf, or -ENOENT.
 */
static int needed_search_list(const char *list, const char *origin, const char *name,
			      char *buf, size_t len)
{
	const char *p, *end;

	for (p = list; p && *p; p = *end ? end + 1 : end) {
		char dir[PATH_MAX];
		size_t n;

		end = strchrnul(p, ':');
		n = (size_t)(end - p);
		if (!n || n >= sizeof(dir))
			continue;
		memcpy(dir, p, n);
		dir[n] = '\0';
		if (!strncmp(dir, "$ORIGIN", 7) || !strncmp(dir, "${ORIGIN}", 9)) {
			const char *rest = dir + (dir[1] == '{' ? 9 : 7);

			if (snprintf(buf, len, "%s%s/%s", origin, rest, name) >= (int)len)
				continue;
		} else if (snprintf(buf, len, "%s/%s", dir, name) >= (int)len) {
			continue;
		}
		if (needed_usable(buf))
			return 0;
	}
	return -ENOENT;
}

/* Where the loader finds @name for the object at @from (described by @e). */
static int needed_resolve(const char *from, const struct needed_elf *e,
			  const struct needed_dirs *dirs, const char *name, char *buf,
			  size_t len)
{
	char origin[PATH_MAX], *slash;
	size_t i;

	if (strchr(name, '/')) {
		if (snprintf(buf, len, "%s", name) >= (int)len || !needed_usable(buf))
			return -ENOENT;
		return 0;
	}
	snprintf(origin, sizeof(origin), "%s", from);
	slash = strrchr(origin, '/');
	if (slash)
		*(slash == origin ? slash + 1 : slash) = '\0';
	if (!e->runpath[0] && !needed_search_list(e->rpath, origin, name, buf, len))
		return 0;
	if (!needed_search_list(getenv("LD_LIBRARY_PATH"), origin, name, buf, len))
		return 0;
	if (!needed_search_list(e->runpath, origin, name, buf, len))
		return 0;
	for (i = 0; i < dirs->n; i++)
		if (snprintf(buf, len, "%s/%s", dirs->v[i], name) < (int)len && needed_usable(buf))
			return 0;
	return -ENOENT;
}

int dw_needed_closure(const char *program, struct dw_needed *out)
{
	struct needed_dirs dirs;
	char path[PATH_MAX];
	size_t next;
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOEXEC;
	if (!realpath(program, path))
		return -errno;
	if (!needed_usable(path))
		return -ENOEXEC;
	err = needed_add(out, path);
	if (err)
		return err;
	needed_dirs_init(&dirs);
	for (next = 0; next < out->n && !err; next++) {
		struct needed_elf e;
		size_t i;

		/* out->paths may move as it grows: copy the name first. */
		snprintf(path, sizeof(path), "%s", out->paths[next]);
		if (needed_read(path, &e))
			continue;
		if (e.interp[0] && needed_usable(e.interp)) {
			char real[PATH_MAX];

			err = needed_add(out, realpath(e.interp, real) ? real : e.interp);
		}
		for (i = 0; i < e.nr_needed && !err; i++) {
			char lib[PATH_MAX], real[PATH_MAX];

			if (needed_resolve(path, &e, &dirs, e.needed[i], lib, sizeof(lib)))
				continue;
			err = needed_add(out, realpath(lib, real) ? real : lib);
		}
		needed_elf_free(&e);
	}
	needed_dirs_free(&dirs);
	return err;
}

void dw_needed_free(struct dw_needed *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		free(n->paths[i]);
	free(n->paths);
	memset(n, 0, sizeof(*n));
}
