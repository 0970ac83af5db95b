/*
 * The store of original values, kept in the state directory: each key's
 * value from before tcptuned first wrote it (the "originals") and whether
 * enforcement is paused.  The file is replaced atomically and carries a
 * checksum, so a crash leaves the old or the new file, and a damaged one
 * is set aside rather than believed.  Its name and magic line are those
 * of earlier versions (STATE_FILE, STATE_MAGIC): installs keep theirs.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tcptuned.h"

#define STATE_MAGIC	"# tcptuned state: original values. Do not edit."
#define STATE_VERSION	"version 1"
#define STATE_FILE	"originals"
#define PAUSE_FILE	"pause"		/* who paused, when: see below */
#define PAUSE_MAX_BYTES	4096
#define STATE_MAX_BYTES	(TT_MAX_KEYS * (TT_NAME_MAX + TT_VALUE_MAX + 16) + 4096)
/*
 * A damaged file is kept as originals.corrupt.<UTC time>.<n>, a name no
 * file has (the set-aside fails rather than replace one); earlier
 * versions kept one originals.corrupt, still listed as the oldest.
 */
#define ASIDE_PREFIX	STATE_FILE ".corrupt"
#define ASIDE_TRIES	1000	/* names per second, more than faults */

static void	set_problem(struct originals *, char *, const char *, ...)
		    TT_PRINTF(3, 4);

/* status shows both kinds of trouble: the file's past and the disk's now. */
static void
compose_problem(struct originals *st)
{
	if (st->save_err[0] != '\0' && st->corrupt[0] != '\0')
		(void)tt_snprintf(st->problem, sizeof(st->problem), "%s; %s",
		    st->save_err, st->corrupt);	/* cut short is fine */
	else
		tt_strlcpy(st->problem, st->save_err[0] != '\0' ?
		    st->save_err : st->corrupt, sizeof(st->problem));
}

/*
 * Kept for status (slot is st->save_err or st->corrupt) and logged once
 * per new text, not again on every retry; the daemon goes on with what it
 * has.
 */
static void
set_problem(struct originals *st, char *slot, const char *fmt, ...)
{
	char	text[TT_TEXT_MAX];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (strcmp(text, slot) != 0)
		log_warnx("%s", text);
	tt_strlcpy(slot, text, TT_TEXT_MAX);
	compose_problem(st);
}

static void
clear_save_err(struct originals *st)
{
	if (st->save_err[0] == '\0')
		return;
	log_notice("state directory %s writable again: originals saved",
	    st->dir);
	st->save_err[0] = '\0';
	compose_problem(st);
}

static void
originals_reset(struct originals *st)
{
	free(st->entries);
	st->entries = NULL;
	st->n = 0;
	st->paused = false;
}

/*
 * The pause record: "pause <since> <uid> <pid> <command>\n", the command
 * last as it may hold spaces.  A record that does not parse is no
 * record.
 */
static int
parse_pause(struct pause_origin *po, char *buf, size_t len)
{
	long long	since;
	int		used;

	if (len == 0 || buf[len - 1] != '\n')
		return -1;
	buf[len - 1] = '\0';
	if (sscanf(buf, "pause %lld %ld %ld %n", &since, &po->uid, &po->pid,
	    &used) != 3 || since <= 0 || strchr(buf, '\n') != NULL)
		return -1;
	po->since = (time_t)since;
	tt_strlcpy(po->command, buf + used, sizeof(po->command));
	proto_printable(po->command);
	return 0;
}

/*
 * A pause saved in the originals file stands only with its record: an
 * uninstall removes the record ("make uninstall", the package's postrm),
 * and a fresh install must not start paused in silence over a pause
 * nobody now remembers (issue 40).  The originals themselves are kept.
 */
static void
load_pause(struct originals *st)
{
	char	*buf, why[TT_TEXT_MAX];
	size_t	 len;
	int	 err;

	memset(&st->pause_by, 0, sizeof(st->pause_by));
	st->pause_by.uid = st->pause_by.pid = -1;
	if (!st->paused)
		return;
	err = originals_os_read(st, PAUSE_FILE, PAUSE_MAX_BYTES, &buf, &len,
	    why, sizeof(why));
	if (err == 0) {
		err = parse_pause(&st->pause_by, buf, len);
		free(buf);
	}
	if (err == 0)
		return;
	memset(&st->pause_by, 0, sizeof(st->pause_by));
	st->pause_by.uid = st->pause_by.pid = -1;
	st->paused = false;
	st->pause_dropped = true;
	st->dirty = true;	/* saved unpaused at the next check */
}

static int
add_entry(struct originals *st, const char *name, const char *value)
{
	struct original	*grown;

	if (st->n >= TT_MAX_KEYS * 2)
		return -1;
	grown = realloc(st->entries, (st->n + 1) * sizeof(*grown));
	if (grown == NULL)
		fatal("%s", __func__);
	st->entries = grown;
	memset(&st->entries[st->n], 0, sizeof(*grown));
	if (tt_strlcpy(grown[st->n].name, name, TT_NAME_MAX) >= TT_NAME_MAX ||
	    tt_strlcpy(grown[st->n].value, value, TT_VALUE_MAX) >= TT_VALUE_MAX)
		return -1;
	st->n++;
	return 0;
}

/* One line of the body; -1 if it is not one we write. */
static int
parse_line(struct originals *st, char *line)
{
	char	*name, *value;

	if (strcmp(line, "paused 1") == 0) {
		st->paused = true;
		return 0;
	}
	if (strcmp(line, "paused 0") == 0)
		return 0;
	if (strncmp(line, "original ", 9) != 0)
		return -1;
	name = line + 9;
	if ((value = strchr(name, ' ')) == NULL)
		return -1;
	*value++ = '\0';
	if (!sysctl_name_valid(name) || *value == '\0' ||
	    originals_get(st, name) != NULL)
		return -1;
	return add_entry(st, name, value);
}

/*
 * The whole file, checked: magic, version, known lines, and a final
 * "checksum" line over everything before it.
 */
static int
parse_originals(struct originals *st, char *buf, size_t len, const char **why)
{
	char		*sum, *line, *next;
	unsigned long long want;

	*why = "no checksum line";
	if (len == 0 || buf[len - 1] != '\n')
		return -1;
	buf[len - 1] = '\0';
	if ((sum = strrchr(buf, '\n')) == NULL ||
	    sscanf(sum + 1, "checksum %llx", &want) != 1)
		return -1;
	*why = "checksum mismatch";
	if (fnv1a64(buf, (size_t)(sum + 1 - buf)) != want)
		return -1;
	*sum = '\0';
	*why = "unknown header";
	line = buf;
	if ((next = strchr(line, '\n')) == NULL)
		return -1;
	*next++ = '\0';
	if (strcmp(line, STATE_MAGIC) != 0)
		return -1;
	line = next;
	if ((next = strchr(line, '\n')) != NULL)
		*next++ = '\0';
	if (strcmp(line, STATE_VERSION) != 0)
		return -1;
	*why = "a line it does not understand";
	for (line = next; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (parse_line(st, line) == -1)
			return -1;
	}
	return 0;
}

/* Legacy originals.corrupt first, then by time, then by n as a number. */
static int
aside_cmp(const void *a, const void *b)
{
	const char	*x = *(char * const *)a, *y = *(char * const *)b;
	const char	*dx = strrchr(x, '.'), *dy = strrchr(y, '.');
	unsigned long	 nx, ny;
	int		 lx, ly;

	lx = strcmp(x, ASIDE_PREFIX) == 0;
	ly = strcmp(y, ASIDE_PREFIX) == 0;
	if (lx || ly)
		return ly - lx;
	if (dx - x != dy - y || strncmp(x, y, (size_t)(dx - x)) != 0)
		return strcmp(x, y);
	nx = strtoul(dx + 1, NULL, 10);
	ny = strtoul(dy + 1, NULL, 10);
	return (nx > ny) - (nx < ny);
}

static bool
printable(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

static const struct original_seen *
seen_get(const struct originals *st, const char *name)
{
	size_t	i;

	for (i = 0; i < st->nseen; i++)
		if (strcmp(st->seen[i].name, name) == 0)
			return &st->seen[i];
	return NULL;
}

/*
 * What tcptuned first saw for a key is never lost silently: when the
 * original on record differs from the value a damaged copy holds (the
 * oldest copy that has the key), both are logged, and the copy stays.
 */
static void
compare_with_copies(const struct originals *st, const char *name,
    const char *value)
{
	const struct original_seen	*sn;

	if ((sn = seen_get(st, name)) == NULL || strcmp(sn->value, value) == 0)
		return;
	log_warnx("%s: the original on record is '%s', but the damaged copy "
	    "%s/%s holds '%s', perhaps the value from before tcptuned wrote "
	    "it; see RECOVERY in tcptuned(8)", name, value, st->dir, sn->copy,
	    sn->value);
}

/* Every original on record against the damaged copies. */
static void
compare_all_with_copies(const struct originals *st)
{
	size_t	i;

	for (i = 0; i < st->n; i++)
		compare_with_copies(st, st->entries[i].name,
		    st->entries[i].value);
}

/*
 * The value the oldest damaged copy that has the key holds for it, and
 * that copy's name in *copy; NULL when none does.
 */
const char *
originals_seen(const struct originals *st, const char *name,
    const char **copy)
{
	const struct original_seen	*sn;

	if ((sn = seen_get(st, name)) == NULL)
		return NULL;
	*copy = sn->copy;
	return sn->value;
}

/* One "original NAME VALUE" line of a damaged copy, if it reads as one. */
static void
seen_line(struct originals *st, const char *copy, char *line)
{
	struct original_seen	*grown;
	char			*name, *value;

	if (strncmp(line, "original ", 9) != 0 || st->nseen >= TT_MAX_KEYS * 2)
		return;
	name = line + 9;
	if ((value = strchr(name, ' ')) == NULL)
		return;
	*value++ = '\0';
	if (!sysctl_name_valid(name) || *value == '\0' || !printable(value) ||
	    strlen(name) >= TT_NAME_MAX || strlen(value) >= TT_VALUE_MAX ||
	    seen_get(st, name) != NULL)
		return;
	if ((grown = realloc(st->seen, (st->nseen + 1) * sizeof(*grown))) ==
	    NULL)
		fatal("%s", __func__);
	st->seen = grown;
	tt_strlcpy(grown[st->nseen].name, name, TT_NAME_MAX);
	tt_strlcpy(grown[st->nseen].value, value, TT_VALUE_MAX);
	tt_strlcpy(grown[st->nseen].copy, copy, TT_NAME_MAX);
	st->nseen++;
}

/*
 * The values a damaged copy still holds, read without its checksum: to
 * report, never to believe (a flipped bit may sit in a value).  A copy
 * root does not own, or that is no file, gives nothing.
 */
static void
read_copy(struct originals *st, const char *copy)
{
	char	*buf, *line, *next, why[TT_TEXT_MAX];
	size_t	 len;

	if (originals_os_read(st, copy, STATE_MAX_BYTES, &buf, &len, why,
	    sizeof(why)) != 0)
		return;
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		seen_line(st, copy, line);
	}
	free(buf);
}

static void
add_copy(struct originals *st, const char *name)
{
	char	**grown;

	if ((grown = realloc(st->aside, (st->naside + 1) * sizeof(*grown))) ==
	    NULL || (grown[st->naside] = strdup(name)) == NULL)
		fatal("%s", __func__);
	st->aside = grown;
	st->naside++;
	read_copy(st, name);
}

/* The damaged copies already kept, oldest first, and what they hold. */
static void
scan_copies(struct originals *st)
{
	char	**names;
	size_t	  n, i;

	if (st->dirfd == -1 || originals_os_list(st, ASIDE_PREFIX, &names, &n)
	    != 0)
		return;
	if (n > 0)	/* qsort's array may not be NULL, even for none */
		qsort(names, n, sizeof(*names), aside_cmp);
	for (i = 0; i < n; i++) {
		if (names[i][sizeof(ASIDE_PREFIX) - 1] == '\0' ||
		    names[i][sizeof(ASIDE_PREFIX) - 1] == '.')
			add_copy(st, names[i]);
		free(names[i]);
	}
	free(names);
	if (st->naside > 0)
		log_notice("%zu damaged originals files kept in %s, the oldest "
		    "%s; see RECOVERY in tcptuned(8)", st->naside, st->dir,
		    st->aside[0]);
}

/*
 * The damaged file to a name of its own, never one that exists: 0, or
 * the errno that kept it in place.
 */
static int
move_aside(struct originals *st, char *name, size_t len)
{
	char		stamp[32];
	struct tm	tm;
	time_t		now = time(NULL);
	int		n, err = EEXIST;

	if (gmtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm) == 0)
		tt_strlcpy(stamp, "0", sizeof(stamp));
	for (n = 1; n <= ASIDE_TRIES && err == EEXIST; n++) {
		(void)tt_snprintf(name, len, ASIDE_PREFIX ".%s.%d", stamp, n);
		err = originals_os_set_aside(st, STATE_FILE, name);
	}
	if (err == 0)
		add_copy(st, name);
	return err;
}

/*
 * A damaged or unreadable file is kept for a human to read, never trusted
 * and never overwritten: it is moved to a name of its own before anything
 * new is saved.  When it cannot be moved (a full or read-only disk), it
 * stays where it is and nothing is saved over it (aside_pending) until a
 * later retry moves it.
 */
static void
set_aside(struct originals *st, const char *why_in)
{
	char	name[TT_NAME_MAX], why[TT_TEXT_MAX];
	int	err;

	/*
	 * why_in may be strerror()'s text, which POSIX lets a later call of
	 * strerror() (the one below) overwrite.
	 */
	tt_strlcpy(why, why_in, sizeof(why));
	if ((err = move_aside(st, name, sizeof(name))) != 0) {
		st->aside_pending = true;
		set_problem(st, st->corrupt, "%s is corrupt (%s) and cannot "
		    "be moved aside (%s): left in place and never written "
		    "over; originals not trusted, current values taken "
		    "instead (kept in memory)", st->path, why, strerror(err));
	} else
		set_problem(st, st->corrupt, "%s was corrupt (%s): kept as "
		    "%s/%s; originals not trusted, current values taken "
		    "instead; see RECOVERY in tcptuned(8)", st->path, why,
		    st->dir, name);
	originals_reset(st);
}

/* A damaged file left in place by a full disk, moved as soon as it can. */
static void
retry_aside(struct originals *st)
{
	char	name[TT_NAME_MAX];

	if (move_aside(st, name, sizeof(name)) != 0)
		return;
	st->aside_pending = false;
	st->corrupt[0] = '\0';
	set_problem(st, st->corrupt, "%s was corrupt: kept as %s/%s; "
	    "originals not trusted, current values taken instead; see "
	    "RECOVERY in tcptuned(8)", st->path, st->dir, name);
	compare_all_with_copies(st);
}

/*
 * Errors that say the file itself is unusable: a symlink (O_NOFOLLOW:
 * ELOOP on Linux and macOS, EMLINK on FreeBSD, pjdfstest open/16.t), a
 * directory, a FIFO or device (O_NONBLOCK), too big.  Such a file is set
 * aside.  Any other error (EACCES from a security module, EMFILE, ENOMEM,
 * EIO) says nothing about the file, and setting a good file aside would
 * lose the originals it holds: then the daemon does not start.  EAGAIN is
 * EWOULDBLOCK on Linux, macOS and FreeBSD; FreeBSD's open(2) gives EMLINK,
 * not ELOOP, for O_NOFOLLOW on a symbolic link.
 */
static bool
file_unusable(int err)
{
	return err == ELOOP || err == EMLINK || err == EISDIR ||
	    err == EAGAIN || err == ENXIO || err == EFBIG;
}

/* Set an unusable file aside (0), or refuse to go on without it (-1). */
static int
unreadable(struct originals *st, int err)
{
	if (file_unusable(err)) {
		set_aside(st, strerror(err));
		return 0;
	}
	set_problem(st, st->corrupt, "cannot read %s: %s; not going on "
	    "without the originals it may hold", st->path, strerror(err));
	return -1;
}

static int
originals_load(struct originals *st)
{
	const char	*why;
	char		*buf, untrusted[TT_TEXT_MAX];
	size_t		 len;
	int		 err;

	if (st->dirfd == -1)
		return 0;
	scan_copies(st);
	err = originals_os_read(st, STATE_FILE, STATE_MAX_BYTES, &buf, &len,
	    untrusted, sizeof(untrusted));
	if (err == -1) {
		set_aside(st, untrusted);
		return 0;
	}
	if (err != 0)
		return err == ENOENT ? 0 : unreadable(st, err);
	if (parse_originals(st, buf, len, &why) == -1)
		set_aside(st, why);
	free(buf);
	load_pause(st);
	compare_all_with_copies(st);
	return 0;
}

/*
 * The directory, checked up to / (lib/trust_posix.c) and held open.  -1 when
 * it cannot be trusted: then nothing in it is believed and the daemon does
 * not start.  A directory that cannot be created (read-only or full file
 * system) leaves the originals in memory only, as a full disk does later.
 */
static int
originals_open_dir(struct originals *st)
{
	char	why[TT_TEXT_MAX];
	int	fd, err;

	fd = originals_os_open_dir(st->dir, why, sizeof(why));
	if (fd >= 0) {
		st->dirfd = fd;
		if ((err = originals_os_writable(st)) != 0)
			set_problem(st, st->save_err, "state directory %s is "
			    "not writable: %s; new originals kept in memory "
			    "only", st->dir, strerror(err));
		return 0;
	}
	if (fd == TRUSTED_DIR_NOT_CREATED) {
		set_problem(st, st->save_err, "%s; originals kept in memory "
		    "only", why);
		return 0;
	}
	tt_strlcpy(st->problem, why, sizeof(st->problem));
	return -1;
}

int
originals_open(struct originals *st, const char *dir)
{
	memset(st, 0, sizeof(*st));
	st->dirfd = -1;
	tt_strlcpy(st->dir, dir, sizeof(st->dir));
	if (tt_snprintf(st->path, sizeof(st->path), "%s/" STATE_FILE, dir)
	    == -1) {
		tt_strlcpy(st->problem, "path too long", sizeof(st->problem));
		return -1;
	}
	if (originals_open_dir(st) == -1)
		return -1;
	return originals_load(st);
}

/*
 * Called on every check: what could not be saved is saved as soon as the
 * disk lets us (space freed, remounted read-write), so a crash after that
 * cannot lose the originals.
 */
void
originals_retry(struct originals *st)
{
	if (st->dirfd == -1 && originals_open_dir(st) == -1)
		return;		/* became untrusted: keep what memory has */
	if (st->aside_pending)
		retry_aside(st);
	if (st->dirty)
		originals_save(st);
	else if (st->save_err[0] != '\0' && st->dirfd != -1 &&
	    originals_os_writable(st) == 0)
		clear_save_err(st);
}

void
originals_close(struct originals *st)
{
	size_t	i;

	originals_reset(st);
	for (i = 0; i < st->naside; i++)
		free(st->aside[i]);
	free(st->aside);
	st->aside = NULL;
	st->naside = 0;
	free(st->seen);
	st->seen = NULL;
	st->nseen = 0;
	if (st->dirfd != -1)
		close(st->dirfd);
	st->dirfd = -1;
}

const char *
originals_get(const struct originals *st, const char *name)
{
	size_t	i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->entries[i].name, name) == 0)
			return st->entries[i].value;
	return NULL;
}

/* Record the first value only: later ones are ours, not the original. */
int
originals_set(struct originals *st, const char *name, const char *value)
{
	if (originals_get(st, name) != NULL)
		return 0;
	if (add_entry(st, name, value) == -1)
		return -1;
	compare_with_copies(st, name, value);
	return originals_save(st);
}

int
originals_forget(struct originals *st, const char *name)
{
	size_t	i;

	for (i = 0; i < st->n; i++) {
		if (strcmp(st->entries[i].name, name) != 0)
			continue;
		memmove(&st->entries[i], &st->entries[i + 1],
		    (st->n - i - 1) * sizeof(st->entries[0]));
		st->n--;
		return originals_save(st);
	}
	return 0;
}

/* A pause or its end that is the user's: saved, and it ends any lease's. */
int
originals_set_paused(struct originals *st, bool paused)
{
	if (st->paused == paused && !st->pause_leased)
		return 0;
	st->paused = paused;
	st->pause_leased = false;
	return originals_save(st);
}

/*
 * Who pauses, written before the pause itself is saved: a crash between
 * leaves a record that no saved pause uses, never a pause without one.
 */
int
originals_record_pause(struct originals *st, const struct pause_origin *po)
{
	char	buf[64 + TT_COMMAND_MAX];
	int	n, err;

	st->pause_by = *po;
	n = snprintf(buf, sizeof(buf), "pause %lld %ld %ld %s\n",
	    (long long)po->since, po->uid, po->pid, po->command);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -1;
	err = st->dirfd == -1 ? ENOENT : originals_os_write(st, PAUSE_FILE,
	    buf, (size_t)n);
	if (err != 0) {
		log_warnx("cannot save who paused in %s/%s: %s", st->dir,
		    PAUSE_FILE, strerror(err));
		return -1;
	}
	return 0;
}

/*
 * A lease's pause is held in memory only and saved as "paused 0": a
 * daemon killed during a measurement starts again enforcing, never left
 * paused by it.
 */
int
originals_set_lease_pause(struct originals *st)
{
	if (st->paused && st->pause_leased)
		return 0;
	st->paused = true;
	st->pause_leased = true;
	return originals_save(st);
}

static int	appendf(char *, size_t *, const char *, ...) TT_PRINTF(3, 4);

static int
appendf(char *buf, size_t *len, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *len, STATE_MAX_BYTES - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= STATE_MAX_BYTES - *len)
		return -1;
	*len += (size_t)n;
	return 0;
}

/*
 * Failures are kept in st->problem for status and logged; the caller goes
 * on enforcing with what it has in memory.
 */
int
originals_save(struct originals *st)
{
	char	*buf;
	size_t	 len = 0, i;
	int	 rv = -1, err;

	if ((buf = malloc(STATE_MAX_BYTES)) == NULL)
		fatal("%s", __func__);
	st->dirty = true;	/* until it is on disk */
	if (appendf(buf, &len, "%s\n%s\npaused %d\n", STATE_MAGIC,
	    STATE_VERSION, st->paused && !st->pause_leased) == -1)
		goto done;
	for (i = 0; i < st->n; i++)
		if (appendf(buf, &len, "original %s %s\n", st->entries[i].name,
		    st->entries[i].value) == -1)
			goto done;
	if (appendf(buf, &len, "checksum %016llx\n",
	    (unsigned long long)fnv1a64(buf, len)) == -1)
		goto done;
	if (st->aside_pending) {
		set_problem(st, st->save_err, "cannot save %s: the damaged "
		    "file is still there and is never written over (originals "
		    "kept in memory, saved once it is moved aside)", st->path);
		goto done;
	}
	err = st->dirfd == -1 ? ENOENT : originals_os_write(st, STATE_FILE, buf,
	    len);
	if (err != 0) {
		set_problem(st, st->save_err, "cannot save %s: %s (originals "
		    "kept in memory, saved when the disk allows)", st->path,
		    strerror(err));
		goto done;
	}
	st->dirty = false;
	clear_save_err(st);
	rv = 0;
done:
	free(buf);
	return rv;
}

/*
 * The damaged copies kept, oldest first, as paths one a line in buf (cut
 * at a whole line when it is full; the oldest always first); how many.
 */
unsigned
originals_copies(const struct originals *st, char *buf, size_t len)
{
	size_t	i, used = 0;
	int	n;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < st->naside; i++) {
		n = snprintf(buf + used, len - used, "%s%s/%s", i ? "\n" : "",
		    st->dir, st->aside[i]);
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)n;
	}
	return (unsigned)st->naside;
}
