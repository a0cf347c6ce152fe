// SPDX-License-Identifier: GPL-2.0
/*
 * Python frames end to end on the host, without the kernel: Debian's
 * /usr/bin/python3.11 runs a program whose three threads spin in c(),
 * called through b() and a() (one of them from inside a generator); the
 * test recognises the interpreter in the executable, builds its
 * descriptor, walks each thread's chain with lib/interp.c over
 * process_vm_readv while it runs, names every code object from the live
 * process and checks the chain: names, files, lines, and where each
 * C-level call of the eval loop began.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "interp.h"
#include "interp/cpython_elf.h"
#include "interp/pycode.h"
#include "util/maps.h"

#define PYTHON		"/usr/bin/python3.11"
#define THREADS		3

/* Line numbers below are asserted: keep them in step with the text. */
static const char prog[] =
	"import os, threading\n"					/* 1 */
	"def c(tag):\n"							/* 2 */
	"    os.write(1, b'%s %d\\n' % (tag, threading.get_native_id()))\n"	/* 3 */
	"    n = 0\n"							/* 4 */
	"    while True: n += 1\n"					/* 5 */
	"def b(tag):\n"							/* 6 */
	"    c(tag)\n"							/* 7 */
	"def a(tag):\n"							/* 8 */
	"    b(tag)\n"							/* 9 */
	"def worker():\n"						/* 10 */
	"    a(b'thread')\n"						/* 11 */
	"def g():\n"							/* 12 */
	"    a(b'gen')\n"						/* 13 */
	"    yield 1\n"							/* 14 */
	"def viagen():\n"						/* 15 */
	"    next(g())\n"						/* 16 */
	"threading.Thread(target=worker, daemon=True).start()\n"	/* 17 */
	"threading.Thread(target=viagen, daemon=True).start()\n"	/* 18 */
	"a(b'main')\n";							/* 19 */

/* One expected frame: qualname, line, whether an eval-loop call starts there. */
struct want {
	const char *name;
	int line;
	int entry;
};

static const struct want want_main[] = {
	{ "c", 5, 0 }, { "b", 7, 0 }, { "a", 9, 0 }, { "<module>", 19, 1 }, { NULL, 0, 0 },
};
static const struct want want_thread[] = {
	{ "c", 5, 0 }, { "b", 7, 0 }, { "a", 9, 0 }, { "worker", 11, 1 }, { NULL, 0, 0 },
};
static const struct want want_gen[] = {
	{ "c", 5, 0 }, { "b", 7, 0 }, { "a", 9, 0 }, { "g", 13, 1 }, { "viagen", 16, 1 },
	{ NULL, 0, 0 },
};

FIXTURE(py) {
	char dir[64], script[96];
	pid_t pid;
	int out;
	struct dw_cpython py;
	struct dunwind_interp_desc desc;
	struct dw_pytypes types;
	__u64 bias;
	pid_t tids[THREADS];	/* main, thread, gen */
};

/* The executable's load bias: its mapping at offset 0 less its first PT_LOAD's page. */
static int load_bias(pid_t pid, __u64 *bias)
{
	struct dw_proc_maps it;
	const struct dw_maps_line *m;
	GElf_Phdr ph;
	__u64 first = ~0ULL;
	size_t i, n;
	Elf *elf;
	int fd, found = 0;

	fd = open(PYTHON, O_RDONLY);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && !elf_getphdrnum(elf, &n))
		for (i = 0; i < n; i++)
			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_vaddr < first)
				first = ph.p_vaddr & ~0xfffULL;
	elf_end(elf);
	close(fd);
	if (dw_proc_maps_open(&it, pid))
		return -errno;
	while ((m = dw_proc_maps_next(&it)))
		if (!found && !m->offset && !strcmp(m->path, PYTHON)) {
			*bias = m->start - first;
			found = 1;
		}
	dw_proc_maps_close(&it);
	return found ? 0 : -ENOENT;
}

/*
 * Read "TAG TID" lines until every thread said where it is.  Each thread
 * writes its line with one write(): print() writes its pieces one by one,
 * and three threads' pieces came interleaved.
 */
static int read_tids(int fd, pid_t *tids)
{
	char buf[256], tag[16];
	size_t used = 0;
	int got = 0, tid;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char *nl;
	ssize_t n;

	while (got < THREADS) {
		if (poll(&p, 1, 20000) != 1)
			return -ETIMEDOUT;
		n = read(fd, buf + used, sizeof(buf) - 1 - used);
		if (n <= 0)
			return -EIO;
		used += (size_t)n;
		buf[used] = 0;
		while ((nl = strchr(buf, '\n'))) {
			*nl = 0;
			if (sscanf(buf, "%15s %d", tag, &tid) == 2) {
				if (!strcmp(tag, "main"))
					tids[0] = tid;
				else if (!strcmp(tag, "thread"))
					tids[1] = tid;
				else if (!strcmp(tag, "gen"))
					tids[2] = tid;
				got++;
			}
			used -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, used + 1);
		}
	}
	return 0;
}

FIXTURE_SETUP(py)
{
	int pipefd[2], fd, err;

	self->pid = 0;
	if (access(PYTHON, X_OK))
		SKIP(return, "no %s: apt-get install python3.11", PYTHON);
	err = dw_cpython_elf(PYTHON, &self->py);
	ASSERT_EQ(0, err);
	dw_cpython_desc(&self->py.layout, self->py.runtime, &self->desc);
	ASSERT_EQ(0, dunwind_interp_validate(&self->desc));
	strcpy(self->dir, "/tmp/dw_cpython_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->script, sizeof(self->script), "%s/app.py", self->dir);
	fd = open(self->script, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(prog), write(fd, prog, strlen(prog)));
	close(fd);
	ASSERT_EQ(0, pipe(pipefd));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (!self->pid) {
		/* Gone with the test, even one that fails before its teardown. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(pipefd[1], 1);
		execl(PYTHON, PYTHON, "-S", self->script, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	self->out = pipefd[0];
	ASSERT_EQ(0, read_tids(self->out, self->tids));
	ASSERT_EQ(0, load_bias(self->pid, &self->bias));
	self->types.code = self->py.code_type + self->bias;
	self->types.str = self->py.str_type + self->bias;
	self->types.bytes = self->py.bytes_type + self->bias;
}

FIXTURE_TEARDOWN(py)
{
	char cmd[128];

	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
		close(self->out);
	}
	if (self->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
		if (system(cmd))
			TH_LOG("could not remove %s", self->dir);
	}
}

static int imem_read(void *ctx, __u64 addr, void *dst, __u32 len)
{
	return dw_pymem_pid_read(ctx, addr, dst, len);
}

/*
 * Walk thread @tid once; 1 if its chain starts exactly as @want says
 * (names, this script, lines, entry marks) and ends at the oldest frame.
 */
static int walk_once(struct _test_data_py *self, pid_t tid, const struct want *want, int log)
{
	struct dunwind_interp_frame fr[64];
	struct dunwind_interp_env env = { 0 };
	struct dunwind_interp_mem imem = { imem_read, &self->pid };
	struct dw_pymem mem = { dw_pymem_pid_read, &self->pid };
	struct dw_pycode_info info;
	__u32 nr, i, w = 0;
	int stop;

	env.base[DUNWIND_INTERP_BASE_RUNTIME] = self->desc.runtime_vaddr + self->bias;
	env.key[DUNWIND_INTERP_KEY_TID] = (__u64)tid;
	stop = dunwind_interp_walk(&self->desc, &env, &imem, fr, 64, &nr);
	if (log)
		fprintf(stderr, "# tid %d: %u frames, stop %d\n", tid, nr, stop);
	for (i = 0; i < nr; i++) {
		if (dw_pycode_read(&self->py.layout, &self->types, &mem, fr[i].code, fr[i].insn,
				   &info))
			return 0;
		if (log)
			fprintf(stderr, "#   %s (%s:%d)%s\n", info.name, info.file, info.line,
				fr[i].flags ? " [entry]" : "");
		if (!want[w].name)
			continue;
		if (strcmp(info.name, want[w].name) || strcmp(info.file, self->script) ||
		    info.line != want[w].line ||
		    !!(fr[i].flags & DUNWIND_INTERP_FRAME_ENTRY) != want[w].entry)
			return 0;
		w++;
	}
	return stop == DUNWIND_INTERP_STOP_END && !want[w].name;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Each thread: wait (bounded) until it spins in c(), then walk it many times. */
TEST_F(py, every_thread_shows_its_exact_chain)
{
	static const struct want *const wants[THREADS] = { want_main, want_thread, want_gen };
	static const char *const names[THREADS] = { "main", "thread", "gen" };
	int t, k, good, settled;
	double t0, dt;

	for (t = 0; t < THREADS; t++) {
		for (k = 0, settled = 0; k < 500 && !settled; k++) {
			settled = walk_once(self, self->tids[t], wants[t], 0);
			if (!settled)
				usleep(2000);
		}
		walk_once(self, self->tids[t], wants[t], 1);
		ASSERT_TRUE(settled) TH_LOG("%s thread never showed its chain", names[t]);
		t0 = now();
		for (k = 0, good = 0; k < 200; k++)
			good += walk_once(self, self->tids[t], wants[t], 0);
		dt = now() - t0;
		TH_LOG("%s: %d of 200 walks exact while it runs, %.0f us a walk with names",
		       names[t], good, dt / 200 * 1e6);
		EXPECT_GE(good, 198);
	}
}

TEST_F(py, a_thread_that_is_not_python_has_no_chain)
{
	struct dunwind_interp_frame fr[8];
	struct dunwind_interp_env env = { 0 };
	struct dunwind_interp_mem imem = { imem_read, &self->pid };
	__u32 nr;

	env.base[DUNWIND_INTERP_BASE_RUNTIME] = self->desc.runtime_vaddr + self->bias;
	env.key[DUNWIND_INTERP_KEY_TID] = 1;
	ASSERT_EQ(DUNWIND_INTERP_STOP_NO_THREAD,
		  dunwind_interp_walk(&self->desc, &env, &imem, fr, 8, &nr));
	EXPECT_EQ(0, nr);
	/* A runtime address that is not one: nothing is invented. */
	env.base[DUNWIND_INTERP_BASE_RUNTIME] = 0x1000;
	env.key[DUNWIND_INTERP_KEY_TID] = (__u64)self->tids[0];
	ASSERT_EQ(DUNWIND_INTERP_STOP_FAULT,
		  dunwind_interp_walk(&self->desc, &env, &imem, fr, 8, &nr));
	EXPECT_EQ(0, nr);
}

TEST_F(py, things_that_are_not_code_objects_are_refused)
{
	struct dw_pymem mem = { dw_pymem_pid_read, &self->pid };
	struct dw_pycode_info info;
	__u64 rt = self->desc.runtime_vaddr + self->bias;

	/* The runtime, a type object, unmapped and misaligned addresses. */
	EXPECT_EQ(-EINVAL, dw_pycode_read(&self->py.layout, &self->types, &mem, rt, 0, &info));
	EXPECT_EQ(-EINVAL, dw_pycode_read(&self->py.layout, &self->types, &mem,
					  self->types.str, 0, &info));
	EXPECT_EQ(-EFAULT, dw_pycode_read(&self->py.layout, &self->types, &mem, 0x1000, 0, &info));
	EXPECT_EQ(-EINVAL, dw_pycode_read(&self->py.layout, &self->types, &mem, rt + 4, 0, &info));
}

TEST(recognises_debian_python311)
{
	struct dw_cpython py;

	if (access(PYTHON, R_OK))
		SKIP(return, "no %s: apt-get install python3.11", PYTHON);
	ASSERT_EQ(0, dw_cpython_elf(PYTHON, &py));
	EXPECT_EQ(DW_PY_VERSION(3, 11), py.version & 0xffff0000);
	EXPECT_NE(0, py.runtime);
	EXPECT_LT(py.eval_lo, py.eval_hi);
	EXPECT_NE(0, py.code_type);
	EXPECT_EQ(0, py.layout.entry_shim);
}

TEST(other_files_are_not_python)
{
	struct dw_cpython py;

	EXPECT_EQ(-ENOENT, dw_cpython_elf("/bin/sh", &py));
	EXPECT_EQ(-ENOENT, dw_cpython_elf("/etc/passwd", &py));
	EXPECT_EQ(-ENOENT, dw_cpython_elf("/nonexistent/python", &py));
}

TEST_HARNESS_MAIN
