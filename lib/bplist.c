/*
 * Binary property lists ("bplist00"), rewritten as the XML plist that
 * config_parse() then reads with all its checks.  macOS writes the files
 * under /Library/Managed Preferences in this form, so the managed
 * preferences of an MDM profile arrive as one.
 *
 * The format, as Apple's CoreFoundation documents it at the top of
 * CFBinaryPList.c (opensource-apple/CF): "bplist00", the objects, a table
 * of their offsets, and a 32-byte trailer: 6 unused bytes, the size of an
 * offset, the size of an object reference, then as 64-bit big-endian
 * numbers the object count, the top object and the offset table's offset.
 * Each object starts with a marker byte, type in the high nibble and a
 * count in the low one (0xf: an integer object with the count follows):
 * 0x08 false, 0x09 true, 0x1n integer of 2^n bytes, 0x2n real, 0x33 date,
 * 0x4n data, 0x5n ASCII string, 0x6n UTF-16BE string, 0xAn array of n
 * references, 0xDn dict of n key then n value references.
 *
 * The input is hostile until proved otherwise: every offset and count is
 * checked against the file, nesting is bounded (a reference cycle ends
 * there), and the XML is bounded by TT_CONFIG_MAX_BYTES (objects shared
 * many times cannot blow it up).  What a tcptune.conf never holds (null,
 * sets, UIDs) is refused here; reals, dates and data are written as their
 * XML elements so that the config reader refuses them by type, as it
 * would in an XML file.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"

#define BPLIST_TRAILER	32
#define BPLIST_DEPTH	32	/* a config nests 4 deep */

struct bp {
	const unsigned char	*buf;
	size_t			 len;
	unsigned		 offsize;	/* bytes per offset */
	unsigned		 refsize;	/* bytes per object reference */
	uint64_t		 nobjs;
	uint64_t		 table;		/* offset of the offset table */
	char			*out;
	size_t			 outlen;
	size_t			 outcap;
	char			*err;
	size_t			 errlen;
	bool			 failed;
};

static int	fail(struct bp *, const char *, ...) TT_PRINTF(2, 3);
static void	emit(struct bp *, const char *, ...) TT_PRINTF(2, 3);

static int
fail(struct bp *b, const char *fmt, ...)
{
	va_list	ap;

	if (!b->failed) {
		va_start(ap, fmt);
		vsnprintf(b->err, b->errlen, fmt, ap);
		va_end(ap);
		b->failed = true;
	}
	return -1;
}

static void
put(struct bp *b, const char *s, size_t n)
{
	size_t	cap;

	if (b->failed)
		return;
	if (b->outlen + n + 1 > TT_CONFIG_MAX_BYTES) {
		fail(b, "larger than %d bytes as XML", TT_CONFIG_MAX_BYTES);
		return;
	}
	if (b->outlen + n + 1 > b->outcap) {
		cap = b->outcap ? b->outcap : 4096;
		while (cap < b->outlen + n + 1)
			cap *= 2;
		if ((b->out = realloc(b->out, cap)) == NULL)
			fatal("%s", __func__);
		b->outcap = cap;
	}
	memcpy(b->out + b->outlen, s, n);
	b->outlen += n;
	b->out[b->outlen] = '\0';
}

static void
emit(struct bp *b, const char *fmt, ...)
{
	char	buf[128];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		put(b, buf, (size_t)n < sizeof(buf) ? (size_t)n :
		    sizeof(buf) - 1);
}

static void
indent(struct bp *b, int depth)
{
	static const char tabs[BPLIST_DEPTH + 1] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
	    "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

	put(b, tabs, (size_t)depth);
}

/* n bytes big-endian at off, all inside the file. */
static int
be(struct bp *b, uint64_t off, unsigned n, uint64_t *v)
{
	unsigned	i;

	if (n == 0 || n > 8 || off > b->len || b->len - off < n)
		return fail(b, "truncated at byte %llu",
		    (unsigned long long)off);
	for (*v = 0, i = 0; i < n; i++)
		*v = *v << 8 | b->buf[off + i];
	return 0;
}

/* The file offset of object ref; only inside the object area. */
static int
object_at(struct bp *b, uint64_t ref, uint64_t *off)
{
	if (ref >= b->nobjs)
		return fail(b, "reference %llu past the %llu objects",
		    (unsigned long long)ref, (unsigned long long)b->nobjs);
	if (be(b, b->table + ref * b->offsize, b->offsize, off) == -1)
		return -1;
	if (*off < 8 || *off >= b->table)
		return fail(b, "object %llu at byte %llu, outside the objects",
		    (unsigned long long)ref, (unsigned long long)*off);
	return 0;
}

/*
 * The count of the object whose marker is at off, and where its contents
 * start: the low nibble, or an integer object after the marker.
 */
static int
count_of(struct bp *b, uint64_t off, uint64_t *count, uint64_t *start)
{
	unsigned char	m;
	uint64_t	n;

	if ((b->buf[off] & 0x0f) != 0x0f) {
		*count = b->buf[off] & 0x0f;
		*start = off + 1;
		return 0;
	}
	if (off + 1 >= b->table)
		return fail(b, "truncated count at byte %llu",
		    (unsigned long long)off);
	m = b->buf[off + 1];
	if ((m & 0xf0) != 0x10 || (m & 0x0f) > 3)
		return fail(b, "bad count at byte %llu",
		    (unsigned long long)off);
	n = 1u << (m & 0x0f);
	if (be(b, off + 2, (unsigned)n, count) == -1)
		return -1;
	*start = off + 2 + n;
	return 0;
}

/* count items of size bytes from start must end before the offset table. */
static int
fits(struct bp *b, uint64_t start, uint64_t count, uint64_t size)
{
	if (start > b->table || (size != 0 && count > (b->table - start) / size))
		return fail(b, "an object runs past the object area at byte "
		    "%llu", (unsigned long long)start);
	return 0;
}

/* Text for an XML element: &, < and > escaped; control bytes refused. */
static int
text(struct bp *b, const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '&')
			put(b, "&amp;", 5);
		else if (c == '<')
			put(b, "&lt;", 4);
		else if (c == '>')
			put(b, "&gt;", 4);
		else if (c < 0x20 && c != '\t' && c != '\n')
			return fail(b, "a string holds the control byte "
			    "\\x%02x", c);
		else
			put(b, s + i, 1);
	}
	return 0;
}

static int
ascii_string(struct bp *b, uint64_t start, uint64_t n)
{
	uint64_t	i;

	if (fits(b, start, n, 1) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (b->buf[start + i] >= 0x80)
			return fail(b, "byte \\x%02x in an ASCII string",
			    b->buf[start + i]);
	return text(b, (const char *)b->buf + start, (size_t)n);
}

static void
utf8(struct bp *b, unsigned long cp)
{
	char	u[4];
	size_t	n;

	if (cp < 0x80)
		u[0] = (char)cp, n = 1;
	else if (cp < 0x800)
		u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f)),
		    n = 2;
	else if (cp < 0x10000)
		u[0] = (char)(0xe0 | cp >> 12),
		    u[1] = (char)(0x80 | (cp >> 6 & 0x3f)),
		    u[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	else
		u[0] = (char)(0xf0 | cp >> 18),
		    u[1] = (char)(0x80 | (cp >> 12 & 0x3f)),
		    u[2] = (char)(0x80 | (cp >> 6 & 0x3f)),
		    u[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	put(b, u, n);
}

/* n UTF-16BE units, as UTF-8; a lone surrogate is an error. */
static int
utf16_string(struct bp *b, uint64_t start, uint64_t n)
{
	uint64_t	i, hi, lo;
	char		c;

	if (fits(b, start, n, 2) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		be(b, start + 2 * i, 2, &hi);
		if (hi >= 0xdc00 && hi <= 0xdfff)
			return fail(b, "a lone UTF-16 surrogate");
		if (hi >= 0xd800 && hi <= 0xdbff) {
			if (++i == n)
				return fail(b, "a lone UTF-16 surrogate");
			be(b, start + 2 * i, 2, &lo);
			if (lo < 0xdc00 || lo > 0xdfff)
				return fail(b, "a lone UTF-16 surrogate");
			utf8(b, 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00));
		} else if (hi < 0x80) {
			c = (char)hi;
			if (text(b, &c, 1) == -1)
				return -1;
		} else
			utf8(b, (unsigned long)hi);
	}
	return 0;
}

static int	object(struct bp *, uint64_t, int);

static int
integer(struct bp *b, uint64_t off)
{
	unsigned	n = 1u << (b->buf[off] & 0x0f);
	uint64_t	v;

	if ((b->buf[off] & 0x0f) > 3)
		return fail(b, "an integer of %u bytes: too large", n);
	if (be(b, off + 1, n, &v) == -1)
		return -1;
	/* 1, 2 and 4 bytes are unsigned; 8 bytes are signed (CF). */
	if (n == 8)
		emit(b, "<integer>%lld</integer>\n", (long long)v);
	else
		emit(b, "<integer>%llu</integer>\n", (unsigned long long)v);
	return 0;
}

static int
array(struct bp *b, uint64_t start, uint64_t n, int depth)
{
	uint64_t	i, ref;

	if (fits(b, start, n, b->refsize) == -1)
		return -1;
	put(b, "<array>\n", 8);
	for (i = 0; i < n && !b->failed; i++) {
		be(b, start + i * b->refsize, b->refsize, &ref);
		indent(b, depth + 1);
		object(b, ref, depth + 1);
	}
	indent(b, depth);
	put(b, "</array>\n", 9);
	return b->failed ? -1 : 0;
}

/* A dict key must be a string object. */
static int
dict_key(struct bp *b, uint64_t ref)
{
	uint64_t	off, n, start;
	unsigned char	type;

	if (object_at(b, ref, &off) == -1)
		return -1;
	type = b->buf[off] >> 4;
	if (type != 0x5 && type != 0x6)
		return fail(b, "a dictionary key that is not a string");
	if (count_of(b, off, &n, &start) == -1)
		return -1;
	put(b, "<key>", 5);
	if ((type == 0x5 ? ascii_string(b, start, n) :
	    utf16_string(b, start, n)) == -1)
		return -1;
	put(b, "</key>\n", 7);
	return 0;
}

static int
dict(struct bp *b, uint64_t start, uint64_t n, int depth)
{
	uint64_t	i, kref, vref;

	if (fits(b, start, n, 2 * (uint64_t)b->refsize) == -1)
		return -1;
	put(b, "<dict>\n", 7);
	for (i = 0; i < n && !b->failed; i++) {
		be(b, start + i * b->refsize, b->refsize, &kref);
		be(b, start + (n + i) * b->refsize, b->refsize, &vref);
		indent(b, depth + 1);
		if (dict_key(b, kref) == -1)
			break;
		indent(b, depth + 1);
		object(b, vref, depth + 1);
	}
	indent(b, depth);
	put(b, "</dict>\n", 8);
	return b->failed ? -1 : 0;
}

static int
object(struct bp *b, uint64_t ref, int depth)
{
	uint64_t	off, n, start;
	unsigned char	m;

	if (depth >= BPLIST_DEPTH)
		return fail(b, "nested more than %d deep (or a reference "
		    "cycle)", BPLIST_DEPTH);
	if (object_at(b, ref, &off) == -1)
		return -1;
	m = b->buf[off];
	switch (m >> 4) {
	case 0x0:
		if (m == 0x08 || m == 0x09) {
			put(b, m == 0x09 ? "<true/>\n" : "<false/>\n",
			    m == 0x09 ? 8 : 9);
			return 0;
		}
		return fail(b, "a null or fill object (marker 0x%02x), which "
		    "a configuration never holds", m);
	case 0x1:
		return integer(b, off);
	case 0x2:
		put(b, "<real/>\n", 8);		/* refused by type */
		return 0;
	case 0x3:
		put(b, "<date/>\n", 8);
		return 0;
	case 0x4:
		put(b, "<data/>\n", 8);
		return 0;
	case 0x5:
	case 0x6:
		if (count_of(b, off, &n, &start) == -1)
			return -1;
		put(b, "<string>", 8);
		if (((m >> 4) == 0x5 ? ascii_string(b, start, n) :
		    utf16_string(b, start, n)) == -1)
			return -1;
		put(b, "</string>\n", 10);
		return 0;
	case 0xa:
		if (count_of(b, off, &n, &start) == -1)
			return -1;
		return array(b, start, n, depth);
	case 0xd:
		if (count_of(b, off, &n, &start) == -1)
			return -1;
		return dict(b, start, n, depth);
	default:
		return fail(b, "an object of type 0x%x (a UID or a set), which "
		    "a configuration never holds", m >> 4);
	}
}

/* The trailer's sizes and counts, all inside the file. */
static int
trailer(struct bp *b, uint64_t *top)
{
	const unsigned char	*t = b->buf + b->len - BPLIST_TRAILER;

	b->offsize = t[6];
	b->refsize = t[7];
	be(b, b->len - 24, 8, &b->nobjs);
	be(b, b->len - 16, 8, top);
	be(b, b->len - 8, 8, &b->table);
	if (b->offsize < 1 || b->offsize > 8 || b->refsize < 1 ||
	    b->refsize > 8)
		return fail(b, "bad trailer: offsets of %u bytes, references "
		    "of %u", b->offsize, b->refsize);
	if (b->nobjs == 0 || *top >= b->nobjs || b->table < 9 ||
	    b->table > b->len - BPLIST_TRAILER ||
	    b->nobjs > (b->len - BPLIST_TRAILER - b->table) / b->offsize)
		return fail(b, "bad trailer: %llu objects, top %llu, offset "
		    "table at %llu in %zu bytes",
		    (unsigned long long)b->nobjs, (unsigned long long)*top,
		    (unsigned long long)b->table, b->len);
	return 0;
}

/*
 * buf holds a binary plist: *xml gets it as an XML plist (to free), one
 * element a line.  -1 with err set when it cannot be read.
 */
int
bplist_to_xml(const char *buf, size_t len, char **xml, size_t *xmllen,
    char *err, size_t errlen)
{
	struct bp	b;
	uint64_t	top;

	memset(&b, 0, sizeof(b));
	b.buf = (const unsigned char *)buf;
	b.len = len;
	b.err = err;
	b.errlen = errlen;
	*xml = NULL;
	if (len < 8 || memcmp(buf, "bplist", 6) != 0)
		return fail(&b, "truncated: %zu bytes", len);
	if (memcmp(buf + 6, "00", 2) != 0)
		return fail(&b, "version \"%.2s\": only \"00\" is read",
		    buf + 6);
	if (len < 8 + BPLIST_TRAILER + 1)
		return fail(&b, "truncated: %zu bytes", len);
	if (trailer(&b, &top) == 0) {
		emit(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<plist version=\"1.0\">\n");
		object(&b, top, 0);
		put(&b, "</plist>\n", 9);
	}
	if (b.failed) {
		free(b.out);
		return -1;
	}
	*xml = b.out;
	*xmllen = b.outlen;
	return 0;
}
