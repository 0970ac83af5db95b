/*
 * The value normalizer and its arithmetic (lib/value.c) on arbitrary
 * strings, and the sysctl-directory backend's name -> path mapping beside
 * it.  The input is two strings separated by a NUL: a "current" and a
 * "wanted" value, as that backend reads them from /proc/sys and the
 * config gives them.  Checked: normalize is idempotent and never overruns, equal
 * is an equivalence, raise is the element-wise maximum (at least both,
 * commutative, idempotent), clamping replaces only the last number, and no
 * name maps to a path outside the root.  The first string is also read
 * as a sysctl.conf line (lib/other_sources.c's sysctl_conf_split(), which
 * tcptuned runs on other tools' files as root): a name it takes is a
 * valid sysctl name with no '/', and both halves lie inside the line.
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "fuzz.h"
#include "sources.h"
#include "tcptune.h"

#define MAXLEN		(TT_VALUE_MAX * 3)	/* past the limit, not far */
#define NWORDS		16
#define ROOT		"/proc/sys"

static void
check_conf_line(const char *a)
{
	char	*line, *name, *value;
	size_t	 n = strlen(a);

	if ((line = strdup(a)) == NULL)
		abort();
	if (sysctl_conf_split(line, &name, &value) == 1) {
		FUZZ_CHECK(name >= line && name < line + n);
		FUZZ_CHECK(value > name && value <= line + n);
		FUZZ_CHECK(sysctl_name_valid(name));
		FUZZ_CHECK(strchr(name, '/') == NULL);
		FUZZ_CHECK(strchr(name, '=') == NULL);
	}
	free(line);
}

static void
check_normalize(const char *a, size_t outlen)
{
	char	 norm[TT_VALUE_MAX], again[TT_VALUE_MAX], *small;
	size_t	 i, n;

	if (value_normalize(a, norm, sizeof(norm)) == -1)
		return;
	n = strlen(norm);
	FUZZ_CHECK(n > 0 && n < sizeof(norm));
	FUZZ_CHECK(norm[0] != ' ' && norm[n - 1] != ' ');
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(norm[i] == ' ' ||
		    !(norm[i] == '\t' || norm[i] == '\n' || norm[i] == '\v' ||
		    norm[i] == '\f' || norm[i] == '\r'));
		FUZZ_CHECK(!(norm[i] == ' ' && norm[i + 1] == ' '));
	}
	FUZZ_CHECK(value_normalize(norm, again, sizeof(again)) == 0);
	FUZZ_CHECK(strcmp(norm, again) == 0);
	FUZZ_CHECK(value_equal(a, norm));
	/* a buffer of any size: fits exactly when n < outlen, never overruns */
	if ((small = malloc(outlen ? outlen : 1)) == NULL)
		abort();
	if (value_normalize(a, small, outlen) == 0)
		FUZZ_CHECK(n < outlen && strcmp(small, norm) == 0);
	else
		FUZZ_CHECK(n >= outlen);
	free(small);
}

static void
check_raise(const char *a, const char *b)
{
	char	r[TT_VALUE_MAX], r2[TT_VALUE_MAX], r3[TT_VALUE_MAX];
	int	ab = value_at_least(a, b), ba = value_at_least(b, a);

	FUZZ_CHECK(ab >= -1 && ab <= 1);
	FUZZ_CHECK((ab == -1) == (ba == -1));
	if (ab == 1 && ba == 1)
		FUZZ_CHECK(value_raise(a, b, r, sizeof(r)) == 0 &&
		    value_at_least(r, a) == 1 && value_at_least(a, r) == 1);
	if (value_raise(a, b, r, sizeof(r)) == -1)
		return;
	FUZZ_CHECK(ab != -1);
	FUZZ_CHECK(value_at_least(r, a) == 1 && value_at_least(r, b) == 1);
	FUZZ_CHECK(value_raise(b, a, r2, sizeof(r2)) == 0);
	FUZZ_CHECK(strcmp(r, r2) == 0);
	FUZZ_CHECK(value_raise(r, b, r3, sizeof(r3)) == 0);
	FUZZ_CHECK(strcmp(r, r3) == 0);
	/* what the engine writes for at-least is a value the kernel reads */
	FUZZ_CHECK(value_normalize(r, r2, sizeof(r2)) == 0 &&
	    strcmp(r, r2) == 0);
}

static void
check_numbers(const char *a, long long last)
{
	long long	nums[NWORDS], back[NWORDS];
	char		out[TT_VALUE_MAX];
	int		n, m, i;

	FUZZ_CHECK(value_equal(a, a));
	if ((n = value_numbers(a, nums, NWORDS)) == -1)
		return;
	FUZZ_CHECK(n >= 1 && n <= NWORDS);
	FUZZ_CHECK(value_at_least(a, a) == 1);
	if (value_with_last(a, last, out, sizeof(out)) == -1)
		return;
	m = value_numbers(out, back, NWORDS);
	FUZZ_CHECK(m == n && back[n - 1] == last);
	for (i = 0; i < n - 1; i++)
		FUZZ_CHECK(back[i] == nums[i]);
}

static void
check_path(const char *name)
{
	char	out[PATH_MAX];
	size_t	i;

	if (sysctl_dir_path(ROOT, name, out, sizeof(out)) != 0)
		return;
	FUZZ_CHECK(strncmp(out, ROOT "/", sizeof(ROOT)) == 0);
	FUZZ_CHECK(strstr(out, "//") == NULL && strstr(out, "/.") == NULL &&
	    strstr(out, "/-") == NULL);
	for (i = sizeof(ROOT); out[i] != '\0'; i++)
		FUZZ_CHECK(out[i] != '.' && (unsigned char)out[i] > ' ');
	FUZZ_CHECK(out[strlen(out) - 1] != '/');
}

/* A copy of up to MAXLEN bytes of data as a C string; the rest skipped. */
static char *
take(const uint8_t **p, size_t *left)
{
	const uint8_t	*nul = memchr(*p, '\0', *left);
	size_t		 n = nul ? (size_t)(nul - *p) : *left;
	char		*s;

	if ((s = malloc((n < MAXLEN ? n : MAXLEN) + 1)) == NULL)
		abort();
	memcpy(s, *p, n < MAXLEN ? n : MAXLEN);
	s[n < MAXLEN ? n : MAXLEN] = '\0';
	*p += n + (nul != NULL);
	*left -= n + (nul != NULL);
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t	*p = data;
	size_t		 left = size;
	char		*a, *b;
	long long	 last;

	a = take(&p, &left);
	b = take(&p, &left);
	last = (long long)size * 7919 - 100000;	/* any, sign included */
	check_normalize(a, size % (TT_VALUE_MAX + 8));
	check_normalize(b, strlen(a));
	FUZZ_CHECK(value_equal(a, b) == value_equal(b, a));
	check_raise(a, b);
	check_numbers(a, last);
	check_numbers(b, -last);
	check_path(a);
	check_conf_line(a);
	free(a);
	free(b);
	return 0;
}
