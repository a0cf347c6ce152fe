// SPDX-License-Identifier: GPL-2.0
/* dunwind_rec_check() (lib/record.h): what the readers accept and refuse. */
#include "tap.h"
#include "mkrec.h"

static union rec_buf b;

int main(void)
{
	struct dunwind_rec_header *r;
	struct dunwind_rec_sample *s = &b.sample;
	struct dunwind_rec_user_stack *u = &b.stack;

	r = mk_sample(&b, 1, 2, 3, 4, 0, 0);
	ok(dunwind_rec_check(r, r->size) == 0, "sample without kernel IPs is valid");
	ok(r->size == 64, "sample header is 64 bytes");
	r = mk_sample(&b, 1, 2, 3, 4, 3, 0x1000);
	ok(dunwind_rec_check(r, r->size) == 0, "sample with 3 kernel IPs is valid");
	ok(dunwind_rec_check(r, r->size + 64) == 0, "a record shorter than the buffer is valid");
	ok(dunwind_rec_check(r, r->size - 8) != 0, "a record longer than the buffer is refused");
	r = mk_sample(&b, 1, 2, 3, 4, DUNWIND_MAX_KERNEL_FRAMES, 0x1000);
	ok(dunwind_rec_check(r, r->size) == 0, "sample with the maximum kernel IPs is valid");
	r = mk_sample(&b, 1, 2, 3, 4, DUNWIND_MAX_KERNEL_FRAMES + 1, 0x1000);
	ok(dunwind_rec_check(r, r->size) != 0, "sample over the kernel IP limit is refused");
	r = mk_sample(&b, 1, 2, 3, 4, 3, 0x1000);
	s->nr_kernel = 2;
	ok(dunwind_rec_check(r, r->size) != 0, "sample whose nr_kernel disagrees with its size");
	s->nr_kernel = 4;
	ok(dunwind_rec_check(r, 256) != 0, "sample whose nr_kernel overruns its size");
	r = mk_sample(&b, 1, 2, 3, 4, 0, 0);
	r->size = 56;
	ok(dunwind_rec_check(r, 64) != 0, "sample shorter than its fixed part");

	r = mk_sample(&b, 1, 2, 3, 4, 0, 0);
	r->size = 0;
	ok(dunwind_rec_check(r, 64) != 0, "size 0 is refused");
	r->size = 4;
	ok(dunwind_rec_check(r, 64) != 0, "size below the header is refused");
	r->size = 60;
	ok(dunwind_rec_check(r, 64) != 0, "size not a multiple of 8 is refused");
	r->size = 64;
	ok(dunwind_rec_check(r, 4) != 0, "buffer shorter than a header is refused");
	r->type = DUNWIND_REC_BUSY;
	ok(dunwind_rec_check(r, 64) != 0, "a BUSY record is never valid");

	r = mk_stack(&b, 7, 3, 4, 0, 0, DUNWIND_STOP_END);
	ok(dunwind_rec_check(r, r->size) == 0 && r->size == 40, "empty user stack is valid");
	r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_FAULT);
	ok(dunwind_rec_check(r, r->size) == 0, "user stack with 10 IPs is valid");
	r = mk_stack(&b, 7, 3, 4, DUNWIND_MAX_USER_FRAMES, 0x400000, DUNWIND_STOP_MAX_DEPTH);
	ok(dunwind_rec_check(r, r->size) == 0, "user stack with the maximum IPs is valid");
	u->nr = DUNWIND_MAX_USER_FRAMES + 1;
	u->nr_fp = u->nr;
	r->size = (__u16)dunwind_rec_user_stack_size(u->nr);
	ok(dunwind_rec_check(r, r->size) != 0, "user stack over the frame limit is refused");
	r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_END);
	u->nr = 9;
	u->nr_fp = 9;
	ok(dunwind_rec_check(r, r->size) != 0, "user stack whose nr disagrees with its size");
	r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_MAX);
	ok(dunwind_rec_check(r, r->size) != 0, "user stack with an unknown stop reason");
	r = mk_stack(&b, 7, 3, 4, 10, 0x400000, DUNWIND_STOP_END);
	u->nr_sframe = 1;
	ok(dunwind_rec_check(r, r->size) != 0, "user stack with more fp+sframe frames than IPs");
	u->nr_fp = 5;
	u->nr_sframe = 5;
	ok(dunwind_rec_check(r, r->size) == 0, "user stack split between fp and sframe");
	u->nr_fp = 0xffff;
	u->nr_sframe = 0xffff;
	ok(dunwind_rec_check(r, r->size) != 0, "fp+sframe counts cannot wrap around");

	r = mk_lost(&b, 1, 2);
	ok(dunwind_rec_check(r, r->size) == 0 && r->size == 80, "lost record is valid");
	r->size = 88;
	ok(dunwind_rec_check(r, 88) != 0, "lost record of the wrong size is refused");

	r = mk_unknown(&b, 9, 24);
	ok(dunwind_rec_check(r, 24) == 0, "unknown type with a sound header is skippable");
	r = mk_unknown(&b, 9, 20);
	ok(dunwind_rec_check(r, 24) != 0, "unknown type with a bad size is refused");
	return tap_done();
}
