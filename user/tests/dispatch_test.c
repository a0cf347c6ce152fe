// SPDX-License-Identifier: GPL-2.0
/*
 * The record dispatcher: a record of each type reaches its callback and
 * no other, with the caller's argument; a type the reader ignores is 0;
 * a record cut short, misaligned, malformed or of an unknown type is
 * refused (-EBADMSG, -EINVAL) without calling anything.  The dispatch of
 * a record its reader checked already reaches the same callbacks.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "mkrec.h"
#include "capture/dispatch.h"
#include "capture/ksnap.h"
#include "capture/usnap.h"

enum { C_SAMPLE, C_USER_STACK, C_SAMPLE_STACK, C_LOST, C_MMAP, C_COMM, C_FORK, C_EXIT,
       C_KSYMS, C_USYMS, C_UNKNOWN, C_MAX };

struct calls {
	int n[C_MAX];
	const void *last;		/* the record the last callback got */
	int ret;			/* what the callbacks return */
};

static int hit(void *arg, int which, const void *rec)
{
	struct calls *c = arg;

	c->n[which]++;
	c->last = rec;
	return c->ret;
}

static int on_sample(const struct dunwind_rec_sample *r, void *a) { return hit(a, C_SAMPLE, r); }
static int on_user_stack(const struct dunwind_rec_user_stack *r, void *a)
{
	return hit(a, C_USER_STACK, r);
}
static int on_sample_stack(const struct dunwind_rec_sample_stack *r, void *a)
{
	return hit(a, C_SAMPLE_STACK, r);
}
static int on_lost(const struct dunwind_rec_lost *r, void *a) { return hit(a, C_LOST, r); }
static int on_mmap(const struct dunwind_rec_mmap *r, void *a) { return hit(a, C_MMAP, r); }
static int on_comm(const struct dunwind_rec_comm *r, void *a) { return hit(a, C_COMM, r); }
static int on_fork(const struct dunwind_rec_task *r, void *a) { return hit(a, C_FORK, r); }
static int on_exit_(const struct dunwind_rec_task *r, void *a) { return hit(a, C_EXIT, r); }
static int on_ksyms(const struct dunwind_rec_header *r, void *a) { return hit(a, C_KSYMS, r); }
static int on_usyms(const struct dunwind_rec_header *r, void *a) { return hit(a, C_USYMS, r); }
static int on_unknown(const struct dunwind_rec_header *r, void *a)
{
	return hit(a, C_UNKNOWN, r);
}

static const struct dw_rec_ops all_ops = {
	.sample = on_sample, .user_stack = on_user_stack, .sample_stack = on_sample_stack,
	.lost = on_lost, .mmap = on_mmap, .comm = on_comm, .fork = on_fork, .exit = on_exit_,
	.ksyms = on_ksyms, .usyms = on_usyms, .unknown = on_unknown,
};

static int total(const struct calls *c)
{
	int i, t = 0;

	for (i = 0; i < C_MAX; i++)
		t += c->n[i];
	return t;
}

static struct dunwind_rec_header *mk_task(union rec_buf *b, __u32 type)
{
	struct dunwind_rec_task *t = (void *)b;

	memset(t, 0, sizeof(*t));
	t->hdr.type = type;
	t->hdr.size = sizeof(*t);
	t->pid = t->tid = 42;
	return &t->hdr;
}

/*
 * @rec goes to callback @which only, once, and the dispatcher (@checked:
 * dw_rec_dispatch_checked()) returns its value.
 */
static void expect_one_by(struct __test_metadata *_metadata, const struct dunwind_rec_header *rec,
			  int which, bool checked)
{
	struct calls c = { .ret = 7 };

	ASSERT_EQ(7, checked ? dw_rec_dispatch_checked(&all_ops, rec, &c) :
			       dw_rec_dispatch(&all_ops, rec, rec->size, &c));
	EXPECT_EQ(1, c.n[which]);
	EXPECT_EQ(1, total(&c));
	EXPECT_EQ((const void *)rec, c.last);
}

static void each_type(struct __test_metadata *_metadata, bool checked)
{
	static const __u64 ips[] = { 0x401000, 0x401100 };
	union rec_buf b;

#define expect_one(m, rec, which) expect_one_by(m, rec, which, checked)

	expect_one(_metadata, mk_sample(&b, 1, 10, 42, 42, 2, 0xffffffff81000000ULL), C_SAMPLE);
	expect_one(_metadata, mk_stack(&b, 1, 42, 42, 3, 0x401000, 0), C_USER_STACK);
	expect_one(_metadata, mk_sample_stack(&b, 1, 10, 42, 42, ips, 2), C_SAMPLE_STACK);
	expect_one(_metadata, mk_lost(&b, 1, 2), C_LOST);
	expect_one(_metadata, mk_mmap(&b, 42, 10, 0x400000, 0x401000, 0, "/bin/true", 0), C_MMAP);
	expect_one(_metadata, mk_comm(&b, 42, 42, 10, "true", 1), C_COMM);
	expect_one(_metadata, mk_task(&b, DUNWIND_REC_FORK), C_FORK);
	expect_one(_metadata, mk_task(&b, DUNWIND_REC_EXIT), C_EXIT);
	expect_one(_metadata, mk_unknown(&b, DW_REC_KSYMS, 24), C_KSYMS);
	expect_one(_metadata, mk_unknown(&b, DW_REC_USYMS, 24), C_USYMS);
	expect_one(_metadata, mk_unknown(&b, 33, 16), C_UNKNOWN);
#undef expect_one
}

TEST(each_type_reaches_its_callback)
{
	each_type(_metadata, false);
}

TEST(checked_record_reaches_the_same_callback)
{
	each_type(_metadata, true);
}

TEST(ignored_type_is_zero)
{
	static const struct dw_rec_ops only_lost = { .lost = on_lost };
	struct calls c = { .ret = 7 };
	union rec_buf b;

	EXPECT_EQ(0, dw_rec_dispatch(&only_lost, mk_comm(&b, 1, 1, 1, "x", 0), 40, &c));
	EXPECT_EQ(0, dw_rec_dispatch(&only_lost, mk_unknown(&b, DW_REC_KSYMS, 16), 16, &c));
	EXPECT_EQ(0, total(&c));
}

TEST(unknown_type_refused_without_unknown_callback)
{
	static const struct dw_rec_ops no_unknown = { .lost = on_lost, .comm = on_comm };
	struct calls c = { .ret = 7 };
	union rec_buf b;

	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&no_unknown, mk_unknown(&b, 9, 16), 16, &c));
	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&no_unknown, mk_unknown(&b, 0xffffffff, 8), 8, &c));
	EXPECT_EQ(-EINVAL, dw_rec_dispatch_checked(&no_unknown, mk_unknown(&b, 9, 16), &c));
	EXPECT_EQ(0, total(&c));
}

TEST(busy_refused)
{
	struct calls c = { 0 };
	union rec_buf b;

	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&all_ops, mk_unknown(&b, DUNWIND_REC_BUSY, 16), 16, &c));
	EXPECT_EQ(0, total(&c));
}

TEST(short_record_refused)
{
	struct calls c = { 0 };
	union rec_buf b;
	struct dunwind_rec_header *rec = mk_lost(&b, 1, 2);

	EXPECT_EQ(-EBADMSG, dw_rec_dispatch(&all_ops, rec, 0, &c));
	EXPECT_EQ(-EBADMSG, dw_rec_dispatch(&all_ops, rec, 7, &c));
	/* The header is whole, the record is not. */
	EXPECT_EQ(-EBADMSG, dw_rec_dispatch(&all_ops, rec, rec->size - 8, &c));
	EXPECT_EQ(0, total(&c));
}

TEST(bad_header_size_refused)
{
	struct calls c = { 0 };
	union rec_buf b;
	struct dunwind_rec_header *rec = mk_lost(&b, 1, 2);

	rec->size = 4;			/* under a header */
	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&all_ops, rec, 80, &c));
	rec->size = 84;			/* not a multiple of 8 */
	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&all_ops, rec, 88, &c));
	rec->size = 88;			/* a LOST is 80 bytes */
	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&all_ops, rec, 88, &c));
	EXPECT_EQ(0, total(&c));
}

TEST(misaligned_refused)
{
	struct calls c = { 0 };
	union rec_buf b;
	unsigned char *p = (unsigned char *)b.raw + 4;

	mk_task(&b, DUNWIND_REC_FORK);
	memmove(p, b.raw, sizeof(struct dunwind_rec_task));
	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&all_ops, p, sizeof(struct dunwind_rec_task), &c));
	EXPECT_EQ(0, total(&c));
}

TEST(contents_disagreeing_with_size_refused)
{
	struct calls c = { 0 };
	union rec_buf b;
	struct dunwind_rec_header *rec;

	rec = mk_sample(&b, 1, 10, 42, 42, 2, 0x1000);
	b.sample.nr_kernel = 3;		/* one IP more than it holds */
	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&all_ops, rec, rec->size, &c));
	rec = mk_comm(&b, 1, 1, 1, "x", 0);
	memset(((struct dunwind_rec_comm *)rec)->comm, 'x', 16);	/* no NUL */
	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&all_ops, rec, rec->size, &c));
	rec = mk_mmap(&b, 42, 10, 0x401000, 0x400000, 0, "/bin/true", 0);	/* end < start */
	EXPECT_EQ(-EINVAL, dw_rec_dispatch(&all_ops, rec, rec->size, &c));
	EXPECT_EQ(0, total(&c));
}

TEST(skip_takes_any_type)
{
	static const struct dw_rec_ops skip = { .unknown = dw_rec_skip };
	union rec_buf b;

	EXPECT_EQ(0, dw_rec_dispatch(&skip, mk_unknown(&b, 12345, 64), 64, NULL));
}

TEST_HARNESS_MAIN
