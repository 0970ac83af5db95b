/*
 * What a plist never holds, refused before libxml2 parses it: one pass
 * over the bytes, linear in their number, with no allocation.  config.c's
 * reader (xml_read) runs it on every XML document it is given, so it
 * guards tcptunectl check and import, tcptuned -n, reload and the parse
 * helper alike.
 *
 * Why: libxml2 2.9 (Debian bookworm's 2.9.14) checks a start tag for
 * duplicate attributes in quadratic time.  In 2.9.14's parser.c,
 * xmlParseStartTag2 compares each attribute with every one before it
 * ("[ WFC: Unique Att Spec ]", line 9631: for (j = 0; j < i; j += 5))
 * and each namespace declaration with every one before it ("check that
 * it's not a defined namespace", line 9437), and the tree builder walks
 * the element's attribute list to append each one (SAX2.c
 * xmlSAX2AttributeNs, line 1992: "link at the end to preserve order,
 * TODO speed up with a last").  A 1 MB plist with 143,000 attributes on
 * <plist> cost tcptunectl 31-46 s of CPU against 0.01 s for a plain one
 * (issue 41), and the parse helper was killed at its 10 s deadline;
 * libxml2 2.12 replaced the loops with a hash table (xmlAttrHashInsert),
 * which not every system tcptune runs on has.  The checks go on after
 * the first fatal error (disableSAX), so a malformed tag before the
 * flood saves nothing.
 *
 * Apple's DTD (PropertyList-1.0.dtd) gives one element one attribute,
 * <!ATTLIST plist version CDATA "1.0">, so that is all this lets through:
 * any other attribute, a namespace declaration included, is refused at the
 * first byte of its name, and a start tag that is not NAME, that one
 * attribute, then ">" or "/>" is refused where it goes wrong.  Also
 * refused: nesting past PLIST_SCAN_DEPTH (a config nests 5 deep, a launchd
 * job a few more; libxml2 alone stops at 256), a DOCTYPE holding
 * declarations (config.c's SAX hooks refuse them too, with the same
 * words, but only once libxml2 has parsed one), and text whose bytes are
 * not ASCII's for '<', '>', '=' and the quotes: EBCDIC, or an encoding
 * declared other than UTF-8, ASCII, ISO-8859-N or windows-125N, which
 * libxml2 would switch to behind this scan's back.
 *
 * The scan sees every '<' libxml2 could take for a tag: it skips only a
 * comment, CDATA section or processing instruction that is closed (one
 * left open is scanned through), attribute values, and literals in the
 * DOCTYPE; a '<' inside the DOCTYPE that starts no comment or PI ends
 * it, since libxml2 would go on to parse it as the root element.
 * Everything else (well-formedness, entities) is left to libxml2.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tcptune.h"

#define NAME_SHOW	40	/* bytes of a name shown in a message */
#define VERSION_MAX	64	/* bytes of version on <plist>: "1.0" */

static const char no_dtd[] = "a tcptune config has no DTD declarations "
    "or entities";

/* What closes a comment, a PI, a CDATA section; a literal. */
enum closer { CLOSE_COMMENT, CLOSE_PI, CLOSE_CDATA, CLOSE_DQ, CLOSE_SQ,
	CLOSE_N };

struct scan {
	const char	*end;
	const char	*at;		/* where the refusal is */
	char		*why;
	size_t		 size;
	/*
	 * Where each closer was last looked for in vain: there is none
	 * after it, so a thousand unclosed "<!--" cost one search, not a
	 * thousand (the scan stays linear).
	 */
	const char	*none[CLOSE_N];
};

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A byte that may start an XML name (any of UTF-8's multibyte ones). */
static bool
name_start(char c)
{
	unsigned char	u = (unsigned char)c;

	return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') ||
	    u == '_' || u == ':' || u >= 0x80;
}

/* The end of the name at s: up to white space or a delimiter. */
static const char *
name_end(const char *s, const char *end)
{
	while (s < end && !is_space(*s) && strchr("<>/=\"'[]?!", *s) == NULL)
		s++;
	return s;
}

/* The closer of kind c at or after s, or NULL. */
static const char *
closer(struct scan *sc, const char *s, enum closer c)
{
	static const char *const words[CLOSE_N] = {
		"-->", "?>", "]]>", "\"", "'"
	};
	const char	*q;

	if (sc->none[c] != NULL && s >= sc->none[c])
		return NULL;
	if ((q = tt_mem_find(s, sc->end, words[c])) == NULL)
		sc->none[c] = s;
	return q;
}

/* s[0..n) for a message: printable ASCII, else \xNN; cut short. */
static const char *
shown(const char *s, size_t n, char *buf, size_t size)
{
	size_t	i, o = 0;

	for (i = 0; i < n && o + 8 < size; i++) {
		unsigned char	c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f)
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (i < n)
		memcpy(buf + o, "...", 4);
	else
		buf[o] = '\0';
	return buf;
}

static int	refuse(struct scan *, const char *, const char *, ...)
		    TT_PRINTF(3, 4);

/* Refused: the words in sc->why, the place in sc->at.  -1. */
static int
refuse(struct scan *sc, const char *at, const char *fmt, ...)
{
	va_list	ap;

	sc->at = at;
	va_start(ap, fmt);
	vsnprintf(sc->why, sc->size, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The XML declaration's encoding, when it names one the bytes are not
 * ASCII in: libxml2 would decode the rest with it.  close is the first
 * '>': libxml2 reads the declaration's parts in order and none of them
 * may hold one, so an encoding past it is never applied.
 */
static int
encoding(struct scan *sc, const char *decl, const char *close)
{
	static const char *const ok[] = {
		"UTF-8", "UTF8", "US-ASCII", "ASCII", "LATIN1", NULL
	};
	const char	*v, *e, *q;
	char		 name[NAME_SHOW * 4 + 8], up[32];
	size_t		 n, i;

	if ((v = tt_mem_find(decl, close, "encoding")) == NULL)
		return 0;
	for (v += 8; v < close && (is_space(*v) || *v == '='); v++)
		;
	if (v == close || (*v != '"' && *v != '\''))
		return 0;		/* malformed: libxml2 says so */
	if ((e = memchr(v + 1, *v, (size_t)(close - v - 1))) == NULL)
		return 0;
	v++;
	n = (size_t)(e - v);
	for (i = 0; i < n && i + 1 < sizeof(up); i++)
		up[i] = (char)(v[i] >= 'a' && v[i] <= 'z' ? v[i] - 32 : v[i]);
	up[i] = '\0';
	for (i = 0; ok[i] != NULL; i++)
		if (strcmp(up, ok[i]) == 0 && n == strlen(ok[i]))
			return 0;
	q = NULL;
	if (strncmp(up, "ISO-8859-", 9) == 0)
		q = up + 9;
	else if (strncmp(up, "WINDOWS-125", 11) == 0)
		q = up + 11;
	else if (strncmp(up, "CP125", 5) == 0)
		q = up + 5;
	if (q != NULL && *q >= '0' && *q <= '9' && n == strlen(up) &&
	    strspn(q, "0123456789") == strlen(q) && strlen(q) <= 2)
		return 0;
	return refuse(sc, v, "encoding \"%s\" not read: a plist is UTF-8 "
	    "(or ASCII, ISO-8859-N or windows-125N)",
	    shown(v, n, name, sizeof(name)));
}

/*
 * The DOCTYPE at s: literals skipped, an internal subset holding only
 * white space, comments and PIs.  Where the scan goes on.
 */
static const char *
doctype(struct scan *sc, const char *s)
{
	static const char *const decls[][2] = {
		{ "<!ELEMENT", "element declaration" },
		{ "<!ATTLIST", "attribute declaration" },
		{ "<!ENTITY", "entity declaration" },
		{ "<!NOTATION", "notation declaration" },
	};
	const char	*end = sc->end, *q, *n;
	char		 name[NAME_SHOW * 4 + 8];
	bool		 subset = false;
	size_t		 i;

	for (s += 9; s < end; s++) {
		if (!subset && (*s == '"' || *s == '\'')) {
			if ((q = closer(sc, s + 1, *s == '"' ? CLOSE_DQ :
			    CLOSE_SQ)) == NULL)
				return s + 1;
			s = q;
		} else if (!subset && *s == '>')
			return s + 1;
		else if (!subset && *s == '[')
			subset = true;
		else if (subset && *s == ']')
			subset = false;
		else if (tt_mem_starts(s, end, "<!--") &&
		    (q = closer(sc, s + 4, CLOSE_COMMENT)) != NULL)
			s = q + 2;
		else if (tt_mem_starts(s, end, "<?") &&
		    (q = closer(sc, s + 2, CLOSE_PI)) != NULL)
			s = q + 1;
		else if (*s == '<' && !subset)
			return s;	/* libxml2 takes it for the root */
		else if (subset && !is_space(*s)) {
			for (i = 0; i < sizeof(decls) / sizeof(decls[0]); i++)
				if (tt_mem_starts(s, end, decls[i][0]))
					break;
			if (i == sizeof(decls) / sizeof(decls[0])) {
				refuse(sc, s, "%s in a DOCTYPE: %s",
				    *s == '%' ? "a parameter entity reference" :
				    "unexpected text", no_dtd);
				return NULL;
			}
			/* Its name, as config.c's SAX hooks say it. */
			for (n = s + strlen(decls[i][0]); n < end &&
			    (is_space(*n) || *n == '%'); n++)
				;
			if (i == 1) {		/* ATTLIST elem ATTR */
				n = name_end(n, end);
				while (n < end && is_space(*n))
					n++;
			}
			refuse(sc, s, "%s \"%s\" not allowed: %s", decls[i][1],
			    shown(n, (size_t)(name_end(n, end) - n), name,
			    sizeof(name)), no_dtd);
			return NULL;
		}
	}
	return end;
}

/*
 * The document's start, past a byte order mark: EBCDIC refused, and the
 * XML declaration's encoding judged.  NULL: the document does not start
 * with markup, and libxml2 parses nothing of it ("Start tag expected"):
 * its words are left to it.
 */
static const char *
prologue(struct scan *sc, const char *s)
{
	const char	*q, *decl_end, *end = sc->end;

	if (tt_mem_starts(s, end, "\xef\xbb\xbf"))
		s += 3;
	for (q = s; q < end && is_space(*q); q++)
		;
	if (q < end && *q != '<' && !tt_mem_starts(q, end, "\x4c\x6f\xa7\x94"))
		return NULL;
	if (tt_mem_starts(s, end, "\x4c\x6f\xa7\x94"))
		refuse(sc, s, "EBCDIC text: a plist is UTF-8");
	else if (tt_mem_starts(s, end, "<?xml") && (decl_end = memchr(s, '>',
	    (size_t)(end - s))) != NULL)
		encoding(sc, s, decl_end);
	return s;
}

/*
 * The start tag at s ('<' then a name): NAME, at most <plist>'s version,
 * then ">" or "/>".  Where the scan goes on, *open when it is not empty;
 * NULL when refused.
 */
static const char *
start_tag(struct scan *sc, const char *s, bool *open)
{
	const char	*end = sc->end, *name = s + 1, *ne, *a, *ae, *q;
	char		 nbuf[NAME_SHOW * 4 + 8], abuf[NAME_SHOW * 4 + 8];
	bool		 plist, eq, version = false;

	ne = name_end(name, end);
	plist = ne - name == 5 && memcmp(name, "plist", 5) == 0;
	shown(name, (size_t)(ne - name), nbuf, sizeof(nbuf));
	for (s = ne; s < end; s = q + 1) {
		for (a = s; s < end && is_space(*s); s++)
			;
		if (s == end)
			break;
		if (*s == '>' || tt_mem_starts(s, end, "/>")) {
			*open = *s == '>';
			return s + (*s == '>' ? 1 : 2);
		}
		if (!name_start(*s) || s == a) {
			refuse(sc, s, "malformed start tag <%s>: expected an "
			    "attribute, \">\" or \"/>\", not \"%s\"", nbuf,
			    shown(s, 1, abuf, sizeof(abuf)));
			return NULL;
		}
		ae = name_end(s, end);
		if (!plist || ae - s != 7 || memcmp(s, "version", 7) != 0) {
			refuse(sc, s, "attribute \"%s\" on <%s> not allowed: "
			    "a plist has no attribute but version on <plist>",
			    shown(s, (size_t)(ae - s), abuf, sizeof(abuf)),
			    nbuf);
			return NULL;
		}
		if (version) {
			refuse(sc, s, "attribute \"version\" given twice on "
			    "<plist>");
			return NULL;
		}
		version = true;
		for (q = ae; q < end && is_space(*q); q++)
			;
		if ((eq = q < end && *q == '='))
			for (q++; q < end && is_space(*q); q++)
				;
		if (q == end)
			break;
		if (!eq || (*q != '"' && *q != '\'')) {
			refuse(sc, q, "malformed start tag <plist>: expected "
			    "version=\"1.0\"");
			return NULL;
		}
		s = q;
		if ((q = memchr(s + 1, *s, (size_t)(end - s - 1))) == NULL)
			break;
		if (q - s - 1 > VERSION_MAX || memchr(s + 1, '<',
		    (size_t)(q - s - 1)) != NULL) {
			refuse(sc, s, "version on <plist> is not a version: "
			    "more than %d bytes or a '<'", VERSION_MAX);
			return NULL;
		}
	}
	return end;		/* unfinished: libxml2 says so */
}

int
plist_scan(const char *buf, size_t len, long *line, char *why, size_t size)
{
	struct scan	 sc;
	const char	*s, *end = buf + len, *q;
	unsigned	 depth = 0;
	bool		 open;

	memset(&sc, 0, sizeof(sc));
	sc.end = end;
	sc.why = why;
	sc.size = size;
	if ((s = prologue(&sc, buf)) == NULL)
		return 0;
	while (sc.at == NULL && s < end &&
	    (s = memchr(s, '<', (size_t)(end - s))) != NULL) {
		if (tt_mem_starts(s, end, "<!--") &&
		    (q = closer(&sc, s + 4, CLOSE_COMMENT)) != NULL)
			s = q + 3;
		else if (tt_mem_starts(s, end, "<![CDATA[") &&
		    (q = closer(&sc, s + 9, CLOSE_CDATA)) != NULL)
			s = q + 3;
		else if (tt_mem_starts(s, end, "<?") &&
		    (q = closer(&sc, s + 2, CLOSE_PI)) != NULL)
			s = q + 2;
		else if (tt_mem_starts(s, end, "<!DOCTYPE"))
			s = doctype(&sc, s);
		else if (tt_mem_starts(s, end, "</")) {
			/* Only a well-formed end tag is skipped. */
			q = name_end(s + 2, end);
			while (q < end && is_space(*q))
				q++;
			if (depth > 0)
				depth--;
			s = q < end && *q == '>' ? q + 1 : q;
		} else if (s + 1 < end && name_start(s[1])) {
			open = false;
			q = s;
			if ((s = start_tag(&sc, s, &open)) != NULL && open &&
			    ++depth > PLIST_SCAN_DEPTH)
				refuse(&sc, q, "elements nested more than %d "
				    "deep: a plist is never that deep",
				    PLIST_SCAN_DEPTH);
		} else
			s++;
		if (s == NULL)
			break;
	}
	if (sc.at == NULL)
		return 0;
	for (*line = 1, s = buf; s < sc.at; s++)
		*line += *s == '\n';
	return -1;
}
