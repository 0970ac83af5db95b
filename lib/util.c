/*
 * What both programs need beneath tcptune's own concerns, as a libc
 * would give it: strings copied and formatted without overflow, text
 * made safe for a terminal, files read and written whole, integers
 * parsed, errno names, a word found in bytes (the markup scans), and the
 * edit distance of "did you mean".  OpenBSD's libc has both strlcpy(3)
 * and strvis(3)
 * (https://github.com/openbsd/src/blob/master/lib/libc/string/strlcpy.c,
 * https://github.com/openbsd/src/blob/master/lib/libc/gen/vis.c).  No
 * platform code.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tcptune.h"

size_t
tt_strlcpy(char *dst, const char *src, size_t size)
{
	size_t	len = strlen(src);

	if (size > 0) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/*
 * src appended to the string in dst, a buffer of size bytes, cut to fit
 * and always ended (as tt_strlcpy onto the end).  The length it tried
 * to make.
 */
size_t
tt_strlcat(char *dst, const char *src, size_t size)
{
	size_t	dl = 0;

	while (dl < size && dst[dl] != '\0')	/* strnlen, C11 has none */
		dl++;
	if (dl == size)
		return dl + strlen(src);
	return dl + tt_strlcpy(dst + dl, src, size - dl);
}

/* snprintf that reports truncation as -1, so callers cannot miss it. */
int
tt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		return -1;
	return n;
}

/*
 * The reason for a failure, into the caller's why: -1, for a function
 * that fails with its reason ("return tt_why(why, len, ...)").
 */
int
tt_why(char *why, size_t len, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	(void)vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* All of data, across short writes and signals. */
int
write_all(int fd, const void *data, size_t len)
{
	const char	*p = data;
	ssize_t		 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Read all of fd, refusing more than max bytes.  The buffer is
 * NUL-terminated for the caller's convenience.  EFBIG when too large.
 */
int
read_file_bounded(int fd, char **bufp, size_t *lenp, size_t max)
{
	char	*buf;
	size_t	 len = 0;
	ssize_t	 n;

	if ((buf = malloc(max + 2)) == NULL)
		return -1;
	for (;;) {
		n = read(fd, buf + len, max + 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

uint64_t
fnv1a64(const void *data, size_t len)
{
	const unsigned char	*p = data;
	uint64_t		 h = 0xcbf29ce484222325ULL;

	while (len-- > 0) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Whether x and y are the same character (with nocase, in either case). */
static bool
same_char(char x, char y, bool nocase)
{
	if (nocase)
		return tolower((unsigned char)x) == tolower((unsigned char)y);
	return x == y;
}

/* Whether the bytes from s to end start with word. */
bool
tt_mem_starts(const char *s, const char *end, const char *word)
{
	size_t	n = strlen(word);

	return (size_t)(end - s) >= n && memcmp(s, word, n) == 0;
}

/*
 * The first word at or after s, before end, or NULL: linear for a short
 * word (the markup scans of plist_scan.c and parse_wire.c).
 */
const char *
tt_mem_find(const char *s, const char *end, const char *word)
{
	for (; s < end && (s = memchr(s, word[0], (size_t)(end - s))) != NULL;
	    s++)
		if (tt_mem_starts(s, end, word))
			return s;
	return NULL;
}

/*
 * The edit distance of a and b, for "did you mean" (the catalogue's keys,
 * tcptunectl's commands): insertions, deletions, changes and swaps of two
 * neighbours, each 1 (optimal string alignment: "rmme" is one swap from
 * "rmem", "stauts" from "status"); with nocase, case is ignored.  No
 * allocation: the table's last three rows, on the stack.  A word longer
 * than TT_EDIT_MAX is not compared: TT_EDIT_MAX + 1.
 */
size_t
tt_edit_distance(const char *a, const char *b, bool nocase)
{
	size_t	row[3][TT_EDIT_MAX + 1], *cur, *up, *up2;
	size_t	la = strlen(a), lb = strlen(b), i, j, best;

	if (la > TT_EDIT_MAX || lb > TT_EDIT_MAX)
		return TT_EDIT_MAX + 1;
	for (j = 0; j <= lb; j++)
		row[0][j] = j;
	for (i = 1; i <= la; i++) {
		cur = row[i % 3];
		up = row[(i - 1) % 3];
		up2 = row[(i + 1) % 3];		/* row i - 2 */
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			best = up[j - 1] + !same_char(a[i - 1], b[j - 1],
			    nocase);
			if (up[j] + 1 < best)
				best = up[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    same_char(a[i - 1], b[j - 2], nocase) &&
			    same_char(a[i - 2], b[j - 1], nocase) &&
			    up2[j - 2] + 1 < best)
				best = up2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return row[la % 3][lb];
}

/*
 * One line of a help text, wrapped: the first part within first_width
 * columns (a cut only past first_min, so the option's own name stays on
 * its line), the rest within width, each part after the first at indent.
 * Only a configured path makes a line too wide (a deep --prefix, as make
 * distcheck's): it breaks at the last space that fits, or else after the
 * last '/' that fits, so a path that fits a line stays whole.  The help
 * of tcptuned and of tcptunectl both wrap this way.
 */
void
tt_wrap_line(FILE *f, const char *s, size_t len, size_t first_width,
    size_t first_min, size_t width, int indent)
{
	size_t	cut, w = first_width, min = first_min;

	while (len > w) {
		for (cut = w; cut > min && s[cut] != ' '; cut--)
			;
		if (cut <= min)		/* no space: within the path */
			for (cut = w; cut > min && s[cut - 1] != '/'; cut--)
				;
		if (cut <= min)
			break;		/* one word longer than a line */
		fprintf(f, "%.*s\n%*s", (int)cut, s, indent, "");
		if (s[cut] == ' ')
			cut++;
		s += cut;
		len -= cut;
		w = width;
		min = 0;
	}
	fprintf(f, "%.*s\n", (int)len, s);
}

/* A whole decimal integer, optionally signed; -1 with errno set otherwise. */
int
parse_ll(const char *s, long long *out)
{
	char		*end;
	long long	 v;

	if (*s == '\0' || (*s != '-' && *s != '+' && (*s < '0' || *s > '9'))) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -1;
	if (*end != '\0') {
		errno = EINVAL;
		return -1;
	}
	*out = v;
	return 0;
}

/* The symbolic name of the errnos a sysctl write gives, for status lines. */
const char *
errno_name(int err)
{
	switch (err) {
	case 0:		return "";
	case ENOENT:	return "ENOENT";
	case EPERM:	return "EPERM";
	case EACCES:	return "EACCES";
	case ERANGE:	return "ERANGE";
	case EINVAL:	return "EINVAL";
	case EIO:	return "EIO";
	case ENOBUFS:	return "ENOBUFS";
	case EROFS:	return "EROFS";
	case ENOTDIR:	return "ENOTDIR";
	case EISDIR:	return "EISDIR";
	case EBUSY:	return "EBUSY";
	default:	return "error";
	}
}

/* ---- text made safe */

/*
 * Text on its way to a terminal or a log: whatever could move the cursor,
 * change colours, reorder what the reader sees or start a terminal escape
 * sequence is shown as a visible escape instead.  The text comes from the
 * config, the kernel and the control socket's peer, so none of it is
 * trusted.
 *
 *   C0 controls and DEL (bytes 0x00-0x1f, 0x7f)     \xNN
 *   bytes that are not UTF-8 (raw C1 bytes among them) \xNN
 *   C1 controls written as UTF-8 (U+0080-U+009F)    \u{NNNN}
 *   bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069)
 *                                                   \u{NNNN}
 *
 * A terminal takes C1 controls both as single bytes and, in UTF-8 mode,
 * as their two-byte forms (ECMA-48 section 5.3; U+009B is CSI).  The bidi
 * controls are those the Unicode Bidirectional Algorithm (UAX #9, table
 * 4) defines as explicit formatting characters: they make text display in
 * another order than it is stored (CVE-2021-42574, "Trojan Source").
 *
 * A backslash is left as it is, so that escaping is idempotent: a message
 * that config.c has already escaped passes through log.c unchanged.
 */

/*
 * The code point of a well-formed UTF-8 sequence at s (RFC 3629 section
 * 4: no overlong forms, no surrogates, nothing above U+10FFFF) and its
 * length, or 0 when s[0] does not start one.  ASCII is a sequence of 1.
 */
size_t
tt_utf8_decode(const char *str, uint32_t *cp)
{
	const unsigned char	*s = (const unsigned char *)str;
	unsigned char		 lo = 0x80, hi = 0xbf;
	uint32_t		 c;
	size_t			 n, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else
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
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		c = c << 6 | (s[i] & 0x3f);
	}
	*cp = c;
	return n;
}

/* The code points a terminal must not be handed. */
bool
tt_unsafe_char(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * What the first unsafe thing in s is, NULL when there is none; *off
 * gets its offset.  For config.c's file:line errors.
 */
const char *
tt_text_unsafe(const char *s, size_t *off)
{
	const char	*p = s;
	uint32_t	 cp;
	size_t		 n;

	for (; *p != '\0'; p += n) {
		*off = (size_t)(p - s);
		if ((n = tt_utf8_decode(p, &cp)) == 0)
			return "a byte that is not UTF-8";
		if (cp < 0x20 || cp == 0x7f)
			return "a control character";
		if (cp >= 0x80 && cp <= 0x9f)
			return "a C1 control character";
		if (tt_unsafe_char(cp))
			return "a bidirectional control character";
	}
	return NULL;
}

/*
 * The escape for what starts at s, into esc (at least 11 bytes); the
 * bytes of s it stands for.  Safe text is copied as it is.
 */
static size_t
escape_one(const char *s, char *esc, size_t *len)
{
	uint32_t	cp;
	size_t		n;

	if ((n = tt_utf8_decode(s, &cp)) == 0 || cp < 0x20 || cp == 0x7f) {
		*len = (size_t)snprintf(esc, 11, "\\x%02x",
		    (unsigned char)s[0]);
		return 1;
	}
	if (tt_unsafe_char(cp)) {
		*len = (size_t)snprintf(esc, 11, "\\u{%04x}", (unsigned)cp);
		return n;
	}
	memcpy(esc, s, n);
	*len = n;
	return n;
}

/*
 * src made safe for a terminal into dst, as strlcpy(3): dst always ends
 * (when size > 0), and the return value is the length the whole escaped
 * text needs, so >= size means it was cut.  A cut never splits an escape
 * or a UTF-8 sequence.  TT_ESCAPE_SIZE(n) bytes always hold a string of n
 * bytes with its NUL.
 */
size_t
tt_escape(char *dst, size_t size, const char *src)
{
	char	esc[11];
	size_t	need = 0, len, full = 0;

	while (*src != '\0') {
		src += escape_one(src, esc, &len);
		if (full == 0 && size > 0 && need + len < size)
			memcpy(dst + need, esc, len);
		else if (full == 0)
			full = need + 1;
		need += len;
	}
	if (size > 0)
		dst[full != 0 ? full - 1 : need] = '\0';
	return need;
}
