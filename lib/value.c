/*
 * Sysctl values as text.  Linux shows vectors such as tcp_rmem as
 * "4096\t131072\t6291456"; the config writes them with spaces.  Values are
 * kept with white space folded to single spaces so they compare as text,
 * and numeric operations (at-least, clamp) work on their integers.
 *
 * Sizes as people write them, and as they are shown: one grammar for the
 * config (config.c, for keys whose unit is bytes), advise --set and set.
 * Binary units only, as the kernels count buffers: K or KiB is 1024, M or
 * MiB 1024 K, G or GiB, T or TiB; any case, no space, no fraction.  "KB"
 * and "MB" are refused: they could mean 1000.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"

/*
 * As many words as a value that fits can hold ("1 1 1 ..."): the config
 * reader takes any such value as numeric, and at-least must then be able
 * to compare it rather than write it over a bigger one (found by
 * fuzz/fuzz_config.c; fuzz/regress/config/at-least-17-words).
 */

/*
 * White space as the C locale's isspace() has it, without its per-byte
 * function call: every check normalizes every value it reads.
 */
static int
is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Fold runs of white space to one space and trim; -1 if empty or too long. */
int
value_normalize(const char *in, char *out, size_t outlen)
{
	size_t	n = 0;
	int	pending_space = 0;

	for (; *in != '\0'; in++) {
		if (is_space(*in)) {
			pending_space = n > 0;
			continue;
		}
		if (n + (size_t)pending_space + 1 >= outlen)
			return -1;
		if (pending_space)
			out[n++] = ' ';
		pending_space = 0;
		out[n++] = *in;
	}
	if (n == 0)
		return -1;
	out[n] = '\0';
	return 0;
}

/*
 * A policy's word as tcptune compares it: lower case, without spaces,
 * tabs or underscores, so "Highly Restricted", "HIGHLY_RESTRICTED" and
 * "highlyrestricted" are one word (tools write the QoS "Tcp Autotuning
 * Level" each way; lib/backend_win.c).  in and out may be the same
 * buffer.  -1 when nothing is left or it does not fit.
 */
int
value_policy_word(const char *in, char *out, size_t outlen)
{
	size_t	n = 0;

	for (; *in != '\0'; in++) {
		if (is_space(*in) || *in == '_')
			continue;
		if (n + 1 >= outlen)
			return -1;
		out[n++] = *in >= 'A' && *in <= 'Z' ?
		    (char)(*in - 'A' + 'a') : *in;
	}
	if (n == 0)
		return -1;
	out[n] = '\0';
	return 0;
}

bool
value_equal(const char *a, const char *b)
{
	char	na[TT_VALUE_MAX], nb[TT_VALUE_MAX];

	/* The usual case: both already folded, and equal. */
	if (strcmp(a, b) == 0)
		return true;
	if (value_normalize(a, na, sizeof(na)) == -1 ||
	    value_normalize(b, nb, sizeof(nb)) == -1)
		return strcmp(a, b) == 0;
	return strcmp(na, nb) == 0;
}

/*
 * Split v into integers.  Returns how many, or -1 when a word is not an
 * integer or there are more than max.
 */
int
value_numbers(const char *v, long long *nums, int max)
{
	char	 buf[TT_VALUE_MAX], *word, *save = NULL;
	int	 n = 0;

	if (value_normalize(v, buf, sizeof(buf)) == -1)
		return -1;
	for (word = strtok_r(buf, " ", &save); word != NULL;
	    word = strtok_r(NULL, " ", &save)) {
		if (n == max || parse_ll(word, &nums[n]) == -1)
			return -1;
		n++;
	}
	return n;
}

/* Both values' integers, when they have the same number of them; else -1. */
static int
number_pair(const char *a, long long *na, const char *b, long long *nb)
{
	int	n;

	n = value_numbers(a, na, TT_VALUE_MAX_WORDS);
	if (n == -1 || value_numbers(b, nb, TT_VALUE_MAX_WORDS) != n)
		return -1;
	return n;
}

/*
 * 1 when every integer of current is at least the matching one of wanted,
 * 0 when one is below, -1 when they are not comparable.
 */
int
value_at_least(const char *current, const char *wanted)
{
	long long	c[TT_VALUE_MAX_WORDS], w[TT_VALUE_MAX_WORDS];
	int		nc, i;

	if ((nc = number_pair(current, c, wanted, w)) == -1)
		return -1;
	for (i = 0; i < nc; i++)
		if (c[i] < w[i])
			return 0;
	return 1;
}

static int
format_numbers(const long long *nums, int n, char *out, size_t outlen)
{
	size_t	len = 0;
	int	i, k;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		k = snprintf(out + len, outlen - len, "%s%lld", i ? " " : "",
		    nums[i]);
		if (k < 0 || (size_t)k >= outlen - len)
			return -1;
		len += (size_t)k;
	}
	return 0;
}

/* The element-wise maximum of current and wanted: raise, never lower. */
int
value_raise(const char *current, const char *wanted, char *out, size_t outlen)
{
	long long	c[TT_VALUE_MAX_WORDS], w[TT_VALUE_MAX_WORDS];
	int		nc, i;

	if ((nc = number_pair(current, c, wanted, w)) == -1)
		return -1;
	for (i = 0; i < nc; i++)
		if (c[i] > w[i])
			w[i] = c[i];
	return format_numbers(w, nc, out, outlen);
}

/*
 * v with its last integer replaced: clamping a vector such as tcp_rmem
 * touches only its maximum, a scalar is its own last element.
 */
int
value_with_last(const char *v, long long last, char *out, size_t outlen)
{
	long long	nums[TT_VALUE_MAX_WORDS];
	int		n;

	if ((n = value_numbers(v, nums, TT_VALUE_MAX_WORDS)) <= 0)
		return -1;
	nums[n - 1] = last;
	return format_numbers(nums, n, out, outlen);
}

/* ---- sizes */

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
