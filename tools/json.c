/*
 * The JSON writer behind tcptunectl's --json output (status, reload,
 * advise): one copy, so every document escapes and indents alike.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tcptune.h"
#include "json.h"

/*
 * A JSON string (RFC 8259 section 7): quote, backslash and C0 controls
 * escaped as it requires, and also DEL, the C1 and the bidi controls
 * (util.c), so that a document shown on a terminal is as safe as the
 * text output.  Bytes that are not UTF-8 become U+FFFD.
 */
void
json_quote(FILE *f, const char *s)
{
	uint32_t	cp;
	size_t		n;

	fputc('"', f);
	for (; *s != '\0'; s += n) {
		if ((n = tt_utf8_decode(s, &cp)) == 0) {
			fputs("\\ufffd", f);
			n = 1;
		} else if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp == '\r')
			fputs("\\r", f);
		else if (tt_unsafe_char(cp))
			fprintf(f, "\\u%04x", (unsigned)cp);
		else
			fwrite(s, 1, n, f);
	}
	fputc('"', f);
}

void
json_begin(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
}

/* Comma, newline and indent before a member; its key in an object. */
static void
json_member(struct json *j, const char *key)
{
	if (j->depth > 0) {
		fputs(j->first[j->depth] ? "\n" : ",\n", j->f);
		j->first[j->depth] = false;
		fprintf(j->f, "%*s", j->depth * 2, "");
	}
	if (key != NULL) {
		json_quote(j->f, key);
		fputs(": ", j->f);
	}
}

void
json_open(struct json *j, const char *key, int c)
{
	json_member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 >= JSON_DEPTH)
		abort();		/* nesting is fixed by the callers */
	j->first[++j->depth] = true;
}

void
json_close(struct json *j, int c)
{
	if (!j->first[j->depth])
		fprintf(j->f, "\n%*s", (j->depth - 1) * 2, "");
	j->depth--;
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

/* A string, or null for NULL. */
void
json_str(struct json *j, const char *key, const char *s)
{
	json_member(j, key);
	if (s == NULL)
		fputs("null", j->f);
	else
		json_quote(j->f, s);
}

void
json_int(struct json *j, const char *key, long long v)
{
	json_member(j, key);
	fprintf(j->f, "%lld", v);
}

void
json_uint(struct json *j, const char *key, unsigned long long v)
{
	json_member(j, key);
	fprintf(j->f, "%llu", v);
}

/* Numbers as numbers; 15 digits keep 0.15 from printing as 0.1499... */
void
json_num(struct json *j, const char *key, double v)
{
	json_member(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.15g", v);
	else
		fputs("null", j->f);
}

void
json_bool(struct json *j, const char *key, bool v)
{
	json_member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void
json_null(struct json *j, const char *key)
{
	json_member(j, key);
	fputs("null", j->f);
}

/*
 * A text, or null when it is empty ("nothing": no problem, no reason),
 * so that a document says "nothing" one way (diagnose).
 */
void
json_text(struct json *j, const char *key, const char *s)
{
	if (s[0] == '\0')
		json_null(j, key);
	else
		json_str(j, key, s);
}

/*
 * A wall-clock time in seconds as ISO 8601 UTC, or null for 0 ("never"):
 * every document gives its times alike (status, diagnose).
 */
void
json_time(struct json *j, const char *key, long long t)
{
	time_t		tt = (time_t)t;
	struct tm	tm;
	char		buf[64];

	if (t == 0)
		json_null(j, key);
	else if (gmtime_r(&tt, &tm) == NULL)
		json_int(j, key, t);
	else {
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
		json_str(j, key, buf);
	}
}
