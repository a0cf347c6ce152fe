// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind script: print one stitched stack per sample, in the format of
 * 'perf script' (so that perf's stack-collapsing tools read it):
 *
 *	COMM PID/TID [CPU] SECS.USECS: PERIOD cpu-clock:
 *		<kernel frames>	ffffffff81234567 sym+0x12 ([kernel.kallsyms])
 *		<user frames>	    55d0c0de1234 sym+0x34 (/path/to/dso)
 *		[truncated: fault]		(when the user walk stopped early)
 *	<blank line>
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "commands.h"
#include "kallsyms.h"
#include "procs.h"
#include "stitch.h"
#include "symtab.h"

struct script_opts {
	const char *input;
	const char *kallsyms;
	int user_symbols;
};

/* What we know of one process of the capture. */
struct proc_info {
	struct proc_info *next;
	int pid;
	char comm[32];
	struct dw_maps *maps;		/* NULL: no symbols for it */
};

struct script_state {
	const struct script_opts *o;
	const struct dw_capture_header *hdr;
	struct dw_kallsyms *ksyms;
	struct dw_procs *model;		/* from COMM and MMAP records */
	struct proc_info *procs;	/* from /proc, for what the capture lacks */
	int other_boot;			/* recorded during another boot */
};

static const char *const stop_names[DUNWIND_STOP_MAX] = {
	[DUNWIND_STOP_END] = "end",
	[DUNWIND_STOP_MAX_DEPTH] = "max-depth",
	[DUNWIND_STOP_FAULT] = "fault",
	[DUNWIND_STOP_BAD_FRAME] = "bad-frame",
	[DUNWIND_STOP_EXITED] = "exited",
	[DUNWIND_STOP_NO_MM] = "no-mm",
	[DUNWIND_STOP_NO_INFO] = "no-info",
	[DUNWIND_STOP_SESSION] = "session",
};

static void script_usage(FILE *f)
{
	fprintf(f,
		"usage: dunwind script [options]\n"
		"  -i, --input FILE       capture file (default dunwind.data)\n"
		"  -k, --kallsyms FILE    kernel symbols (default /proc/kallsyms)\n"
		"      --no-user-symbols  print user addresses raw (no ELF files are read)\n");
}

/*
 * Boot-time start of process @pid in ns, or 0 if unknown.  A process that
 * started after the capture was made is not the one that was recorded.
 */
static unsigned long long proc_start_ns(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks = 0;
	long hz = sysconf(_SC_CLK_TCK);
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');		/* comm may hold spaces */
	if (!p || hz <= 0)
		return 0;
	/* p + 1 is the space before field 3 (state); starttime is field 22. */
	for (i = 3; i <= 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &ticks) != 1)
		return 0;
	return ticks * (1000000000ULL / (unsigned long long)hz);
}

static struct proc_info *proc_get(struct script_state *ss, int pid)
{
	struct proc_info *pi;
	unsigned long long start;
	char path[64];
	FILE *f;

	for (pi = ss->procs; pi; pi = pi->next)
		if (pi->pid == pid)
			return pi;
	pi = calloc(1, sizeof(*pi));
	if (!pi)
		return NULL;
	pi->pid = pid;
	snprintf(pi->comm, sizeof(pi->comm), ":%d", pid);	/* perf's "unknown" */
	pi->next = ss->procs;
	ss->procs = pi;
	/* Only trust /proc/PID if it is the process that was recorded. */
	if (ss->other_boot)
		return pi;
	start = proc_start_ns(pid);
	if (!start || !ss->hdr->created_boottime_ns || start > ss->hdr->created_boottime_ns)
		return pi;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(pi->comm, sizeof(pi->comm), f))
			pi->comm[strcspn(pi->comm, "\n")] = '\0';
		fclose(f);
	}
	if (ss->o->user_symbols)
		pi->maps = dw_maps_load(pid);
	return pi;
}

static void print_sample(const struct dunwind_rec_sample *s,
			 const struct dunwind_rec_user_stack *u, void *arg)
{
	struct script_state *ss = arg;
	const char *comm = dw_procs_comm(ss->model, s->tid, s->time);
	int mmaps = dw_procs_has_maps(ss->model, s->pid);
	struct proc_info *pi = NULL;
	unsigned int i;

	if (!comm || (u && !mmaps))
		pi = proc_get(ss, (int)s->pid);
	if (!comm)
		comm = pi ? pi->comm : "[unknown]";
	printf("%s %u/%u [%03u] %llu.%06llu: %llu cpu-clock:\n",
	       comm, s->pid, s->tid, s->cpu,
	       (unsigned long long)(s->time / 1000000000ULL),
	       (unsigned long long)(s->time % 1000000000ULL / 1000),
	       (unsigned long long)s->period);
	for (i = 0; i < s->nr_kernel; i++) {
		const char *mod = NULL, *name = NULL;
		uint64_t off = 0;

		if (ss->ksyms)
			name = dw_kallsyms_lookup(ss->ksyms, s->ips[i], &off, &mod);
		if (name)
			printf("\t%16" PRIx64 " %s+0x%" PRIx64 " ([%s])\n", (uint64_t)s->ips[i],
			       name, off, mod);
		else
			printf("\t%16" PRIx64 " [unknown] ([kernel.kallsyms])\n",
			       (uint64_t)s->ips[i]);
	}
	if (u) {
		for (i = 0; i < u->nr; i++) {
			const char *dso = NULL, *name = NULL;
			uint64_t off = 0;

			if (!ss->o->user_symbols)
				;
			else if (mmaps)
				name = dw_procs_lookup(ss->model, s->pid, u->time, u->ips[i], &off,
						       &dso);
			else if (pi && pi->maps)
				name = dw_maps_lookup(pi->maps, u->ips[i], &off, &dso);
			if (name)
				printf("\t%16" PRIx64 " %s+0x%" PRIx64 " (%s)\n",
				       (uint64_t)u->ips[i], name, off, dso);
			else
				printf("\t%16" PRIx64 " [unknown] (%s)\n", (uint64_t)u->ips[i],
				       dso ? dso : "[unknown]");
		}
		if (u->stop != DUNWIND_STOP_END)
			printf("\t[truncated: %s]\n",
			       u->stop < DUNWIND_STOP_MAX ? stop_names[u->stop] : "?");
	} else if (s->cookie) {
		printf("\t[user stack missing]\n");
	}
	printf("\n");
}

static int do_script(const struct script_opts *o)
{
	struct dw_capture_reader r;
	struct script_state ss = { .o = o, .hdr = &r.hdr };
	const struct dunwind_rec_header *rec;
	struct dw_stitch_counts c;
	struct dw_stitch *st;
	struct proc_info *pi, *next;
	int err, ret = 0;

	err = dw_capture_open(&r, o->input);
	if (err) {
		if (err == -ENOENT)
			fprintf(stderr, "dunwind script: %s: no such file: record one with "
				"'dunwind record' or give -i FILE\n",
				o->input);
		else
			fprintf(stderr, "dunwind script: %s: %s\n", o->input, r.err);
		return 1;
	}
	st = dw_stitch_new();
	ss.model = dw_procs_new();
	if (!st || !ss.model) {
		fprintf(stderr, "dunwind script: out of memory\n");
		ret = 1;
		goto out;
	}
	while ((rec = dw_capture_next(&r))) {
		err = dw_stitch_add(st, rec);
		if (!err && (o->user_symbols || rec->type != DUNWIND_REC_MMAP))
			err = dw_procs_add(ss.model, rec);
		if (err) {
			fprintf(stderr, "dunwind script: %s\n", strerror(-err));
			ret = 1;
			goto out;
		}
	}
	ss.other_boot = dw_capture_same_boot(&r.hdr) == 0;
	if (ss.other_boot)
		fprintf(stderr, "dunwind script: %s was recorded during another boot: give "
			"--kallsyms FILE from that boot for kernel symbols\n", o->input);
	if (o->kallsyms || !ss.other_boot)
		ss.ksyms = dw_kallsyms_load(o->kallsyms);
	if (!ss.ksyms && o->kallsyms) {
		fprintf(stderr, "dunwind script: %s: %s\n", o->kallsyms, strerror(errno));
		ret = 1;
		goto out;
	}
	if (!ss.ksyms && !ss.other_boot)
		fprintf(stderr, "dunwind script: no kernel symbols (%s): kernel addresses stay "
			"raw; run as root or pass --kallsyms FILE\n",
			errno == EPERM ? "/proc/kallsyms hides addresses" : strerror(errno));
	dw_stitch_finish(st, print_sample, &ss, &c);
	if (fflush(stdout)) {
		fprintf(stderr, "dunwind script: writing the output: %s\n", strerror(errno));
		ret = 1;
	}
	fprintf(stderr, "dunwind script: %lu samples: %lu with their user stack, "
		"%lu without a user part, %lu user stack missing\n",
		c.samples, c.joined, c.no_user, c.missing);
	fprintf(stderr, "dunwind script: %lu user stacks (%lu orphan, %lu duplicate); "
		"lost %lu records (%lu samples, %lu user stacks)",
		c.user_stacks, c.orphan_stacks, c.dup_stacks, c.lost[0],
		c.lost[DUNWIND_REC_SAMPLE], c.lost[DUNWIND_REC_USER_STACK]);
	if (r.skipped)
		fprintf(stderr, "; skipped %lu records of unknown type", r.skipped);
	fprintf(stderr, "\n");
out:
	for (pi = ss.procs; pi; pi = next) {
		next = pi->next;
		dw_maps_free(pi->maps);
		free(pi);
	}
	dw_kallsyms_free(ss.ksyms);
	dw_procs_free(ss.model);
	dw_stitch_free(st);
	dw_capture_release(&r);
	return ret;
}

/**
 * dw_cmd_script() - the 'script' subcommand
 * @argc:	argument count, argv[0] is "script"
 * @argv:	arguments
 *
 * Context: user space.
 * Return: the exit status: 0, 1 if the capture cannot be read, 2 for a
 * usage error.
 */
int dw_cmd_script(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "no-user-symbols", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct script_opts o = { .input = "dunwind.data", .user_symbols = 1 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:k:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case 'k':
			o.kallsyms = optarg;
			break;
		case 'U':
			o.user_symbols = 0;
			break;
		case 'h':
			script_usage(stdout);
			return 0;
		default:
			script_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dunwind script: unexpected argument '%s'\n", argv[optind]);
		script_usage(stderr);
		return 2;
	}
	return do_script(&o);
}
