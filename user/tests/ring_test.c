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

#include <string.h>

#include "kselftest_harness.h"
#include "mkrec.h"
#include "record/session.h"

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

/* A sound 1024-byte ring, not attached. */
FIXTURE(attach) {
	struct fake_ring f;
	struct dw_session s;
};

FIXTURE_SETUP(attach)
{
	ring_init(&self->f, 1024);
	self->s = (struct dw_session){ .fd = -1 };
}

FIXTURE_TEARDOWN(attach)
{
	free(self->f.map);
}

TEST_F(attach, a_sound_control_page)
{
	ASSERT_EQ(0, dw_session_attach(&self->s, self->f.map, self->f.len));
	EXPECT_EQ((void *)self->f.data, (void *)self->s.data);
	EXPECT_EQ(1024ull, self->s.data_size);
	dw_session_close(&self->s);
}

TEST_F(attach, refuses_another_abi_version)
{
	self->f.ctrl->version = 2;
	EXPECT_EQ(-EPROTO, dw_session_attach(&self->s, self->f.map, self->f.len));
}

TEST_F(attach, refuses_a_size_not_a_power_of_2)
{
	self->f.ctrl->data_size = 1000;
	EXPECT_EQ(-EPROTO, dw_session_attach(&self->s, self->f.map, self->f.len));
}

TEST_F(attach, refuses_data_past_the_mapping)
{
	self->f.ctrl->data_size = 2048;
	EXPECT_EQ(-EPROTO, dw_session_attach(&self->s, self->f.map, self->f.len));
}

TEST_F(attach, refuses_a_huge_data_offset)
{
	self->f.ctrl->data_offset = 1ULL << 62;
	EXPECT_EQ(-EPROTO, dw_session_attach(&self->s, self->f.map, self->f.len));
}

TEST_F(attach, refuses_data_over_the_control_page)
{
	self->f.ctrl->data_offset = 8;
	EXPECT_EQ(-EPROTO, dw_session_attach(&self->s, self->f.map, self->f.len));
}

TEST_F(attach, refuses_a_mapping_too_small)
{
	EXPECT_EQ(-EPROTO, dw_session_attach(&self->s, self->f.map, 100));
}

/* A 512-byte ring, attached, and what the consumer has seen. */
FIXTURE(ring) {
	struct fake_ring f;
	struct dw_session s;
	struct seen seen;
	union rec_buf b;
	long long a;		/* the BUSY record's position */
	int wrapped;
};

FIXTURE_SETUP(ring)
{
	ring_init(&self->f, 512);
	self->s = (struct dw_session){ .fd = -1 };
	memset(&self->seen, 0, sizeof(self->seen));
	ASSERT_EQ(0, dw_session_attach(&self->s, self->f.map, self->f.len));
}

FIXTURE_TEARDOWN(ring)
{
	dw_session_close(&self->s);
	free(self->f.map);
}

/* Records 0-2 produced and drained. */
static int three(FIXTURE_DATA(ring) *self)
{
	int i;

	for (i = 0; i < 3; i++)
		produce(&self->f, mk_seq(&self->b, (__u64)i));
	return dw_session_drain(&self->s, check_seq, &self->seen);
}

/* Then records 3 and 4 reserved, 4 committed first: 3 is BUSY. */
static int busy(FIXTURE_DATA(ring) *self)
{
	long long c;

	three(self);
	self->a = prod_reserve(&self->f, mk_seq(&self->b, 3)->size);
	c = prod_reserve(&self->f, mk_seq(&self->b, 4)->size);
	prod_commit(&self->f, (__u64)c, mk_seq(&self->b, 4));
	return dw_session_drain(&self->s, check_seq, &self->seen);
}

/* Then 3 committed and drained, and records 5-4999 straddling the end many times. */
static void wrap(FIXTURE_DATA(ring) *self)
{
	int i;

	busy(self);
	prod_commit(&self->f, (__u64)self->a, mk_seq(&self->b, 3));
	dw_session_drain(&self->s, check_seq, &self->seen);
	for (i = 5; i < 5000; i++) {
		__u64 pos = self->f.head & (self->f.size - 1);

		if (produce(&self->f, mk_seq(&self->b, (__u64)i))) {
			if (dw_session_drain(&self->s, check_seq, &self->seen) <= 0)
				break;	/* a full ring that does not drain */
			i--;
			continue;
		}
		if (pos + self->b.hdr.size > self->f.size)
			self->wrapped++;
	}
	dw_session_drain(&self->s, check_seq, &self->seen);
}

/* Then record 5000 wrapping right after its header, at a large position. */
static int wrap_at_header(FIXTURE_DATA(ring) *self)
{
	wrap(self);
	ring_seek(&self->f, (1ULL << 40) - 8);
	produce(&self->f, mk_seq(&self->b, 5000));
	return dw_session_drain(&self->s, check_seq, &self->seen);
}

/* Then records 5001-5003, fn stopping the drain after two. */
static int stopped(FIXTURE_DATA(ring) *self)
{
	int i;

	wrap_at_header(self);
	for (i = 5001; i < 5004; i++)
		produce(&self->f, mk_seq(&self->b, (__u64)i));
	self->seen.stop_after = (int)self->seen.count + 2;
	return dw_session_drain(&self->s, check_seq, &self->seen);
}

TEST_F(ring, an_empty_ring_drains_nothing)
{
	EXPECT_EQ(0, dw_session_drain(&self->s, check_seq, &self->seen));
}

TEST_F(ring, three_records_come_in_order_intact)
{
	EXPECT_EQ(3, three(self));
	EXPECT_EQ(0, self->seen.bad);
	EXPECT_EQ(3ull, self->seen.next);
}

TEST_F(ring, data_tail_advances_to_data_head)
{
	three(self);
	EXPECT_EQ(self->f.head, self->f.ctrl->data_tail);
}

TEST_F(ring, a_busy_record_stops_the_drain_before_it)
{
	EXPECT_EQ(0, busy(self));
	EXPECT_EQ((__u64)self->a, self->f.ctrl->data_tail);
}

TEST_F(ring, once_committed_both_come_in_ring_order)
{
	busy(self);
	prod_commit(&self->f, (__u64)self->a, mk_seq(&self->b, 3));
	EXPECT_EQ(2, dw_session_drain(&self->s, check_seq, &self->seen));
	EXPECT_EQ(0, self->seen.bad);
	EXPECT_EQ(5ull, self->seen.next);
}

TEST_F(ring, records_through_a_512_byte_ring_arrive_intact)
{
	wrap(self);
	EXPECT_EQ(5000ull, self->seen.next);
	EXPECT_EQ(0, self->seen.bad);
}

TEST_F(ring, many_of_them_wrap_around_the_end_of_the_data_area)
{
	wrap(self);
	EXPECT_GT(self->wrapped, 100);
}

TEST_F(ring, a_record_wrapping_right_after_its_header_at_a_large_position)
{
	EXPECT_EQ(1, wrap_at_header(self));
	EXPECT_EQ(0, self->seen.bad);
}

TEST_F(ring, fns_non_zero_return_stops_the_drain_and_is_returned)
{
	EXPECT_EQ(42, stopped(self));
	EXPECT_EQ(5003ull, self->seen.next);
}

TEST_F(ring, the_record_fn_stopped_at_was_consumed_the_rest_follow)
{
	stopped(self);
	self->seen.stop_after = 0;
	EXPECT_EQ(1, dw_session_drain(&self->s, check_seq, &self->seen));
	EXPECT_EQ(5004ull, self->seen.next);
	EXPECT_EQ(0, self->seen.bad);
}

/* dw_session_drain_to(): each record goes to the next slot of a buffer. */
struct placed {
	struct seen seen;
	__u64 room[1024];
	__u32 used, wrong_place;
	int refuse;		/* place says NULL: the scratch */
};

static void *place_next(__u32 size, void *arg)
{
	struct placed *p = arg;

	if (p->refuse || p->used + size > sizeof(p->room))
		return NULL;
	return &p->room[p->used / 8];
}

static int check_placed(const struct dunwind_rec_header *rec, void *arg)
{
	struct placed *p = arg;
	const __u64 *at = (const void *)rec;
	int in_buf = at >= p->room && at < p->room + 1024;

	p->wrong_place += p->refuse ? in_buf : at != &p->room[p->used / 8];
	p->used += rec->size;
	return check_seq(rec, &p->seen);
}

TEST_F(ring, drain_to_copies_each_record_where_place_says_or_to_the_scratch)
{
	static struct placed p;
	int i, round;

	for (round = 0; round < 2; round++) {
		memset(&p, 0, sizeof(p));
		p.refuse = round;
		p.seen.next = (__u64)round * 3;
		for (i = 0; i < 3; i++)
			produce(&self->f, mk_seq(&self->b, (__u64)(round * 3 + i)));
		EXPECT_EQ(3, dw_session_drain_to(&self->s, place_next, check_placed, &p));
		EXPECT_EQ(0, p.seen.bad);
		EXPECT_EQ(0u, p.wrong_place);
	}
}

TEST_F(ring, drain_some_stops_at_the_record_that_crosses_its_bytes)
{
	__u32 first = mk_seq(&self->b, 0)->size, last = mk_seq(&self->b, 2)->size;
	int i;

	for (i = 0; i < 3; i++)
		produce(&self->f, mk_seq(&self->b, (__u64)i));
	/* One byte past the first record: the second crosses it and is the last. */
	EXPECT_EQ(2, dw_session_drain_some(&self->s, NULL, check_seq, &self->seen, first + 1));
	EXPECT_EQ(2ull, self->seen.next);
	EXPECT_EQ((__u64)last, dw_session_backlog(&self->s));
	EXPECT_EQ(1, dw_session_drain_some(&self->s, NULL, check_seq, &self->seen, first + 1));
	EXPECT_EQ(0, self->seen.bad);
	EXPECT_EQ(0ull, dw_session_backlog(&self->s));
}

TEST_F(ring, drain_some_of_zero_bytes_still_takes_one_record)
{
	int i;

	for (i = 0; i < 2; i++)
		produce(&self->f, mk_seq(&self->b, (__u64)i));
	EXPECT_EQ(1, dw_session_drain_some(&self->s, NULL, check_seq, &self->seen, 0));
	EXPECT_EQ(1ull, self->seen.next);
}

/* A 1024-byte ring, attached, holding record 0: heads, tails and sizes made hostile. */
FIXTURE(hostile) {
	struct fake_ring f;
	struct dw_session s;
	struct seen seen;
	union rec_buf b;
	struct dunwind_rec_header *h;
};

FIXTURE_SETUP(hostile)
{
	ring_init(&self->f, 1024);
	self->s = (struct dw_session){ .fd = -1 };
	memset(&self->seen, 0, sizeof(self->seen));
	ASSERT_EQ(0, dw_session_attach(&self->s, self->f.map, self->f.len));
	produce(&self->f, mk_seq(&self->b, 0));
	self->h = (void *)self->f.data;
}

FIXTURE_TEARDOWN(hostile)
{
	dw_session_close(&self->s);
	free(self->f.map);
}

#define DRAIN() dw_session_drain(&self->s, count_fn, &self->seen)

TEST_F(hostile, a_head_more_than_the_ring_size_ahead_of_tail)
{
	self->f.ctrl->data_head = self->f.ctrl->data_tail + 1032;
	EXPECT_EQ(-EPROTO, DRAIN());
	EXPECT_EQ(0ull, self->seen.count);
}

TEST_F(hostile, an_unaligned_head)
{
	self->f.ctrl->data_head = self->f.ctrl->data_tail + 4;
	EXPECT_EQ(-EPROTO, DRAIN());
}

TEST_F(hostile, a_head_behind_tail)
{
	self->f.ctrl->data_head = self->f.ctrl->data_tail - 8;
	EXPECT_EQ(-EPROTO, DRAIN());
}

TEST_F(hostile, record_size_0_keeps_the_tail_before_it)
{
	self->h->size = 0;
	EXPECT_EQ(-EPROTO, DRAIN());
	EXPECT_EQ(0ull, self->f.ctrl->data_tail);
}

TEST_F(hostile, a_record_size_not_a_multiple_of_8)
{
	self->h->size = 12;
	EXPECT_EQ(-EPROTO, DRAIN());
}

TEST_F(hostile, a_record_size_past_data_head)
{
	self->h->size = (__u16)(self->f.head + 8);
	self->h->type = 9;	/* a type the checks cannot fault on its contents */
	EXPECT_EQ(-EPROTO, DRAIN());
}

TEST_F(hostile, a_record_size_past_the_ring)
{
	self->h->size = 0xfff8;
	EXPECT_EQ(-EPROTO, DRAIN());
}

TEST_F(hostile, a_record_whose_counts_disagree_with_its_size_is_not_handed_out)
{
	self->h->size = 64;
	((struct dunwind_rec_sample *)self->h)->nr_kernel = 5;
	EXPECT_EQ(-EPROTO, DRAIN());
	EXPECT_EQ(0ull, self->seen.count);
}

/*
 * Random garbage between random positions, 20000 times: never crash or
 * overrun.  @bad_result counts drains that handed out unchecked records or
 * miscounted, @bad_tail tails moved outside [tail, head].
 */
static void garbage(FIXTURE_DATA(hostile) *self, int *bad_result, int *bad_tail)
{
	struct dunwind_rec_header *h;
	__u64 tail, span;
	int i, n;
	size_t j;

	*bad_result = *bad_tail = 0;
	srand(1);
	for (i = 0; i < 20000; i++) {
		for (j = 0; j < self->f.size; j++)
			self->f.data[j] = (unsigned char)(rand() % 4 ? rand() : 0);
		if (i % 2) {
			/* plausible headers: small sizes, known types */
			for (j = 0; j < self->f.size; j += 8) {
				h = (void *)(self->f.data + j);
				h->type = (__u32)(rand() % 5);
				h->size = (__u16)(8 * (rand() % 20));
			}
		}
		tail = ((__u64)rand() << 20 | (__u64)rand()) * 8;
		span = i % 100 ? (__u64)(rand() % 129) * 8 : (__u64)rand();
		self->f.ctrl->data_tail = tail;
		self->f.ctrl->data_head = tail + span;
		self->seen.count = 0;
		n = DRAIN();
		if (n != -EPROTO && (n < 0 || (__u64)n != self->seen.count))
			(*bad_result)++;
		if (self->f.ctrl->data_tail < tail || self->f.ctrl->data_tail > tail + span)
			(*bad_tail)++;
	}
}

TEST_F(hostile, garbage_rings_hand_out_only_checked_records)
{
	int bad_result, bad_tail;

	garbage(self, &bad_result, &bad_tail);
	EXPECT_EQ(0, bad_result);
	EXPECT_EQ(0, self->seen.bad);
}

TEST_F(hostile, garbage_rings_never_move_the_tail_outside_tail_to_head)
{
	int bad_result, bad_tail;

	garbage(self, &bad_result, &bad_tail);
	EXPECT_EQ(0, bad_tail);
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

TEST(a_concurrent_producers_records_arrive_in_order_intact)
{
	struct fake_ring f;
	struct dw_session s = { .fd = -1 };
	struct seen seen = { 0 };
	struct thread_arg a = { .f = &f, .n = 200000 };
	pthread_t t;
	int err = 0, n;

	ring_init(&f, 4096);
	ASSERT_EQ(0, dw_session_attach(&s, f.map, f.len));
	if (pthread_create(&t, NULL, producer, &a))
		SKIP(return, "pthread_create failed");
	while (seen.next < a.n && !err) {
		n = dw_session_drain(&s, check_seq, &seen);
		if (n < 0)
			err = n;
		else if (n == 0)
			sched_yield();
	}
	__atomic_store_n(&a.abort, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	EXPECT_EQ(0, err);
	EXPECT_EQ(a.n, seen.next);
	EXPECT_EQ(0, seen.bad);
	dw_session_close(&s);
	free(f.map);
}

TEST_HARNESS_MAIN
