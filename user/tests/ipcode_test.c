// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind_ipcode_check() (lib/ipcode.h), which checks coded IPs 8 bytes at
 * a time: its verdict must be that of decoding them one byte at a time
 * (dunwind_ipcode_decode()) and checking the padding, on coded stacks and
 * on hostile bytes alike.
 */
#include <stdlib.h>

#include "kselftest_harness.h"
#include "mkrec.h"

#define ROOM	512		/* bytes of coded IPs and padding the tests build */

/* The verdict by decoding: the bytes the IPs took, or -22. */
static int decode_verdict(const __u8 *src, __u32 len, __u32 nr)
{
	int used = dunwind_ipcode_decode(src, len, NULL, nr);
	__u32 i;

	if (used < 0 || len - (__u32)used >= 8)
		return -22;
	for (i = (__u32)used; i < len; i++)
		if (src[i])
			return -22;
	return used;
}

/* 64 random bits from libc's generator (seeded below: the same every run). */
static __u64 rnd(void)
{
	return ((__u64)random() << 33) ^ ((__u64)random() << 11) ^ (__u64)random();
}

static void __attribute__((constructor)) seed(void)
{
	srandom(15);
}

/* An IP near @prev (same file), far from it, or anywhere. */
static __u64 next_ip(__u64 prev)
{
	switch (rnd() % 4) {
	case 0:
		return rnd();
	case 1:
		return prev + (rnd() % (1ULL << 40)) - (1ULL << 39);
	default:
		return prev + (rnd() % 4096) - 2048;
	}
}

/* Code @nr random IPs at @buf, padded with zeros to 8: the padded length. */
static __u32 code_stack(__u8 *buf, __u32 nr)
{
	__u64 ips[ROOM / DUNWIND_IPCODE_MAX], prev = 0x55d0c0001234ULL;
	__u32 i, len;

	for (i = 0; i < nr; i++)
		ips[i] = prev = next_ip(prev);
	memset(buf, 0, ROOM);
	len = dunwind_ipcode_encode(buf, ips, nr);
	return (len + 7) & ~7U;
}

TEST(coded_stacks_pass_and_take_the_bytes_they_were_coded_in)
{
	__u8 buf[ROOM];
	int i, bad = 0;

	for (i = 0; i < 20000; i++) {
		__u32 nr = (__u32)(rnd() % (ROOM / DUNWIND_IPCODE_MAX + 1));
		__u32 len = code_stack(buf, nr);
		int want = decode_verdict(buf, len, nr);

		ASSERT_LE(0, want);
		bad += dunwind_ipcode_check(buf, len, nr) != want;
	}
	EXPECT_EQ(0, bad);
}

/*
 * dunwind_leb128_put() writes two bytes a round: every length of value,
 * at each end of its range, must still take the fewest LEB128 bytes (one
 * per 7 bits), decode back, and write nothing past them.
 */
TEST(values_of_every_length_code_in_the_fewest_bytes_and_decode_back)
{
	__u64 v[3];
	int bits, k, bad = 0;

	for (bits = 0; bits <= 64; bits++) {
		v[0] = bits ? 1ULL << (bits - 1) : 0;
		v[1] = bits == 64 ? ~0ULL : bits ? (1ULL << bits) - 1 : 0;
		v[2] = v[0] | (rnd() & v[1]);
		for (k = 0; k < 3; k++) {
			__u8 buf[DUNWIND_IPCODE_MAX + 1];
			__u32 want = bits ? (__u32)(bits + 6) / 7 : 1, pos = 0;
			__u64 z = ~v[k];

			memset(buf, 0xee, sizeof(buf));
			bad += dunwind_leb128_put(buf, v[k]) != want;
			bad += buf[want] != 0xee;
			bad += dunwind_leb128_get(buf, want, &pos, &z) || pos != want || z != v[k];
		}
	}
	EXPECT_EQ(0, bad);
}

TEST(a_wrong_ip_count_gets_the_verdict_of_decoding)
{
	__u8 buf[ROOM];
	int i, bad = 0, refused = 0;

	for (i = 0; i < 20000; i++) {
		__u32 nr = (__u32)(rnd() % 40) + 1;
		__u32 len = code_stack(buf, nr);
		__u32 claim = nr + (__u32)(rnd() % 5) - 2;
		int want = decode_verdict(buf, len, claim);

		refused += want < 0;
		bad += dunwind_ipcode_check(buf, len, claim) != want;
	}
	EXPECT_EQ(0, bad);
	EXPECT_LT(0, refused);
}

TEST(damaged_bytes_get_the_verdict_of_decoding)
{
	__u8 buf[ROOM];
	int i, k, bad = 0, refused = 0, passed = 0;

	for (i = 0; i < 50000; i++) {
		__u32 nr = (__u32)(rnd() % (ROOM / DUNWIND_IPCODE_MAX)) + 1;
		__u32 len = code_stack(buf, nr);
		int want;

		/* Flip top bits, zero or fill a few bytes, maybe grow the padding. */
		for (k = (int)(rnd() % 4); k > 0; k--) {
			__u32 at = (__u32)(rnd() % len);

			buf[at] = rnd() % 3 == 0 ? 0 : rnd() % 2 ? 0xff : buf[at] ^ 0x80;
		}
		if (rnd() % 8 == 0 && len + 8 <= ROOM)
			len += 8;
		want = decode_verdict(buf, len, nr);
		refused += want < 0;
		passed += want >= 0;
		bad += dunwind_ipcode_check(buf, len, nr) != want;
	}
	EXPECT_EQ(0, bad);
	EXPECT_LT(0, refused);
	EXPECT_LT(0, passed);
}

/*
 * One IP of @n bytes (all but the last with the top bit set) starting
 * at every offset in a word, after IPs of one byte: the padded length.
 */
static __u32 long_ip_at(__u8 *buf, __u32 at, __u32 n, __u32 *nr)
{
	__u32 i, len = at + n;

	memset(buf, 0, ROOM);
	for (i = 0; i < at; i++)
		buf[i] = 0x02;
	for (i = 0; i < n; i++)
		buf[at + i] = i + 1 < n ? 0x81 : 0x01;
	*nr = at + 1;
	return (len + 7) & ~7U;
}

TEST(an_ip_of_the_longest_coding_passes_at_every_offset)
{
	__u8 buf[ROOM];
	__u32 at, nr, len;

	for (at = 0; at < 16; at++) {
		len = long_ip_at(buf, at, DUNWIND_IPCODE_MAX, &nr);
		EXPECT_EQ(decode_verdict(buf, len, nr), dunwind_ipcode_check(buf, len, nr));
		EXPECT_EQ((int)(at + DUNWIND_IPCODE_MAX), dunwind_ipcode_check(buf, len, nr));
	}
}

TEST(an_ip_one_byte_longer_is_refused_at_every_offset)
{
	__u8 buf[ROOM];
	__u32 at, nr, len;

	for (at = 0; at < 16; at++) {
		len = long_ip_at(buf, at, DUNWIND_IPCODE_MAX + 1, &nr);
		EXPECT_EQ(-22, decode_verdict(buf, len, nr));
		EXPECT_EQ(-22, dunwind_ipcode_check(buf, len, nr));
	}
}

TEST(no_ips_pass_only_without_bytes)
{
	__u8 buf[8] = { 0 };

	EXPECT_EQ(0, dunwind_ipcode_check(buf, 0, 0));
	EXPECT_EQ(-22, dunwind_ipcode_check(buf, 8, 0));
	EXPECT_EQ(-22, dunwind_ipcode_check(buf, 0, 1));
}

TEST(a_length_not_a_multiple_of_8_is_refused)
{
	__u8 buf[ROOM];
	__u32 len = code_stack(buf, 5);

	EXPECT_LE(0, dunwind_ipcode_check(buf, len, 5));
	EXPECT_EQ(-22, dunwind_ipcode_check(buf, len - 1, 5));
}

TEST_HARNESS_MAIN
