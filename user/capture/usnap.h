/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User symbol snapshot stored in a capture: for every user address the
 * capture holds, the function that contains it (name, start, size) and,
 * where debug info was at hand, its source line and inline chain, per
 * mapped file (by build-id), as the files were at record time; JIT code
 * from perf maps per process.  Reports use it when the file they find is
 * not the recorded one (or none is found).  Deflated text chunks
 * (capture/zchunk.h) of type DW_REC_USYMS; Documentation/capture.rst
 * describes the text.
 */
#ifndef DW_USNAP_H
#define DW_USNAP_H

#include <stddef.h>
#include <stdint.h>
#include <linux/dunwind.h>

#include "capture/capture.h"
#include "capture/dispatch.h"
#include "capture/zchunk.h"
#include "symbols/dso.h"

/* A capture-only record type (the recorder's own, as DW_REC_KSYMS). */
#define DW_REC_USYMS		65
/* Its one kind: the text of Documentation/capture.rst. */
#define DW_USYMS_TEXT		1

/* Writer: collect what the ring gives, then write the snapshot. */
struct dw_usnap_writer;

/*
 * struct dw_usnap_stats - what a snapshot holds.
 * @files:	mapped files (and processes with JIT code) with an entry.
 * @funcs:	functions named (or FDE ranges), @lines: source frames.
 * @addrs:	distinct user addresses looked up, @unnamed: of which
 *		nothing was found for.
 * @via_map_files: mapped files read through /proc/PID/map_files (their
 *		path was gone or named another file).
 * @not_found:	mapped files with a build-id that could be read nowhere
 *		(the process was gone, or the file replaced and map_files not
 *		readable); @first_not_found names one.
 * @bytes:	bytes the records take in the capture.
 * @ms:		time it took.
 */
struct dw_usnap_stats {
	unsigned long files, funcs, lines, addrs, unnamed;
	unsigned long via_map_files, not_found;
	char first_not_found[256];
	unsigned long long bytes;
	long long ms;
};

struct dw_usnap_writer *dw_usnap_writer_new(struct dw_dso_cache *dsos);
int dw_usnap_collect(struct dw_usnap_writer *c, const struct dunwind_rec_header *rec);
/* Its callbacks, @arg the collector, for readers that dispatch records themselves. */
extern const struct dw_rec_ops dw_usnap_collect_ops;
int dw_usnap_write(struct dw_usnap_writer *c, struct dw_capture_writer *w,
		   struct dw_usnap_stats *st);
void dw_usnap_writer_free(struct dw_usnap_writer *c);

/* Reader. */
struct dw_usnap;

struct dw_usnap *dw_usnap_new(void);
int dw_usnap_add(struct dw_usnap *u, const struct dunwind_rec_header *rec);
int dw_usnap_load(struct dw_usnap *u);
/* Why dw_usnap_load() failed with @err (errno, either sign), in words. */
const char *dw_usnap_strerror(int err);
int dw_usnap_lookup(const struct dw_usnap *u, const unsigned char *build_id, size_t build_id_size,
		    const char *path, uint64_t foff, struct dw_symres *res);
int dw_usnap_lookup_jit(const struct dw_usnap *u, __u32 pid, uint64_t addr,
			struct dw_symres *res);
void dw_usnap_free(struct dw_usnap *u);

/* Its symbolizers (usnap_symbolizer.c): the recorded files, the recorded perf maps. */
struct dw_symbolizer;
extern const struct dw_symbolizer dw_sym_snapshot, dw_sym_snapshot_jit;

#endif
