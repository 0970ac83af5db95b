/*
 * tcptunectl advise: units as people write them and as they are shown.
 * --rate takes bits or bytes per second with SI or binary prefixes and
 * refuses what could be either ("100MB"); --rtt and --timeout take
 * seconds with a unit; --set takes sizes with K, M, G.  Each refusal has
 * its own reason (enum adv_perr).  Rates, sizes and times are printed
 * with three significant digits in the largest unit that keeps them at 1
 * or more.  Nothing here knows a platform.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

#define KIB		1024LL
#define MIB		(1024LL * KIB)
#define GIB		(1024LL * MIB)

/* ---- numbers as people write them */

/*
 * The number at the start of s: digits, a fraction, an exponent; no sign,
 * no "inf" or "nan", no hex.  *end is set after it.
 */
static enum adv_perr
scan_number(const char *s, double *v, const char **end)
{
	const char	*p = s;
	char		 buf[64];
	size_t		 n;

	if (*p == '\0')
		return PERR_EMPTY;
	if (*p == '-')
		return PERR_NEGATIVE;
	if (!isdigit((unsigned char)*p) &&
	    !(*p == '.' && isdigit((unsigned char)p[1])))
		return PERR_SYNTAX;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			;
	if ((*p == 'e' || *p == 'E') && (isdigit((unsigned char)p[1]) ||
	    ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2]))))
		for (p += 2; isdigit((unsigned char)*p); p++)
			;
	if ((n = (size_t)(p - s)) >= sizeof(buf))
		return PERR_OVERFLOW;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtod(buf, NULL);
	if (!isfinite(*v) || (errno == ERANGE && *v > 1.0))
		return PERR_OVERFLOW;
	*end = p;
	return PERR_OK;
}

/* The unit after a number: one blank may separate them ("2.5 Gbit/s"). */
static const char *
unit_of(const char *p)
{
	return *p == ' ' ? p + 1 : p;
}

/* Equal, ignoring ASCII case. */
bool
adv_ieq(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
	return *a == *b;
}

/*
 * The bit or byte part of a rate unit, after its SI prefix.  Words are
 * case-insensitive; in the short forms the case of the b decides, as
 * everyone writes them: "Mbps", "Mb/s" bits, "MBps", "MB/s" bytes.  A
 * bare "b" or "B" could be either, so it is refused.
 */
static enum adv_perr
rate_suffix(const char *u, double *mult)
{
	static const char *const bits[] = { "", "bit", "bits", "bit/s",
	    "bits/s" };
	static const char *const bytes[] = { "byte/s", "bytes/s" };
	size_t	i;

	for (i = 0; i < NITEMS(bits); i++)
		if (adv_ieq(u, bits[i])) {
			*mult = 1;
			return PERR_OK;
		}
	for (i = 0; i < NITEMS(bytes); i++)
		if (adv_ieq(u, bytes[i])) {
			*mult = 8;
			return PERR_OK;
		}
	if (adv_ieq(u, "b"))
		return PERR_AMBIGUOUS;
	if (u[0] == 'b' && (adv_ieq(u + 1, "ps") || adv_ieq(u + 1, "/s"))) {
		*mult = 1;
		return PERR_OK;
	}
	if (u[0] == 'B' && (adv_ieq(u + 1, "ps") || adv_ieq(u + 1, "/s"))) {
		*mult = 8;
		return PERR_OK;
	}
	return PERR_UNIT;
}

/* k, m, g, t in either case: powers of 1000, as line rates are sold. */
static double
si_prefix(const char **u)
{
	switch (tolower((unsigned char)**u)) {
	case 'k':
		(*u)++;
		return 1e3;
	case 'm':
		(*u)++;
		return 1e6;
	case 'g':
		(*u)++;
		return 1e9;
	case 't':
		(*u)++;
		return 1e12;
	default:
		return 1;
	}
}

/* Checked after the unit, so that "0x10" is a unit error, not zero. */
static enum adv_perr
in_range(double v, double lo, double hi)
{
	if (v == 0.0)
		return PERR_ZERO;
	if (!isfinite(v))
		return PERR_OVERFLOW;
	/* 10 * 1e-6 is a hair under 10e-6: the edges are taken */
	if (v < lo * (1 - 1e-9))
		return PERR_TOO_LOW;
	if (v > hi * (1 + 1e-9))
		return PERR_TOO_HIGH;
	return PERR_OK;
}

/* "500m", "1g", "2.5G", "800mbit", "1gbit", "1000000", "100MB/s". */
enum adv_perr
adv_parse_rate(const char *s, double *bps)
{
	const char	*u;
	double		 v, prefix, mult;
	enum adv_perr	 e;

	if ((e = scan_number(s, &v, &u)) != PERR_OK)
		return e;
	/*
	 * A bare number is refused: ISPs quote "1000" meaning Mbit/s, and
	 * read as bit/s it would silently advise for 1 kbit/s.
	 */
	if (*u == '\0')
		return PERR_NO_UNIT;
	u = unit_of(u);
	prefix = si_prefix(&u);
	if ((e = rate_suffix(u, &mult)) != PERR_OK)
		return e;
	v = v * prefix * mult;
	if ((e = in_range(v, ADV_RATE_MIN, ADV_RATE_MAX)) != PERR_OK)
		return e;
	*bps = v;
	return PERR_OK;
}

/* A duration; plain numbers are in units of dflt seconds. */
static enum adv_perr
parse_duration(const char *s, double dflt, double lo, double hi, double *out)
{
	static const struct {
		const char	*name;
		double		 mult;
	} units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "\xc2\xb5s", 1e-6 },
		{ "usec", 1e-6 }, { "ms", 1e-3 }, { "msec", 1e-3 },
		{ "s", 1 }, { "sec", 1 },
	};
	const char	*u;
	double		 v, mult = dflt;
	enum adv_perr	 e;
	size_t		 i;

	if ((e = scan_number(s, &v, &u)) != PERR_OK)
		return e;
	u = unit_of(u);
	if (*u != '\0') {
		for (i = 0; i < NITEMS(units) && !adv_ieq(u, units[i].name); i++)
			;
		if (i == NITEMS(units))
			return PERR_UNIT;
		mult = units[i].mult;
	}
	v *= mult;
	if ((e = in_range(v, lo, hi)) != PERR_OK)
		return e;
	*out = v;
	return PERR_OK;
}

/* "150ms", "0.15s", "150000us"; a plain number is in milliseconds. */
enum adv_perr
adv_parse_rtt(const char *s, double *sec)
{
	return parse_duration(s, 1e-3, ADV_RTT_MIN, ADV_RTT_MAX, sec);
}

/* "2s", "500ms"; a plain number is in seconds. */
enum adv_perr
adv_parse_timeout(const char *s, double *sec)
{
	return parse_duration(s, 1, ADV_TIMEOUT_MIN, ADV_TIMEOUT_MAX, sec);
}

const char *
adv_perr_text(enum adv_perr e)
{
	switch (e) {
	case PERR_OK:
		return "ok";
	case PERR_EMPTY:
		return "is empty";
	case PERR_SYNTAX:
		return "is not a number";
	case PERR_NEGATIVE:
		return "is negative";
	case PERR_ZERO:
		return "is zero";
	case PERR_UNIT:
		return "has an unknown unit";
	case PERR_AMBIGUOUS:
		return "is ambiguous: b could be bits or bytes "
		    "(write Mbit or MB/s)";
	case PERR_NO_UNIT:
		return "has no unit: say 1000M or 1g (bit/s), or 100MB/s "
		    "(bytes)";
	case PERR_OVERFLOW:
		return "is too large a number";
	case PERR_TOO_LOW:
		return "is too small";
	case PERR_TOO_HIGH:
		return "is too large";
	}
	return "is not valid";
}

/*
 * An integer for --set, optionally with K, M, G or T (KiB, ...), as
 * buffer sizes are written: lib/value.c's size grammar, the config's too.  0,
 * or -1 when it is not one.
 */
int
adv_parse_size(const char *s, long long *out)
{
	return tt_parse_size(s, out);
}

/* ---- what is formatted for people */

/* v with at most three significant digits and no trailing zeros. */
static void
fmt_sig3(double v, const char *unit, char *buf, size_t len)
{
	char	*dot, *end;
	int	 prec = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;

	snprintf(buf, len, "%.*f", prec, v);
	if ((dot = strchr(buf, '.')) != NULL) {
		end = buf + strlen(buf) - 1;
		while (end > dot && *end == '0')
			*end-- = '\0';
		if (end == dot)
			*end = '\0';
	}
	snprintf(buf + strlen(buf), len - strlen(buf), "%s", unit);
}

struct scale {
	double		 size;
	const char	*unit;
};

/* v in the largest unit that keeps it at 1 or more. */
static void
fmt_scaled(double v, const struct scale *sc, size_t n, char *buf,
    size_t len)
{
	size_t	i;

	for (i = n - 1; i > 0 && v < sc[i].size * 0.9995; i--)
		;
	fmt_sig3(v / sc[i].size, sc[i].unit, buf, len);
}

/* "1 Gbit/s", "447 Mbit/s", "2.5 Gbit/s". */
void
adv_fmt_rate(double bps, char *buf, size_t len)
{
	static const struct scale sc[] = {
		{ 1, " bit/s" }, { 1e3, " kbit/s" }, { 1e6, " Mbit/s" },
		{ 1e9, " Gbit/s" }, { 1e12, " Tbit/s" },
	};

	fmt_scaled(bps, sc, NITEMS(sc), buf, len);
}

/* "17.9 MiB", "512 KiB", "1 GiB". */
void
adv_fmt_bytes(double b, char *buf, size_t len)
{
	static const struct scale sc[] = {
		{ 1, " bytes" }, { KIB, " KiB" }, { MIB, " MiB" },
		{ GIB, " GiB" }, { GIB * 1024.0, " TiB" },
	};

	fmt_scaled(b, sc, NITEMS(sc), buf, len);
}

/* "150 ms", "45 us", "1.5 s": ASCII, for any terminal. */
void
adv_fmt_time(double s, char *buf, size_t len)
{
	static const struct scale sc[] = {
		{ 1e-9, " ns" }, { 1e-6, " us" }, { 1e-3, " ms" }, { 1, " s" },
	};

	fmt_scaled(s, sc, NITEMS(sc), buf, len);
}
