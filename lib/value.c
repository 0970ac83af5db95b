/*
 * Sysctl values as text.  Linux shows vectors such as tcp_rmem as
 * "4096\t131072\t6291456"; the config writes them with spaces.  Values are
 * kept with white space folded to single spaces so they compare as text,
 * and numeric operations (at-least, clamp) work on their integers.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
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
