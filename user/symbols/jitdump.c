// SPDX-License-Identifier: GPL-2.0
/*
 * perf's jitdump format, as a runtime writes it (jit-PID.dump): a header
 *	u32 magic 0x4A695444 ("JiTD" in the writer's byte order), version,
 *	    header size, ELF machine, pad, pid; u64 time stamp, flags
 * then records, each
 *	u32 id, record size (header included); u64 time stamp
 * and a body by id:
 *	CODE_LOAD (0)	u32 pid, tid; u64 vma, code address, code size,
 *			code index; the name, NUL-terminated; the code bytes
 *	CODE_MOVE (1)	u32 pid, tid; u64 vma, old address, new address,
 *			code size, code index
 *	CODE_DEBUG_INFO (2), CODE_UNWINDING_INFO (4), others: skipped whole
 *	CODE_CLOSE (3)	the end
 *
 * Records are kept with their time stamps: an address is named after the
 * code loaded there last before the time asked about and not moved away
 * since, so code freed and its memory reused is not named after its old
 * occupant.
 *
 * The file belongs to the process's user and the recorder may run as root:
 * it is opened as perf maps are (owned_file.c), read up to
 * DW_JITDUMP_MAX_BYTES and DW_JITDUMP_MAX_RECS records, names cut at
 * DW_JITDUMP_MAX_NAME, each record's size checked against its body and the
 * file; a message names the file and what it broke.  A file of the other
 * byte order is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/jitdump.h"
#include "symbols/owned_file.h"
#include "util/array.h"
#include "util/log.h"
#include "util/search.h"
#include "util/text.h"

#define JD_MAGIC	0x4A695444U
#define JD_MAGIC_SWAP	0x4454694AU
#define JD_HEADER	40		/* the header's size in version 1 */
#define JD_REC		16		/* a record's header */
#define JD_LOAD		0
#define JD_MOVE		1
#define JD_CLOSE	3
#define JD_LOAD_BODY	40		/* CODE_LOAD before its name */
#define JD_MOVE_BODY	48
#define JD_MAX_CODE	(256ULL << 20)	/* larger code sizes are malformed */

struct jd_ent {
	uint64_t start, size;
	uint64_t load, end;		/* [load, end): its time there */
	uint64_t index;			/* the runtime's code index */
	char *name;
};

/* A CODE_MOVE, applied once every load is read. */
struct jd_move {
	uint64_t time, from, to, index;
};

struct dw_jitdump {
	struct jd_ent *ents;		/* by start once read */
	size_t nr, cap;
	uint64_t max_size;		/* the largest entry: how far back a lookup looks */
	int arch_time;			/* time stamps of the CPU's counter, not CLOCK_MONOTONIC */
};

/* The file being read, and where. */
struct jd_reader {
	struct dw_jitdump *j;
	struct jd_move *moves;
	size_t nr_moves, cap_moves;
	FILE *f;
	const char *path;
	size_t bytes, recs;
};

static size_t max_bytes = DW_JITDUMP_MAX_BYTES, max_recs = DW_JITDUMP_MAX_RECS;

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Read @n bytes, or say the file ends early.  0 or -EBADMSG. */
static int jd_read(struct jd_reader *r, void *buf, size_t n)
{
	if (fread(buf, 1, n, r->f) != n)
		return -EBADMSG;
	r->bytes += n;
	return 0;
}

/* Skip @n bytes of a record.  0 or -EBADMSG (the file ends first). */
static int jd_skip(struct jd_reader *r, uint64_t n)
{
	unsigned char buf[4096];

	while (n) {
		size_t k = n < sizeof(buf) ? (size_t)n : sizeof(buf);

		if (jd_read(r, buf, k))
			return -EBADMSG;
		n -= k;
	}
	return 0;
}

static int jd_add(struct dw_jitdump *j, const struct jd_ent *e)
{
	if (DW_ARRAY_RESERVE(j->ents, j->cap, j->nr + 1, 256))
		return -ENOMEM;
	j->ents[j->nr] = *e;
	j->ents[j->nr].name = strdup(e->name);
	if (!j->ents[j->nr].name)
		return -ENOMEM;
	if (e->size > j->max_size)
		j->max_size = e->size;
	j->nr++;
	return 0;
}

/* A CODE_LOAD's body (@len bytes after the record header).  0, -ENOMEM, -EBADMSG. */
static int jd_load(struct jd_reader *r, uint64_t time, uint64_t len)
{
	unsigned char body[JD_LOAD_BODY + DW_JITDUMP_MAX_NAME + 1];
	size_t n = len < sizeof(body) ? (size_t)len : sizeof(body) - 1;
	struct jd_ent e = { .load = time, .end = DW_JITDUMP_LATEST };
	int err;

	if (len < JD_LOAD_BODY + 1)
		return -EBADMSG;
	if (jd_read(r, body, n))
		return -EBADMSG;
	body[n] = '\0';
	e.start = get64(body + 16);
	e.size = get64(body + 24);
	e.index = get64(body + 32);
	e.name = (char *)body + JD_LOAD_BODY;
	/* Sizes that wrap or cannot be code: the record is skipped. */
	if (e.size && e.size <= JD_MAX_CODE && e.start + e.size > e.start && *e.name) {
		err = jd_add(r->j, &e);
		if (err)
			return err;
	}
	return jd_skip(r, len - n);
}

/* A CODE_MOVE's body, kept for later.  0, -ENOMEM, -EBADMSG. */
static int jd_move(struct jd_reader *r, uint64_t time, uint64_t len)
{
	unsigned char body[JD_MOVE_BODY];
	struct jd_move *m;

	if (len < JD_MOVE_BODY || jd_read(r, body, sizeof(body)))
		return -EBADMSG;
	if (DW_ARRAY_RESERVE(r->moves, r->cap_moves, r->nr_moves + 1, 64))
		return -ENOMEM;
	m = &r->moves[r->nr_moves++];
	m->time = time;
	m->from = get64(body + 16);
	m->to = get64(body + 24);
	m->index = get64(body + 40);
	return jd_skip(r, len - JD_MOVE_BODY);
}

/* The header.  0, or -EBADMSG with a message. */
static int jd_header(struct jd_reader *r)
{
	unsigned char h[JD_HEADER];
	uint32_t size;

	if (jd_read(r, h, sizeof(h))) {
		dw_warn("%s: shorter than a jitdump header: its JIT symbols are not read\n",
			r->path);
		return -EBADMSG;
	}
	if (get32(h) != JD_MAGIC) {
		dw_warn("%s: %s: its JIT symbols are not read\n", r->path,
			get32(h) == JD_MAGIC_SWAP ? "a jitdump of the other byte order" :
			"not a jitdump (no JiTD magic)");
		return -EBADMSG;
	}
	/* JITDUMP_FLAGS_ARCH_TIMESTAMP: no time of ours to compare with. */
	r->j->arch_time = get64(h + 32) & 1;
	size = get32(h + 8);
	if (size < JD_HEADER || size > 4096 || jd_skip(r, size - JD_HEADER)) {
		dw_warn("%s: a jitdump header of %u bytes: its JIT symbols are not read\n",
			r->path, size);
		return -EBADMSG;
	}
	return 0;
}

/* One record.  1: the end (CODE_CLOSE, the file's end, a bound); 0; -errno. */
static int jd_record(struct jd_reader *r)
{
	unsigned char h[JD_REC];
	uint64_t len, time;
	uint32_t id;
	size_t n = fread(h, 1, sizeof(h), r->f);
	int err;

	if (!n)
		return 1;
	if (n != sizeof(h))
		return -EBADMSG;
	r->bytes += n;
	id = get32(h);
	len = get32(h + 4);
	time = get64(h + 8);
	if (len < JD_REC || r->bytes > max_bytes || len - JD_REC > max_bytes - r->bytes)
		return -EBADMSG;
	if (++r->recs > max_recs) {
		dw_warn("%s: more than %zu records: its JIT symbols are read up to there\n",
			r->path, max_recs);
		return 1;
	}
	len -= JD_REC;
	if (id == JD_CLOSE)
		return 1;
	if (id == JD_LOAD)
		err = jd_load(r, time, len);
	else if (id == JD_MOVE)
		err = jd_move(r, time, len);
	else
		err = jd_skip(r, len);
	return err;
}

static int ent_cmp_index(const void *a, const void *b)
{
	const struct jd_ent *x = a, *y = b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->load < y->load ? -1 : x->load > y->load;
}

static int ent_cmp_start(const void *a, const void *b)
{
	const struct jd_ent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->load < y->load ? -1 : x->load > y->load;
}

/*
 * Apply the moves: the code of that index loaded last before the move, at
 * the old address, ends there and starts again at the new one.
 */
static int jd_apply_moves(struct jd_reader *r)
{
	struct dw_jitdump *j = r->j;
	size_t i, k, nr = j->nr;
	int err;

	if (!r->nr_moves || !nr)
		return 0;
	qsort(j->ents, nr, sizeof(*j->ents), ent_cmp_index);
	for (i = 0; i < r->nr_moves; i++) {
		const struct jd_move *m = &r->moves[i];
		struct jd_ent *hit = NULL, moved;
		size_t lo = 0, hi = nr;

		while (lo < hi) {	/* the first entry of an index > m->index */
			size_t mid = lo + (hi - lo) / 2;

			if (j->ents[mid].index <= m->index)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k-- > 0 && j->ents[k].index == m->index;)
			if (j->ents[k].load <= m->time && j->ents[k].start == m->from) {
				hit = &j->ents[k];
				break;
			}
		if (!hit || m->to + hit->size < m->to || hit->end <= m->time)
			continue;
		hit->end = m->time;
		moved = *hit;
		moved.start = m->to;
		moved.load = m->time;
		moved.end = DW_JITDUMP_LATEST;
		err = jd_add(j, &moved);	/* past nr: not searched again */
		if (err)
			return err;
	}
	return 0;
}

/* Read @f (closed here; NULL: errno says why). */
static struct dw_jitdump *jd_read_file(FILE *f, const char *path)
{
	struct jd_reader r = { .f = f, .path = path };
	int err;

	if (!f)
		return NULL;
	r.j = calloc(1, sizeof(*r.j));
	if (!r.j) {
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	err = jd_header(&r);
	if (!err) {
		while (!err)
			err = jd_record(&r);
		if (err == -EBADMSG) {
			dw_warn("%s: a malformed or cut record (or past %zu bytes) at byte %zu: its JIT symbols are read up to there\n",
				path, max_bytes, r.bytes);
			err = 1;
		}
	}
	if (err == 1)
		err = jd_apply_moves(&r);
	fclose(f);
	free(r.moves);
	if (err) {
		dw_jitdump_free(r.j);
		errno = err == -ENOMEM ? ENOMEM : EINVAL;
		return NULL;
	}
	if (r.j->nr)
		qsort(r.j->ents, r.j->nr, sizeof(*r.j->ents), ent_cmp_start);
	return r.j;
}

/**
 * dw_jitdump_load() - read a jitdump file
 * @path:	e.g. /tmp/jit-1234.dump
 *
 * Only a regular file that root or the user of process 1234 owns is read
 * (ours when there is no such process), not a link, FIFO or device.
 *
 * Context: user space, blocking I/O.  Records after a malformed one are
 * left, with a message.
 * Return: the code it names, or NULL with errno set (from open(), EPERM:
 * refused, EINVAL: no jitdump header, ENOMEM).
 */
struct dw_jitdump *dw_jitdump_load(const char *path)
{
	return jd_read_file(dw_owned_fopen(path, dw_owned_uid(path, "jit-%u.dump%n"), max_bytes,
					   "JIT symbols"), path);
}

/**
 * dw_jitdump_parse() - read a jitdump held in memory
 * @data:	its bytes
 * @len:	their number, > 0
 *
 * Context: user space.
 * Return: as dw_jitdump_load().
 */
struct dw_jitdump *dw_jitdump_parse(const void *data, size_t len)
{
	return jd_read_file(dw_text_open(data, len, EINVAL), "(jitdump in memory)");
}

/**
 * dw_jitdump_set_bounds() - change what is read of one file
 * @bytes:	bytes (0: DW_JITDUMP_MAX_BYTES)
 * @recs:	records (0: DW_JITDUMP_MAX_RECS)
 *
 * Context: user space, before any load (tests use smaller bounds).
 */
void dw_jitdump_set_bounds(size_t bytes, size_t recs)
{
	max_bytes = bytes ? bytes : DW_JITDUMP_MAX_BYTES;
	max_recs = recs ? recs : DW_JITDUMP_MAX_RECS;
}

/**
 * dw_jitdump_lookup() - the code that held @addr at @time
 * @j:		jitdump
 * @addr:	user address
 * @time:	the time asked about (CLOCK_MONOTONIC ns, as the file's time
 *		stamps unless it says they are the CPU's counter: then the
 *		last occupant is named), or DW_JITDUMP_LATEST for the last
 *		occupant
 * @start:	set to the code's start (if not NULL)
 * @size:	set to its size (if not NULL)
 *
 * Context: user space; a binary search, then the entries that start less
 * than the largest code size before @addr.
 * Return: the name (valid until dw_jitdump_free()), or NULL.
 */
const char *dw_jitdump_lookup(const struct dw_jitdump *j, uint64_t addr, uint64_t time,
			      uint64_t *start, uint64_t *size)
{
	size_t i = DW_UPPER_BOUND(j->ents, j->nr, start, addr);
	const struct jd_ent *best = NULL;

	if (j->arch_time)
		time = DW_JITDUMP_LATEST;
	while (i-- > 0 && addr - j->ents[i].start < j->max_size) {
		const struct jd_ent *e = &j->ents[i];

		if (addr - e->start >= e->size || e->load > time)
			continue;
		if (!best || e->load > best->load)
			best = e;
	}
	/* Its last occupant before @time moved away (or was replaced) since. */
	if (!best || (time != DW_JITDUMP_LATEST && best->end <= time) ||
	    (time == DW_JITDUMP_LATEST && best->end != DW_JITDUMP_LATEST))
		return NULL;
	if (start)
		*start = best->start;
	if (size)
		*size = best->size;
	return best->name;
}

/**
 * dw_jitdump_count() - how many code ranges a jitdump names
 * @j:		jitdump
 *
 * Context: user space.
 * Return: the number (a moved code counts at each place).
 */
size_t dw_jitdump_count(const struct dw_jitdump *j)
{
	return j->nr;
}

/**
 * dw_jitdump_free() - free a jitdump
 * @j:		jitdump or NULL
 *
 * Context: user space.
 */
void dw_jitdump_free(struct dw_jitdump *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; i < j->nr; i++)
		free(j->ents[i].name);
	free(j->ents);
	free(j);
}
