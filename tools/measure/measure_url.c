/*
 * tcptunectl measure: a URL as measure shows it.  A URL may carry a user
 * name and password (https://user:pass@host/...); every message, the
 * report and the JSON show "***" in their place, so that they do not land
 * in cron mail and CI logs.  Nothing here needs libcurl: the rules are
 * tested on their own (tests/unit/test_measure.c).
 *
 * The userinfo is read as RFC 3986 section 3.2 reads it: the authority
 * starts after "scheme://" and ends at the first '/', '?' or '#'; the
 * userinfo is what comes before an '@' in it.  So an '@' in the path,
 * query or fragment is left alone, and neither an IPv6 literal ("[::1]",
 * which holds no '@') nor percent-encoding ("%40" is not an '@') moves
 * the boundary.  Where the rules and a lenient parser could differ, more
 * is hidden, never less:
 *   - the userinfo runs to the LAST '@' of the authority (curl takes the
 *     first: of "http://a@b@host", "a@b" is hidden);
 *   - '\' is not an end of the authority (WHATWG parsers take it as '/'
 *     for http, RFC 3986 and curl do not), nor is a space in a URL given
 *     whole (curl refuses such a URL, and the message quotes it);
 *   - a URL without "scheme:/" is read from its start, as curl reads
 *     "user:pass@host/file" when it guesses the scheme.
 * A token in a query string ("?access_token=...") is not userinfo and is
 * shown: tcptunectl(8) and docs/SECURITY.md say so.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "measure.h"

#define HIDDEN	"***"

/* Output as strlcpy(3) makes it: cut at size, the length it needs. */
struct out {
	char	*dst;
	size_t	 size, len;
};

static void
put(struct out *o, const char *s, size_t n)
{
	size_t	room;

	if (o->len + 1 < o->size) {
		room = o->size - 1 - o->len;
		memcpy(o->dst + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static bool
scheme_char(char c, bool first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return true;
	return !first && ((c >= '0' && c <= '9') || c == '+' || c == '-' ||
	    c == '.');
}

/*
 * Where the authority of the URL at url starts: past "scheme:" and the
 * slashes after it (RFC 3986 section 3.1), or url itself when it has no
 * scheme followed by a slash.
 */
static const char *
authority_of(const char *url)
{
	const char	*p = url;

	if (!scheme_char(*p, true))
		return url;
	while (scheme_char(*p, false))
		p++;
	if (p[0] != ':' || (p[1] != '/' && p[1] != '\\'))
		return url;
	for (p++; *p == '/' || *p == '\\'; p++)
		;
	return p;
}

/*
 * The authority at p, ending at the first of stops: copied with its
 * userinfo hidden.  Returns where the authority ends.
 */
static const char *
put_authority(struct out *o, const char *p, const char *stops)
{
	const char	*end = p + strcspn(p, stops), *at = NULL, *q;

	for (q = p; q < end; q++)
		if (*q == '@')
			at = q;
	if (at != NULL) {
		put(o, HIDDEN, strlen(HIDDEN));
		p = at;
	}
	put(o, p, (size_t)(end - p));
	return end;
}

static size_t
finish(struct out *o)
{
	if (o->size > 0)
		o->dst[o->len < o->size ? o->len : o->size - 1] = '\0';
	return o->len;
}

/*
 * The URL url with its userinfo hidden, into dst as strlcpy(3): dst
 * always ends (when size > 0) and the return value is the length the
 * whole needs, so that murl_redact(NULL, 0, url) + 1 bytes hold it.
 */
size_t
murl_redact(char *dst, size_t size, const char *url)
{
	struct out	 o = { dst, size, 0 };
	const char	*auth = authority_of(url), *rest;

	put(&o, url, (size_t)(auth - url));
	rest = put_authority(&o, auth, "/?#");
	put(&o, rest, strlen(rest));
	return finish(&o);
}

/*
 * Free text, as libcurl's error buffer, with the userinfo of every
 * "scheme://" URL in it hidden; in text a URL also ends at a space or a
 * quote.  As murl_redact for dst, size and the return value.
 */
size_t
murl_redact_text(char *dst, size_t size, const char *text)
{
	struct out	 o = { dst, size, 0 };
	const char	*p = text, *sep;

	while ((sep = strstr(p, "://")) != NULL) {
		sep += 3;
		while (*sep == '/' || *sep == '\\')
			sep++;
		put(&o, p, (size_t)(sep - p));
		p = put_authority(&o, sep, "/?#\"'`<> \t\r\n");
	}
	put(&o, p, strlen(p));
	return finish(&o);
}
