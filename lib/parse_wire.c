/*
 * The parse helper's answer (parse_wire.h): written by the helper after
 * it has given up root, read by tcptuned, which believes nothing in it
 * that it has not checked here again: sizes, counts, every string ended
 * and zero-filled, every name a sysctl name (and one tcptune manages
 * unless AllowAnySysctl), every value normalized text, modes in range,
 * no name twice.  An answer that breaks any rule is garbage as a whole.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tcptune.h"
#include "parse_wire.h"

/* fuzz/mkcorpus.py writes answers by these sizes */
_Static_assert(sizeof(struct pw_head) == 1064, "struct pw_head changed");
_Static_assert(sizeof(struct pw_error) == 1280, "struct pw_error changed");
_Static_assert(sizeof(struct pw_key) == 404, "struct pw_key changed");

static void
put_key(struct pw_key *w, const struct config_key *k)
{
	tt_strlcpy(w->name, k->name, sizeof(w->name));
	tt_strlcpy(w->value, k->value, sizeof(w->value));
	w->numeric = k->numeric;
	w->mode = (uint32_t)k->mode;
	w->on_reject = (uint32_t)k->on_reject;
	w->line = k->line;
}

static void
put_config(struct pw_head *h, struct pw_key *keys, const struct config *cfg)
{
	size_t	i;

	h->ok = 1;
	h->nkeys = (uint32_t)cfg->nkeys;
	h->check_interval = cfg->check_interval;
	h->set = cfg->set;
	h->flags = (cfg->restore_on_exit ? PW_RESTORE : 0) |
	    (cfg->allow_any_sysctl ? PW_ALLOW_ANY : 0);
	h->digest = cfg->digest;
	tt_strlcpy(h->metrics_dir, cfg->metrics_dir, sizeof(h->metrics_dir));
	for (i = 0; i < cfg->nkeys; i++)
		put_key(&keys[i], &cfg->keys[i]);
}

/*
 * The answer for cfg, or for errs when cfg is NULL: 0 and *bufp (to
 * free), *lenp; -1 when cfg has more keys than the daemon keeps.
 */
int
parse_wire_encode(const struct config *cfg, const struct errlist *errs,
    char **bufp, size_t *lenp)
{
	struct pw_head	*h;
	struct pw_error	*e;
	size_t		 i, nerrs = 0, nkeys = 0;

	if (cfg != NULL && (nkeys = cfg->nkeys) > TT_MAX_KEYS)
		return -1;
	if (cfg == NULL)
		nerrs = errs->n == 0 ? 1 : errs->n > PW_MAX_ERRORS ?
		    PW_MAX_ERRORS : errs->n;
	*lenp = sizeof(*h) + nerrs * sizeof(*e) + nkeys *
	    sizeof(struct pw_key);
	if ((*bufp = calloc(1, *lenp)) == NULL)
		return -1;
	h = (struct pw_head *)(void *)*bufp;
	h->magic = PW_MAGIC;
	h->version = PW_VERSION;
	e = (struct pw_error *)(void *)(h + 1);
	if (cfg != NULL) {
		put_config(h, (struct pw_key *)(void *)e, cfg);
		return 0;
	}
	h->nerrs = (uint32_t)nerrs;
	for (i = 0; i < nerrs; i++)
		tt_strlcpy(e[i].text, errs->n == 0 ? "cannot be used" :
		    errs->msg[i], sizeof(e[i].text));
	return 0;
}

/* A NUL inside the field, nothing but NULs after it, no control byte. */
static bool
field_ok(const char *s, size_t size)
{
	const char	*nul = memchr(s, '\0', size);
	size_t		 i;

	if (nul == NULL)
		return false;
	for (i = (size_t)(nul - s); i < size; i++)
		if (s[i] != '\0')
			return false;
	for (i = 0; s[i] != '\0'; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

static int
bad(char *why, size_t len, const char *what)
{
	tt_strlcpy(why, what, len);
	return -1;
}

static int
check_head(const struct pw_head *h, size_t len, char *why, size_t wlen)
{
	if (h->magic != PW_MAGIC || h->version != PW_VERSION)
		return bad(why, wlen, "not a tcptune-parse answer (magic or "
		    "version)");
	if (h->ok > 1 || h->nerrs > PW_MAX_ERRORS || h->nkeys > TT_MAX_KEYS)
		return bad(why, wlen, "a count out of range");
	if (len != sizeof(*h) + h->nerrs * sizeof(struct pw_error) +
	    h->nkeys * sizeof(struct pw_key))
		return bad(why, wlen, "its length does not match its counts");
	if (h->ok ? h->nerrs != 0 : h->nerrs == 0 || h->nkeys != 0)
		return bad(why, wlen, "a result that is neither a config nor "
		    "errors");
	if (!h->ok)
		return 0;
	if (h->check_interval < TT_CHECK_MIN ||
	    h->check_interval > TT_CHECK_MAX ||
	    (h->set & ~(unsigned)(CONFIG_SET_INTERVAL | CONFIG_SET_RESTORE |
	    CONFIG_SET_METRICS)) ||
	    (h->flags & ~(unsigned)(PW_RESTORE | PW_ALLOW_ANY)))
		return bad(why, wlen, "a setting out of range");
	if (!field_ok(h->metrics_dir, sizeof(h->metrics_dir)) ||
	    (h->metrics_dir[0] != '\0' && h->metrics_dir[0] != '/'))
		return bad(why, wlen, "a metrics directory that is not an "
		    "absolute path");
	return 0;
}

static int
check_key(const struct pw_key *w, bool allow_any, char *why, size_t wlen)
{
	char		norm[TT_VALUE_MAX];
	long long	nums[TT_VALUE_MAX_WORDS];

	if (!field_ok(w->name, sizeof(w->name)) ||
	    !sysctl_name_valid(w->name) ||
	    (!allow_any && !sysctl_name_managed(w->name)))
		return bad(why, wlen, "a key name the config may not hold");
	if (!field_ok(w->value, sizeof(w->value)) ||
	    value_normalize(w->value, norm, sizeof(norm)) == -1 ||
	    strcmp(norm, w->value) != 0)
		return bad(why, wlen, "a value that is not normalized text");
	if (w->numeric > 1 || w->mode > MODE_AT_LEAST ||
	    w->on_reject > REJECT_CLAMP || w->line < 0 || w->pad != 0)
		return bad(why, wlen, "a key field out of range");
	if (w->numeric && value_numbers(w->value, nums, (int)NITEMS(nums)) < 1)
		return bad(why, wlen, "a numeric value that is not numbers");
	return 0;
}

static void
take_key(struct config_key *k, const struct pw_key *w)
{
	tt_strlcpy(k->name, w->name, sizeof(k->name));
	tt_strlcpy(k->value, w->value, sizeof(k->value));
	k->numeric = w->numeric;
	k->mode = (enum key_mode)w->mode;
	k->on_reject = (enum on_reject)w->on_reject;
	k->line = w->line;
}

static struct config *
take_config(const struct pw_head *h, const char *path)
{
	struct config	*cfg;

	if ((cfg = calloc(1, sizeof(*cfg))) == NULL ||
	    (cfg->keys = calloc(h->nkeys + 1, sizeof(*cfg->keys))) == NULL)
		fatal("%s", __func__);
	tt_strlcpy(cfg->path, path, sizeof(cfg->path));
	cfg->check_interval = h->check_interval;
	cfg->restore_on_exit = (h->flags & PW_RESTORE) != 0;
	cfg->allow_any_sysctl = (h->flags & PW_ALLOW_ANY) != 0;
	cfg->set = h->set;
	cfg->digest = h->digest;
	tt_strlcpy(cfg->metrics_dir, h->metrics_dir, sizeof(cfg->metrics_dir));
	return cfg;
}

/* Every key checked, and none twice, into a new config. */
static struct config *
decode_keys(const struct pw_head *h, const struct pw_key *w,
    const char *path, char *why, size_t wlen)
{
	struct config	*cfg = take_config(h, path);
	size_t		 i;

	for (i = 0; i < h->nkeys; i++) {
		if (check_key(&w[i], cfg->allow_any_sysctl, why, wlen) == -1 ||
		    (config_find(cfg, w[i].name) != NULL &&
		    bad(why, wlen, "a key named twice") == -1)) {
			config_free(cfg);
			return NULL;
		}
		take_key(&cfg->keys[cfg->nkeys++], &w[i]);
	}
	return cfg;
}

/*
 * Read the answer for the file path.  0 and *cfgp, or 0 with *cfgp NULL
 * and the helper's errors added to errs; -1 when the answer is garbage,
 * why says how.
 */
int
parse_wire_decode(const char *buf, size_t len, const char *path,
    struct config **cfgp, struct errlist *errs, char *why, size_t wlen)
{
	struct pw_head		 h;
	const struct pw_error	*e;
	uint32_t		 i;

	*cfgp = NULL;
	if (len < sizeof(h))
		return bad(why, wlen, len == 0 ? "no answer" : "a short "
		    "answer");
	memcpy(&h, buf, sizeof(h));
	if (check_head(&h, len, why, wlen) == -1)
		return -1;
	e = (const struct pw_error *)(const void *)(buf + sizeof(h));
	for (i = 0; i < h.nerrs; i++)
		if (!field_ok(e[i].text, sizeof(e[i].text)) ||
		    e[i].text[0] == '\0')
			return bad(why, wlen, "an error text that is not one "
			    "line");
	if (h.ok)
		return (*cfgp = decode_keys(&h, (const struct pw_key *)
		    (const void *)e, path, why, wlen)) == NULL ? -1 : 0;
	for (i = 0; i < h.nerrs; i++)
		errlist_add(errs, "%s", e[i].text);
	return 0;
}

/* ---- AllowAnySysctl from the file's own bytes */

/* Past the '>' of the tag at p, quoted values skipped; NULL: no end. */
static const char *
scan_tag_end(const char *p, const char *end)
{
	char	q = '\0';

	for (p++; p < end; p++) {
		if (q != '\0') {
			if (*p == q)
				q = '\0';
		} else if (*p == '"' || *p == '\'')
			q = *p;
		else if (*p == '>')
			return p + 1;
		else if (*p == '<')
			return NULL;
	}
	return NULL;
}

/* The tag at t is <NAME ...> or </NAME>, as a whole name. */
static bool
scan_named(const char *t, const char *end, const char *name)
{
	const char	*n = t + (t + 1 < end && t[1] == '/' ? 2 : 1);
	size_t		 len = strlen(name);

	return (size_t)(end - n) > len && memcmp(n, name, len) == 0 &&
	    strchr(" \t\r\n/>", n[len]) != NULL;
}

/* The n bytes at p are the lower-case word w, in any case. */
static bool
scan_word_is(const char *p, size_t n, const char *w)
{
	size_t	i;

	if (n != strlen(w))
		return false;
	for (i = 0; i < n; i++)
		if ((p[i] >= 'A' && p[i] <= 'Z' ? p[i] - 'A' + 'a' : p[i]) !=
		    w[i])
			return false;
	return true;
}

/* The XML declaration's encoding, if any, is UTF-8 or ASCII. */
static bool
scan_encoding_ok(const char *t, const char *close)
{
	const char	*e = tt_mem_find(t, close, "encoding");
	const char	*v;
	size_t		 n;

	if (e == NULL)
		return true;
	for (v = e + 8; v < close && strchr(" \t\r\n=", *v) != NULL; v++)
		;
	if (v >= close || (*v != '"' && *v != '\''))
		return false;
	for (n = 1; v + n < close && v[n] != *v; n++)
		;
	n--;
	return scan_word_is(v + 1, n, "utf-8") ||
	    scan_word_is(v + 1, n, "us-ascii");
}

/*
 * At t, a '<': step over a comment, a CDATA section or a processing
 * instruction (the XML declaration's encoding checked), *p after it: 1.
 * 0: none of these, a tag.  -1: one not closed, or an encoding this scan
 * cannot read.
 */
static int
scan_skip(const char *t, const char *end, const char **p)
{
	static const struct { const char *open, *close; } skipped[] = {
		{ "<!--", "-->" }, { "<![CDATA[", "]]>" }, { "<?", "?>" },
	};
	const char	*close;
	size_t		 i;

	for (i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++) {
		if (!tt_mem_starts(t, end, skipped[i].open))
			continue;
		close = tt_mem_find(t + strlen(skipped[i].open), end,
		    skipped[i].close);
		if (close == NULL || (skipped[i].open[1] == '?' &&
		    scan_named(t + 1, end, "xml") && !scan_encoding_ok(t, close)))
			return -1;
		*p = close + strlen(skipped[i].close);
		return 1;
	}
	return 0;
}

/* parse_wire_says_allow_any's place in the markup. */
struct allow_scan {
	int	depth;
	int	top;		/* the top dict's children's depth; -1 */
	int	said;		/* AllowAnySysctl <true/> seen */
	bool	root_plist;	/* the root element is <plist> */
	bool	first;		/* no element in <plist> before the dict */
	bool	want_value;	/* AllowAnySysctl's key seen, its value next */
};

/*
 * A child of the top dict, at t (its start tag ending at next): a key,
 * read whole (*p after its end tag: 1), or AllowAnySysctl's value.  0:
 * the scan goes on from next; -1: a no (a key with markup or a reference,
 * AllowAnySysctl twice or with a value but <true/>).
 */
static int
top_child(struct allow_scan *st, const char *t, const char *next,
    const char *end, const char **p)
{
	const char	*close;
	bool		 empty = next[-2] == '/';

	if (st->want_value) {
		st->want_value = false;
		if (!scan_named(t, end, "true") || (!empty &&
		    !tt_mem_starts(next, end, "</true>")))
			return -1;
		st->said = 1;
		return 0;
	}
	if (!scan_named(t, end, "key") || empty)
		return 0;
	if ((close = tt_mem_find(next, end, "</key>")) == NULL ||
	    memchr(next, '<', (size_t)(close - next)) ||
	    memchr(next, '&', (size_t)(close - next)))
		return -1;
	if ((size_t)(close - next) == 14 &&
	    memcmp(next, "AllowAnySysctl", 14) == 0) {
		if (st->said)
			return -1;
		st->want_value = true;
	}
	*p = close + 6;
	return 1;
}

/*
 * Whether the config's bytes say AllowAnySysctl <true/> in the top dict
 * (the first element of the root <plist>).  tcptuned does not
 * take the one flag that widens what root writes on the parse helper's
 * word (docs/SECURITY.md, "Privilege separation"): it looks in the bytes
 * it opened itself.  A scan of the markup, not a parser: comments,
 * CDATA sections and processing instructions are stepped over, quoted
 * attribute values honoured, elements counted for depth, and the top
 * dict's children taken in order.  It may only say yes where the file
 * does: anything it cannot follow (a binary plist, an encoding other than
 * UTF-8 or ASCII, a DOCTYPE with an internal subset, a key with markup or
 * a reference in it, markup not closed, AllowAnySysctl given any value
 * but <true/>, or twice) is a no.  1 or 0.
 */
int
parse_wire_says_allow_any(const char *buf, size_t len)
{
	const char		*p = buf, *end = buf + len, *t, *next;
	struct allow_scan	 st = { 0, -1, 0, false, true, false };
	bool			 empty;

	if (tt_mem_starts(p, end, "\xef\xbb\xbf"))
		p += 3;
	if (tt_mem_starts(p, end, "bplist"))
		return 0;
	while ((t = memchr(p, '<', (size_t)(end - p))) != NULL) {
		switch (scan_skip(t, end, &p)) {
		case -1:
			return 0;
		case 1:
			continue;
		}
		if ((next = scan_tag_end(t, end)) == NULL)
			return 0;
		if (t[1] == '!') {		/* a DOCTYPE */
			if (memchr(t, '[', (size_t)(next - t)) != NULL)
				return 0;
			p = next;
			continue;
		}
		if (t[1] == '/') {
			if (--st.depth < 0)
				return 0;
			if (st.depth < st.top)	/* the top dict has ended */
				break;
			p = next;
			continue;
		}
		empty = next[-2] == '/';
		if (st.top == -1 && scan_named(t, end, "dict") &&
		    st.depth == 1 && st.root_plist && st.first)
			st.top = st.depth + 1;
		else if (st.depth == 0)
			st.root_plist = scan_named(t, end, "plist");
		else if (st.depth == st.top) {
			switch (top_child(&st, t, next, end, &p)) {
			case -1:
				return 0;
			case 1:
				continue;
			}
		}
		if (st.depth == 1)
			st.first = false;	/* the top dict is the first */
		if (!empty)
			st.depth++;
		p = next;
	}
	return st.want_value ? 0 : st.said;
}
