// SPDX-License-Identifier: GPL-2.0
/*
 * A command forked and held on a pipe until the caller is ready (a
 * session open and started), then exec'd.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "util/log.h"
#include "util/spawn.h"

/**
 * dw_spawn_held() - fork @cmd held on a pipe
 * @cmd:	NULL-terminated argv; cmd[0] is looked up like execvp()
 * @go:	receives the pipe's write end: writing a byte to it runs the
 *		command, closing it makes the child exit 127
 *
 * Context: user space.
 * Return: the child's pid, or -errno.
 */
int dw_spawn_held(char **cmd, int *go)
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
		dw_warn("cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/**
 * dw_exit_status() - a wait status as a shell's exit status
 * @status:	from waitpid()
 *
 * Context: user space.
 * Return: the exit code, 128 + the signal, or 1.
 */
int dw_exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
