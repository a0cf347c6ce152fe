// SPDX-License-Identifier: GPL-2.0
/*
 * dunwind record: sample a command, a process or a thread (and the
 * processes they create) and write every record of the ring to a capture
 * file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "capture/capture.h"
#include "capture/event.h"
#include "commands.h"
#include "capture/ksnap.h"
#include "capture/ring.h"
#include "capture/usnap.h"
#include "sframe/needed.h"
#include "symbols/dso.h"
#include "symbols/procfile.h"
#include "sframe/sframe_reg.h"
#include "util/num.h"
#include "util/options.h"

#define DW_POLL_MS		10	/* ring poll while recording: new MMAP records get
				   their tables this soon */
#define DW_FINAL_IDLE_MS	20	/* after STOP: wait this long ... */
#define DW_FINAL_IDLE_ROUNDS	5	/* ... this many times with nothing new */
#define DW_FINAL_MAX_MS		2000	/* and never longer than this */
#define DW_PROGRESS_MS		500	/* live progress line on a terminal */

struct record_opts {
	unsigned long long freq, period;
	int event;			/* DUNWIND_EVENT_* */
	const char *output;
	const char *device;
	unsigned int pages, max_stack;
	int fp_only;
	int force;			/* -f: overwrite an existing output */
	int no_gen;			/* --no-gen-sframe */
	int no_ksyms;			/* --no-kallsyms */
	int no_usyms;			/* --no-symbol-snapshot */
	int no_inherit;			/* --no-inherit: not the processes it creates */
	int off_cpu;			/* --off-cpu */
	unsigned long long off_cpu_thresh_us;	/* --off-cpu-thresh */
	int pid, tid;
	char **cmd;			/* NULL-terminated, or NULL */
};

static int opt_event(const struct dw_option *opt, const char *arg, void *args,
		     const char *cmd)
{
	struct record_opts *o = args;

	(void)opt;
	o->event = dw_event_parse(arg);
	if (o->event >= 0)
		return 0;
	fprintf(stderr, "dunwind %s: unknown event '%s': one of %s\n", cmd, arg,
		dw_event_names());
	return -EINVAL;
}

static int opt_pages(const struct dw_option *opt, const char *arg, void *args,
		     const char *cmd)
{
	struct record_opts *o = args;
	unsigned long long v;

	(void)opt;
	if (dw_parse_ull(arg, 10, 1, DUNWIND_MAX_RING_PAGES, &v)) {
		fprintf(stderr, "dunwind %s: -m wants a number from 1 to %u, not '%s'\n", cmd,
			DUNWIND_MAX_RING_PAGES, arg);
		return -EINVAL;
	}
	if (v & (v - 1)) {
		fprintf(stderr, "dunwind %s: -m wants a power of two, not %llu\n", cmd, v);
		return -EINVAL;
	}
	o->pages = (unsigned int)v;
	return 0;
}

#define STR(x) #x
#define XSTR(x) STR(x)

static const struct dw_option record_options[] = {
	{ .type = DW_OPT_CALLBACK, .short_name = 'e', .long_name = "event", .argh = "EVENT",
	  .cb = opt_event, .values = dw_event_names,
	  .help = "what drives sampling, cpu-clock by default; hardware events need a PMU" },
	OPT_ULL('F', "freq", struct record_opts, freq, "HZ", 1, 1000000,
		"samples per second of CPU time, or of events (default 999)"),
	OPT_ULL('c', "count", struct record_opts, period, "N", 1, ULLONG_MAX,
		"or: one sample per N ns of CPU time (the clocks) or per N events "
		"(hardware events)"),
	OPT_STRING('o', "output", struct record_opts, output, "FILE",
		   "capture file (default dunwind.data)"),
	OPT_BOOL('f', "force", struct record_opts, force,
		 "overwrite FILE if it exists (else an existing FILE is an error)"),
	OPT_CALLBACK('m', "mmap-pages", "N", opt_pages,
		     "ring data pages, a power of two (default "
		     XSTR(DUNWIND_DEFAULT_RING_PAGES) ")"),
	OPT_UINT(0, "max-stack", struct record_opts, max_stack, "N", 1,
		 DUNWIND_MAX_USER_FRAMES,
		 "user frames per stack (default " XSTR(DUNWIND_DEFAULT_USER_FRAMES) ", max "
		 XSTR(DUNWIND_MAX_USER_FRAMES) ")"),
	OPT_BOOL(0, "fp-only", struct record_opts, fp_only,
		 "walk user stacks with frame pointers only"),
	OPT_BOOL(0, "no-gen-sframe", struct record_opts, no_gen,
		 "do not generate SFrame tables for libraries that lack .sframe (libc...) "
		 "from their .eh_frame"),
	OPT_BOOL(0, "no-kallsyms", struct record_opts, no_ksyms,
		 "do not store the kernel symbols in the capture"),
	OPT_BOOL(0, "no-symbol-snapshot", struct record_opts, no_usyms,
		 "do not store the user functions hit in the capture (reports then need the "
		 "binaries)"),
	OPT_BOOL(0, "no-inherit", struct record_opts, no_inherit,
		 "do not follow the processes the command (or -p's process) creates; "
		 "threads are followed all the same"),
	OPT_BOOL(0, "off-cpu", struct record_opts, off_cpu,
		 "also a sample each time a thread blocks, weighted by the time it stays off "
		 "CPU (event offcpu-time)"),
	OPT_ULL(0, "off-cpu-thresh", struct record_opts, off_cpu_thresh_us, "US", 0,
		3600000000ULL,
		"with --off-cpu: no sample for blocks shorter than US microseconds (default 0: "
		"every block)"),
	OPT_INT('p', "pid", struct record_opts, pid, "PID", 1, INT_MAX,
		"profile this process (all its threads, and the processes it creates from "
		"now on)"),
	OPT_INT('t', "tid", struct record_opts, tid, "TID", 1, INT_MAX,
		"profile this thread only"),
	OPT_STRING(0, "device", struct record_opts, device, "PATH",
		   "device node (default " DUNWIND_DEVICE ")"),
	OPT_END(),
};

const struct dw_cmd_help dw_record_help = {
	.name = "record",
	.summary = "profile a command or process, write dunwind.data",
	.usage = (const char *const[]){
		"record [options] (-p PID | -t TID | [--] CMD [ARGS...])", NULL
	},
	.doc = "Samples the target with the dunwind module (/dev/dunwind) and writes every "
	       "record of its ring to a capture file (following the processes the command or "
	       "-p's process creates, like perf, unless --no-inherit): samples with their kernel stacks, the "
	       "user stacks the module walked when the threads returned to user space, "
	       "mappings with build-ids, thread names and a snapshot of the kernel symbols the "
	       "samples need. With a command, its exit status is dunwind's. Libraries without "
	       ".sframe get SFrame tables generated from their .eh_frame (cached) unless "
	       "--no-gen-sframe.",
	.options = record_options,
	.flags = DW_PARSE_STOP_AT_NON_OPTION,
};

struct record_state {
	struct dw_capture_writer w;
	unsigned long long samples, samples_cookie, samples_no_user, user_stacks;
	unsigned long long offcpu, offcpu_open, offcpu_ns;
	unsigned long long by_type[DUNWIND_REC_MAX], other;
	unsigned long long lost[DUNWIND_REC_MAX];
	int write_err;
	/* SFrame tables generated for libraries without .sframe. */
	int dev_fd;			/* < 0: do not register */
	struct { unsigned long long dev, ino; } tried[256];
	unsigned int nr_tried;
	unsigned int reg_files, reg_ok, reg_cache, reg_gen, reg_failed;
	unsigned long long reg_ns;
	unsigned long long ksyms_bytes;	/* kernel symbol snapshot, 0: none */
	long long ksyms_ms;
	/* Kernel IPs seen, for a snapshot of just the symbols they need. */
	__u64 *kips;
	size_t nr_kips, cap_kips;
	int kips_failed;		/* out of memory: store every symbol */
	/* User symbols of every user IP, stored at the end; NULL: none. */
	struct dw_usnap_writer *usnap;
	struct dw_usnap_stats usyms;
	int usyms_written;
};

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sort and deduplicate the kernel IPs collected so far. */
static void kips_compact(struct record_state *st)
{
	size_t i, n = 0;

	qsort(st->kips, st->nr_kips, sizeof(*st->kips), cmp_u64);
	for (i = 0; i < st->nr_kips; i++)
		if (!n || st->kips[n - 1] != st->kips[i])
			st->kips[n++] = st->kips[i];
	st->nr_kips = n;
}

static void kips_add(struct record_state *st, const struct dunwind_rec_sample *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_kernel && !st->kips_failed; i++) {
		if (st->nr_kips == st->cap_kips) {
			/* Full: deduplicate; grow only if that freed little. */
			kips_compact(st);
			if (!st->cap_kips || st->nr_kips > st->cap_kips / 2) {
				size_t cap = st->cap_kips ? st->cap_kips * 2 : 4096;
				__u64 *p = realloc(st->kips, cap * sizeof(*p));

				if (!p) {
					st->kips_failed = 1;	/* then store every symbol */
					return;
				}
				st->kips = p;
				st->cap_kips = cap;
			}
		}
		st->kips[st->nr_kips++] = s->ips[i];
	}
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* A plain error about @what (a file, a system call). */
static void report_file(const char *what, int err)
{
	fprintf(stderr, "dunwind: %s: %s\n", what, strerror(-err));
}

/* Say what went wrong with the device or session and what to do about it. */
static void report(const struct record_opts *o, const char *what, int err)
{
	const char *dev = o->device ? o->device : DUNWIND_DEVICE;

	switch (-err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		fprintf(stderr, "dunwind: %s not found: load the module (insmod dunwind.ko, from "
			"out/kmod/RELEASE/kmod/ or 'make install')\n",
			dev);
		break;
	case EACCES:
	case EPERM:
		fprintf(stderr, "dunwind: %s: permission denied: profiling needs CAP_PERFMON "
			"(or root), and permission to trace the target\n", what);
		break;
	case ESRCH:
		fprintf(stderr, "dunwind: %s: no such process %d\n", what,
			o->pid ? o->pid : o->tid);
		break;
	case ENOMEM:
		fprintf(stderr, "dunwind: %s: no memory for the ring: its pages count as locked "
			"memory; use a smaller ring (-m) or raise 'ulimit -l'\n", what);
		break;
	default:
		report_file(what, err);
	}
}

/* Account for one file's registration; stop trying on a module without the ioctl. */
static void reg_account(struct record_state *st, const struct dw_sframe_reg_file *f)
{
	st->reg_files++;
	st->reg_ns += f->gen_ns + f->load_ns + f->reg_ns;
	if (!f->err || f->err == -EEXIST)
		st->reg_ok++;
	else
		st->reg_failed++;
	if (f->source == DW_SFRAME_SRC_CACHE)
		st->reg_cache++;
	else if (f->source == DW_SFRAME_SRC_GENERATED)
		st->reg_gen++;
	if (f->err == -ENOTTY) {
		fprintf(stderr, "dunwind: %s\n", dw_sframe_reg_strerror(f->err));
		st->dev_fd = -1;
	}
}

/* First time we see file (@major:@minor, @ino)? Then remember it. */
static int reg_first_time(struct record_state *st, unsigned int major, unsigned int minor,
			  unsigned long long ino)
{
	unsigned long long dev = (unsigned long long)major << 32 | minor;
	unsigned int i;

	for (i = 0; i < st->nr_tried; i++)
		if (st->tried[i].ino == ino && st->tried[i].dev == dev)
			return 0;
	if (st->nr_tried == sizeof(st->tried) / sizeof(st->tried[0]))
		return 0;		/* that many libraries: stop trying new ones */
	st->tried[st->nr_tried].dev = dev;
	st->tried[st->nr_tried++].ino = ino;
	return 1;
}

/* Give the module a table for @path unless it has its own .sframe. */
static void reg_path(struct record_state *st, const char *path)
{
	static const struct dw_sframe_reg_opts ro = { .flags = DW_SFRAME_REG_SKIP_OWN };
	struct dw_sframe_reg_file f;

	if (dw_sframe_register_file(st->dev_fd, path, &ro, &f) == -ENOEXEC)
		return;			/* not ELF (a script): nothing to say */
	if (!f.err && f.source == DW_SFRAME_SRC_NONE)
		return;			/* has its own .sframe */
	reg_account(st, &f);
}

/*
 * A new executable file mapping: give the module a table if it has no
 * .sframe, made from the mapped file as the process sees it (its root, its
 * mount namespace), else from the mapped inode itself (deleted or replaced
 * since: never the new file's table for the old mapping).
 */
static void reg_mapping(struct record_state *st, const struct dunwind_rec_mmap *m)
{
	char file[4200];

	if (st->dev_fd < 0 || !(m->prot & PROT_EXEC) || m->path[0] != '/' ||
	    !reg_first_time(st, m->dev_major, m->dev_minor, m->ino))
		return;
	if (dw_proc_file((int)m->pid, m->path, m->start, m->end,
			 m->build_id_size ? m->build_id : NULL, m->build_id_size, file,
			 sizeof(file)) == DW_PROC_FILE_NONE && (m->hdr.misc & DUNWIND_MMAP_DELETED))
		return;
	reg_path(st, file);
}

/* The file execvp() would run for @name, into @buf; 0 or -ENOENT. */
static int find_in_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return access(buf, X_OK) ? -ENOENT : 0;
	}
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (snprintf(buf, len, "%.*s/%s", (int)(end - p), end == p ? "." : p, name) <
		    (int)len && !access(buf, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* Register @program (found like execvp() would) and the libraries it needs. */
static void reg_program(struct record_state *st, const char *name)
{
	struct dw_needed need = { 0 };
	char path[4096];
	struct stat sb;
	size_t i;

	if (find_in_path(name, path, sizeof(path)) || stat(path, &sb) || !S_ISREG(sb.st_mode))
		return;
	if (!reg_first_time(st, major(sb.st_dev), minor(sb.st_dev), sb.st_ino))
		return;
	dw_needed_closure(path, &need);		/* what was found, even on error */
	for (i = 0; i < need.n; i++) {
		if (stat(need.paths[i], &sb))
			continue;
		if (!i || reg_first_time(st, major(sb.st_dev), minor(sb.st_dev), sb.st_ino))
			reg_path(st, need.paths[i]);
	}
	dw_needed_free(&need);
}

/*
 * Nothing of the command is mapped before its exec: register, before it
 * starts, the programs its command line names (the command, and the words
 * of a shell script such as sh -c 'gzip < f | xz') with their
 * interpreter and DT_NEEDED closure, so that their first samples already
 * have tables.  Libraries loaded later come from their MMAP records.
 */
static void reg_command(struct record_state *st, char **cmd)
{
	static const char seps[] = " \t\n;|&()<>'\"`$={}!";
	char word[256];
	size_t i;

	if (st->dev_fd < 0)
		return;
	reg_program(st, cmd[0]);
	for (i = 1; cmd[i]; i++) {
		const char *p = cmd[i];

		while (*p) {
			size_t n = strcspn(p, seps);

			/* Program names only: no options, no words too long for one. */
			if (n && n < sizeof(word) && p[0] != '-') {
				memcpy(word, p, n);
				word[n] = '\0';
				reg_program(st, word);
			}
			p += n;
			p += strspn(p, seps);
		}
	}
}

/* Before START: tables for what the target (or, for -- CMD, we) already map. */
static void reg_initial(struct record_state *st, int pid)
{
	struct dw_sframe_reg_pid res;
	unsigned int i;
	int err;

	err = dw_sframe_register_pid(st->dev_fd, pid, NULL, &res);
	for (i = 0; i < res.nfiles; i++)
		if (res.files[i].source != DW_SFRAME_SRC_NONE || res.files[i].err)
			reg_account(st, &res.files[i]);
	if (err && err != -ENOTTY)
		fprintf(stderr, "dunwind: SFrame tables for pid %d: %s\n", pid,
			dw_sframe_reg_strerror(err));
	dw_sframe_reg_pid_free(&res);
}

static int on_record(const struct dunwind_rec_header *rec, void *arg)
{
	struct record_state *st = arg;
	int err, i;

	if (rec->type < DUNWIND_REC_MAX)
		st->by_type[rec->type]++;
	if (st->usnap)
		dw_usnap_collect(st->usnap, rec);	/* -ENOMEM: said at the end */
	switch (rec->type) {
	case DUNWIND_REC_SAMPLE: {
		const struct dunwind_rec_sample *s = (const void *)rec;

		st->samples++;
		kips_add(st, s);
		if (s->flags & DUNWIND_SAMPLE_OFF_CPU) {
			st->offcpu++;
			st->offcpu_ns += s->period;
			st->offcpu_open += !!(s->flags & DUNWIND_SAMPLE_OFF_CPU_OPEN);
		}
		if (s->cookie)
			st->samples_cookie++;
		else
			st->samples_no_user++;
		break;
	}
	case DUNWIND_REC_USER_STACK:
		st->user_stacks++;
		break;
	case DUNWIND_REC_LOST: {
		const struct dunwind_rec_lost *l = (const void *)rec;

		for (i = 0; i < DUNWIND_REC_MAX; i++)
			st->lost[i] += l->lost[i];
		break;
	}
	case DUNWIND_REC_MMAP:
		reg_mapping(st, (const void *)rec);
		break;
	case DUNWIND_REC_COMM:
	case DUNWIND_REC_FORK:
	case DUNWIND_REC_EXIT:
		break;
	default:
		st->other++;
	}
	err = dw_capture_write(&st->w, rec);
	if (err) {
		st->write_err = err;
		return err;
	}
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Drain once; on failure say why.  Records consumed, or -errno. */
static int drain(struct dw_session *s, struct record_state *st, const struct record_opts *o)
{
	int n = dw_session_drain(s, on_record, st);

	/* Whole drains reach the file: a capture cut later keeps them. */
	if (n > 0 && !st->write_err)
		st->write_err = dw_capture_flush(&st->w);
	if (n >= 0 && st->write_err)
		n = st->write_err;
	if (n >= 0)
		return n;
	if (st->write_err)
		report_file(o->output, st->write_err);
	else if (n == -EPROTO)
		fprintf(stderr, "dunwind: the ring holds a malformed record: stopping "
			"(a module bug: please report it)\n");
	else
		report(o, "reading the ring", n);
	return n;
}

/* Is the thread @tid gone (for -t, when no pidfd can watch it)? */
static int tid_gone(int tid)
{
	return kill(tid, 0) && errno == ESRCH;
}

static unsigned long long per(unsigned long long ns, unsigned long long n)
{
	return n ? ns / n : 0;
}

/* Store the kernel symbol snapshot; 0, or 1 if the capture cannot be written. */
static int write_ksyms(const struct record_opts *o, struct record_state *st)
{
	__u64 before = st->w.hdr.record_bytes;
	long long t0 = now_ms();
	int err;

	if (!st->kips_failed)
		kips_compact(st);
	/* Only the symbols this capture's kernel IPs need (all if unknown). */
	err = dw_ksnap_write_ips(&st->w, NULL, NULL, st->kips_failed ? NULL : st->kips,
				 st->nr_kips);

	if (err == -EPERM) {
		fprintf(stderr, "dunwind: /proc/kallsyms hides kernel addresses: the capture has "
			"no kernel symbols (record as root)\n");
	} else if (err == -EIO || err == -ENOSPC || err == -EFBIG) {
		report_file(o->output, err);
		st->write_err = err;
		return 1;
	} else if (err) {
		fprintf(stderr, "dunwind: kernel symbols: %s: the capture has none\n",
			strerror(-err));
	} else {
		st->ksyms_bytes = st->w.hdr.record_bytes - before;
		st->ksyms_ms = now_ms() - t0;
	}
	return 0;
}

/* Store the user symbol snapshot; 0, or 1 if the capture cannot be written. */
static int write_usyms(const struct record_opts *o, struct record_state *st)
{
	int err = dw_usnap_write(st->usnap, &st->w, &st->usyms);

	if (err == -EIO || err == -ENOSPC || err == -EFBIG) {
		report_file(o->output, err);
		st->write_err = err;
		return 1;
	}
	if (err)
		fprintf(stderr, "dunwind: user symbols: %s: the capture has none (reports need "
			"the binaries then)\n", strerror(-err));
	else
		st->usyms_written = 1;
	return 0;
}

/* One line of live progress on a terminal (stderr), rewritten in place. */
static void progress(const struct record_state *st, int done)
{
	if (done) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	fprintf(stderr, "\rdunwind: recording: %llu samples, %llu user stacks, %llu lost\033[K",
		st->samples, st->user_stacks, st->lost[0]);
	fflush(stderr);
}

static void summary(const struct record_opts *o, const struct record_state *st,
		    const struct dunwind_stats *ks, int have_stats)
{
	fprintf(stderr, "dunwind: %llu samples (%llu without a user part), %llu user stacks",
		st->samples, st->samples_no_user, st->user_stacks);
	if (st->user_stacks)
		fprintf(stderr, ", %.2f samples per user walk",
			(double)st->samples_cookie / (double)st->user_stacks);
	fprintf(stderr, "\n");
	if (o->off_cpu) {
		fprintf(stderr, "dunwind: off-CPU: %llu of the samples, %.3f s blocked, %llu still "
			"blocked at the end", st->offcpu, st->offcpu_ns / 1e9, st->offcpu_open);
		if (have_stats && ks->size >= DUNWIND_STATS_SIZE_VER2)
			fprintf(stderr, "; %llu blocks under --off-cpu-thresh, %llu not measured "
				"(more threads blocked than -m's pending slots)",
				(unsigned long long)ks->offcpu_short,
				(unsigned long long)ks->offcpu_full);
		fprintf(stderr, "\n");
	}
	fprintf(stderr, "dunwind: %llu mmap, %llu comm, %llu fork, %llu exit records",
		st->by_type[DUNWIND_REC_MMAP], st->by_type[DUNWIND_REC_COMM],
		st->by_type[DUNWIND_REC_FORK], st->by_type[DUNWIND_REC_EXIT]);
	if (st->other)
		fprintf(stderr, ", %llu of unknown type", st->other);
	fprintf(stderr, "\n");
	if (st->reg_files)
		fprintf(stderr, "dunwind: SFrame tables for %u files without .sframe: %u registered "
			"(%u from the cache, %u generated), %u failed, %.1f ms\n",
			st->reg_files, st->reg_ok, st->reg_cache, st->reg_gen, st->reg_failed,
			st->reg_ns / 1e6);
	fprintf(stderr, "dunwind: lost %llu records (%llu samples, %llu user stacks, %llu other)\n",
		st->lost[0], st->lost[DUNWIND_REC_SAMPLE], st->lost[DUNWIND_REC_USER_STACK],
		st->lost[0] - st->lost[DUNWIND_REC_SAMPLE] - st->lost[DUNWIND_REC_USER_STACK]);
	if (have_stats) {
		fprintf(stderr,
			"dunwind: module: %llu samples (%llu in user mode, %llu without a user "
			"part, %llu pending-table full), %llu walks, %llu threads\n",
			(unsigned long long)ks->samples, (unsigned long long)ks->samples_user,
			(unsigned long long)ks->samples_no_user,
			(unsigned long long)ks->pending_full, (unsigned long long)ks->walks,
			(unsigned long long)ks->threads);
		fprintf(stderr,
			"dunwind: module: %llu user frames (%llu fp, %llu sframe), %.1f frames/walk; "
			"handler %llu ns/sample, walk %llu ns/walk; fp %llu ns/frame, "
			"sframe %llu ns/frame\n",
			(unsigned long long)ks->user_frames, (unsigned long long)ks->fp_frames,
			(unsigned long long)ks->sframe_frames,
			ks->walks ? (double)ks->user_frames / (double)ks->walks : 0.0,
			per(ks->handler_ns, ks->samples), per(ks->walk_ns, ks->walks),
			per(ks->fp_ns, ks->fp_frames), per(ks->sframe_ns, ks->sframe_frames));
	}
	if (st->ksyms_bytes)
		fprintf(stderr, "dunwind: kernel symbols: a %llu KiB snapshot in the capture "
			"(%lld ms)\n", st->ksyms_bytes >> 10, st->ksyms_ms);
	if (st->usyms_written)
		fprintf(stderr, "dunwind: user symbols: a %llu KiB snapshot in the capture: %lu "
			"functions, %lu source frames in %lu files for %lu addresses (%lu without "
			"a name) (%lld ms)\n", st->usyms.bytes >> 10, st->usyms.funcs,
			st->usyms.lines, st->usyms.files, st->usyms.addrs, st->usyms.unnamed,
			st->usyms.ms);
	if (st->usyms.via_map_files)
		fprintf(stderr, "dunwind: user symbols: %lu mapped files read through "
			"/proc/PID/map_files (their path was gone or named another file)\n",
			st->usyms.via_map_files);
	if (st->usyms.not_found)
		fprintf(stderr, "dunwind: user symbols: %lu mapped files (%s...) could be read "
			"neither at their path nor through /proc/PID/map_files (replaced, and not "
			"root?): the snapshot does not name them\n", st->usyms.not_found,
			st->usyms.first_not_found);
	if (st->write_err)
		fprintf(stderr, "dunwind: %s is incomplete (%s): it holds at most the %llu "
			"records (%llu bytes) written before the error; 'dunwind report' reads "
			"them\n", o->output, strerror(-st->write_err),
			(unsigned long long)st->w.hdr.record_count,
			(unsigned long long)st->w.hdr.record_bytes);
	else
		fprintf(stderr, "dunwind: wrote %llu records (%llu bytes) to %s\n",
			(unsigned long long)st->w.hdr.record_count,
			(unsigned long long)st->w.hdr.record_bytes, o->output);
}

/* Fork @cmd stopped on a pipe; *@go releases it.  Child pid or -errno. */
static int spawn(char **cmd, int *go)
{
	int p[2], pid;
	char c;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(p[0]);
		close(p[1]);
		return err;
	}
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);	/* the recorder gave up */
		execvp(cmd[0], cmd);
		fprintf(stderr, "dunwind: cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

static int do_record(const struct record_opts *o)
{
	struct dunwind_config cfg = { .size = sizeof(cfg) };
	struct record_state st = { 0 };
	struct dunwind_stats ks;
	struct dw_session s = { .fd = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	int child = 0, go = -1, pidfd = -1, ret = 1, err, status = 0, reaped = 0;
	int have_stats = 0, started = 0, idle, tty = isatty(STDERR_FILENO);
	long long t0, shown = 0;

	cfg.flags = o->fp_only ? DUNWIND_CFG_FP_ONLY : 0;
	/* A file that is not the mapped one is said once, in the summary. */
	dw_dso_set_quiet(1);
	if (!o->no_usyms) {
		st.usnap = dw_usnap_writer_new();
		if (!st.usnap)
			fprintf(stderr, "dunwind: user symbols: out of memory: the capture will "
				"have none\n");
	}
	if (o->off_cpu) {
		cfg.flags |= DUNWIND_CFG_OFF_CPU;
		cfg.offcpu_thresh_ns = o->off_cpu_thresh_us * 1000;
	}
	/* For -- CMD, sample the command, not our child before its exec. */
	if (o->cmd)
		cfg.flags |= DUNWIND_CFG_ENABLE_ON_EXEC;
	/* Like perf: the processes it creates too (fork, exec), unless --no-inherit. */
	if ((o->cmd || o->pid) && !o->no_inherit)
		cfg.flags |= DUNWIND_CFG_CHILDREN;
	cfg.sample_freq = o->freq;
	cfg.sample_period = o->period;
	cfg.event = (__u32)o->event;
	cfg.max_user_frames = o->max_stack;
	cfg.ring_pages = o->pages;
	cfg.pid = o->pid;
	cfg.tid = o->tid;
	if (o->cmd) {
		child = spawn(o->cmd, &go);
		if (child < 0) {
			report_file("fork", child);
			return 1;
		}
		cfg.pid = child;
	}
	err = dw_session_open(&s, o->device, &cfg);
	if (err == -EINVAL && o->off_cpu) {
		fprintf(stderr, "dunwind record: the module refuses --off-cpu: load the module "
			"built from this tree\n");
		goto out;
	}
	if (err) {
		report(o, "opening the session", err);
		goto out;
	}
	/* Before the command runs: an output that cannot be written fails now. */
	err = dw_capture_create_new(&st.w, o->output, &cfg, o->force);
	if (err == -EEXIST) {
		fprintf(stderr, "dunwind: %s exists: give -f to overwrite it, or -o another "
			"file\n", o->output);
		goto out;
	}
	if (err) {
		report_file(o->output, err);
		goto out;
	}
	pidfd = (int)syscall(SYS_pidfd_open, cfg.pid ? cfg.pid : cfg.tid, 0);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	st.dev_fd = o->no_gen ? -1 : s.fd;
	if (st.dev_fd >= 0)
		reg_initial(&st, o->cmd ? getpid() : (cfg.pid ? cfg.pid : cfg.tid));
	if (o->cmd)
		reg_command(&st, o->cmd);
	err = dw_session_start(&s);
	if (err && dw_event_is_hw(o->event) && (err == -ENOENT || err == -EOPNOTSUPP)) {
		fprintf(stderr, "dunwind record: %s: no PMU counts this event on this machine "
			"(a VM without a virtual PMU?): use -e cpu-clock\n", dw_event_name(o->event));
		goto out_capture;
	}
	if (err) {
		report(o, "starting the session", err);
		goto out_capture;
	}
	started = 1;
	if (child) {
		if (write(go, "g", 1) != 1) {
			report_file("starting the command", -errno);
			goto out_stop;
		}
		close(go);
		go = -1;
	}
	ret = 0;
	while (!stop_signal) {
		struct pollfd p[2] = {
			{ .fd = s.fd, .events = POLLIN },
			{ .fd = pidfd, .events = POLLIN },
		};
		int n = poll(p, pidfd >= 0 ? 2 : 1, DW_POLL_MS);

		if (n < 0 && errno != EINTR) {
			report_file("poll", -errno);
			ret = 1;
			break;
		}
		if (drain(&s, &st, o) < 0) {
			ret = 1;
			break;
		}
		if (tty && now_ms() - shown >= DW_PROGRESS_MS) {
			progress(&st, 0);
			shown = now_ms();
		}
		if (n > 0 && pidfd >= 0 && p[1].revents)
			break;		/* the target exited */
		if (pidfd < 0 && o->tid && tid_gone(o->tid))
			break;
	}
out_stop:
	err = dw_session_stop(&s);
	if (err)
		report(o, "stopping the session", err);
	/* STOP answered every cookie: collect what is still in the ring. */
	t0 = now_ms();
	for (idle = 0; !ret && idle < DW_FINAL_IDLE_ROUNDS && now_ms() - t0 < DW_FINAL_MAX_MS;) {
		int n = drain(&s, &st, o);

		if (n < 0) {
			ret = 1;
			break;
		}
		idle = n ? 0 : idle + 1;
		if (!n)
			poll(NULL, 0, DW_FINAL_IDLE_MS);
	}
	have_stats = !dw_session_stats(&s, &ks);
	/* At the end: no delay at the start, and modules loaded meanwhile are in. */
	if (!o->no_ksyms && !ret)
		ret = write_ksyms(o, &st);
	if (st.usnap && !ret)
		ret = write_usyms(o, &st);
out_capture:
	err = dw_capture_close(&st.w);
	if (err && !st.write_err)
		st.write_err = err;
	if (err && !ret) {
		report_file(o->output, err);
		ret = 1;
	}
	if (tty && shown)
		progress(&st, 1);
	if (started)
		summary(o, &st, &ks, have_stats);
out:
	if (go >= 0)
		close(go);	/* a child still waiting exits 127 */
	if (child > 0) {
		if (stop_signal || ret) {
			/* Ctrl-C usually reached the command too; make sure. */
			if (waitpid(child, &status, WNOHANG) == child)
				reaped = 1;
			else
				kill(child, SIGTERM);
		}
		if (!reaped)
			while (waitpid(child, &status, 0) < 0 && errno == EINTR)
				;
		if (!ret)
			ret = exit_status(status);
	}
	if (pidfd >= 0)
		close(pidfd);
	free(st.kips);
	dw_usnap_writer_free(st.usnap);
	dw_session_close(&s);
	return ret;
}

/**
 * dw_cmd_record() - the 'record' subcommand
 * @argc:	argument count, argv[0] is "record"
 * @argv:	arguments
 *
 * Context: user space.
 * Return: the exit status: the command's own when one was run and the
 * recording succeeded, 0 when -p/-t was followed to its end or Ctrl-C,
 * 1 if recording failed, 2 for a usage error.
 */
int dw_cmd_record(int argc, char **argv)
{
	struct record_opts o = { .output = "dunwind.data" };
	int r, targets;

	r = dw_parse_options(argc, argv, &dw_record_help, &o);
	if (r < 0)
		return dw_opt_exit(r);
	if (o.period && o.freq) {
		fprintf(stderr, "dunwind record: give -F HZ or -c N, not both\n");
		return 2;
	}
	if (!o.period && !o.freq)
		o.freq = 999;
	if (o.off_cpu_thresh_us && !o.off_cpu) {
		fprintf(stderr, "dunwind record: --off-cpu-thresh goes with --off-cpu\n");
		return 2;
	}
	if (r < argc)
		o.cmd = argv + r;
	targets = !!o.pid + !!o.tid + !!o.cmd;
	if (targets != 1) {
		fprintf(stderr,
			"dunwind record: give exactly one target: -p PID, -t TID or a command\n");
		dw_options_usage(stderr, &dw_record_help);
		return 2;
	}
	return do_record(&o);
}
