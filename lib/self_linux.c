/*
 * Linux: /proc/self/exe is "a symbolic link containing the actual
 * pathname of the executed command" (proc(5), /proc/[pid]/exe; man-pages
 * 5.x and later move it to proc_pid_exe(5)), whatever argv[0] said.
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "tcptune.h"

int
self_exe_path(char *buf, size_t len)
{
	ssize_t	n;

	if ((n = readlink("/proc/self/exe", buf, len - 1)) == -1)
		return -1;
	if ((size_t)n >= len - 1) {
		errno = ENAMETOOLONG;
		return -1;
	}
	buf[n] = '\0';
	return 0;
}
