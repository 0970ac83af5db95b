/*
 * Reading a config file: what is the same on every OS.  The readers
 * (config_file_posix.c, config_file_win.c) word their failures here, and
 * config.c calls the readers, so neither pair calls the other back.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "tcptune.h"

/*
 * Why config_file_read() could not read path: err from the system, or
 * EFBIG for a file past TT_CONFIG_MAX_BYTES.  One wording on every OS.
 */
void
config_file_error(struct errlist *errs, const char *path, int err)
{
	if (err == EFBIG)
		errlist_add(errs, "%s: larger than %d bytes: refusing to read "
		    "it", path, TT_CONFIG_MAX_BYTES);
	else
		errlist_add(errs, "%s: %s", path, strerror(err));
}
