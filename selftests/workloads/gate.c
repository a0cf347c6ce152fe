// SPDX-License-Identifier: GPL-2.0
/*
 * gate: print "ready", wait for a line on stdin, then exec CMD: what
 * 'dunwind record -- CMD' does, so that a selftest can start a session
 * on this pid with DUNWIND_CFG_ENABLE_ON_EXEC before the command runs.
 * stdin is /dev/null for CMD.  With -u UID, CMD runs as that user (and
 * group): stress-ng will not run its exec stressor as root.
 *
 *   gate [-u UID] CMD [ARG]...
 */
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char line[64];
	uid_t uid = 0;
	int fd;

	if (argc > 3 && !strcmp(argv[1], "-u")) {
		uid = (uid_t)strtoul(argv[2], NULL, 0);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		return 2;
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	if (uid && (setgroups(0, NULL) || setgid(uid) || setuid(uid))) {
		perror("gate: setuid");
		return 126;
	}
	execvp(argv[1], argv + 1);
	perror("gate: exec");
	return 127;
}
