/*
 * tcptunectl help PAGE: the manual pages built in (tools/manual.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "manual.h"

const struct manual_page *
manual_find(const char *want)
{
	char	full[64];
	size_t	i;

	for (i = 0; i < manual_npages; i++) {
		const struct manual_page *m = &manual_pages[i];

		snprintf(full, sizeof(full), "%s.%s", m->name, m->section);
		/* case ignored, as for command names (issue 31) */
		if (strcasecmp(want, m->name) == 0 ||
		    strcasecmp(want, full) == 0)
			return m;
	}
	return NULL;
}

void
manual_names(char *buf, size_t len)
{
	size_t	i;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < manual_npages; i++) {
		if (i > 0)
			strncat(buf, ", ", len - strlen(buf) - 1);
		strncat(buf, manual_pages[i].name, len - strlen(buf) - 1);
	}
}

int
manual_print(FILE *f, const struct manual_page *m)
{
	const char *const *line;

	for (line = m->lines; *line != NULL; line++)
		if (fputs(*line, f) == EOF || fputc('\n', f) == EOF)
			return -1;
	return 0;
}
