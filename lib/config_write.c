/*
 * The one writer of the config format (config.c is its reader): a struct
 * config as a tcptune.conf plist, for every tool that writes one (set and
 * unset, import, advise --config and --apply).  One layout: CheckInterval
 * first, then RestoreOnExit and AllowAnySysctl when given, then the
 * sysctls in the config's order; a key in the short form (its value
 * alone) when it is enforced and fails on a refusal, else a dict naming
 * only the Mode and OnReject that differ from those defaults.  A value
 * that is one non-negative integer is an <integer>, anything else a
 * <string>, text escaped so config_parse() reads back what was written.
 * Comments are the caller's (struct config_notes): one above the
 * <plist>, and one above any key.  config_same_layout tells a file this
 * writer laid out, whatever comments it was given, so that set and
 * advise --apply, whose comments differ, rewrite each other's files
 * (issue 40 item 5).  It uses no libxml2, so that a program
 * that writes need not link the parser.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"

struct wbuf {
	char	*p;
	size_t	 len, cap;
	bool	 failed;
};

static void	wb_add(struct wbuf *, const char *, ...) TT_PRINTF(2, 3);

static void
wb_add(struct wbuf *b, const char *fmt, ...)
{
	va_list	 ap;
	char	*grown;
	size_t	 cap;
	int	 n;

	for (;;) {
		va_start(ap, fmt);
		n = b->failed ? 0 : vsnprintf(b->p == NULL ? NULL : b->p +
		    b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			b->failed = true;
		if (b->failed || (size_t)n < b->cap - b->len)
			break;
		cap = b->cap == 0 ? 4096 : b->cap * 2;
		while (cap - b->len <= (size_t)n)
			cap *= 2;
		if ((grown = realloc(b->p, cap)) == NULL) {
			b->failed = true;
			break;
		}
		b->p = grown;
		b->cap = cap;
	}
	if (!b->failed)
		b->len += (size_t)n;
}

/* Text in an element: the reader takes it back as written. */
static void
wb_text(struct wbuf *b, const char *s)
{
	for (; *s != '\0'; s++)
		wb_add(b, "%s", *s == '&' ? "&amp;" : *s == '<' ? "&lt;" :
		    *s == '>' ? "&gt;" : (char[]){ *s, '\0' });
}

/*
 * A comment: "<!--", the text, "-->", each on its own line after ind, or
 * all on one for a text of one line.
 * XML 1.0 (section 2.5) forbids "--" inside a comment and a '-' before
 * its end: such a hyphen is followed by a space, so no text can end the
 * comment early.
 */
static void
wb_comment(struct wbuf *b, const char *ind, const char *text)
{
	const char	*one_line = strchr(text, '\n') == NULL ? " " : "\n";

	wb_add(b, "%s<!--%s", ind, one_line);
	for (; *text != '\0'; text++) {
		wb_add(b, "%c", *text);
		if (*text == '-' && (text[1] == '-' || text[1] == '\0'))
			wb_add(b, " ");
	}
	if (*one_line == ' ')
		wb_add(b, " -->\n");
	else
		wb_add(b, "%s%s-->\n", text[-1] == '\n' ? "" : "\n", ind);
}

static void
wb_value(struct wbuf *b, const char *value, const char *ind)
{
	long long	n;

	if (strchr(value, ' ') == NULL && parse_ll(value, &n) == 0 && n >= 0)
		wb_add(b, "%s<integer>%lld</integer>\n", ind, n);
	else {
		wb_add(b, "%s<string>", ind);
		wb_text(b, value);
		wb_add(b, "</string>\n");
	}
}

static void
wb_key(struct wbuf *b, const struct config_key *k, const char *note)
{
	if (note != NULL && note[0] != '\0')
		wb_comment(b, "\t\t", note);
	wb_add(b, "\t\t<key>");
	wb_text(b, k->name);
	wb_add(b, "</key>\n");
	if (k->mode == MODE_ENFORCE && k->on_reject == REJECT_FAIL) {
		wb_value(b, k->value, "\t\t");
		return;
	}
	wb_add(b, "\t\t<dict>\n\t\t\t<key>Value</key>\n");
	wb_value(b, k->value, "\t\t\t");
	if (k->mode != MODE_ENFORCE)
		wb_add(b, "\t\t\t<key>Mode</key>\n\t\t\t<string>%s</string>\n",
		    key_mode_name(k->mode));
	if (k->on_reject != REJECT_FAIL)
		wb_add(b, "\t\t\t<key>OnReject</key>\n"
		    "\t\t\t<string>%s</string>\n", on_reject_name(k->on_reject));
	wb_add(b, "\t\t</dict>\n");
}

/*
 * cfg as a tcptune.conf, with notes (NULL: no comments).  0 and *bufp
 * (NUL-terminated, to free) and *lenp, or -1 when memory ran out.
 */
int
config_write(const struct config *cfg, const struct config_notes *notes,
    char **bufp, size_t *lenp)
{
	struct wbuf	b = { NULL, 0, 0, false };
	size_t		i;

	wb_add(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
	    "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n");
	if (notes != NULL && notes->head != NULL)
		wb_comment(&b, "", notes->head);
	wb_add(&b, "<plist version=\"1.0\">\n<dict>\n"
	    "\t<key>CheckInterval</key>\n\t<integer>%u</integer>\n",
	    cfg->check_interval);
	if (cfg->set & CONFIG_SET_RESTORE)
		wb_add(&b, "\t<key>RestoreOnExit</key>\n\t<%s/>\n",
		    cfg->restore_on_exit ? "true" : "false");
	if (cfg->allow_any_sysctl)
		wb_add(&b, "\t<key>AllowAnySysctl</key>\n\t<true/>\n");
	wb_add(&b, "\t<key>Sysctls</key>\n\t<dict>\n");
	for (i = 0; i < cfg->nkeys; i++)
		wb_key(&b, &cfg->keys[i], notes != NULL && notes->key != NULL ?
		    notes->key(&cfg->keys[i], notes->arg) : NULL);
	wb_add(&b, "\t</dict>\n</dict>\n</plist>\n");
	if (b.failed) {
		free(b.p);
		return -1;
	}
	*bufp = b.p;
	*lenp = b.len;
	return 0;
}

/*
 * The length of text with each comment this writer lays out (see
 * wb_comment: from the tabs that start its line to the newline after
 * "-->") taken out, the rest copied to out (as long as text).
 */
static size_t
strip_comments(const char *text, size_t len, char *out)
{
	const char	*end = text + len, *open, *close, *from = text;
	size_t		 n = 0;

	while ((open = tt_mem_find(from, end, "<!--")) != NULL &&
	    (close = tt_mem_find(open, end, "-->")) != NULL) {
		const char	*line = open;

		while (line > from && line[-1] == '\t')
			line--;
		if (line != text && line[-1] != '\n')
			line = open;	/* not alone on its line: keep the tabs */
		memcpy(out + n, from, (size_t)(line - from));
		n += (size_t)(line - from);
		from = close + 3;
		if (from < end && *from == '\n')
			from++;
	}
	memcpy(out + n, from, (size_t)(end - from));
	return n + (size_t)(end - from);
}

/*
 * Whether text is cfg as config_write lays it out, comments aside: the
 * same bytes once every comment is taken out.  false when memory ran out.
 */
bool
config_same_layout(const struct config *cfg, const char *text, size_t len)
{
	char	*bare, *mine;
	size_t	 barelen, minelen;
	bool	 same = false;

	if ((bare = malloc(len + 1)) == NULL)
		return false;
	barelen = strip_comments(text, len, bare);
	if (config_write(cfg, NULL, &mine, &minelen) == 0) {
		same = minelen == barelen && memcmp(mine, bare, barelen) == 0;
		free(mine);
	}
	free(bare);
	return same;
}
