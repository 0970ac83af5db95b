/*
 * "Did you mean": the name in a list nearest to a mistyped word, by edit
 * distance with adjacent transpositions counted as one edit and case
 * ignored (lib/util.c's tt_edit_distance), so "stauts" finds "status"
 * and "reolad" "reload".  Only a near miss is offered: at most 2 edits,
 * and fewer than half the word's length, so an unrelated word gets no
 * guess.
 */
#include "config.h"

#include <string.h>

#include "tcptunectl.h"

/* The nearest of the n names to word, or NULL when none is near. */
const char *
ctl_nearest(const char *word, const char *const *names, size_t n)
{
	const char	*best = NULL;
	size_t		 i, dist, best_dist = 3;

	for (i = 0; i < n; i++) {
		dist = tt_edit_distance(word, names[i], true);
		if (dist < best_dist && dist * 2 < strlen(word)) {
			best = names[i];
			best_dist = dist;
		}
	}
	return best;
}
