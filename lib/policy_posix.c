/*
 * No registry policy on Unix: the managed preferences file (config_layers.c)
 * is the fleet's layer there.  policy_win.c is the Windows side.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>

#include "tcptune.h"

int
policy_load(struct config **cfg, struct errlist *errs)
{
	(void)errs;
	*cfg = NULL;
	return 0;
}

bool
policy_present(void)
{
	return false;
}
