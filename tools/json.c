/*
 * The JSON writer behind tcptunectl's --json output (status, reload,
 * advise): one copy, so every document escapes and indents alike.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "json.h"

/* The length of a valid UTF-8 sequence at s (not ASCII), or 0. */
static size_t
utf8_seq(const unsigned char *s)
{
	unsigned char	lo = 0x80, hi = 0xbf;
	size_t		n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;		/* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;		/* above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A JSON string; bytes that are not UTF-8 become U+FFFD. */
void
json_quote(FILE *f, const char *str)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 n;

	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\r')
			fputs("\\r", f);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\u%04x", *s);
		else if (*s < 0x80)
			fputc(*s, f);
		else if ((n = utf8_seq(s)) == 0)
			fputs("\\ufffd", f);
		else {
			fwrite(s, 1, n, f);
			s += n - 1;
		}
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
