// SPDX-License-Identifier: GPL-2.0
/*
 * Capture files: write/read round trip, and hostile files: every
 * truncation, every byte flipped, and hand-made header and record damage.
 * Built with ASan + UBSan: the reader must refuse bad input cleanly.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "mkrec.h"
#include "capture/capture.h"

#define NREC	40

static char dir[] = "/tmp/dw_capture_test.XXXXXX";
static char path[128];

static const struct dunwind_rec_header *mk_nth(union rec_buf *b, int i)
{
	switch (i % 5) {
	case 0:
		return mk_sample(b, (__u64)i / 2 + 1, (__u64)i * 1000, 100, 101, (__u32)i % 9,
				 0xffffffff81000000ULL + (__u64)i);
	case 1:
		return mk_stack(b, (__u64)i / 2 + 1, 100, 101, (__u32)i % 17, 0x555500000000ULL,
				(__u8)(i % DUNWIND_STOP_MAX));
	case 2:
		return mk_sample(b, 0, (__u64)i * 1000, 100, 102, 2, 0xffffffff82000000ULL);
	case 3:
		return mk_lost(b, (__u64)i, 1);
	default:
		return mk_unknown(b, 100 + (__u32)i, 32);
	}
}

static unsigned char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "r");
	unsigned char *buf = malloc(1 << 20);

	*len = f ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

/* Parse @buf; if accepted, walk every record.  0 accepted, <0 refused. */
static int parse_all(const void *buf, size_t len, int *bad_rec, struct dw_capture_reader *out)
{
	struct dw_capture_reader r;
	const struct dunwind_rec_header *rec;
	int err = dw_capture_parse(&r, buf, len);

	if (err) {
		if (!r.err[0])
			(*bad_rec)++;	/* refused without saying why */
	} else {
		while ((rec = dw_capture_next(&r)))
			if (dunwind_rec_check(rec, rec->size) || (uintptr_t)rec % 8)
				(*bad_rec)++;
	}
	if (out)
		*out = r;
	else
		dw_capture_release(&r);
	return err;
}

static int expect_error(unsigned char *buf, size_t len, const char *what)
{
	struct dw_capture_reader r;
	int bad = 0, err = parse_all(buf, len, &bad, &r);
	int hit = err == -EINVAL && strstr(r.err, what) != NULL;

	if (!hit)
		printf("# got %d '%s', wanted '%s'\n", err, r.err, what);
	dw_capture_release(&r);
	return hit;
}

int main(void)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = 4242, .sample_freq = 999,
				      .flags = DUNWIND_CFG_FP_ONLY, .max_user_frames = 64,
				      .ring_pages = 16 };
	struct dw_capture_writer w;
	struct dw_capture_reader r;
	const struct dunwind_rec_header *rec;
	struct dw_capture_header *h;
	union rec_buf b;
	unsigned char *buf, *copy;
	size_t len, i;
	int n, same, bad = 0, refused = 0, accepted = 0;
	unsigned long bytes = 0;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/capture", dir);

	ok(dw_capture_create(&w, path, &cfg) == 0, "create a capture");
	for (i = 0, n = 0; i < NREC; i++) {
		rec = mk_nth(&b, (int)i);
		n += dw_capture_write(&w, rec) == 0;
		bytes += rec->size;
	}
	ok(n == NREC, "write %d records", NREC);
	mk_sample(&b, 1, 1, 1, 1, 2, 0)->size = 8;
	ok(dw_capture_write(&w, &b.hdr) == -EINVAL, "the writer refuses a malformed record");
	ok(dw_capture_close(&w) == 0, "close the capture");

	ok(dw_capture_open(&r, path) == 0, "read it back%s%s", r.err[0] ? ": " : "", r.err);
	ok(r.hdr.pid == 4242 && r.hdr.sample_freq == 999 && r.hdr.config_flags == 1 &&
	   r.hdr.max_user_frames == 64 && r.hdr.ring_pages == 16 && r.hdr.version == 1 &&
	   r.hdr.header_size == 128 && r.hdr.record_count == NREC && r.hdr.record_bytes == bytes &&
	   r.hdr.created_realtime_ns && r.hdr.created_boottime_ns,
	   "header fields survive the round trip");
	for (i = 0, same = 0, n = 0; i < NREC; i++) {
		rec = mk_nth(&b, (int)i);
		if (rec->type >= 100)
			continue;
		n++;
		const struct dunwind_rec_header *got = dw_capture_next(&r);

		same += got && got->size == rec->size && !memcmp(got, rec, rec->size);
	}
	ok(same == n, "every known record comes back byte for byte (%d of %d)", same, n);
	rec = dw_capture_next(&r);
	ok(rec == NULL && r.skipped == NREC / 5,
	   "records of unknown type are skipped by size (%lu)", r.skipped);
	dw_capture_release(&r);

	buf = slurp(path, &len);
	copy = malloc(len);
	ok(len == 128 + bytes, "the file is the header plus the records (%zu bytes)", len);

	{
		struct dw_capture_header bh = r.hdr;

		ok(dw_capture_same_boot(&bh) == 1, "the capture records this boot's id");
		bh.boot_id[3] ^= 1;
		ok(dw_capture_same_boot(&bh) == 0, "another boot id: another boot");
		memset(bh.boot_id, 0, sizeof(bh.boot_id));
		ok(dw_capture_same_boot(&bh) == -1, "no boot id: unknown");
	}

	/* Every truncation, into an exactly sized buffer so ASan sees overruns. */
	for (i = 0; i < len; i++) {
		unsigned char *t = malloc(i ? i : 1);

		memcpy(t, buf, i);
		if (parse_all(t, i, &bad, NULL) == 0)
			accepted++;
		free(t);
	}
	ok(accepted == 0 && bad == 0, "all %zu truncations refused, each with a reason", len);

	/* Every byte flipped three ways: refused cleanly or still well formed. */
	accepted = 0;
	for (i = 0; i < len; i++) {
		static const unsigned char masks[] = { 0x01, 0x80, 0xff };
		size_t m;

		for (m = 0; m < sizeof(masks); m++) {
			memcpy(copy, buf, len);
			copy[i] ^= masks[m];
			if (parse_all(copy, len, &bad, NULL))
				refused++;
			else
				accepted++;
		}
	}
	ok(bad == 0, "%zu byte flips: %d refused with a reason, %d still well formed", len * 3,
	   refused, accepted);
	ok(refused > 0 && accepted > 0,
	   "flips in sizes are caught, flips in payloads are not errors");

	/* Hand-made damage, each with the right complaint. */
	h = (struct dw_capture_header *)copy;
#define RESET() memcpy(copy, buf, len)
	RESET();
	copy[0] = 'X';
	ok(expect_error(copy, len, "bad magic"), "bad magic");
	RESET();
	h->version = 2;
	ok(expect_error(copy, len, "newer"), "a version from the future asks for a newer dunwind");
	RESET();
	h->version = 0;
	ok(expect_error(copy, len, "version"), "version 0");
	RESET();
	h->endian = 0x04030201;
	ok(expect_error(copy, len, "byte order"), "the other byte order");
	RESET();
	h->header_size = 120;
	ok(expect_error(copy, len, "header size"), "header size below version 1's");
	RESET();
	h->header_size = 1U << 31;
	ok(expect_error(copy, len, "header size"), "huge header size");
	RESET();
	h->record_bytes = 0;
	ok(expect_error(copy, len, "incomplete"), "an unfinished recording");
	RESET();
	h->record_bytes += 8;
	ok(expect_error(copy, len, "truncated"), "record bytes past the end of the file");
	RESET();
	h->record_bytes -= 8;
	ok(expect_error(copy, len, "trailing"), "bytes after the records");
	RESET();
	h->record_count++;
	ok(expect_error(copy, len, "counts"), "record count disagrees with the records");
	RESET();
	((struct dunwind_rec_header *)(copy + 128))->size = 0;
	ok(expect_error(copy, len, "bad size"), "record size 0");
	RESET();
	((struct dunwind_rec_header *)(copy + 128))->size = 0xfff8;
	ok(expect_error(copy, len, "past the end"), "record size past the end of the file");
	RESET();
	((struct dunwind_rec_header *)(copy + 128))->type = DUNWIND_REC_BUSY;
	ok(expect_error(copy, len, "busy"), "a BUSY record in a file");
	RESET();
	((struct dunwind_rec_sample *)(copy + 128))->nr_kernel++;
	ok(expect_error(copy, len, "disagree"), "counts disagreeing with the record size");
	RESET();
	ok(parse_all(copy, len, &bad, NULL) == 0, "the undamaged copy still parses");

	/* A header larger than ours (a later minor extension) is skipped. */
	{
		unsigned char *big = malloc(len + 64);

		memcpy(big, buf, 128);
		memset(big + 128, 0, 64);
		memcpy(big + 192, buf + 128, len - 128);
		((struct dw_capture_header *)big)->header_size = 192;
		ok(parse_all(big, len + 64, &bad, NULL) == 0 && bad == 0,
		   "a larger header is skipped by its size");
		free(big);
	}
	ok(dw_capture_open(&r, "/nonexistent/capture") == -ENOENT && r.err[0],
	   "a missing file: -ENOENT");
	dw_capture_release(&r);

	/* An empty but finished capture. */
	ok(dw_capture_create(&w, path, NULL) == 0 && dw_capture_close(&w) == 0 &&
	   dw_capture_open(&r, path) == 0 && !dw_capture_next(&r),
	   "a capture without records reads as empty");
	dw_capture_release(&r);

	free(buf);
	free(copy);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
