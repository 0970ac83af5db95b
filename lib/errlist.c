/*
 * An ordered list of messages.  Parsers add every error they find, so the
 * user sees all of them at once rather than one per attempt.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"

void
errlist_init(struct errlist *el)
{
	memset(el, 0, sizeof(*el));
}

void
errlist_addv(struct errlist *el, const char *fmt, va_list ap)
{
	char	*msg, **grown;

	if (el->n == el->cap) {
		size_t cap = el->cap ? el->cap * 2 : 8;

		grown = realloc(el->msg, cap * sizeof(*grown));
		if (grown == NULL)
			fatal("%s", __func__);
		el->msg = grown;
		el->cap = cap;
	}
	if (vasprintf(&msg, fmt, ap) == -1)
		fatal("%s", __func__);
	el->msg[el->n++] = msg;
}

void
errlist_add(struct errlist *el, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	errlist_addv(el, fmt, ap);
	va_end(ap);
}

void
errlist_clear(struct errlist *el)
{
	size_t	i;

	for (i = 0; i < el->n; i++)
		free(el->msg[i]);
	free(el->msg);
	errlist_init(el);
}
