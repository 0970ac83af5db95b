/*
 * The files of other tools on Windows: none are read.  What tunes TCP
 * there is netsh's global settings, kept by the TCP/IP stack itself
 * (tcptuned reads and writes those as its keys), Group Policy, whose
 * registry policy for tcptune is already a config layer
 * (config_policy.c), and the registry values tuning tools write under
 * HKLM\SYSTEM\CurrentControlSet\Services\Tcpip\Parameters, which no
 * file names and no tool owns: not told apart from the stack's own.
 * So other_sources.c finds nothing here, and docs/DESIGN.md says so.
 */
#include "config.h"

#include <stddef.h>

#include "sources.h"

char *
other_read_file(const char *root, const char *path, size_t *len)
{
	(void)root;
	(void)path;
	*len = 0;
	return NULL;
}

bool
other_file_exists(const char *root, const char *path)
{
	(void)root;
	(void)path;
	return false;
}

void
other_dir_each(const char *root, const char *dir, size_t max,
    bool (*fn)(void *, const char *), void *arg)
{
	(void)root;
	(void)dir;
	(void)max;
	(void)fn;
	(void)arg;
}
