/*
 * The state directory: each key's value from before tcptuned first wrote
 * it (the "originals") and whether enforcement is paused.  The file is
 * replaced atomically and carries a checksum, so a crash leaves the old or
 * the new file, and a damaged one is set aside rather than believed.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptuned.h"

#define STATE_MAGIC	"# tcptuned state: original values. Do not edit."
#define STATE_VERSION	"version 1"
#define STATE_MAX_BYTES	(TT_MAX_KEYS * (TT_NAME_MAX + TT_VALUE_MAX + 16) + 4096)

static void	state_problem(struct state *, const char *, ...)
		    TT_PRINTF(2, 3);

/* Kept for status and logged; the daemon goes on with what it has. */
static void
state_problem(struct state *st, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(st->problem, sizeof(st->problem), fmt, ap);
	va_end(ap);
	log_warnx("%s", st->problem);
}

static void
state_reset(struct state *st)
{
	free(st->entries);
	st->entries = NULL;
	st->n = 0;
	st->paused = false;
}

static int
add_entry(struct state *st, const char *name, const char *value)
{
	struct state_entry	*grown;

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
parse_line(struct state *st, char *line)
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
	    state_original(st, name) != NULL)
		return -1;
	return add_entry(st, name, value);
}

/*
 * The whole file, checked: magic, version, known lines, and a final
 * "checksum" line over everything before it.
 */
static int
parse_state(struct state *st, char *buf, size_t len, const char **why)
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

/* A corrupt file is kept for a human to read, never trusted. */
static void
set_aside(struct state *st, const char *why)
{
	char	aside[1100];

	snprintf(aside, sizeof(aside), "%s.corrupt", st->path);
	if (rename(st->path, aside) == -1)
		log_warn("rename %s", st->path);
	state_problem(st, "%s was corrupt (%s): kept as %s; originals not "
	    "trusted, current values taken instead", st->path, why, aside);
	state_reset(st);
}

static int
state_load(struct state *st)
{
	const char	*why;
	char		*buf;
	size_t		 len;
	int		 fd;

	if ((fd = open(st->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1) {
		if (errno == ENOENT)
			return 0;
		state_problem(st, "cannot read %s: %s", st->path,
		    strerror(errno));
		return -1;
	}
	if (read_file_bounded(fd, &buf, &len, STATE_MAX_BYTES) == -1) {
		close(fd);
		set_aside(st, strerror(errno));
		return 0;
	}
	close(fd);
	if (parse_state(st, buf, len, &why) == -1)
		set_aside(st, why);
	free(buf);
	return 0;
}

int
state_open(struct state *st, const char *dir)
{
	memset(st, 0, sizeof(*st));
	if (mkdir(dir, 0700) == -1 && errno != EEXIST) {
		state_problem(st, "cannot create state directory %s: %s",
		    dir, strerror(errno));
	}
	if (tt_snprintf(st->path, sizeof(st->path), "%s/originals", dir) == -1)
		return -1;
	return state_load(st);
}

void
state_close(struct state *st)
{
	state_reset(st);
}

const char *
state_original(const struct state *st, const char *name)
{
	size_t	i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->entries[i].name, name) == 0)
			return st->entries[i].value;
	return NULL;
}

/* Record the first value only: later ones are ours, not the original. */
int
state_set_original(struct state *st, const char *name, const char *value)
{
	if (state_original(st, name) != NULL)
		return 0;
	if (add_entry(st, name, value) == -1)
		return -1;
	return state_save(st);
}

int
state_forget(struct state *st, const char *name)
{
	size_t	i;

	for (i = 0; i < st->n; i++) {
		if (strcmp(st->entries[i].name, name) != 0)
			continue;
		memmove(&st->entries[i], &st->entries[i + 1],
		    (st->n - i - 1) * sizeof(st->entries[0]));
		st->n--;
		return state_save(st);
	}
	return 0;
}

int
state_set_paused(struct state *st, bool paused)
{
	if (st->paused == paused)
		return 0;
	st->paused = paused;
	return state_save(st);
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
state_save(struct state *st)
{
	char	*buf;
	size_t	 len = 0, i;
	int	 rv = -1;

	if ((buf = malloc(STATE_MAX_BYTES)) == NULL)
		fatal("%s", __func__);
	if (appendf(buf, &len, "%s\n%s\npaused %d\n", STATE_MAGIC,
	    STATE_VERSION, st->paused) == -1)
		goto done;
	for (i = 0; i < st->n; i++)
		if (appendf(buf, &len, "original %s %s\n", st->entries[i].name,
		    st->entries[i].value) == -1)
			goto done;
	if (appendf(buf, &len, "checksum %016llx\n",
	    (unsigned long long)fnv1a64(buf, len)) == -1)
		goto done;
	if (write_file_atomic(st->path, buf, len, 0600) == -1) {
		state_problem(st, "cannot save %s: %s (originals kept in "
		    "memory)", st->path, strerror(errno));
		goto done;
	}
	if (strncmp(st->problem, "cannot save", 11) == 0)
		st->problem[0] = '\0';
	rv = 0;
done:
	free(buf);
	return rv;
}

/* One daemon per state directory, whatever socket each was given. */
int
state_lock(const char *dir)
{
	char	path[1100];
	int	fd;

	snprintf(path, sizeof(path), "%s/lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd == -1)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}
