/* SPDX-License-Identifier: GPL-2.0 */
/* A workload program run by a selftest: spawn, wait for "ready", talk, kill. */
#ifndef DW_SELFTEST_WORKLOAD_H
#define DW_SELFTEST_WORKLOAD_H

#include <sys/types.h>

struct dw_workload {
	pid_t pid;
	int in_fd;	/* the workload's stdin (write end), -1 once closed */
	int out_fd;	/* the workload's stdout (read end) */
	int status;	/* wait status once reaped */
	int reaped;
	/*
	 * Bytes read from its stdout, not yet returned: the start of a line
	 * whose end had not arrived before a read's deadline (kept for the
	 * next read, not lost), or what followed the line returned.
	 */
	char pending[512];
	size_t pending_len;
};

/*
 * Start workloads/@name (next to this test binary) with the NULL-terminated
 * @argv extras and wait up to @timeout_ms for it to print "ready".
 * 0 or -errno (-ETIMEDOUT: it never said ready).
 */
int dw_workload_start(struct dw_workload *w, const char *name, const char *const *argv,
		      int timeout_ms);
/* The same for the program at @path. */
int dw_workload_start_path(struct dw_workload *w, const char *path, const char *const *argv,
			   int timeout_ms);
/* Wait up to @timeout_ms for a line equal to @word on its stdout. 0 or -errno. */
int dw_workload_expect(struct dw_workload *w, const char *word, int timeout_ms);
/* Read the next line of its stdout into @buf (no newline). 0 or -errno. */
int dw_workload_line(struct dw_workload *w, char *buf, size_t len, int timeout_ms);
/* Write @line to its stdin. 0 or -errno. */
int dw_workload_send(struct dw_workload *w, const char *line);
/* Wait up to @timeout_ms for it to exit by itself. 0, or -ETIMEDOUT. */
int dw_workload_wait(struct dw_workload *w, int timeout_ms);
/* SIGKILL it (if still running), reap it and close the pipes. */
void dw_workload_stop(struct dw_workload *w);
/* Absolute path of workloads/@name next to the running test, in @buf. 0 or -errno. */
int dw_workload_path(const char *name, char *buf, size_t len);
/* Copy @src to a new file @dst with @mode (a private copy: another inode). 0 or -errno. */
int dw_copy_file(const char *src, const char *dst, unsigned int mode);

#endif
