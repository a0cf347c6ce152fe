// SPDX-License-Identifier: GPL-2.0
/*
 * Python frames through the recorder and the reports, on the host: a live
 * /usr/bin/python3.11 prints the addresses of three code objects (id())
 * and the offset and line of an instruction of each; the recorder sees
 * its mapping (the interpreter recognised, not registered: no module),
 * then USER_STACKs whose tagged entries name those code objects among
 * native IPs, as the module writes them (Documentation/abi.rst,
 * "Interpreter frames").  The interpreter then exits, and the capture
 * alone must name the frames: qualname, file, line, in order; and so must
 * its exports, read by Debian's perf (perf.data and its build-id
 * directory) and go tool pprof.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "files.h"
#include "mkrec.h"
#include "analyze/profile.h"
#include "output/perfdata.h"
#include "output/pprof.h"
#include "output/script.h"
#include "record/recorder.h"
#include "symbols/dso.h"

#define PYTHON		"/usr/bin/python3.11"
#define NATIVE		0x7f0000001010ULL

static const char prog[] =
	"import os, sys\n"
	"def c():\n"
	"    x = 0\n"
	"    return x\n"
	"def b():\n"
	"    return c()\n"
	"def a():\n"
	"    return b()\n"
	"def L(f):\n"
	"    s, e, l = [t for t in f.__code__.co_lines() if t[2]][-1]\n"
	"    return b'%d %d %d' % (id(f.__code__), s, l)\n"
	"os.write(1, b' '.join(L(f) for f in (c, b, a)) + b'\\n')\n"
	"sys.stdin.read()\n";

/* c, b, a: code address, an instruction, its line. */
struct code {
	unsigned long long addr;
	int insn, line;
};

FIXTURE(py) {
	pid_t pid;
	int in;
	struct code code[3];
	char dir[64], path[96];
	struct dw_recorder *st;
};

static __u64 frame(int insn, int entry)
{
	return DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_FRAME,
				 (__u64)(__u32)insn | (entry ? 1ULL << 32 : 0));
}

/* The MMAP record of python's executable mapping, as the module writes it. */
static int py_mmap(pid_t pid, union rec_buf *b)
{
	unsigned long long start, end, pgoff;
	char line[512], perms[8], maps[64];
	struct stat sb;
	int found = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	f = fopen(maps, "r");
	if (!f || stat(PYTHON, &sb))
		return -errno;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %7s %llx", &start, &end, perms, &pgoff) == 4 &&
		    perms[2] == 'x' && strstr(line, PYTHON))
			found = 1;
	fclose(f);
	if (!found)
		return -ENOENT;
	mk_mmap(b, (__u32)pid, 1, start, end, pgoff, PYTHON, 0);
	((struct dunwind_rec_mmap *)b)->ino = sb.st_ino;
	((struct dunwind_rec_mmap *)b)->dev_major = major(sb.st_dev);
	((struct dunwind_rec_mmap *)b)->dev_minor = minor(sb.st_dev);
	return 0;
}

FIXTURE_SETUP(py)
{
	int in[2], out[2];
	char buf[512];
	ssize_t n = 0, k;

	self->pid = -1;
	if (access(PYTHON, X_OK))
		SKIP(return, PYTHON " is not installed (apt-get install python3.11)");
	ASSERT_EQ(0, pipe(in));
	ASSERT_EQ(0, pipe(out));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (!self->pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execl(PYTHON, "python3.11", "-c", prog, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	self->in = in[1];
	while (n < (ssize_t)sizeof(buf) - 1 && (k = read(out[0], buf + n, sizeof(buf) - 1 - n)) > 0) {
		n += k;
		if (buf[n - 1] == '\n')
			break;
	}
	close(out[0]);
	buf[n > 0 ? n : 0] = 0;
	ASSERT_EQ(9, sscanf(buf, "%llu %d %d %llu %d %d %llu %d %d", &self->code[0].addr,
			    &self->code[0].insn, &self->code[0].line, &self->code[1].addr,
			    &self->code[1].insn, &self->code[1].line, &self->code[2].addr,
			    &self->code[2].insn, &self->code[2].line));
	strcpy(self->dir, "/tmp/dw_pyrec.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->path, sizeof(self->path), "%s/capture", self->dir);
	self->st = calloc(1, sizeof(*self->st));
	ASSERT_NE(NULL, self->st);
	self->st->py.on = 1;
	self->st->py.dev_fd = -1;
	self->st->feed.dev_fd = -1;	/* no module: no SFrame tables either */
	self->st->py.dsos = dw_dso_cache_new();
	ASSERT_NE(NULL, self->st->py.dsos);
}

FIXTURE_TEARDOWN(py)
{
	if (self->pid > 0) {
		close(self->in);
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	if (self->st) {
		dw_pyfeed_free(&self->st->py);
		dw_pynames_free(&self->st->pynames);
		dw_dso_cache_free(self->st->py.dsos);
		free(self->st);
	}
	if (self->dir[0]) {
		char cmd[96];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
		if (getenv("DW_TEST_KEEP"))
			TH_LOG("kept %s", self->dir);
		else if (system(cmd))
			TH_LOG("could not remove %s", self->dir);
	}
}

/* Open the capture and record python's MMAP and COMM. */
static void record_begin(struct __test_metadata *_metadata, FIXTURE_DATA(py) *self)
{
	struct dunwind_config cfg = { .size = sizeof(cfg), .pid = self->pid, .sample_freq = 99 };
	union rec_buf b;

	ASSERT_EQ(0, dw_capture_create(&self->st->w, self->path, &cfg));
	ASSERT_EQ(0, py_mmap(self->pid, &b));
	ASSERT_EQ(0, dw_recorder_on_record(&b.hdr, self->st));
	ASSERT_EQ(0, dw_recorder_on_record(mk_comm(&b, self->pid, self->pid, 2, "python3.11", 0),
					   self->st));
}

/* Sample @cookie at @time: its SAMPLE, then its USER_STACK @ips (@n entries). */
static void record_stack(struct __test_metadata *_metadata, FIXTURE_DATA(py) *self,
			 __u64 cookie, __u64 time, const __u64 *ips, unsigned int n)
{
	union rec_buf b;

	ASSERT_EQ(0, dw_recorder_on_record(mk_sample(&b, cookie, time, self->pid, self->pid, 0, 0),
					   self->st));
	mk_stack(&b, cookie, self->pid, self->pid, n, 0, DUNWIND_STOP_END);
	b.stack.time = time;
	b.stack.methods = DUNWIND_UNWIND_FP | DUNWIND_UNWIND_INTERP;
	memcpy(b.stack.ips, ips, n * sizeof(__u64));
	ASSERT_EQ(0, dw_recorder_on_record(&b.hdr, self->st));
}

/* Close the capture; the interpreter exits: the capture alone names the frames. */
static void record_end(struct __test_metadata *_metadata, FIXTURE_DATA(py) *self)
{
	ASSERT_EQ(0, dw_capture_close(&self->st->w));
	close(self->in);
	kill(self->pid, SIGKILL);
	waitpid(self->pid, NULL, 0);
	self->pid = -1;
}

/* Record the MMAP, then one sample per stack @ips[k] (@n[k] entries). */
static void record(struct __test_metadata *_metadata, FIXTURE_DATA(py) *self,
		   const __u64 *const *ips, const unsigned int *n, unsigned int nr)
{
	unsigned int k;

	record_begin(_metadata, self);
	for (k = 0; k < nr; k++)
		record_stack(_metadata, self, k + 1, 10 + k, ips[k], n[k]);
	record_end(_metadata, self);
}

/* The capture as `dunwind script` prints it. */
static char *script(struct __test_metadata *_metadata, const char *path)
{
	struct dw_prof_opts o = { .quiet = 1 };
	struct dw_prof *p;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	EXPECT_EQ(0, dw_prof_load(&p, path, &o));
	if (!p)
		return NULL;
	f = open_memstream(&text, &len);
	if (f) {
		dw_script_write(f, p, 0);
		fclose(f);
	}
	dw_prof_free(p);
	return text;
}

TEST_F(py, frames_are_named_in_order_among_native_ones_after_the_process_is_gone)
{
	const __u64 s0[] = {
		NATIVE, frame(self->code[0].insn, 0), self->code[0].addr,
		frame(self->code[1].insn, 0), self->code[1].addr, NATIVE + 0x100,
		frame(self->code[2].insn, 1), self->code[2].addr, NATIVE + 0x200,
	};
	const __u64 *const ips[] = { s0 };
	const unsigned int n[] = { 9 };
	char want[3][128], *text, *p0, *p1, *p2;

	record(_metadata, self, ips, n, 1);
	EXPECT_EQ(3, self->st->pynames.named);
	EXPECT_EQ(0, self->st->pynames.failed);
	text = script(_metadata, self->path);
	ASSERT_NE(NULL, text);
	snprintf(want[0], sizeof(want[0]), "c (<string>:%d) ([python])", self->code[0].line);
	snprintf(want[1], sizeof(want[1]), "b (<string>:%d) ([python])", self->code[1].line);
	snprintf(want[2], sizeof(want[2]), "a (<string>:%d) ([python])", self->code[2].line);
	p0 = strstr(text, want[0]);
	p1 = strstr(text, want[1]);
	p2 = strstr(text, want[2]);
	EXPECT_NE(NULL, p0) TH_LOG("%s", text);
	if (getenv("DW_TEST_VERBOSE"))
		fputs(text, stderr);
	EXPECT_NE(NULL, p1);
	EXPECT_NE(NULL, p2);
	EXPECT_TRUE(p0 && p1 && p2 && p0 < p1 && p1 < p2);
	EXPECT_EQ(4, self->code[0].line);
	EXPECT_EQ(NULL, strstr(text, "[python:"));
	free(text);
}

TEST_F(py, a_frame_not_started_is_at_its_first_line)
{
	const __u64 s0[] = { NATIVE, frame(-2, 1), self->code[1].addr, NATIVE + 0x100 };
	const __u64 *const ips[] = { s0 };
	const unsigned int n[] = { 4 };
	char *text;

	record(_metadata, self, ips, n, 1);
	text = script(_metadata, self->path);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "b (<string>:5) ([python])")) TH_LOG("%s", text);
	free(text);
}

TEST_F(py, hostile_entries_print_truncations_and_native_frames_stay)
{
	const __u64 kind7 = DUNWIND_IP_INTERP(7, 0);
	const __u64 stop = DUNWIND_IP_INTERP(DUNWIND_IP_INTERP_STOP, DUNWIND_INTERP_STOP_FAULT);
	const __u64 s0[] = { NATIVE, kind7, NATIVE + 0x100, frame(0, 0) };
	const __u64 s1[] = { NATIVE, frame(0, 0), self->code[0].addr + 8, stop, NATIVE + 0x200 };
	const __u64 *const ips[] = { s0, s1 };
	const unsigned int n[] = { 4, 5 };
	char *text;

	record(_metadata, self, ips, n, 2);
	EXPECT_EQ(1, self->st->pynames.failed);
	text = script(_metadata, self->path);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "[python: malformed entry]")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "[python: not a code object]"));
	EXPECT_NE(NULL, strstr(text, "[python: fault]"));
	EXPECT_NE(NULL, strstr(text, "7f0000001110"));
	EXPECT_NE(NULL, strstr(text, "7f0000001210"));
	free(text);
}

/* A module without the ioctl (here /dev/null): said once, frames still named. */
TEST_F(py, a_refused_registration_is_not_fatal)
{
	const __u64 s0[] = { NATIVE, frame(self->code[0].insn, 1), self->code[0].addr };
	const __u64 *const ips[] = { s0, s0 };
	const unsigned int n[] = { 3, 3 };
	int fd = open("/dev/null", O_RDONLY);

	ASSERT_LE(0, fd);
	self->st->py.dev_fd = fd;
	record(_metadata, self, ips, n, 2);
	close(fd);
	EXPECT_EQ(1, self->st->py.pythons);
	EXPECT_EQ(0, self->st->py.registered);
	EXPECT_EQ(1, self->st->py.failed);
	EXPECT_EQ(-1, self->st->py.dev_fd);	/* no second try */
	EXPECT_EQ(1, self->st->pynames.named);
}

TEST_F(py, no_python_names_nothing)
{
	const __u64 s0[] = { NATIVE, frame(0, 1), self->code[0].addr };
	const __u64 *const ips[] = { s0 };
	const unsigned int n[] = { 3 };
	char *text;

	self->st->py.on = 0;
	record(_metadata, self, ips, n, 1);
	EXPECT_EQ(0, self->st->pynames.named);
	EXPECT_EQ(0, self->st->py.pythons);
	text = script(_metadata, self->path);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "[python: not a code object]")) TH_LOG("%s", text);
	free(text);
}

/*
 * Reads of python's memory where the code object at @from is the one at
 * @to: the address of a freed code object reused by another.
 */
struct moved {
	pid_t pid;
	__u64 from, to;
};

static int moved_read(void *ctx, __u64 addr, void *dst, size_t len)
{
	const struct moved *m = ctx;
	pid_t pid = m->pid;

	if (addr >= m->from && addr - m->from < 4096)
		addr = addr - m->from + m->to;
	return dw_pymem_pid_read(&pid, addr, dst, len);
}

/*
 * c's code object freed and b's made at its address, then sampled at the
 * same instruction as c was (here: not started): under TCG an eval loop
 * shows one instruction for hundreds of samples.  The identity is read
 * again once DW_PYNAMES_RECHECK_NS of stack time passed, and the stacks
 * from then on are b's; the one before stays c's.
 */
TEST_F(py, another_object_at_a_named_address_is_named_within_the_recheck_time)
{
	struct moved m = { self->pid, self->code[0].addr, self->code[0].addr };
	const __u64 s0[] = { NATIVE, frame(-2, 1), self->code[0].addr, NATIVE + 0x100 };
	const __u64 t0 = 1000 * 1000;
	const char *c, *b;
	char *text;

	self->st->pynames.mem = (struct dw_pymem){ moved_read, &m };
	record_begin(_metadata, self);
	record_stack(_metadata, self, 1, t0, s0, 4);
	m.to = self->code[1].addr;
	record_stack(_metadata, self, 2, t0 + DW_PYNAMES_RECHECK_NS, s0, 4);
	record_stack(_metadata, self, 3, t0 + DW_PYNAMES_RECHECK_NS + 1000, s0, 4);
	record_end(_metadata, self);
	EXPECT_EQ(1, self->st->pynames.named);
	EXPECT_EQ(1, self->st->pynames.renamed);
	text = script(_metadata, self->path);
	ASSERT_NE(NULL, text);
	c = strstr(text, "c (<string>:2) ([python])");
	b = strstr(text, "b (<string>:5) ([python])");
	EXPECT_NE(NULL, c) TH_LOG("%s", text);
	EXPECT_NE(NULL, b) TH_LOG("%s", text);
	EXPECT_TRUE(c && b && c < b && !strstr(b + 1, "c (<string>"));
	EXPECT_NE(NULL, b ? strstr(b + 1, "b (<string>:5) ([python])") : NULL);
	free(text);
}

/*
 * Two samples of the chain c <- b <- a among native frames, c once at the
 * fixture's instruction and once not started (at its first line, 2), and
 * the profile of the capture, the interpreter gone.
 */
static struct dw_prof *two_samples(struct __test_metadata *_metadata, FIXTURE_DATA(py) *self)
{
	const __u64 s0[] = {
		NATIVE, frame(self->code[0].insn, 0), self->code[0].addr,
		frame(self->code[1].insn, 0), self->code[1].addr, NATIVE + 0x100,
		frame(self->code[2].insn, 1), self->code[2].addr, NATIVE + 0x200,
	};
	const __u64 s1[] = {
		NATIVE, frame(-2, 0), self->code[0].addr,
		frame(self->code[1].insn, 0), self->code[1].addr, NATIVE + 0x100,
		frame(self->code[2].insn, 1), self->code[2].addr, NATIVE + 0x200,
	};
	const __u64 *const ips[] = { s0, s1 };
	const unsigned int n[] = { 9, 9 };
	struct dw_prof_opts o = { .quiet = 1 };
	struct dw_prof *p = NULL;

	record(_metadata, self, ips, n, 2);
	EXPECT_EQ(0, dw_prof_load(&p, self->path, &o));
	return p;
}

/* @text holds the lines @want[0..n) in this order (each as a substring). */
static int in_order(const char *text, char (*want)[128], int n)
{
	const char *at = text;
	int i;

	for (i = 0; i < n && at; i++)
		if ((at = strstr(at, want[i])))
			at += strlen(want[i]);
	return at != NULL;
}

/*
 * perf.data: perf script, given only the export and its build-id
 * directory, names each Python frame as dunwind does, in the stack's
 * order, in a file of its own.
 */
TEST_F(py, perf_script_names_python_frames_from_the_export_alone)
{
	char cmd[512], want[4][128], *text;
	struct dw_prof *p;
	FILE *f;

	if (system("perf version >/dev/null 2>&1"))
		SKIP(return, "perf is not installed (apt-get install linux-perf)");
	p = two_samples(_metadata, self);
	ASSERT_NE(NULL, p);
	snprintf(cmd, sizeof(cmd), "%s/perf.data", self->dir);
	f = fopen(cmd, "w");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, dw_perfdata_write(f, p));
	EXPECT_EQ(0, fclose(f));
	snprintf(cmd, sizeof(cmd), "%s/perf.data.debug", self->dir);
	EXPECT_EQ(1, dw_perfdata_write_debug(p, cmd));	/* the Python file only */
	dw_prof_free(p);
	snprintf(cmd, sizeof(cmd), "perf --buildid-dir %s/perf.data.debug script -i %s/perf.data "
		 "-F ip,sym,dso 2>&1", self->dir, self->dir);
	text = cmd_output(cmd);
	ASSERT_NE(NULL, text);
	snprintf(want[0], sizeof(want[0]), " c (<string>:%d) (/[python])", self->code[0].line);
	snprintf(want[1], sizeof(want[1]), " b (<string>:%d) (/[python])", self->code[1].line);
	snprintf(want[2], sizeof(want[2]), " a (<string>:%d) (/[python])", self->code[2].line);
	snprintf(want[3], sizeof(want[3]), " c (<string>:2) (/[python])");
	EXPECT_TRUE(in_order(text, want, 3)) TH_LOG("%s", text);
	memcpy(want[0], want[3], sizeof(want[0]));
	EXPECT_TRUE(in_order(text, want, 3)) TH_LOG("%s", text);
	free(text);
}

/*
 * pprof: one function per Python function (its qualname, file and first
 * line), each location one of its lines, as go tool pprof reads it.
 */
TEST_F(py, pprof_has_one_function_per_python_function_with_its_lines)
{
	char cmd[512], want[4][128], *text;
	struct dw_prof *p;
	FILE *f;

	if (system("go tool pprof -h >/dev/null 2>&1"))
		SKIP(return, "go tool pprof is not installed (apt-get install golang-go)");
	p = two_samples(_metadata, self);
	ASSERT_NE(NULL, p);
	snprintf(cmd, sizeof(cmd), "%s/profile.pb.gz", self->dir);
	f = fopen(cmd, "w");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, dw_pprof_write(f, p, 0, 1));
	EXPECT_EQ(0, fclose(f));
	dw_prof_free(p);

	/* -top by function: c once, both samples in it. */
	snprintf(cmd, sizeof(cmd), "go tool pprof -symbolize=none -sample_index=samples -top "
		 "%s/profile.pb.gz 2>&1", self->dir);
	text = cmd_output(cmd);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "100%  c\n")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "100%  b\n"));
	EXPECT_NE(NULL, strstr(text, "100%  a\n"));
	EXPECT_EQ(NULL, strstr(text, "c (<string>"));
	free(text);

	/* -traces -lines: file and line per frame, leaf first. */
	snprintf(cmd, sizeof(cmd), "go tool pprof -symbolize=none -traces -lines "
		 "%s/profile.pb.gz 2>&1", self->dir);
	text = cmd_output(cmd);
	ASSERT_NE(NULL, text);
	snprintf(want[0], sizeof(want[0]), " c <string>:%d\n", self->code[0].line);
	snprintf(want[1], sizeof(want[1]), " b <string>:%d\n", self->code[1].line);
	snprintf(want[2], sizeof(want[2]), " a <string>:%d\n", self->code[2].line);
	snprintf(want[3], sizeof(want[3]), " c <string>:2\n");
	EXPECT_TRUE(in_order(text, want, 3)) TH_LOG("%s", text);
	memcpy(want[0], want[3], sizeof(want[0]));
	EXPECT_TRUE(in_order(text, want, 3)) TH_LOG("%s", text);
	free(text);

	/* -raw: the function's first line (s=2 for c: its def). */
	snprintf(cmd, sizeof(cmd), "go tool pprof -symbolize=none -raw %s/profile.pb.gz 2>&1",
		 self->dir);
	text = cmd_output(cmd);
	ASSERT_NE(NULL, text);
	snprintf(want[0], sizeof(want[0]), " c <string>:%d s=2\n", self->code[0].line);
	EXPECT_NE(NULL, strstr(text, want[0])) TH_LOG("%s", text);
	free(text);
}

TEST_HARNESS_MAIN
