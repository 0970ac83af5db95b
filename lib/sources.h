/*
 * Where else a key is set: the readers of sysctl files, shell texts and
 * launchd jobs (shell_scan.c), shared by tcptunectl import and by the
 * scan of the other tools' files (other_sources.c) that check, the
 * daemon's log and status name beside a key.
 */
#ifndef TT_SOURCES_H
#define TT_SOURCES_H

#include <stdbool.h>
#include <stddef.h>

#include "catalogue.h"
#include "tcptune.h"

/* What one command of a shell text turned out to be. */
enum command_kind {
	CMD_NOTHING,		/* empty, a keyword, a test or a message */
	CMD_READ,		/* sysctl or netsh, read; what it lost said */
	CMD_OTHER		/* another command: sets no sysctl */
};

/* What a shell text held: counts of each command_kind. */
struct shell_counts {
	int	kind[CMD_OTHER + 1];
};

/*
 * Where the readers put what they find: a setting at its line, or what
 * they could not follow (setting: it may have set one) and why.
 */
struct shell_sink {
	void	(*set)(struct shell_sink *, int, const char *, const char *);
	void	(*lost)(struct shell_sink *, int, bool, const char *);
};

struct shell_counts shell_scan_text(struct shell_sink *, int, char *);
enum command_kind shell_scan_command(struct shell_sink *, char **, int,
		    const int *);
int		 shell_scan_launchd(struct shell_sink *, const char *, size_t,
		    const char *, struct errlist *);
/* other_sources.c: a sysctl.conf line's name and value, 1; 0 not one. */
int		 sysctl_conf_split(char *, char **, char **);

/*
 * ---- other_sources.c: the files of other tools that set the keys
 */
#define OTHER_MAX	256		/* settings kept from all files */
#define OTHER_FILE_MAX	(256 * 1024)	/* bytes read of one file */
#define OTHER_NAME_MAX	256		/* a file name in a directory */
#define OTHER_PATH_MAX	512		/* a path below the root */
#define OTHER_ROOT_ENV	"TT_SOURCES_ROOT"

struct other_setting {
	char		 name[TT_NAME_MAX];
	char		 value[TT_VALUE_MAX];
	char		 path[OTHER_PATH_MAX];	/* as on the machine */
	int		 line;		/* 0: none (a running program) */
	const char	*how;		/* "applied at boot by systemd-sysctl" */
};

struct other_sources {
	struct other_setting	*v;
	size_t			 n;
};

extern const char other_how_bpftune[];

/*
 * The reader of a launchd job (shell_scan_launchd, through libxml2):
 * handed in by tcptunectl; the daemon parses no XML in its own process
 * (its parse helper does) and hands NULL, so it does not read the jobs.
 */
typedef int	(*launchd_read_fn)(struct shell_sink *, const char *, size_t,
		    const char *, struct errlist *);

const char	*other_sources_root(void);
void		 other_sources_scan(const char *, enum tt_os,
		    const struct config *, launchd_read_fn,
		    struct other_sources *);
void		 other_sources_free(struct other_sources *);
size_t		 other_sources_say(const struct other_sources *,
		    const char *, char *, size_t);

/*
 * other_sources_posix.c | other_sources_win.c: a file under a root read
 * as untrusted, NUL-terminated, its length in *len (NULL: not read, or
 * a link to /dev/null, which masks a file), whether
 * one is there, and the names of a directory's entries (not those
 * starting with '.'), handed to fn until it returns false.
 */
char		*other_read_file(const char *, const char *, size_t *);
bool		 other_file_exists(const char *, const char *);
void		 other_dir_each(const char *, const char *, size_t,
		    bool (*)(void *, const char *), void *);

#endif
