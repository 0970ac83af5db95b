/*
 * catalogue.c: the keys tcptune knows, per OS, in one table: their value's
 * shape, unit, sane range, what they do and the nearest key elsewhere.
 * check, the daemon's config reader and advise read it.
 */
#ifndef CATALOGUE_H
#define CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>

enum tt_os {
	TT_OS_LINUX,
	TT_OS_DARWIN,
	TT_OS_FREEBSD,
	TT_OS_WINDOWS,
	TT_OS_N
};
#define TT_OS_BIT(o)	(1u << (o))

enum cat_unit {
	CAT_BYTES,		/* a size: K, M, G allowed (size.c) */
	CAT_COUNT,		/* a plain number, a switch or a scale */
	CAT_WORD		/* a word: from words, or any name */
};

#define CAT_MAX_NUMS	3
struct cat_key {
	const char	*name;
	unsigned	 os;		/* TT_OS_BIT()s */
	int		 nums;		/* integers in the value; 0: a word */
	const char	*parts;		/* "min default max" for several */
	const char *const *words;	/* the words it takes; NULL: any name */
	enum cat_unit	 unit;
	long long	 min, max;	/* each integer's sane range */
	const char	*since;		/* where it appeared or changed */
	const char	*what;		/* one line */
	const char	*alt[TT_OS_N];	/* the nearest key on each OS */
};

/* The result of catalogue_check(). */
enum cat_verdict {
	CAT_OK,			/* a key of this OS, its value fits */
	CAT_UNKNOWN,		/* in no catalogue, nor near a key of it */
	CAT_REFUSED		/* why says what is wrong and the fix */
};

const struct cat_key	*catalogue_find(const char *, enum tt_os);
const struct cat_key	*catalogue_find_any(const char *);
const struct cat_key	*catalogue_nearest(const char *, enum tt_os);
const struct cat_key	*catalogue_at(size_t);
bool			 catalogue_size_human(const char *, const char *,
			    char *, size_t);
enum cat_verdict	 catalogue_check(const char *, const char *,
			    enum tt_os, char *, size_t);
int			 catalogue_os_parse(const char *, enum tt_os *);
const char		*catalogue_os_label(enum tt_os);
const char		*catalogue_os_name(enum tt_os);
enum tt_os		 catalogue_host_os(void);
size_t			 tt_edit_distance(const char *, const char *);

#endif /* CATALOGUE_H */
