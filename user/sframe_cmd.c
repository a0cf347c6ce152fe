// SPDX-License-Identifier: GPL-2.0
/*
 * `dunwind sframe`: look at and write SFrame tables.
 *
 *   dunwind sframe dump   [--raw --vaddr ADDR] [--rbx] FILE
 *   dunwind sframe find   [--raw --vaddr ADDR] [--rbx] FILE PC...
 *   dunwind sframe encode [--raw --vaddr ADDR] --version 1|2|3 [--pcrel|--no-pcrel]
 *                         -o OUT FILE
 *
 * FILE is an ELF file (the .sframe section, else the PT_GNU_SFRAME segment)
 * or, with --raw, a bare section whose first byte is mapped at ADDR.
 * `dump` prints like `objdump --sframe`; `encode` re-encodes every row of
 * FILE's table in another version and writes a bare section to OUT.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sframe.h"
#include "sframe/sframe_enc.h"
#include "sframe/sframe_file.h"
#include "sframe/sframe_print.h"
#include "sframe/sframe_gen.h"
#include "util/num.h"
#include "util/options.h"
#include "commands.h"

struct sf_args {
	int raw;
	int have_vaddr;
	__u64 vaddr;
	int version;
	int pcrel;		/* -1 default */
	unsigned int gen_flags;	/* DW_SFRAME_GEN_* */
	const char *out;
	const char *file;
	int npcs;
	char **pcs;
};

static int load(const struct sf_args *a, struct dw_sframe_file *f, struct dunwind_sframe_table *t)
{
	int err;

	memset(f, 0, sizeof(*f));
	if (a->raw) {
		err = dw_sframe_file_load_raw(a->file, a->vaddr, f);
	} else {
		err = dw_sframe_file_load_elf(a->file, f);
		if (a->have_vaddr)
			f->vaddr = a->vaddr;
	}
	if (err == -ENODATA && !a->raw) {
		fprintf(stderr, "dunwind sframe: %s: no .sframe section or PT_GNU_SFRAME segment "
			"(build with -Wa,--gsframe, or pass --raw for a bare section)\n", a->file);
		return err;
	}
	if (err == -ENOEXEC) {
		fprintf(stderr, "dunwind sframe: %s: not an ELF file (use --raw --vaddr ADDR for "
			"a bare section)\n", a->file);
		return err;
	}
	if (err) {
		fprintf(stderr, "dunwind sframe: %s: %s\n", a->file, strerror(-err));
		return err;
	}
	err = dw_sframe_file_open(f, t);
	if (!err && (a->gen_flags & DW_SFRAME_GEN_RBX))
		t->ext = DUNWIND_SFRAME_EXT_RBX;
	if (err)
		fprintf(stderr, "dunwind sframe: %s: cannot open the table: %s\n", a->file,
			dw_sframe_strerror(err));
	return err;
}

static int parse_u64(const char *s, __u64 *v)
{
	unsigned long long n;

	if (dw_parse_ull(s, 0, 0, ULLONG_MAX, &n))
		return -EINVAL;
	*v = n;
	return 0;
}

static int opt_vaddr(const struct dw_option *opt, const char *arg, void *args, const char *cmd)
{
	struct sf_args *a = args;

	(void)opt;
	if (parse_u64(arg, &a->vaddr)) {
		fprintf(stderr, "dunwind %s: --vaddr wants a number, got '%s'\n", cmd, arg);
		return -EINVAL;
	}
	a->have_vaddr = 1;
	return 0;
}

static const struct dw_option sframe_options[] = {
	OPT_BOOL(0, "raw", struct sf_args, raw,
		 "FILE is a bare SFrame section, not an ELF file (needs --vaddr)"),
	OPT_CALLBACK(0, "vaddr", "ADDR", opt_vaddr,
		     "with --raw: the address the section's first byte is mapped at"),
	OPT_INT(0, "version", struct sf_args, version, "N", 1, 3,
		"encode: the SFrame version to write (1, 2 or 3); gen: 2 or 3 (default 2)"),
	OPT_SET_INT(0, "pcrel", struct sf_args, pcrel, 1,
		    "encode: function starts relative to the field (v2 and v3; v3's default)"),
	OPT_SET_INT(0, "no-pcrel", struct sf_args, pcrel, 0,
		    "encode: function starts relative to the section"),
	OPT_BIT(0, "abs", struct sf_args, gen_flags, DW_SFRAME_GEN_ABS,
		"gen: function starts relative to the section, not PC-relative"),
	OPT_BIT(0, "no-debug-frame", struct sf_args, gen_flags, DW_SFRAME_GEN_NO_DEBUG_FRAME,
		"gen: read .eh_frame only, not .debug_frame"),
	OPT_BIT(0, "rbx", struct sf_args, gen_flags, DW_SFRAME_GEN_RBX,
		"gen: write dunwind's %rbx extension (v3, what record registers); "
		"dump, find: read it"),
	OPT_STRING('o', "output", struct sf_args, out, "OUT", "encode, gen: the file to write"),
	OPT_END(),
};

const struct dw_cmd_help dw_sframe_help = {
	.name = "sframe",
	.summary = "dump, look up, encode or generate (from .eh_frame) SFrame tables",
	.usage = (const char *const[]){
		"sframe dump   [--raw --vaddr ADDR] FILE",
		"sframe find   [--raw --vaddr ADDR] FILE PC...",
		"sframe encode [--raw --vaddr ADDR] --version 1|2|3 [--pcrel|--no-pcrel] -o OUT FILE",
		"sframe gen    [--version 2|3] [--abs] [--no-debug-frame] [--rbx] -o OUT FILE",
		NULL
	},
	.doc = "FILE is an ELF file with .sframe (or a PT_GNU_SFRAME segment), or with --raw a "
	       "bare section mapped at ADDR. dump prints the table like objdump --sframe; find "
	       "prints the rules that hold at each PC; encode writes every row of FILE's table "
	       "again in another version as a bare section. gen writes a bare section generated "
	       "from FILE's .eh_frame/.debug_frame and prints the address it is relative to "
	       "(use it with dump --raw --vaddr).",
	.options = sframe_options,
};

static int parse_args(int argc, char **argv, struct sf_args *a, int want_pcs)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->pcrel = -1;
	i = dw_parse_options(argc, argv, &dw_sframe_help, a);
	if (i < 0)
		return i;
	if (i < argc)
		a->file = argv[i++];
	if (want_pcs && i < argc) {
		a->pcs = argv + i;
		a->npcs = argc - i;
	} else if (i < argc) {
		fprintf(stderr, "dunwind sframe: unexpected argument '%s'\n", argv[i]);
		return -EINVAL;
	}
	if (!a->file) {
		fprintf(stderr, "dunwind sframe: missing FILE\n");
		dw_options_usage(stderr, &dw_sframe_help);
		return -EINVAL;
	}
	if (a->raw && !a->have_vaddr) {
		fprintf(stderr, "dunwind sframe: --raw needs --vaddr ADDR (where the section's "
			"first byte is mapped)\n");
		return -EINVAL;
	}
	return 0;
}

static int do_dump(int argc, char **argv)
{
	struct dunwind_sframe_table t;
	struct sf_args a;
	struct dw_sframe_file f;
	int err;

	err = parse_args(argc, argv, &a, 0);
	if (err)
		return dw_opt_exit(err);
	err = load(&a, &f, &t);
	if (!err) {
		err = dw_sframe_print(stdout, &t, f.name);
		fflush(stdout);
		if (!err) {
			err = dunwind_sframe_validate(&t);
			if (err)
				fprintf(stderr, "dunwind sframe: %s: table fails validation: %s\n",
					a.file, dw_sframe_strerror(err));
		}
	}
	free(f.data);
	return err ? 1 : 0;
}

static int do_find(int argc, char **argv)
{
	struct dunwind_sframe_table t;
	struct dunwind_sframe_row row;
	struct sf_args a;
	struct dw_sframe_file f;
	char cfa[48], ra[48], fp[48], rbx[48] = " rbx=";
	int err, i, bad = 0;

	err = parse_args(argc, argv, &a, 1);
	if (err)
		return dw_opt_exit(err);
	if (!a.npcs) {
		fprintf(stderr, "dunwind sframe find: give one or more PCs after FILE\n");
		return 2;
	}
	err = load(&a, &f, &t);
	for (i = 0; !err && i < a.npcs; i++) {
		__u64 pc;

		if (parse_u64(a.pcs[i], &pc)) {
			fprintf(stderr, "dunwind sframe find: '%s' is not an address\n", a.pcs[i]);
			bad = 1;
			continue;
		}
		err = dunwind_sframe_find(&t, pc, &row);
		if (err) {
			printf("0x%" PRIx64 ": %s\n", (uint64_t)pc, dw_sframe_strerror(err));
			bad = 1;
			err = 0;
			continue;
		}
		if (row.flags & DUNWIND_SFRAME_ROW_RA_UNDEF) {
			printf("0x%" PRIx64 ": func 0x%" PRIx64 "+%u row [0x%" PRIx64 ",0x%" PRIx64
			       ") outermost\n",
			       (uint64_t)pc, (uint64_t)row.func_start, row.func_size,
			       (uint64_t)row.pc_lo, (uint64_t)row.pc_hi);
			continue;
		}
		dw_sframe_fmt_rule(cfa, sizeof(cfa), &row.cfa);
		dw_sframe_fmt_rule(ra, sizeof(ra), &row.ra);
		if (row.fp.kind == DUNWIND_SFRAME_RULE_UNDEF)
			snprintf(fp, sizeof(fp), "u");
		else
			dw_sframe_fmt_rule(fp, sizeof(fp), &row.fp);
		if (row.flags & DUNWIND_SFRAME_ROW_RBX)
			dw_sframe_fmt_rbx(rbx + 5, sizeof(rbx) - 5, &row);
		printf("0x%" PRIx64 ": func 0x%" PRIx64 "+%u row [0x%" PRIx64 ",0x%" PRIx64
		       ") cfa=%s ra=%s fp=%s%s\n", (uint64_t)pc, (uint64_t)row.func_start,
		       row.func_size, (uint64_t)row.pc_lo, (uint64_t)row.pc_hi, cfa, ra, fp,
		       (row.flags & DUNWIND_SFRAME_ROW_RBX) ? rbx : "");
	}
	free(f.data);
	return err ? 1 : bad;
}

static int do_encode(int argc, char **argv)
{
	struct dw_sframe_enc_func *funcs = NULL;
	struct dw_sframe_enc_opts o;
	struct dunwind_sframe_table t;
	struct sf_args a;
	struct dw_sframe_file f;
	__u8 *out = NULL;
	size_t out_len = 0;
	__u32 i;
	FILE *fp;
	int err;

	err = parse_args(argc, argv, &a, 0);
	if (err)
		return dw_opt_exit(err);
	if (a.version < 1 || a.version > 3 || !a.out) {
		fprintf(stderr, "dunwind sframe encode: give --version 1, 2 or 3 and -o OUT\n");
		return 2;
	}
	err = load(&a, &f, &t);
	if (err) {
		free(f.data);
		return 1;
	}
	memset(&o, 0, sizeof(o));
	o.version = (__u8)a.version;
	o.flags = t.flags & DUNWIND_SFRAME_F_FDE_SORTED;
	if (a.pcrel == 1 || (a.pcrel == -1 && a.version == 3))
		o.flags |= DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL;
	if (a.version == 1 && (o.flags & DUNWIND_SFRAME_F_FDE_FUNC_START_PCREL)) {
		fprintf(stderr, "dunwind sframe encode: --pcrel needs --version 2 or 3\n");
		err = -EINVAL;
		goto out;
	}
	o.abi = t.abi;
	o.fixed_fp = t.fixed_fp;
	o.fixed_ra = t.fixed_ra;
	o.sec_vaddr = f.vaddr;
	err = dw_sframe_file_rows(&t, &funcs);
	if (err) {
		fprintf(stderr, "dunwind sframe encode: %s: %s\n", a.file, dw_sframe_strerror(err));
		goto out;
	}
	err = dw_sframe_encode(&o, funcs, t.num_fdes, &out, &out_len);
	if (err) {
		fprintf(stderr, "dunwind sframe encode: cannot express the table as v%d: %s\n",
			a.version, strerror(-err));
		goto out;
	}
	fp = fopen(a.out, "wb");
	if (!fp || fwrite(out, 1, out_len, fp) != out_len || fclose(fp)) {
		fprintf(stderr, "dunwind sframe encode: cannot write %s: %s\n", a.out,
			strerror(errno));
		err = -EIO;
		goto out;
	}
	printf("wrote %zu bytes of SFrame v%d to %s (vaddr 0x%" PRIx64 ")\n", out_len, a.version,
	       a.out, (uint64_t)f.vaddr);
out:
	if (funcs)
		for (i = 0; i < t.num_fdes; i++)
			free((void *)funcs[i].rows);
	free(funcs);
	free(out);
	free(f.data);
	return err ? 1 : 0;
}

/* dunwind sframe gen: SFrame from the file's DWARF CFI, for registration. */
static int do_gen(int argc, char **argv)
{
	struct dw_sframe_gen_opts o = {};
	struct dw_sframe_gen_result r;
	struct sf_args a;
	FILE *out;
	int err;

	err = parse_args(argc, argv, &a, 0);
	if (err)
		return dw_opt_exit(err);
	if (!a.out || a.raw || (a.version && a.version != 2 && a.version != 3)) {
		fprintf(stderr, "dunwind sframe gen: wants -o OUT, an ELF FILE and --version 2 or 3\n");
		return 2;
	}
	o.version = a.version;
	o.flags = a.gen_flags;
	err = dw_sframe_gen(a.file, &o, &r);
	if (err) {
		fprintf(stderr, "dunwind sframe gen: %s: %s\n", a.file, strerror(-err));
		return 1;
	}
	out = fopen(a.out, "wb");
	if (!out || fwrite(r.table, 1, r.table_size, out) != r.table_size || fclose(out)) {
		fprintf(stderr, "dunwind sframe gen: cannot write %s: %s\n", a.out, strerror(errno));
		dw_sframe_gen_free(&r);
		return 1;
	}
	fprintf(stderr, "%s: SFrame v%u, %zu bytes, relative to vaddr %#llx\n", a.out, r.version,
		r.table_size, (unsigned long long)r.sec_vaddr);
	dw_sframe_gen_print_stats(stderr, &r);
	dw_sframe_gen_free(&r);
	return 0;
}

/**
 * dw_cmd_sframe() - `dunwind sframe VERB ...`.
 * @argc, @argv: argv[0] is "sframe", argv[1] the verb.
 *
 * Context: user space; prints to stdout, errors to stderr.
 * Return: process exit status: 0 ok, 1 failure, 2 usage error.
 */
int dw_cmd_sframe(int argc, char **argv)
{
	if (argc < 2) {
		dw_options_usage(stderr, &dw_sframe_help);
		return 2;
	}
	if (argv[1][0] == '-') {	/* -h, --list-opts */
		int r = dw_parse_options(argc, argv, &dw_sframe_help, &(struct sf_args){ 0 });

		if (r >= 0 && r < argc)
			fprintf(stderr, "dunwind sframe: give the verb first: dump, find, encode "
				"or gen\n");
		return r < 0 ? dw_opt_exit(r) : 2;
	}
	if (!strcmp(argv[1], "dump"))
		return do_dump(argc - 1, argv + 1);
	if (!strcmp(argv[1], "find"))
		return do_find(argc - 1, argv + 1);
	if (!strcmp(argv[1], "encode"))
		return do_encode(argc - 1, argv + 1);
	if (!strcmp(argv[1], "gen"))
		return do_gen(argc - 1, argv + 1);
	fprintf(stderr, "dunwind sframe: unknown verb '%s' (dump, find, encode, gen)\n", argv[1]);
	dw_options_usage(stderr, &dw_sframe_help);
	return 2;
}
