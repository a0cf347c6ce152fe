/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the profile model (profile.c): what its parts share.  The
 * profile's strings, functions and mappings are interned (prof_intern.c),
 * its locations resolved on first sight (locations.c), processes without
 * MMAP records stood in for by the running ones (live.c).
 */
#ifndef DW_PROFILE_PRIV_H
#define DW_PROFILE_PRIV_H

#include "symbols/procs.h"
#include "analyze/profile.h"
#include "capture/pysnap.h"
#include "capture/usnap.h"
#include "symbols/kallsyms.h"
#include "util/array.h"
#include "util/htab.h"
#include "util/maps.h"

/* Room for one more element at index @n of @arr (capacity @cap). 0 or -ENOMEM. */
#define PROF_GROW(arr, cap, n)	DW_ARRAY_RESERVE(arr, cap, (n) + 1, 256)

struct live_proc {
	struct live_proc *next;
	int pid;
	char comm[32];
	struct dw_maps *maps;
};

struct unnamed_file;

/* What a location's address is; a return address is looked up one byte back. */
enum loc_kind {
	LOC_USER,			/* user address, as sampled */
	LOC_USER_RET,			/* user return address */
	LOC_KERNEL,			/* kernel address, as sampled */
	LOC_KERNEL_RET,			/* kernel return address */
	LOC_STOP,			/* marker: the stack stops here, ip = the reason */
	LOC_WALK,			/* marker: dunwind's own stack walk */
	LOC_PY,				/* a Python frame: ip = its code object */
	LOC_PY_STOP,			/* marker: a Python chain cut, ip = LOC_PY_STOP_* */
};

/* LOC_PY_STOP's ip: enum dunwind_interp_stop, or one of these. */
#define LOC_PY_STOP_ENTRY	0x100	/* a tagged entry without its code, or of a kind unknown */

struct loc_key {
	const void *image;		/* process image, LOC_PY: its code object's record
				 * (dw_pysnap_find()), or NULL (kernel, markers) */
	uint64_t ip;
	__u32 pid;
	__s32 insn;			/* LOC_PY: the instruction's byte offset */
	enum loc_kind kind;
};

struct prof_priv {
	char **strs;
	size_t nr_strs, cap_strs;
	struct dw_htab str_ht, func_ht, loc_ht, map_ht;
	struct loc_key *loc_keys;	/* beside p->locs, by index */
	size_t cap_loc_keys;
	size_t cap_samples, cap_stack, cap_locs, cap_lines, cap_funcs, cap_maps;

	const struct dw_prof_opts *o;
	struct dw_dso_cache *dsos;	/* the files read, and where (--symfs, --debug-dir) */
	struct dw_procs *model;
	struct dw_kallsyms *ksyms;
	struct live_proc *live;
	struct dw_symctx *syms;		/* the user symbolizers' state (locations.c) */
	struct dw_usnap *usnap;		/* the capture's user symbols, or NULL */
	struct dw_pysnap pysnap;	/* the capture's Python code objects */
	struct unnamed_file *unnamed;
	int other_boot;
	unsigned long long lost_stacks;
	unsigned int dso_flags;
	int err;
};

/* prof_intern.c: each returns NULL/-1/0 with pp->err = -ENOMEM when out of memory. */
const char *prof_intern(struct dw_prof *p, const char *s);
const char *prof_intern_sym(struct dw_prof *p, const char *raw);
__attribute__((format(printf, 2, 3)))
const char *prof_internf(struct dw_prof *p, const char *fmt, ...);
long prof_func_get(struct dw_prof *p, const char *name, const char *dso, const char *file);
long prof_func_get_at(struct dw_prof *p, const char *name, const char *dso, const char *file,
		      int start_line);
uint32_t prof_mapping_get(struct dw_prof *p, const struct dw_prof_mapping *m);
int prof_add_line(struct dw_prof *p, long func, int line);
void prof_intern_free(struct prof_priv *pp);

/* locations.c */
struct dw_symbolizer;
extern const struct dw_symbolizer *const prof_user_symbolizers[];
int prof_push_loc(struct dw_prof *p, const struct loc_key *k, __u64 time, struct dw_maps *live);
unsigned int prof_push_user(struct dw_prof *p, const struct dunwind_rec_user_stack *u,
			    unsigned int i, const void *image, struct dw_maps *live);
void prof_warn_unnamed(const struct dw_prof *p);
void prof_locations_free(struct prof_priv *pp);

/* live.c */
struct live_proc *prof_live_get(struct dw_prof *p, int pid);
void prof_live_free(struct prof_priv *pp);

#endif
