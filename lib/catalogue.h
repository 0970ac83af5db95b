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
	CAT_BYTES,		/* a size: K, M, G allowed (value.c) */
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
	const char	*since;		/* how it changed across releases */
	const char	*what;		/* one line */
	const char	*alt[TT_OS_N];	/* the nearest key on each OS */
	int		 rank;		/* plan_sort's: lower written first */
	const char	*capped_by;	/* the ceiling that limits it */
};

/*
 * A macOS key on a range of xnu releases, from Apple's sources
 * (catalogue.c cites file and tag): the stock value and the kernel's own
 * bound there.  Releases go by Darwin major, as kern.osrelease gives it:
 * 19 macOS 10.15 (xnu-6153), 20 macOS 11 (xnu-7195), 21 macOS 12
 * (xnu-8019, 8020), 22 macOS 13 (xnu-8792, 8796), 23 macOS 14 (xnu-10002,
 * 10063), 24 macOS 15 (xnu-11215, 11417).
 */
#define CAT_XNU_ABSENT	(-1LL)	/* a release kernel has no such key */
struct cat_xnu {
	const char	*name;
	int		 from, to;	/* Darwin majors, both in; 0: open */
	long long	 stock;		/* on a Mac of 8 GB or more, no
					   boot-args (catalogue_xnu_stock
					   follows RAM); or CAT_XNU_ABSENT */
	long long	 min, max;	/* its handler's bound; 0, 0: none
					   beyond cat_key's */
	const char	*note;		/* stock, bound, what changed */
};

/*
 * Linux: what a child network namespace does with a key of the initial
 * one's (catalogue.c cites the kernel's files): 0 when the namespace has
 * its own, else the errno a write there gets on that kernel.
 */
int			 catalogue_linux_netns(const char *, int, int);
bool			 catalogue_linux_netns_note(const char *, int,
			    const char *, char *, size_t);

/*
 * A word key whose kernel lists the words it takes now under another key
 * (Linux: tcp_congestion_control, tcp_available_congestion_control):
 * that key, or NULL, and the prefix of the module a write of another
 * word loads; and whether a word is in such a list.
 */
const char		*catalogue_words_key(const char *, enum tt_os,
			    const char **);
bool			 catalogue_word_listed(const char *, const char *);

/*
 * What a Mac's RAM gives on a range of xnu releases (catalogue.c cites
 * the files): the mbuf cluster pool, whose 1/16 bounds maxsockbuf, and
 * the autotuning ceilings.  One table for the catalogue, check, advise
 * and the tests' fake Mac.
 */
#define CAT_XNU_SB_MAX	(8LL << 20)	/* SB_MAX, bsd/sys/socketvar.h */
struct cat_xnu_mem {
	int		 from, to;	/* Darwin majors, both in; 0: open */
	int		 min_gb;	/* RAM from which the row holds */
	long long	 pool;		/* mbuf cluster pool, bytes */
	long long	 autobuf;	/* autorcvbufmax, autosndbufmax */
};
const struct cat_xnu_mem *catalogue_xnu_mem(int, long long);
const struct cat_xnu_mem *catalogue_xnu_mem_at(size_t);
long long		 catalogue_xnu_stock(const char *, int, long long);

/*
 * Windows' auto-tuning levels, NULL-terminated, in the order of their
 * codes in MSFT_NetTCPSetting (0 disabled to 4 experimental), and the
 * window scale a level's code offers (-1: none).
 */
const char *const	*catalogue_win_levels(void);
int			 catalogue_win_level_scale(size_t);
/*
 * A Windows key as lib/backend_win.c serves it (catalogue.c's win_keys[],
 * which cites the codes): its CIM property's words in code order, and
 * whether tcptune writes it.
 */
struct cat_win_key {
	const char		*name;		/* ending in '.': a family */
	const char *const	*codes;		/* word of each code; NULL: none */
	bool			 writable;	/* else read for status only */
};
#define CAT_WIN_KEYS_MAX	512	/* catalogue_win_key_list()'s room */
const struct cat_win_key *catalogue_win_key(const char *);
void			 catalogue_win_key_list(char *, size_t);
/* A list of words as a sentence says it: "a, b or c". */
void			 catalogue_word_list(const char *const *, char *,
			    size_t);

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
const struct cat_xnu	*catalogue_xnu_at(size_t);
const struct cat_xnu	*catalogue_xnu(const char *, int);
bool			 catalogue_size_human(const char *, const char *,
			    const char *, char *, size_t);
enum cat_verdict	 catalogue_check(const char *, const char *,
			    enum tt_os, char *, size_t);
int			 catalogue_os_parse(const char *, enum tt_os *);
const char		*catalogue_os_label(enum tt_os);
const char		*catalogue_os_name(enum tt_os);
const char		*catalogue_os_word(enum tt_os);
const char		*catalogue_os_always_key(enum tt_os);
enum tt_os		 catalogue_host_os(void);
/* How catalogue_os_list() names the OSes. */
enum cat_os_style {
	CAT_OS_LABELS,		/* "Linux, macOS, FreeBSD and Windows" */
	CAT_OS_NAMES,		/* "linux, darwin, freebsd or windows" */
	CAT_OS_WORDS		/* the names and what --platform also takes:
				   "linux, darwin (mac, macos, osx), ..." */
};
#define CAT_OS_LIST_MAX	160	/* enough for catalogue_os_list() */
void			 catalogue_os_list(enum cat_os_style, char *, size_t);

#endif /* CATALOGUE_H */
