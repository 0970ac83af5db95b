/*
 * "Did you mean": the name in a list nearest to a mistyped word, by edit
 * distance with adjacent transpositions counted as one edit (optimal
 * string alignment), so "stauts" finds "status" and "reolad" "reload".
 * Only a near miss is offered: at most 2 edits, and fewer than half the
 * word's length, so an unrelated word gets no guess.
 */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "tcptunectl.h"

#define NEAR_MAX	32	/* longer words are not compared */

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t	m = a < b ? a : b;

	return m < c ? m : c;
}

/* The edit distance of a and b, case ignored; NEAR_MAX + 1 if too long. */
size_t
ctl_edit_distance(const char *a, const char *b)
{
	size_t	d[NEAR_MAX + 1][NEAR_MAX + 1];
	size_t	la = strlen(a), lb = strlen(b), i, j, cost;

	if (la > NEAR_MAX || lb > NEAR_MAX)
		return NEAR_MAX + 1;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			cost = tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]);
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
			    d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 <
			    d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

/* The nearest of the n names to word, or NULL when none is near. */
const char *
ctl_nearest(const char *word, const char *const *names, size_t n)
{
	const char	*best = NULL;
	size_t		 i, dist, best_dist = 3;

	for (i = 0; i < n; i++) {
		dist = ctl_edit_distance(word, names[i]);
		if (dist < best_dist && dist * 2 < strlen(word)) {
			best = names[i];
			best_dist = dist;
		}
	}
	return best;
}
