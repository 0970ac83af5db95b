/*
 * The Windows registry policy as a config layer.
 *
 * Group Policy and Intune (an ADMX-backed profile) deliver settings as
 * registry values under HKLM\SOFTWARE\Policies (packaging/windows/
 * tcptune.admx): CheckInterval, a REG_DWORD, in HKLM\SOFTWARE\Policies\
 * tcptune, and one REG_SZ per sysctl, named by the key, in its Sysctls
 * subkey.  policy_win.c reads them; this file turns what it read into a
 * struct config by writing it as the plist a config would be, one value a
 * line, and handing that to config_parse(): the values meet exactly the
 * checks a config's do.  Each problem config.c finds on a line is said
 * again for the registry value that line came from, so an administrator
 * reads the key and value to fix, never a line of a file that does not
 * exist.  No registry code: it runs (and is tested) everywhere.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"

#define FIRST_LINE	3	/* after the XML declaration and <plist><dict> */

struct policy_doc {
	char	*buf;
	size_t	 len;
	size_t	 cap;
};

static void
doc_add(struct policy_doc *d, const char *s, size_t n)
{
	char	*grown;
	size_t	 cap;

	if (d->len + n + 1 > d->cap) {
		cap = (d->len + n + 1) * 2;
		if ((grown = realloc(d->buf, cap)) == NULL)
			fatal("%s", __func__);
		d->buf = grown;
		d->cap = cap;
	}
	memcpy(d->buf + d->len, s, n);
	d->len += n;
	d->buf[d->len] = '\0';
}

static void
doc_str(struct policy_doc *d, const char *s)
{
	doc_add(d, s, strlen(s));
}

/*
 * Text as XML character data.  A control byte is written as a character
 * reference, which XML 1.0 refuses for most of C0: the parse then fails
 * on that value's line, and the problem is said for that value.
 */
static void
doc_text(struct policy_doc *d, const char *s)
{
	char	ref[16];

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '<' || c == '>' || c == '&' || c < 0x20 || c == 0x7f) {
			snprintf(ref, sizeof(ref), "&#%u;", c);
			doc_str(d, ref);
		} else
			doc_add(d, s, 1);
	}
}

/* Booleans are DWORDs in the registry and <true/>/<false/> in a plist. */
static bool
is_bool_key(const char *name)
{
	return strcmp(name, "RestoreOnExit") == 0 ||
	    strcmp(name, "AllowAnySysctl") == 0;
}

/* One value as one line: <key>name</key> and its value. */
static void
doc_value(struct policy_doc *d, const struct policy_value *v, bool top)
{
	char	num[32];

	if (v->type == POLICY_OTHER || v->cut) {	/* refuse_raw's */
		doc_str(d, "\n");
		return;
	}
	doc_str(d, "<key>");
	doc_text(d, v->name);
	doc_str(d, "</key>");
	if (v->type == POLICY_DWORD && top && is_bool_key(v->name) &&
	    v->dword <= 1)
		doc_str(d, v->dword ? "<true/>" : "<false/>");
	else if (v->type == POLICY_DWORD) {
		snprintf(num, sizeof(num), "<integer>%lu</integer>", v->dword);
		doc_str(d, num);
	} else {
		doc_str(d, "<string>");
		doc_text(d, v->text);
		doc_str(d, "</string>");
	}
	doc_str(d, "\n");
}

/* What policy_win.c read but config.c cannot be asked about. */
static size_t
refuse_raw(const char *key, const struct policy_value *v, size_t n,
    struct errlist *errs)
{
	char	name[TT_ESCAPE_SIZE(sizeof(v->name))];
	size_t	i, bad = 0;

	for (i = 0; i < n; i++) {
		tt_escape(name, sizeof(name), v[i].name);
		if (v[i].type == POLICY_OTHER)
			errlist_add(errs, "%s, value \"%s\": registry type %lu "
			    "is neither REG_SZ nor REG_DWORD", key, name,
			    v[i].regtype);
		else if (v[i].cut)
			errlist_add(errs, "%s, value \"%s\": the name or the "
			    "text is too long", key, name);
		else
			continue;
		bad++;
	}
	return bad;
}

/*
 * "label:LINE: msg" for a line that holds a value, as "KEY, value
 * "NAME": msg"; anything else as it is.
 */
static void
reword(const char *msg, const struct policy_value *top, size_t ntop,
    const struct policy_value *sys, size_t nsys, struct errlist *errs)
{
	const struct policy_value	*v = NULL;
	const char			*key = NULL, *rest;
	char				 name[TT_ESCAPE_SIZE(TT_NAME_MAX + 1)];
	size_t				 plen = strlen(TT_POLICY_SOURCE);
	long				 line;

	if (strncmp(msg, TT_POLICY_SOURCE ":", plen + 1) != 0 ||
	    sscanf(msg + plen + 1, "%ld", &line) != 1 ||
	    (rest = strstr(msg + plen + 1, ": ")) == NULL) {
		errlist_add(errs, "%s", msg);
		return;
	}
	line -= FIRST_LINE;
	if (line >= 0 && (size_t)line < ntop) {
		v = &top[line];
		key = TT_POLICY_KEY;
	} else if (line > (long)ntop && (size_t)line - ntop - 1 < nsys) {
		v = &sys[line - (long)ntop - 1];
		key = TT_POLICY_SYSCTLS;
	}
	if (v == NULL) {
		errlist_add(errs, "%s: %s", TT_POLICY_SOURCE, rest + 2);
		return;
	}
	tt_escape(name, sizeof(name), v->name);
	errlist_add(errs, "%s, value \"%s\": %s", key, name, rest + 2);
}

/*
 * The policy's values (top: in TT_POLICY_KEY, sys: in its Sysctls
 * subkey) as a config named TT_POLICY_SOURCE, or NULL with every problem
 * in errs, each naming the registry key and value.
 */
struct config *
config_policy(const struct policy_value *top, size_t ntop,
    const struct policy_value *sys, size_t nsys, struct errlist *errs)
{
	struct policy_doc	 d = { NULL, 0, 0 };
	struct errlist		 perrs;
	struct config		*cfg;
	size_t			 i, bad;

	bad = refuse_raw(TT_POLICY_KEY, top, ntop, errs) +
	    refuse_raw(TT_POLICY_SYSCTLS, sys, nsys, errs);
	doc_str(&d, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<plist version=\"1.0\"><dict>\n");
	for (i = 0; i < ntop; i++)
		doc_value(&d, &top[i], true);
	doc_str(&d, "<key>Sysctls</key><dict>\n");
	for (i = 0; i < nsys; i++)
		doc_value(&d, &sys[i], false);
	doc_str(&d, "</dict></dict></plist>\n");
	errlist_init(&perrs);
	cfg = config_parse(d.buf, d.len, TT_POLICY_SOURCE, &perrs);
	free(d.buf);
	for (i = 0; i < perrs.n; i++)
		reword(perrs.msg[i], top, ntop, sys, nsys, errs);
	errlist_clear(&perrs);
	if (cfg != NULL && bad > 0) {
		config_free(cfg);
		return NULL;
	}
	return cfg;
}
