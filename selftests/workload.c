// SPDX-License-Identifier: GPL-2.0
/* Spawn and control the selftest workload programs (see workload.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/**
 * dw_workload_path() - where workloads/@name lives for this test binary
 * Context: user space.
 * Return: 0, -ENAMETOOLONG, or -errno from readlink().
 */
int dw_workload_path(const char *name, char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -errno;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	if ((size_t)snprintf(buf, len, "%s/workloads/%s", self, name) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Take the first line of @w->pending (without its newline; a line longer
 * than @len - 1 is cut) into @buf if a whole line, or @len - 1 bytes, are
 * there.  1 if it did, 0 if more bytes are needed.
 */
static int take_line(struct dw_workload *w, char *buf, size_t len)
{
	char *nl = memchr(w->pending, '\n', w->pending_len);
	size_t n, used;

	if (nl)
		n = (size_t)(nl - w->pending);
	else if (w->pending_len >= len - 1 || w->pending_len == sizeof(w->pending))
		n = w->pending_len;
	else
		return 0;
	if (n > len - 1)
		n = len - 1;
	memcpy(buf, w->pending, n);
	buf[n] = '\0';
	used = n + (nl && w->pending + n == nl);
	memmove(w->pending, w->pending + used, w->pending_len - used);
	w->pending_len -= used;
	return 1;
}

/*
 * Read one line of @w's stdout into @buf within @deadline (ms clock).
 * What arrived before the deadline is kept in @w->pending, never dropped:
 * a reader held up mid-line (a guest starved by a loaded host) returns
 * -ETIMEDOUT and the next call finds the whole line.  0 or -errno.
 */
static int read_line(struct dw_workload *w, char *buf, size_t len, long deadline)
{
	if (len < 2)
		return -EINVAL;
	while (!take_line(w, buf, len)) {
		struct pollfd p = { .fd = w->out_fd, .events = POLLIN };
		long left = deadline - now_ms();
		ssize_t r;

		/* Past the deadline, still take what is there already. */
		r = poll(&p, 1, left > 0 ? (int)left : 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		r = read(w->out_fd, w->pending + w->pending_len,
			 sizeof(w->pending) - w->pending_len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EPIPE;
		w->pending_len += (size_t)r;
	}
	return 0;
}

/**
 * dw_workload_line() - the next line the workload prints
 * Context: user space.  @buf gets the line without its newline.
 * Return: 0, -ETIMEDOUT, -EPIPE if it closed stdout, or -errno.
 */
int dw_workload_line(struct dw_workload *w, char *buf, size_t len, int timeout_ms)
{
	return read_line(w, buf, len, now_ms() + timeout_ms);
}

/**
 * dw_workload_expect() - wait for the workload to print the line @word
 * Context: user space; other lines are skipped.
 * Return: 0, -ETIMEDOUT, -EPIPE if it closed stdout, or -errno.
 */
int dw_workload_expect(struct dw_workload *w, const char *word, int timeout_ms)
{
	long deadline = now_ms() + timeout_ms;
	char line[256];
	int ret;

	for (;;) {
		ret = read_line(w, line, sizeof(line), deadline);
		if (ret)
			return ret;
		if (!strcmp(line, word))
			return 0;
	}
}

/**
 * dw_workload_start() - run workloads/@name with @argv and wait until ready
 * Context: user space; forks.  Stop it with dw_workload_stop().
 * Return: 0, or -errno (-ETIMEDOUT if it never printed "ready", -ENOENT if
 * the program is missing, -E2BIG for more than 46 arguments).
 */
int dw_workload_start(struct dw_workload *w, const char *name, const char *const *argv,
		      int timeout_ms)
{
	char path[PATH_MAX];
	int ret;

	memset(w, 0, sizeof(*w));
	w->in_fd = w->out_fd = -1;
	ret = dw_workload_path(name, path, sizeof(path));
	if (ret)
		return ret;
	return dw_workload_start_path(w, path, argv, timeout_ms);
}

/**
 * dw_workload_start_path() - dw_workload_start() of the program at @path
 * Context: user space; forks.  Stop it with dw_workload_stop().
 * Return: as dw_workload_start().
 */
int dw_workload_start_path(struct dw_workload *w, const char *path, const char *const *argv,
			   int timeout_ms)
{
	const char *args[48];
	int in[2], out[2];
	int i, ret;

	memset(w, 0, sizeof(*w));
	w->in_fd = w->out_fd = -1;
	if (access(path, X_OK))
		return -errno;
	args[0] = path;
	for (i = 1; argv && argv[i - 1]; i++) {
		if (i == (int)(sizeof(args) / sizeof(args[0])) - 1)
			return -E2BIG;
		args[i] = argv[i - 1];
	}
	args[i] = NULL;
	if (pipe2(in, O_CLOEXEC))
		return -errno;
	if (pipe2(out, O_CLOEXEC)) {
		ret = -errno;
		close(in[0]);
		close(in[1]);
		return ret;
	}
	w->pid = fork();
	if (w->pid < 0) {
		ret = -errno;
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return ret;
	}
	if (w->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execv(path, (char *const *)args);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	w->in_fd = in[1];
	w->out_fd = out[0];
	ret = dw_workload_expect(w, "ready", timeout_ms);
	if (ret)
		dw_workload_stop(w);
	return ret;
}

/**
 * dw_workload_send() - write @line (a newline is added) to its stdin
 * Context: user space.
 * Return: 0 or -errno.
 */
int dw_workload_send(struct dw_workload *w, const char *line)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "%s\n", line);

	if (n < 0 || (size_t)n >= sizeof(buf))
		return -EINVAL;
	if (write(w->in_fd, buf, n) != n)
		return -EIO;
	return 0;
}

/**
 * dw_workload_wait() - wait for the workload to exit on its own
 * Context: user space; polls every 10 ms.
 * Return: 0 once reaped (status in @w->status), -ETIMEDOUT, or -errno.
 */
int dw_workload_wait(struct dw_workload *w, int timeout_ms)
{
	long deadline = now_ms() + timeout_ms;

	while (!w->reaped) {
		pid_t r = waitpid(w->pid, &w->status, WNOHANG);

		if (r < 0)
			return -errno;
		if (r == w->pid) {
			w->reaped = 1;
			break;
		}
		if (now_ms() >= deadline)
			return -ETIMEDOUT;
		usleep(10000);
	}
	return 0;
}

/**
 * dw_workload_stop() - kill (if needed) and reap the workload, close pipes
 * Context: user space.  Safe to call twice.
 */
void dw_workload_stop(struct dw_workload *w)
{
	if (w->pid > 0 && !w->reaped) {
		kill(w->pid, SIGKILL);
		if (waitpid(w->pid, &w->status, 0) == w->pid)
			w->reaped = 1;
	}
	if (w->in_fd >= 0)
		close(w->in_fd);
	if (w->out_fd >= 0)
		close(w->out_fd);
	w->in_fd = w->out_fd = -1;
	w->pending_len = 0;
}

/**
 * dw_copy_file() - copy @src (a workload, a library) to a new file @dst
 * @mode:	the new file's mode
 * Context: user space.
 * Return: 0 or -errno.
 */
int dw_copy_file(const char *src, const char *dst, unsigned int mode)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		ret = -errno;
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ret = -EIO;
			break;
		}
	if (n < 0)
		ret = -errno;
	close(in);
	if (close(out) && !ret)
		ret = -errno;
	return ret;
}
