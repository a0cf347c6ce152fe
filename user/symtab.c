// SPDX-License-Identifier: GPL-2.0
/*
 * Symbolisation of user addresses: a snapshot of /proc/PID/maps and the
 * function symbols (.symtab, else .dynsym) of every executable mapping.
 *
 * An address in a mapping [start, end) at file offset @off lies at file
 * offset addr - start + off; the PT_LOAD segment holding that file offset
 * turns it into the ELF's link-time address (file offset - p_offset +
 * p_vaddr), the space symbols live in.  This is the same for ET_EXEC and
 * for PIE/shared objects, whatever their load bias.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab.h"

struct dw_sym {
	uint64_t addr, size;
	size_t name;			/* offset in dw_elf.names */
};

struct dw_load {
	uint64_t offset, vaddr, filesz;
};

struct dw_elf {
	struct dw_elf *next;
	char *path;			/* as in maps */
	struct dw_sym *syms;
	size_t nr_syms;
	char *names;
	size_t names_len;
	struct dw_load *loads;
	size_t nr_loads;
	unsigned char build_id[20];
	size_t build_id_size;		/* 0: the file has none */
};

struct dw_map {
	uint64_t start, end, offset;
	struct dw_elf *elf;		/* NULL: not an ELF we could read */
	const char *path;
	int stale;			/* the file's build-id is not the mapped one */
};

struct dw_maps {
	struct dw_map *maps;		/* sorted by start, non-overlapping */
	size_t nr_maps, cap_maps;
	struct dw_elf *elves;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct dw_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return 0;
}

static int add_name(struct dw_elf *e, const char *name, size_t *cap)
{
	size_t len = strlen(name) + 1;

	if (e->names_len + len > *cap) {
		size_t ncap = *cap ? *cap * 2 : 4096;
		char *n;

		while (ncap < e->names_len + len)
			ncap *= 2;
		n = realloc(e->names, ncap);
		if (!n)
			return -ENOMEM;
		e->names = n;
		*cap = ncap;
	}
	memcpy(e->names + e->names_len, name, len);
	e->names_len += len;
	return 0;
}

static int read_symbols(struct dw_elf *e, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	size_t cap_syms = 0, cap_names = 0, i, n;
	Elf_Data *data = elf_getdata(scn, NULL);

	if (!data || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
		    !sym.st_value)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (e->nr_syms == cap_syms) {
			size_t ncap = cap_syms ? cap_syms * 2 : 256;
			struct dw_sym *ns = realloc(e->syms, ncap * sizeof(*ns));

			if (!ns)
				return -ENOMEM;
			e->syms = ns;
			cap_syms = ncap;
		}
		e->syms[e->nr_syms].addr = sym.st_value;
		e->syms[e->nr_syms].size = sym.st_size;
		e->syms[e->nr_syms].name = e->names_len;
		if (add_name(e, name, &cap_names))
			return -ENOMEM;
		e->nr_syms++;
	}
	if (e->nr_syms)
		qsort(e->syms, e->nr_syms, sizeof(*e->syms), sym_cmp);
	return 0;
}

/* The GNU build-id note of an SHT_NOTE section, if it has one. */
static void read_build_id(struct dw_elf *e, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	if (!data || !data->d_buf)
		return;
	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4) &&
		    nh.n_descsz > 0 && nh.n_descsz <= sizeof(e->build_id)) {
			memcpy(e->build_id, (const char *)data->d_buf + desc_off, nh.n_descsz);
			e->build_id_size = nh.n_descsz;
			return;
		}
		off = next;
	}
}

static int read_loads(struct dw_elf *e, Elf *elf)
{
	size_t n, i;

	if (elf_getphdrnum(elf, &n))
		return 0;
	e->loads = calloc(n ? n : 1, sizeof(*e->loads));
	if (!e->loads)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		e->loads[e->nr_loads].offset = ph.p_offset;
		e->loads[e->nr_loads].vaddr = ph.p_vaddr;
		e->loads[e->nr_loads].filesz = ph.p_filesz;
		e->nr_loads++;
	}
	return 0;
}

/* Read the ELF at @file (named @path in maps). 0, or -errno; no ELF: -ENOEXEC. */
static int elf_load(struct dw_elf *e, const char *file)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh, symsh, dynsh;
	int fd, err = 0;
	Elf *elf;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_NOTE && !e->build_id_size)
			read_build_id(e, scn);
		if (sh.sh_type == SHT_SYMTAB && !symtab) {
			symtab = scn;
			symsh = sh;
		} else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
			dynsym = scn;
			dynsh = sh;
		}
	}
	if (symtab)
		err = read_symbols(e, elf, symtab, &symsh);
	if (!err && !e->nr_syms && dynsym)
		err = read_symbols(e, elf, dynsym, &dynsh);
	if (!err)
		err = read_loads(e, elf);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

static void elf_reset(struct dw_elf *e)
{
	free(e->syms);
	free(e->names);
	free(e->loads);
	e->syms = NULL;
	e->names = NULL;
	e->loads = NULL;
	e->nr_syms = e->names_len = e->nr_loads = e->build_id_size = 0;
}

static struct dw_elf *elf_get(struct dw_maps *m, int pid, const char *path)
{
	struct dw_elf *e;
	char file[4096 + 64];

	for (e = m->elves; e; e = e->next)
		if (!strcmp(e->path, path))
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->path = strdup(path);
	if (!e->path) {
		free(e);
		return NULL;
	}
	e->next = m->elves;
	m->elves = e;
	/* The target's view of the file first (mount namespaces), then ours. */
	snprintf(file, sizeof(file), "/proc/%d/root%s", pid, path);
	if (pid <= 0 || elf_load(e, file) || !e->nr_syms) {
		elf_reset(e);
		if (elf_load(e, path))
			elf_reset(e);
	}
	return e;
}

static int map_cmp(const void *a, const void *b)
{
	const struct dw_map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/**
 * dw_maps_load() - snapshot the executable mappings of @pid and their symbols
 * @pid:	process id; 0 means the caller
 *
 * Context: user space, reads /proc and the mapped files (may be slow for
 * large binaries).  Files that cannot be read or are not ELF are kept as
 * mappings without symbols.
 * Return: the snapshot, or NULL with errno set (ENOENT/ESRCH: no such
 * process, EACCES: not allowed to read its maps, ENOMEM).
 */
struct dw_maps *dw_maps_load(int pid)
{
	struct dw_maps *m;
	size_t cap = 0;
	char path[64], *line = NULL;
	size_t line_cap = 0;
	FILE *f;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = ENOSYS;
		return NULL;
	}
	if (pid == 0)
		pid = getpid();
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		goto fail;
	while (getline(&line, &line_cap, f) > 0) {
		unsigned long long start, end, off;
		char perms[8], *file, *nl;
		int pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off,
			   &pos) < 4 || !pos)
			continue;
		if (!strchr(perms, 'x') || start >= end)
			continue;
		file = line + pos;
		nl = strchr(file, '\n');
		if (nl)
			*nl = '\0';
		nl = strstr(file, " (deleted)");
		if (nl && !nl[10])
			*nl = '\0';
		if (m->nr_maps == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct dw_map *n = realloc(m->maps, ncap * sizeof(*n));

			if (!n)
				goto fail;
			m->maps = n;
			cap = ncap;
		}
		m->maps[m->nr_maps] = (struct dw_map){ .start = start, .end = end, .offset = off };
		if (file[0] == '/') {
			m->maps[m->nr_maps].elf = elf_get(m, pid, file);
			if (!m->maps[m->nr_maps].elf)
				goto fail;
			m->maps[m->nr_maps].path = m->maps[m->nr_maps].elf->path;
		}
		m->nr_maps++;
	}
	free(line);
	fclose(f);
	qsort(m->maps, m->nr_maps, sizeof(*m->maps), map_cmp);
	m->cap_maps = cap;
	return m;
fail:
	free(line);
	fclose(f);
	dw_maps_free(m);
	errno = ENOMEM;
	return NULL;
}

/**
 * dw_maps_new() - an empty set of mappings, filled with dw_maps_add()
 *
 * Context: user space.  For captures: the mappings come from MMAP records,
 * not from /proc.
 * Return: the set, or NULL (errno ENOMEM, or ENOSYS if libelf is unusable).
 */
struct dw_maps *dw_maps_new(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = ENOSYS;
		return NULL;
	}
	return calloc(1, sizeof(struct dw_maps));
}

/* Make room for @n more mappings. */
static int maps_reserve(struct dw_maps *m, size_t n)
{
	struct dw_map *nm;
	size_t cap = m->cap_maps ? m->cap_maps : 16;

	if (m->nr_maps + n <= m->cap_maps)
		return 0;
	while (cap < m->nr_maps + n)
		cap *= 2;
	nm = realloc(m->maps, cap * sizeof(*nm));
	if (!nm)
		return -ENOMEM;
	m->maps = nm;
	m->cap_maps = cap;
	return 0;
}

/**
 * dw_maps_add() - add a file mapping; it replaces what it overlaps
 * @m:		set from dw_maps_new()
 * @start:	first address
 * @end:	end address (exclusive); must be above @start
 * @pgoff:	file offset mapped at @start
 * @path:	the file; read now (once per path) for its symbols.  NULL or
 *		not absolute (anonymous memory): a mapping without symbols
 * @build_id:	the mapped file's GNU build-id, or NULL; if the file at
 *		@path now has another one, it is not used for symbols
 * @build_id_size: bytes of @build_id, 0..20
 *
 * Context: user space, reads @path.  O(number of mappings).
 * Return: 0, -EINVAL for an empty range, -ENOMEM.
 */
int dw_maps_add(struct dw_maps *m, uint64_t start, uint64_t end, uint64_t pgoff, const char *path,
		const unsigned char *build_id, size_t build_id_size)
{
	struct dw_map nm = { .start = start, .end = end, .offset = pgoff };
	size_t i, j, at;

	if (start >= end || build_id_size > 20)
		return -EINVAL;
	if (path && path[0] == '/') {
		nm.elf = elf_get(m, 0, path);
		if (!nm.elf)
			return -ENOMEM;
		nm.path = nm.elf->path;
		if (build_id_size && nm.elf->nr_syms &&
		    (nm.elf->build_id_size != build_id_size ||
		     memcmp(nm.elf->build_id, build_id, build_id_size)))
			nm.stale = 1;
	}
	/* At most one old mapping is split in two: room for two more. */
	if (maps_reserve(m, 2))
		return -ENOMEM;
	for (i = 0; i < m->nr_maps; i++) {
		struct dw_map *o = &m->maps[i];

		if (o->start < start && o->end > end) {
			/* @nm lies inside @o, which overlaps nothing else. */
			struct dw_map right = *o;

			right.offset += end - o->start;
			right.start = end;
			o->end = start;
			memmove(&m->maps[i + 3], &m->maps[i + 1],
				(m->nr_maps - i - 1) * sizeof(nm));
			m->maps[i + 1] = nm;
			m->maps[i + 2] = right;
			m->nr_maps += 2;
			return 0;
		}
	}
	for (i = 0, j = 0; i < m->nr_maps; i++) {
		struct dw_map o = m->maps[i];

		if (o.end <= start || o.start >= end) {
			m->maps[j++] = o;
		} else if (o.start < start) {
			o.end = start;
			m->maps[j++] = o;
		} else if (o.end > end) {
			o.offset += end - o.start;
			o.start = end;
			m->maps[j++] = o;
		}
		/* else: entirely covered, dropped */
	}
	m->nr_maps = j;
	for (at = 0; at < m->nr_maps && m->maps[at].start < start; at++)
		;
	memmove(&m->maps[at + 1], &m->maps[at], (m->nr_maps - at) * sizeof(nm));
	m->maps[at] = nm;
	m->nr_maps++;
	return 0;
}

/**
 * dw_maps_lookup() - the function containing @addr
 * @m:		snapshot from dw_maps_load()
 * @addr:	user address
 * @off:	set to @addr's offset in the function (if not NULL)
 * @dso:	set to the mapped file's path when a file mapping covers @addr,
 *		even if no symbol does; else NULL (if not NULL)
 *
 * Context: user space; O(log n).
 * Return: the function's name, valid until dw_maps_free(); NULL if no
 * mapping or symbol covers @addr.
 */
const char *dw_maps_lookup(const struct dw_maps *m, uint64_t addr, uint64_t *off,
			   const char **dso)
{
	const struct dw_map *map = NULL;
	const struct dw_elf *e;
	size_t lo = 0, hi = m->nr_maps, i;
	uint64_t foff, vaddr = 0;
	int found = 0;

	if (dso)
		*dso = NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= m->maps[lo - 1].end)
		return NULL;
	map = &m->maps[lo - 1];
	if (dso)
		*dso = map->path;
	e = map->elf;
	if (!e || !e->nr_syms || map->stale)
		return NULL;
	foff = addr - map->start + map->offset;
	for (i = 0; i < e->nr_loads; i++) {
		const struct dw_load *l = &e->loads[i];

		if (foff >= l->offset && foff - l->offset < l->filesz) {
			vaddr = foff - l->offset + l->vaddr;
			found = 1;
			break;
		}
	}
	if (!found)
		return NULL;
	lo = 0;
	hi = e->nr_syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->syms[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	i = lo - 1;
	if (e->syms[i].size && vaddr - e->syms[i].addr >= e->syms[i].size)
		return NULL;
	if (off)
		*off = vaddr - e->syms[i].addr;
	return e->names + e->syms[i].name;
}

/**
 * dw_maps_free() - free a snapshot
 * @m:		snapshot or NULL
 *
 * Context: user space.
 */
void dw_maps_free(struct dw_maps *m)
{
	struct dw_elf *e, *next;

	if (!m)
		return;
	for (e = m->elves; e; e = next) {
		next = e->next;
		free(e->path);
		free(e->syms);
		free(e->names);
		free(e->loads);
		free(e);
	}
	free(m->maps);
	free(m);
}
