/*
 * libcloop: the least a program can do tcptuned's steady work with, as a
 * yardstick for its resident size and CPU (bench/daemon/lean.sh): every
 * INTERVAL seconds read each file and write the wanted text back when it
 * differs.  libc only, no config, no socket, no originals.
 *
 *   libcloop INTERVAL PATH=VALUE...
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
enforce(const char *path, const char *want)
{
	char	buf[256];
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_RDWR)) == -1)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	if (strcmp(buf, want) != 0 && lseek(fd, 0, SEEK_SET) == 0)
		(void)!write(fd, want, strlen(want));
	close(fd);
}

int
main(int argc, char **argv)
{
	unsigned	interval;
	char		*eq;
	int		 i;

	if (argc < 3 || (interval = (unsigned)atoi(argv[1])) == 0)
		return 64;
	for (;;) {
		for (i = 2; i < argc; i++) {
			if ((eq = strchr(argv[i], '=')) == NULL)
				return 64;
			*eq = '\0';
			enforce(argv[i], eq + 1);
			*eq = '=';
		}
		sleep(interval);
	}
}
