// SPDX-License-Identifier: GPL-2.0
/*
 * Write the capture target's seed corpus: captures made by the writer the
 * recorder uses, with every record type (COMM, MMAP, SAMPLE, USER_STACK,
 * SAMPLE_STACK, LOST, one of an unknown type, a stack with Python frames
 * and their DW_REC_PYCODE records), as they are, zstd-compressed and
 * packed (DW_REC_PACK: stacks defined, then referred to), without and with
 * kernel and user symbol snapshots.
 *   gen_captures DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/ksnap.h"
#include "capture/pysnap.h"
#include "capture/usnap.h"
#include "capture/zchunk.h"
#include "tests/mkrec.h"

#define PID	4242
#define LIB	"/usr/lib/x86_64-linux-gnu/libc.so.6"
#define KIP	0xffffffff81001000ULL

static const char ksyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T do_work\n"
	"ffffffff81002000 t helper\n"
	"ffffffffc0001000 t mod_fn\t[mod]\n"
	"ffffffffc0002000 T mod_end\t[mod]\n";
static const char mods[] = "mod 16384 0 - Live 0xffffffffc0001000\n";
static const char usyms[] =
	"D 0123456789abcdef0123456789abcdef01234567 " LIB "\n"
	"F 1000 40 work\n"
	"U 1040 20\n"
	"L 1010 0 12 inlined_fn src/a.c\n"
	"L 1010 1 30 work src/a.c\n"
	"P 4242\n"
	"F 7f0000001000 80 jit_fn\n";

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

/* A stack with two Python frames, a stop and a frame cut short, and their code objects. */
static int python(struct dw_capture_writer *w, __u64 t)
{
	/* A small co_linetable: lines 12, 12, 12, 14 from firstlineno 11. */
	static const __u8 table[] = { 0x80 | 13 << 3, 2, 0x80 | 10 << 3 | 1, 0, 4, 0x80 | 13 << 3, 4 };
	static const __u64 code = 0x7f5500001230ULL;
	union rec_buf b;
	int err = 0, len;

	err |= dw_capture_write(w, mk_sample(&b, 30, t, PID, PID, 0, 0));
	mk_stack(&b, 30, PID, PID, 8, 0x7f0000001000, DUNWIND_STOP_END);
	b.stack.methods |= DUNWIND_UNWIND_INTERP;
	b.stack.ips[1] = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_FRAME, 2);
	b.stack.ips[2] = code;
	b.stack.ips[3] = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_FRAME, 1ULL << 32 | 0xfffffffe);
	b.stack.ips[4] = code + 0x100;
	b.stack.ips[5] = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_STOP, DUNWIND_INTERP_STOP_FAULT);
	b.stack.ips[7] = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_FRAME, 0);
	err |= dw_capture_write(w, &b.stack.hdr);
	len = dw_pysnap_encode(&b, sizeof(b), PID, code, t, "Worker.run", "/srv/app.py", 11, table,
			       sizeof(table));
	err |= len < 0 || dw_capture_write(w, &b.hdr);
	len = dw_pysnap_encode(&b, sizeof(b), PID, code + 0x100, t, "<module>", "/srv/app.py", 1,
			       NULL, 0);
	err |= len < 0 || dw_capture_write(w, &b.hdr);
	return err ? -1 : 0;
}

static int records(struct dw_capture_writer *w)
{
	static const __u64 uips[] = { 0x7f0000001010, 0x7f0000001044, 0x7f0000001001 };
	union rec_buf b;
	__u64 t = 100;
	int err = 0, i;

	err |= dw_capture_write(w, mk_comm(&b, PID, PID, t++, "worker", 1));
	err |= dw_capture_write(w, mk_mmap(&b, PID, t++, 0x7f0000000000, 0x7f0000100000, 0, LIB, 0));
	err |= dw_capture_write(w, mk_mmap(&b, PID, t++, 0x7f0000200000, 0x7f0000300000, 0x1000,
					   "/nonexistent/lib.so", 1));
	for (i = 0; i < 4 && !err; i++) {
		err |= dw_capture_write(w, mk_sample(&b, 10 + i, t++, PID, PID, i, KIP + 8 * i));
		err |= dw_capture_write(w, mk_stack(&b, 10 + i, PID, PID, 3, 0x7f0000001000 + i,
						    i ? DUNWIND_STOP_END : DUNWIND_STOP_NO_INFO));
	}
	err |= dw_capture_write(w, mk_sample_stack(&b, 20, t++, PID, PID, uips, 3));
	/* The same stacks again: a packed capture refers to them. */
	for (i = 0; i < 4 && !err; i++) {
		err |= dw_capture_write(w, mk_sample(&b, 40 + i, t++, PID, PID, i, KIP + 8 * i));
		err |= dw_capture_write(w, mk_stack(&b, 40 + i, PID, PID, 3, 0x7f0000001000 + i,
						    DUNWIND_STOP_END));
	}
	err |= dw_capture_write(w, mk_sample_stack(&b, 50, t++, PID, PID, uips, 3));
	err |= dw_capture_write(w, mk_lost(&b, 3, 2));
	err |= dw_capture_write(w, mk_unknown(&b, 200, 24));
	err |= python(w, t++);
	return err ? -1 : 0;
}

/* One capture: @zstd compressed, @snap with both symbol snapshots, @pack packed. */
static int capture(const char *dir, const char *name, int zstd, int snap, int pack)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = PID, .sample_freq = 99,
				      .flags = DUNWIND_CFG_SAMPLE_STACK };
	char path[4096], kpath[4096], mpath[4096];
	struct dw_capture_writer w;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(kpath, sizeof(kpath), "%s/.kallsyms", dir);
	snprintf(mpath, sizeof(mpath), "%s/.modules", dir);
	if (write_text(kpath, ksyms) || write_text(mpath, mods) || dw_capture_create(&w, path, &cfg))
		return -1;
	err = zstd ? dw_capture_compress(&w, 3) : 0;
	if (!err && pack)
		err = dw_capture_pack(&w);
	if (!err)
		err = records(&w);
	if (!err && snap)
		err = dw_ksnap_write(&w, kpath, mpath) ||
		      dw_zchunk_write(&w, DW_REC_USYMS, DW_USYMS_TEXT, usyms, strlen(usyms));
	err |= dw_capture_close(&w);
	remove(kpath);
	remove(mpath);
	return err;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_captures DIR\n");
		return 2;
	}
	if (capture(argv[1], "plain", 0, 0, 0) || capture(argv[1], "zstd", 1, 0, 0) ||
	    capture(argv[1], "snap", 0, 1, 0) || capture(argv[1], "zstd-snap", 1, 1, 0) ||
	    capture(argv[1], "packed", 0, 0, 1) || capture(argv[1], "packed-snap", 0, 1, 1)) {
		fprintf(stderr, "gen_captures: cannot write the captures in %s\n", argv[1]);
		return 1;
	}
	return 0;
}
