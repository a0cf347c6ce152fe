// SPDX-License-Identifier: GPL-2.0
/*
 * pprof output: the profile encoded as a perftools.profiles.Profile
 * message (protobuf wire format, encoded here: varints and length-delimited
 * fields only) and gzipped with zlib.
 *
 * Samples carry two values, "samples"/"count" and "cpu"/"nanoseconds"
 * (the period), and labels as perf's converter (perf_data_converter)
 * names them: pid, tid, comm (the thread's name), event (in a profile
 * with off-CPU samples: the sampling event's name or "offcpu-time") and,
 * for a stack cut short, truncated (the reason).  Each location is one
 * address of a mapping (user file, [kernel.kallsyms] or a module) with
 * its lines, innermost inlined function first; a Python frame's is its
 * code object's address (no mapping) with one line: its Python function
 * (name: the qualname, filename: the source file, start_line: its first
 * line) and the frame's line.
 *
 * pprof takes the first mapping for the main binary ("File:" in its
 * reports): the mappings are written with the main executable's first,
 * the file most samples start in (their outermost user frame), shared
 * libraries only when no executable is found; each keeps its id.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "capture/event.h"
#include "output/pprof.h"
#include "util/array.h"

struct pb {
	unsigned char *b;
	size_t len, cap;
	int err;
};

static void pb_bytes(struct pb *pb, const void *data, size_t n)
{
	if (pb->err)
		return;
	if (DW_ARRAY_RESERVE(pb->b, pb->cap, pb->len + n, 4096)) {
		pb->err = -ENOMEM;
		return;
	}
	memcpy(pb->b + pb->len, data, n);
	pb->len += n;
}

static void pb_varint(struct pb *pb, uint64_t v)
{
	unsigned char buf[10];
	size_t n = 0;

	do {
		buf[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_bytes(pb, buf, n);
}

/* Field @field, wire type 0 (varint); zero values are left out (proto3). */
static void pb_uint(struct pb *pb, unsigned int field, uint64_t v)
{
	if (!v)
		return;
	pb_varint(pb, (uint64_t)field << 3);
	pb_varint(pb, v);
}

/* Field @field, wire type 2 (length-delimited): bytes, strings, messages, packed. */
static void pb_len(struct pb *pb, unsigned int field, const void *data, size_t n)
{
	pb_varint(pb, (uint64_t)field << 3 | 2);
	pb_varint(pb, n);
	pb_bytes(pb, data, n);
}

static void pb_msg(struct pb *pb, unsigned int field, struct pb *sub)
{
	if (sub->err)
		pb->err = sub->err;
	pb_len(pb, field, sub->b ? (const void *)sub->b : "", sub->len);
	sub->len = 0;
}

/* The string table: pointer -> index, with the strings in order. */
struct strtab {
	struct { const char *s; int64_t idx; } *slot;
	size_t cap, n;
	struct pb out;			/* field 6 entries, encoded as added */
};

static int64_t str_index(struct strtab *t, const char *s)
{
	uint64_t h;
	size_t i;

	if (!s || !*s)
		return 0;
	if ((t->n + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 1024, j;
		typeof(t->slot) ns = calloc(ncap, sizeof(*ns));

		if (!ns) {
			t->out.err = -ENOMEM;
			return 0;
		}
		for (j = 0; j < t->cap; j++) {
			if (!t->slot[j].s)
				continue;
			h = (uint64_t)(uintptr_t)t->slot[j].s * 0x9e3779b97f4a7c15ULL;
			for (i = (h >> 20) & (ncap - 1); ns[i].s; i = (i + 1) & (ncap - 1))
				;
			ns[i] = t->slot[j];
		}
		free(t->slot);
		t->slot = ns;
		t->cap = ncap;
	}
	h = (uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15ULL;
	for (i = (h >> 20) & (t->cap - 1); t->slot[i].s; i = (i + 1) & (t->cap - 1))
		if (t->slot[i].s == s)
			return t->slot[i].idx;
	t->slot[i].s = s;
	t->slot[i].idx = (int64_t)++t->n;
	pb_len(&t->out, 6, s, strlen(s));
	return t->slot[i].idx;
}

static void value_type(struct pb *pb, struct pb *sub, unsigned int field, struct strtab *st,
		       const char *type, const char *unit)
{
	pb_uint(sub, 1, (uint64_t)str_index(st, type));
	pb_uint(sub, 2, (uint64_t)str_index(st, unit));
	pb_msg(pb, field, sub);
}

static void label(struct pb *pb, struct pb *sub, struct strtab *st, const char *key,
		  const char *str, int64_t num)
{
	pb_uint(sub, 1, (uint64_t)str_index(st, key));
	if (str)
		pb_uint(sub, 2, (uint64_t)str_index(st, str));
	else
		pb_uint(sub, 3, (uint64_t)num);
	pb_msg(pb, 3, sub);
}

/* Write @data gzipped (or as is). 0, -ENOMEM or -EIO. */
static int write_out(FILE *f, const unsigned char *data, size_t len, int gzip)
{
	unsigned char buf[65536];
	z_stream z = { 0 };
	int zr;

	if (!gzip)
		return fwrite(data, 1, len, f) == len && !fflush(f) ? 0 : -EIO;
	if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR ||
		    fwrite(buf, 1, sizeof(buf) - z.avail_out, f) != sizeof(buf) - z.avail_out) {
			deflateEnd(&z);
			return -EIO;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* The message being built and its scratch buffers. */
struct pp {
	struct pb pb, sub, sub2, packed;
	struct strtab st;
	const char *event;		/* the "event" label's on-CPU value, or NULL: none */
};

/* A shared library's name: "lib*.so" or "*.so.N...". */
static int is_shared_lib(const char *file)
{
	const char *base = strrchr(file, '/'), *so;

	base = base ? base + 1 : file;
	so = strstr(base, ".so");
	return so && (so[3] == '\0' || so[3] == '.');
}

/*
 * The main binary's mapping (an index), for pprof's first place: the
 * user file most samples' outermost user frame is in, executables before
 * shared libraries; its lowest mapping.  -1 if no sample has a user frame.
 */
static long main_mapping(const struct dw_prof *p)
{
	unsigned long *votes = calloc(p->nr_mappings + 1, sizeof(*votes));
	unsigned long best = 0;
	long pick = -1;
	size_t i, j;
	int pass;

	if (!votes)
		return -1;
	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];

		for (j = s->nr; j-- > 0;) {
			const struct dw_prof_loc *l = &p->locs[p->stack[s->first + j]];

			if (!l->kernel && !l->marker && l->mapping) {
				votes[l->mapping - 1]++;
				break;
			}
		}
	}
	for (pass = 0; pass < 2 && pick < 0; pass++)
		for (i = 0; i < p->nr_mappings; i++) {
			const struct dw_prof_mapping *m = &p->mappings[i];

			if (!votes[i] || m->kernel || !m->file || m->file[0] == '[' ||
			    (!pass && is_shared_lib(m->file)) || votes[i] <= best)
				continue;
			best = votes[i];
			pick = (long)i;
		}
	for (i = 0; pick >= 0 && i < (size_t)pick; i++)
		if (p->mappings[i].file == p->mappings[pick].file &&
		    p->mappings[i].start < p->mappings[pick].start)
			pick = (long)i;
	free(votes);
	return pick;
}

/* Profile.sample (2): locations, values, pid/tid/thread/truncated labels. */
static void put_samples(struct pp *w, const struct dw_prof *p, uint64_t *first, uint64_t *last)
{
	size_t i, j;

	for (i = 0; i < p->nr_samples; i++) {
		const struct dw_prof_sample *s = &p->samples[i];

		for (j = 0; j < s->nr; j++)
			pb_varint(&w->packed, p->stack[s->first + j] + 1ULL);
		pb_len(&w->sub, 1, w->packed.b ? (const void *)w->packed.b : "", w->packed.len);
		w->packed.len = 0;
		pb_varint(&w->packed, 1);
		pb_varint(&w->packed, s->period);
		pb_len(&w->sub, 2, w->packed.b, w->packed.len);
		w->packed.len = 0;
		label(&w->sub, &w->sub2, &w->st, "pid", NULL, s->pid);
		label(&w->sub, &w->sub2, &w->st, "tid", NULL, s->tid);
		label(&w->sub, &w->sub2, &w->st, "comm", s->comm, 0);
		if (w->event)
			label(&w->sub, &w->sub2, &w->st, "event",
			      s->flags & DUNWIND_SAMPLE_OFF_CPU ? DW_EVENT_OFFCPU_NAME : w->event, 0);
		if (s->stop)
			label(&w->sub, &w->sub2, &w->st, "truncated", dw_prof_stop_name(s->stop), 0);
		pb_msg(&w->pb, 2, &w->sub);
		if (s->time < *first)
			*first = s->time;
		if (s->time > *last)
			*last = s->time;
	}
}

/* Profile.mapping (3), with the build-id as hex; the main binary's first. */
static void put_mappings(struct pp *w, const struct dw_prof *p, int inline_frames)
{
	long first = main_mapping(p);
	size_t k, i, j;

	for (k = 0; k < p->nr_mappings + (first >= 0); k++) {
		const struct dw_prof_mapping *m;
		char hex[41] = "";

		if (first < 0)
			i = k;
		else if (k == 0)
			i = (size_t)first;
		else if (k - 1 == (size_t)first)
			continue;
		else
			i = k - 1;
		m = &p->mappings[i];

		for (j = 0; j < m->build_id_size && j < 20; j++)
			sprintf(hex + 2 * j, "%02x", m->build_id[j]);
		pb_uint(&w->sub, 1, i + 1);
		pb_uint(&w->sub, 2, m->start);
		pb_uint(&w->sub, 3, m->end);
		pb_uint(&w->sub, 4, m->pgoff);
		pb_uint(&w->sub, 5, (uint64_t)str_index(&w->st, m->file));
		/* the hex text lives in @hex only now: intern a stable copy by content */
		if (hex[0]) {
			pb_uint(&w->sub, 6, (uint64_t)(w->st.n + 1));
			w->st.n++;
			pb_len(&w->st.out, 6, hex, strlen(hex));
		}
		pb_uint(&w->sub, 7, 1);
		pb_uint(&w->sub, 8, 1);
		pb_uint(&w->sub, 9, 1);
		pb_uint(&w->sub, 10, (uint64_t)!!inline_frames);
		pb_msg(&w->pb, 3, &w->sub);
	}
}

/*
 * Profile.location (4) with its lines, and Profile.function (5): those the
 * lines name.  A Python frame's line is its Python function's (qualname,
 * its file, start_line) at the frame's line: one function per Python
 * function, not the "qualname (file.py:LINE)" the text outputs print.
 * 0 or -ENOMEM.
 */
static int put_locations(struct pp *w, const struct dw_prof *p, int inline_frames)
{
	unsigned char *used = calloc(p->nr_funcs ? p->nr_funcs : 1, 1);
	size_t i, j;

	if (!used)
		return -ENOMEM;
	for (i = 0; i < p->nr_locs; i++) {
		const struct dw_prof_loc *l = &p->locs[i];

		pb_uint(&w->sub, 1, i + 1);
		pb_uint(&w->sub, 2, l->mapping);
		pb_uint(&w->sub, 3, l->ip);
		for (j = inline_frames ? 0 : l->nr_lines - 1; j < l->nr_lines; j++) {
			const struct dw_prof_line *ln = &p->lines[l->first_line + j];
			uint32_t fn = l->python ? l->py_func : ln->func;

			used[fn] = 1;
			pb_uint(&w->sub2, 1, fn + 1ULL);
			pb_uint(&w->sub2, 2, (uint64_t)(int64_t)ln->line);
			pb_msg(&w->sub, 4, &w->sub2);
		}
		pb_msg(&w->pb, 4, &w->sub);
	}
	for (i = 0; i < p->nr_funcs; i++) {
		const struct dw_prof_func *fn = &p->funcs[i];

		if (!used[i])
			continue;
		pb_uint(&w->sub, 1, i + 1);
		pb_uint(&w->sub, 2, (uint64_t)str_index(&w->st, fn->name));
		pb_uint(&w->sub, 3, (uint64_t)str_index(&w->st, fn->name));
		pb_uint(&w->sub, 4, (uint64_t)str_index(&w->st, fn->file ? fn->file : fn->dso));
		pb_uint(&w->sub, 5, (uint64_t)(int64_t)fn->start_line);
		pb_msg(&w->pb, 5, &w->sub);
	}
	free(used);
	return 0;
}

/**
 * dw_pprof_write() - write the profile in pprof's format
 * @f:		output
 * @p:		profile
 * @inline_frames: give locations their inlined functions (else one line)
 * @gzip:	gzip the message (what pprof expects); 0 for the raw message
 *
 * Context: user space.
 * Return: 0, -ENOMEM, or -EIO if writing failed.
 */
int dw_pprof_write(FILE *f, const struct dw_prof *p, int inline_frames, int gzip)
{
	int clock = p->hdr.event <= DUNWIND_EVENT_TASK_CLOCK;
	/* The period's unit: time for the clocks, counts for the hardware events. */
	const char *type = clock ? "cpu" : dw_event_name(p->hdr.event);
	const char *unit = clock ? "nanoseconds" : "count";
	struct pp w = { 0 };
	uint64_t first = UINT64_MAX, last = 0;
	size_t i;
	int err;

	for (i = 0; i < p->nr_samples && !w.event; i++)
		if (p->samples[i].flags & DUNWIND_SAMPLE_OFF_CPU)
			w.event = dw_event_name((int)p->hdr.event);
	pb_len(&w.st.out, 6, "", 0);	/* string_table[0] = "" */
	value_type(&w.pb, &w.sub, 1, &w.st, "samples", "count");
	value_type(&w.pb, &w.sub, 1, &w.st, type, unit);
	put_samples(&w, p, &first, &last);
	put_mappings(&w, p, inline_frames);
	if (put_locations(&w, p, inline_frames))
		w.pb.err = -ENOMEM;
	pb_uint(&w.pb, 9, p->hdr.created_realtime_ns);
	if (first <= last)
		pb_uint(&w.pb, 10, last - first);
	/* period_type and period: the sampling event's, as perf's converter sets them. */
	value_type(&w.pb, &w.sub, 11, &w.st, type, unit);
	pb_uint(&w.pb, 12, p->hdr.sample_period ? p->hdr.sample_period :
		clock && p->hdr.sample_freq ? 1000000000ULL / p->hdr.sample_freq : 0);
	pb_uint(&w.pb, 14, (uint64_t)str_index(&w.st, type));
	/* The string table goes last: it is complete only now. */
	pb_bytes(&w.pb, w.st.out.b, w.st.out.len);
	err = w.pb.err ? w.pb.err : w.sub.err ? w.sub.err : w.sub2.err ? w.sub2.err :
	      w.packed.err ? w.packed.err : w.st.out.err;
	if (!err)
		err = write_out(f, w.pb.b, w.pb.len, gzip);
	free(w.pb.b);
	free(w.sub.b);
	free(w.sub2.b);
	free(w.packed.b);
	free(w.st.out.b);
	free(w.st.slot);
	return err;
}
