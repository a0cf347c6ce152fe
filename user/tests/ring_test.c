// SPDX-License-Identifier: GPL-2.0
/*
 * dw_session_drain() against a ring built in memory, with this file
 * playing the module's part of the protocol (reserve, publish the head,
 * fill, publish the type): order, wrapped records, BUSY records, a real
 * concurrent producer, and hostile heads, tails and sizes.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "tap.h"
#include "mkrec.h"
#include "capture/ring.h"

#define PAGE	4096

struct fake_ring {
	void *map;
	size_t len;
	struct dunwind_ring_ctrl *ctrl;
	unsigned char *data;
	__u64 size, head;
};

static void ring_init(struct fake_ring *f, __u64 data_size)
{
	f->len = PAGE + data_size;
	f->map = malloc(f->len);	/* exact size: ASan sees any overrun */
	memset(f->map, 0, f->len);
	f->ctrl = f->map;
	f->data = (unsigned char *)f->map + PAGE;
	f->size = data_size;
	f->head = 0;
	f->ctrl->size = sizeof(*f->ctrl);
	f->ctrl->version = DUNWIND_ABI_VERSION;
	f->ctrl->data_offset = PAGE;
	f->ctrl->data_size = data_size;
}

/* Start the ring (and the consumer's view of it) at byte position @pos. */
static void ring_seek(struct fake_ring *f, __u64 pos)
{
	f->head = pos;
	f->ctrl->data_head = pos;
	f->ctrl->data_tail = pos;
}

static void ring_write(struct fake_ring *f, __u64 pos, const void *src, __u64 len)
{
	__u64 off = pos & (f->size - 1), first = f->size - off;

	if (first >= len) {
		memcpy(f->data + off, src, len);
	} else {
		memcpy(f->data + off, src, first);
		memcpy(f->data, (const unsigned char *)src + first, len - first);
	}
}

/* The module's reserve: header with type BUSY, then publish the head. -1: full. */
static long long prod_reserve(struct fake_ring *f, __u16 size)
{
	__u64 tail = __atomic_load_n(&f->ctrl->data_tail, __ATOMIC_ACQUIRE);
	struct dunwind_rec_header h = { .type = DUNWIND_REC_BUSY, .size = size };
	__u64 pos = f->head;

	if (f->head + size - tail > f->size)
		return -1;
	ring_write(f, pos, &h, sizeof(h));
	f->head += size;
	__atomic_store_n(&f->ctrl->data_head, f->head, __ATOMIC_RELEASE);
	return (long long)pos;
}

/* Fill the reserved record, then publish its type. */
static void prod_commit(struct fake_ring *f, __u64 pos, const struct dunwind_rec_header *rec)
{
	struct dunwind_rec_header *h = (void *)(f->data + (pos & (f->size - 1)));

	ring_write(f, pos + 4, (const unsigned char *)rec + 4, rec->size - 4u);
	__atomic_store_n(&h->type, rec->type, __ATOMIC_RELEASE);
}

static int produce(struct fake_ring *f, const struct dunwind_rec_header *rec)
{
	long long pos = prod_reserve(f, rec->size);

	if (pos < 0)
		return -1;
	prod_commit(f, (__u64)pos, rec);
	return 0;
}

/* Record number @seq of a test stream: its contents derive from @seq. */
static const struct dunwind_rec_header *mk_seq(union rec_buf *b, __u64 seq)
{
	if (seq % 3 == 2)
		return mk_stack(b, seq, 10, 11, (__u32)(seq % 13), seq << 12, DUNWIND_STOP_END);
	return mk_sample(b, seq, seq * 10, 10, 11, (__u32)(seq % 7), seq << 12);
}

/* Does @rec carry exactly what mk_seq(@seq) built? */
static int is_seq(const struct dunwind_rec_header *rec, __u64 seq)
{
	static union rec_buf want;
	const struct dunwind_rec_header *w = mk_seq(&want, seq);

	return rec->size == w->size && !memcmp(rec, w, w->size);
}

struct seen {
	__u64 next;		/* next expected sequence number */
	__u64 count;
	int bad;
	int stop_after;		/* fn returns 42 after this many (0: never) */
};

static int check_seq(const struct dunwind_rec_header *rec, void *arg)
{
	struct seen *s = arg;

	if (!is_seq(rec, s->next))
		s->bad++;
	s->next++;
	s->count++;
	if (s->stop_after && s->count == (__u64)s->stop_after)
		return 42;
	return 0;
}

static int count_fn(const struct dunwind_rec_header *rec, void *arg)
{
	struct seen *s = arg;

	if (dunwind_rec_check(rec, rec->size))
		s->bad++;
	s->count++;
	return 0;
}

static void test_attach(void)
{
	struct fake_ring f;
	struct dw_session s = { .fd = -1 };

	ring_init(&f, 1024);
	ok(dw_session_attach(&s, f.map, f.len) == 0 && s.data == f.data && s.data_size == 1024,
	   "attach to a sound control page");
	dw_session_close(&s);
	s.fd = -1;
	f.ctrl->version = 2;
	ok(dw_session_attach(&s, f.map, f.len) == -EPROTO, "attach refuses another ABI version");
	f.ctrl->version = DUNWIND_ABI_VERSION;
	f.ctrl->data_size = 1000;
	ok(dw_session_attach(&s, f.map, f.len) == -EPROTO,
	   "attach refuses a size not a power of 2");
	f.ctrl->data_size = 2048;
	ok(dw_session_attach(&s, f.map, f.len) == -EPROTO, "attach refuses data past the mapping");
	f.ctrl->data_size = 1024;
	f.ctrl->data_offset = 1ULL << 62;
	ok(dw_session_attach(&s, f.map, f.len) == -EPROTO, "attach refuses a huge data offset");
	f.ctrl->data_offset = 8;
	ok(dw_session_attach(&s, f.map, f.len) == -EPROTO,
	   "attach refuses data over the control page");
	ok(dw_session_attach(&s, f.map, 100) == -EPROTO, "attach refuses a mapping too small");
	free(f.map);
}

static void test_order_busy_wrap(void)
{
	struct fake_ring f;
	struct dw_session s = { .fd = -1 };
	union rec_buf b;
	struct seen seen = { 0 };
	long long a, c;
	int i, n, wrapped = 0;

	ring_init(&f, 512);
	dw_session_attach(&s, f.map, f.len);
	ok(dw_session_drain(&s, check_seq, &seen) == 0, "empty ring drains nothing");
	for (i = 0; i < 3; i++)
		produce(&f, mk_seq(&b, (__u64)i));
	n = dw_session_drain(&s, check_seq, &seen);
	ok(n == 3 && seen.bad == 0 && seen.next == 3, "three records, in order, intact");
	ok(f.ctrl->data_tail == f.head, "data_tail advanced to data_head");

	/* Two reserved records, the second committed first. */
	a = prod_reserve(&f, mk_seq(&b, 3)->size);
	c = prod_reserve(&f, mk_seq(&b, 4)->size);
	prod_commit(&f, (__u64)c, mk_seq(&b, 4));
	n = dw_session_drain(&s, check_seq, &seen);
	ok(n == 0 && f.ctrl->data_tail == (__u64)a, "a BUSY record stops the drain before it");
	prod_commit(&f, (__u64)a, mk_seq(&b, 3));
	n = dw_session_drain(&s, check_seq, &seen);
	ok(n == 2 && seen.bad == 0 && seen.next == 5, "once committed, both come in ring order");

	/* Records straddling the end of the data area, many times over. */
	for (i = 5; i < 5000; i++) {
		__u64 pos = f.head & (f.size - 1);

		if (produce(&f, mk_seq(&b, (__u64)i))) {
			if (dw_session_drain(&s, check_seq, &seen) <= 0)
				break;	/* a full ring that does not drain */
			i--;
			continue;
		}
		if (pos + b.hdr.size > f.size)
			wrapped++;
	}
	dw_session_drain(&s, check_seq, &seen);
	ok(seen.next == 5000 && seen.bad == 0, "5000 records through a 512-byte ring, intact");
	ok(wrapped > 100, "of which %d wrapped around the end of the data area", wrapped);

	/* A record that wraps exactly at the header/body boundary. */
	ring_seek(&f, (1ULL << 40) - 8);
	produce(&f, mk_seq(&b, 5000));
	n = dw_session_drain(&s, check_seq, &seen);
	ok(n == 1 && seen.bad == 0, "record wrapping right after its header, at a large position");

	/* fn stopping the drain. */
	for (i = 5001; i < 5004; i++)
		produce(&f, mk_seq(&b, (__u64)i));
	seen.stop_after = (int)seen.count + 2;
	n = dw_session_drain(&s, check_seq, &seen);
	ok(n == 42 && seen.next == 5003, "fn's non-zero return stops the drain and is returned");
	seen.stop_after = 0;
	n = dw_session_drain(&s, check_seq, &seen);
	ok(n == 1 && seen.next == 5004 && seen.bad == 0,
	   "the record fn stopped at was consumed, the rest follow");
	dw_session_close(&s);
	free(f.map);
}

static void test_hostile(void)
{
	struct fake_ring f;
	struct dw_session s = { .fd = -1 };
	struct seen seen = { 0 };
	union rec_buf b;
	struct dunwind_rec_header *h;
	__u64 tail;
	int i, n, bad_result = 0, bad_tail = 0, eproto = 0, good = 0;

	ring_init(&f, 1024);
	dw_session_attach(&s, f.map, f.len);

	produce(&f, mk_seq(&b, 0));
	f.ctrl->data_head = f.ctrl->data_tail + 1032;
	ok(dw_session_drain(&s, count_fn, &seen) == -EPROTO && seen.count == 0,
	   "head more than the ring size ahead of tail: -EPROTO");
	f.ctrl->data_head = f.ctrl->data_tail + 4;
	ok(dw_session_drain(&s, count_fn, &seen) == -EPROTO, "unaligned head: -EPROTO");
	f.ctrl->data_head = f.ctrl->data_tail - 8;
	ok(dw_session_drain(&s, count_fn, &seen) == -EPROTO, "head behind tail: -EPROTO");

	ring_seek(&f, 0);
	h = (void *)f.data;
	produce(&f, mk_seq(&b, 1));
	h->size = 0;
	ok(dw_session_drain(&s, count_fn, &seen) == -EPROTO && f.ctrl->data_tail == 0,
	   "record size 0: -EPROTO, tail kept before it");
	h->size = 12;
	ok(dw_session_drain(&s, count_fn, &seen) == -EPROTO, "record size not a multiple of 8");
	h->size = (__u16)(f.head + 8);
	h->type = 9;	/* a type the checks cannot fault on its contents */
	ok(dw_session_drain(&s, count_fn, &seen) == -EPROTO, "record size past data_head");
	h->type = DUNWIND_REC_SAMPLE;
	h->size = 0xfff8;
	ok(dw_session_drain(&s, count_fn, &seen) == -EPROTO, "record size past the ring");
	h->size = 64;
	((struct dunwind_rec_sample *)h)->nr_kernel = 5;
	ok(dw_session_drain(&s, count_fn, &seen) == -EPROTO && seen.count == 0,
	   "record whose counts disagree with its size: -EPROTO, not handed out");

	/* Random garbage between random positions: never crash or overrun. */
	srand(1);
	for (i = 0; i < 20000; i++) {
		__u64 span;
		size_t j;

		for (j = 0; j < f.size; j++)
			f.data[j] = (unsigned char)(rand() % 4 ? rand() : 0);
		if (i % 2) {
			/* plausible headers: small sizes, known types */
			for (j = 0; j < f.size; j += 8) {
				h = (void *)(f.data + j);
				h->type = (__u32)(rand() % 5);
				h->size = (__u16)(8 * (rand() % 20));
			}
		}
		tail = ((__u64)rand() << 20 | (__u64)rand()) * 8;
		span = i % 100 ? (__u64)(rand() % 129) * 8 : (__u64)rand();
		f.ctrl->data_tail = tail;
		f.ctrl->data_head = tail + span;
		seen.count = 0;
		n = dw_session_drain(&s, count_fn, &seen);
		if (n == -EPROTO)
			eproto++;
		else if (n >= 0 && (__u64)n == seen.count)
			good++;
		else
			bad_result++;
		if (f.ctrl->data_tail < tail || f.ctrl->data_tail > tail + span)
			bad_tail++;
	}
	ok(bad_result == 0 && seen.bad == 0,
	   "20000 garbage rings: only checked records handed out (%d drained, %d -EPROTO)",
	   good, eproto);
	ok(bad_tail == 0, "the tail never moved outside [tail, head]");
	dw_session_close(&s);
	free(f.map);
}

struct thread_arg {
	struct fake_ring *f;
	__u64 n;
	int abort;		/* the consumer gave up */
};

static void *producer(void *p)
{
	struct thread_arg *a = p;
	union rec_buf b;
	__u64 i;

	for (i = 0; i < a->n; i++) {
		const struct dunwind_rec_header *rec = mk_seq(&b, i);
		long long pos;

		while ((pos = prod_reserve(a->f, rec->size)) < 0) {
			if (__atomic_load_n(&a->abort, __ATOMIC_RELAXED))
				return NULL;
			sched_yield();
		}
		prod_commit(a->f, (__u64)pos, rec);
	}
	return NULL;
}

static void test_concurrent(void)
{
	struct fake_ring f;
	struct dw_session s = { .fd = -1 };
	struct seen seen = { 0 };
	struct thread_arg a = { .f = &f, .n = 200000 };
	pthread_t t;
	int err = 0, n;

	ring_init(&f, 4096);
	dw_session_attach(&s, f.map, f.len);
	if (pthread_create(&t, NULL, producer, &a)) {
		tap_skip("concurrent producer", "pthread_create failed");
		return;
	}
	while (seen.next < a.n && !err) {
		n = dw_session_drain(&s, check_seq, &seen);
		if (n < 0)
			err = n;
		else if (n == 0)
			sched_yield();
	}
	__atomic_store_n(&a.abort, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	ok(!err && seen.next == a.n && seen.bad == 0,
	   "200000 records from a concurrent producer: all in order and intact (err %d, bad %d)",
	   err, seen.bad);
	dw_session_close(&s);
	free(f.map);
}

int main(void)
{
	test_attach();
	test_order_busy_wrap();
	test_hostile();
	test_concurrent();
	return tap_done();
}
