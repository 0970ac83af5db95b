/*
 * Systems without a confinement of the parse helper here (FreeBSD could
 * use Capsicum's cap_enter(2); not done yet): the helper relies on having
 * given up root (privdrop_posix.c) alone.
 */
#include "config.h"

#include <stddef.h>

#include "tcptune.h"
#include "confine.h"

int
confine_enter(char *why, size_t len, const char **what)
{
	(void)why;
	(void)len;
	*what = "no confinement on this system beyond the user";
	return 0;
}
