/*
 * The manual pages inside tcptunectl: "tcptunectl help PAGE" prints
 * one, for Windows (no man(1)) and for any machine where the pages are
 * not installed.  tools/manual_pages.c is generated from man/ by
 * scripts/man2c.sh at build time, so the text is the page's own.
 */
#ifndef TCPTUNE_MANUAL_H
#define TCPTUNE_MANUAL_H

#include <stddef.h>
#include <stdio.h>

struct manual_page {
	const char		*name;		/* "tcptune.conf" */
	const char		*section;	/* "5" */
	const char *const	*lines;		/* NULL-terminated */
};

extern const struct manual_page	manual_pages[];
extern const size_t		manual_npages;

/* The page called NAME or NAME.SECTION, or NULL. */
const struct manual_page *manual_find(const char *);
/* The names, "tcptunectl, tcptuned, tcptune.conf", into a buffer. */
void	manual_names(char *, size_t);
/* Prints a page; -1 when the stream failed. */
int	manual_print(FILE *, const struct manual_page *);

#endif
