/*
 * Sizes as people write them, and as they are shown: one grammar for the
 * config (config.c, for keys whose unit is bytes), advise --set and set.
 * Binary units only, as the kernels count buffers: K or KiB is 1024, M or
 * MiB 1024 K, G or GiB, T or TiB; any case, no space, no fraction.  "KB"
 * and "MB" are refused: they could mean 1000.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "tcptune.h"

static const struct {
	char		 letter;
	long long	 mult;
} size_units[] = {
	{ 'k', 1LL << 10 }, { 'm', 1LL << 20 }, { 'g', 1LL << 30 },
	{ 't', 1LL << 40 },
};

/* The multiplier of a unit ("", "K", "KiB", "kib"), or 0 if none. */
static long long
unit_mult(const char *u)
{
	size_t	i;
	char	c = (char)(*u >= 'A' && *u <= 'Z' ? *u - 'A' + 'a' : *u);

	if (*u == '\0')
		return 1;
	for (i = 0; i < NITEMS(size_units); i++) {
		if (c != size_units[i].letter)
			continue;
		if (u[1] == '\0' || ((u[1] == 'i' || u[1] == 'I') &&
		    (u[2] == 'b' || u[2] == 'B') && u[3] == '\0'))
			return size_units[i].mult;
	}
	return 0;
}

/*
 * "16M", "256K", "32MiB", "4096": 0 and the bytes, or -1 when s is not a
 * size (a sign, a fraction, an unknown unit, or past LLONG_MAX).
 */
int
tt_parse_size(const char *s, long long *out)
{
	long long	 v = 0, mult;
	const char	*p = s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (LLONG_MAX - (*p - '0')) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	if ((mult = unit_mult(p)) == 0 || v > LLONG_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

/* Whether s has a unit tt_parse_size takes: "16M" yes, "16" no. */
bool
tt_size_has_unit(const char *s)
{
	long long	v;

	return tt_parse_size(s, &v) == 0 && s[strspn(s, "0123456789")] != '\0';
}

/*
 * In binary units, exact when the value is a whole number of the unit
 * ("64 MiB", "4 KiB"), else to one decimal ("18.8 MiB"; "4.0 KiB" for
 * 4097: the decimal says it is not exact); under 1024 in bytes ("1000
 * bytes", "1 byte").  A decimal that would round to 1024 of a unit is one
 * of the next: 1048575 is "1.0 MiB", not "1024.0 KiB".
 */
void
tt_size_human(long long n, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	long long	a = n == LLONG_MIN ? LLONG_MAX : n < 0 ? -n : n, unit;
	double		v;
	size_t		u;

	if (a < 1024) {
		snprintf(buf, len, "%lld byte%s", n, a == 1 ? "" : "s");
		return;
	}
	for (u = 0; u + 1 < NITEMS(units) && a >> (10 * (u + 2)) != 0; u++)
		;
	unit = 1LL << (10 * (u + 1));
	if (a % unit == 0) {
		snprintf(buf, len, "%lld %s", n / unit, units[u]);
		return;
	}
	v = (double)n / (double)unit;
	if (u + 1 < NITEMS(units) && (v >= 1023.95 || v <= -1023.95)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, units[u]);
}
