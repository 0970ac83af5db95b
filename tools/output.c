/*
 * tcptunectl's text output, as bgpctl's output.c: one struct output of
 * three (output_json.c, output_prom.c).  Each prints replies that
 * client.c has already checked (known message order, states, modes and
 * result codes, strings that end).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif


#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalogue.h"
#include "tcptunectl.h"
#include "advise/advise.h"
#include "diagnose/diagnose.h"
#include "measure/measure.h"
#include "json.h"

#define TERM_COLUMNS	80	/* when stdout is not a terminal */
#define COL_GAP		2
#define VALUE_WORDS	12	/* vector values aligned up to this many */
/* "4096 131072 67108864 (4 KiB, 128 KiB, 64 MiB)": a value and its size */
#define SIZED_MAX	(TT_ESCAPE_SIZE(TT_VALUE_MAX) + 3 * 32 + 8)

/* ---- shared helpers */

static void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n, size)) == NULL) {
		ctl_warn("out of memory");
		exit(CTL_FAIL);
	}
	return p;
}

/* "45s", "12m 5s", "4h 12m", "3d 4h". */
static void
fmt_duration(int64_t s, char *buf, size_t len)
{
	long long	v = s < 0 ? 0 : (long long)s;

	if (v < 60)
		snprintf(buf, len, "%llds", v);
	else if (v < 3600)
		snprintf(buf, len, "%lldm %llds", v / 60, v % 60);
	else if (v < 86400)
		snprintf(buf, len, "%lldh %lldm", v / 3600, v % 3600 / 60);
	else
		snprintf(buf, len, "%lldd %lldh", v / 86400, v % 86400 / 3600);
}

/* Local time; compact drops the date for today and the seconds else. */
static void
fmt_local(int64_t t, int64_t now, bool compact, char *buf, size_t len)
{
	time_t		tt = (time_t)t, tn = (time_t)now;
	struct tm	tm, tmn;

	if (localtime_r(&tt, &tm) == NULL || localtime_r(&tn, &tmn) == NULL)
		snprintf(buf, len, "@%lld", (long long)t);
	else if (!compact)
		strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
	else if (tm.tm_year == tmn.tm_year && tm.tm_yday == tmn.tm_yday)
		strftime(buf, len, "%H:%M:%S", &tm);
	else
		strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}

/* "ERANGE", or the number for the errnos errno_name() does not know. */
const char *
errno_label(int err, char *buf, size_t len)
{
	const char	*name = errno_name(err);

	if (strcmp(name, "error") != 0)
		return name;
	snprintf(buf, len, "errno %d", err);
	return buf;
}

/* ---- text */

enum col {
	COL_NAME,
	COL_STATE,
	COL_WANTED,
	COL_CURRENT,
	COL_ORIGINAL,
	COL_CHANGED,
	NCOLS
};

static const char *const col_title[NCOLS] = {
	"KEY", "STATE", "WANTED", "CURRENT", "ORIGINAL", "CHANGED"
};
/* The same, on the lines under a key when its column is left out. */
static const char *const col_label[NCOLS] = {
	"key", "state", "wanted", "current", "original", "changed"
};

/* The first layout whose line fits the terminal is used for every key. */
static const struct layout {
	int	ncols;
	int	cols[NCOLS];
} layouts[] = {
	{ 6, { COL_NAME, COL_STATE, COL_WANTED, COL_CURRENT, COL_ORIGINAL,
	    COL_CHANGED } },
	{ 3, { COL_NAME, COL_STATE, COL_CHANGED } },
	{ 2, { COL_NAME, COL_STATE } },
};
#define NLAYOUTS	(sizeof(layouts) / sizeof(layouts[0]))

struct row {
	char		 state[SIZED_MAX + 64];
	char		 changed[32];
	char		 wanted[SIZED_MAX];
	char		 current[SIZED_MAX];
	char		 original[SIZED_MAX];
	const char	*cell[NCOLS];
};

/*
 * What the daemon sends must not drive the terminal: every string of a
 * reply is shown escaped (lib/util.c), each in room for its worst case.
 */
struct text_key {
	const struct msg_key_status	*ks;	/* the enums and numbers */
	char	name[TT_ESCAPE_SIZE(TT_NAME_MAX)];
	char	wanted[TT_ESCAPE_SIZE(TT_VALUE_MAX)];
	char	applied[TT_ESCAPE_SIZE(TT_VALUE_MAX)];
	char	current[TT_ESCAPE_SIZE(TT_VALUE_MAX)];
	char	original[TT_ESCAPE_SIZE(TT_VALUE_MAX)];
	char	note[TT_ESCAPE_SIZE(TT_TEXT_MAX)];
	char	source[TT_ESCAPE_SIZE(sizeof(((struct msg_key_status *)0)->
		    source))];
	char	others[TT_ESCAPE_SIZE(sizeof(((struct msg_key_status *)0)->
		    others))];
};

struct text_info {
	const struct msg_daemon_info	*di;
	char	version[TT_ESCAPE_SIZE(sizeof(((struct msg_daemon_info *)0)->
		    version))];
	char	backend[TT_ESCAPE_SIZE(sizeof(((struct msg_daemon_info *)0)->
		    backend))];
	char	config_path[TT_ESCAPE_SIZE(sizeof(((struct msg_daemon_info *)
		    0)->config_path))];
	char	managed_path[TT_ESCAPE_SIZE(sizeof(((struct msg_daemon_info *)
		    0)->managed_path))];
	char	last_reload_msg[TT_ESCAPE_SIZE(TT_TEXT_MAX)];
	char	state_problem[TT_ESCAPE_SIZE(TT_TEXT_MAX)];
};

#define ESCAPE(dst, src)	tt_escape((dst), sizeof(dst), (src))

static void
safe_info(struct text_info *ti, const struct msg_daemon_info *di)
{
	ti->di = di;
	ESCAPE(ti->version, di->version);
	ESCAPE(ti->backend, di->backend);
	ESCAPE(ti->config_path, di->config_path);
	ESCAPE(ti->managed_path, di->managed_path);
	ESCAPE(ti->last_reload_msg, di->last_reload_msg);
	ESCAPE(ti->state_problem, di->state_problem);
}

static void
safe_key(struct text_key *tk, const struct msg_key_status *ks)
{
	tk->ks = ks;
	ESCAPE(tk->name, ks->name);
	ESCAPE(tk->wanted, ks->wanted);
	ESCAPE(tk->applied, ks->applied);
	ESCAPE(tk->current, ks->current);
	ESCAPE(tk->original, ks->original);
	ESCAPE(tk->note, ks->note);
	ESCAPE(tk->source, ks->source);
	ESCAPE(tk->others, ks->others);
}

/* Columns a string takes: UTF-8 continuation bytes take none. */
static int
text_width(const char *s)
{
	int	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

static int
term_width(void)
{
	int	cols = term_columns();

	return cols > 0 ? cols : TERM_COLUMNS;
}

/*
 * A value as shown: the escaped text, and beside it the human size when
 * the catalogue says the key's unit is bytes (from the raw value, which is
 * then only digits and blanks).
 */
static void
sized_value(const char *name, const char *raw, const char *shown,
    char *buf, size_t len)
{
	char	human[3 * 32];

	if (catalogue_size_human(name, raw, ", ", human, sizeof(human)))
		snprintf(buf, len, "%s (%s)", shown, human);
	else
		snprintf(buf, len, "%s", shown);
}

static void
state_text(const struct text_key *tk, int64_t now, char *buf, size_t len)
{
	const struct msg_key_status	*ks = tk->ks;
	char				 when[32], eb[32];
	char				 applied[SIZED_MAX];

	switch (ks->state) {
	case KS_IN_FORCE:
		if (ks->corrections == 0)
			snprintf(buf, len, "in force");
		else if (ks->corrections == 1)
			snprintf(buf, len, "in force, corrected once");
		else
			snprintf(buf, len, "in force, corrected %u times",
			    ks->corrections);
		break;
	case KS_CLAMPED:
		sized_value(ks->name, ks->applied, tk->applied, applied,
		    sizeof(applied));
		snprintf(buf, len, "clamped to %s", applied);
		break;
	case KS_REFUSED:
		if (ks->err == 0)
			snprintf(buf, len, "refused");
		else
			snprintf(buf, len, "refused: %s %s",
			    errno_label(ks->err, eb, sizeof(eb)),
			    strerror(ks->err));
		break;
	case KS_CONTESTED:
		fmt_duration(ks->next_attempt - now, when, sizeof(when));
		snprintf(buf, len, "contested: next attempt in %s", when);
		break;
	case KS_DRIFTED:
		snprintf(buf, len, ks->mode == MODE_ONCE ?
		    "drifted, left alone (once)" :
		    "drifted: the next check corrects it");
		break;
	default:
		snprintf(buf, len, "%s", key_state_name(ks->state));
		break;
	}
}

static void
make_row(struct row *row, const struct text_key *tk, int64_t now)
{
	const struct msg_key_status	*ks = tk->ks;

	state_text(tk, now, row->state, sizeof(row->state));
	if (ks->last_change == 0)
		snprintf(row->changed, sizeof(row->changed), "-");
	else
		fmt_local(ks->last_change, now, true, row->changed,
		    sizeof(row->changed));
	row->cell[COL_NAME] = tk->name;
	row->cell[COL_STATE] = row->state;
	sized_value(ks->name, ks->wanted, tk->wanted, row->wanted,
	    sizeof(row->wanted));
	sized_value(ks->name, ks->current, tk->current, row->current,
	    sizeof(row->current));
	sized_value(ks->name, ks->original, tk->original, row->original,
	    sizeof(row->original));
	row->cell[COL_WANTED] = row->wanted;
	row->cell[COL_CURRENT] = ks->current[0] ? row->current : "-";
	row->cell[COL_ORIGINAL] = ks->has_original ? row->original : "-";
	row->cell[COL_CHANGED] = row->changed;
}

static void
col_widths(const struct row *rows, size_t n, int w[NCOLS])
{
	size_t	i;
	int	c, len;

	for (c = 0; c < NCOLS; c++) {
		w[c] = (int)strlen(col_title[c]);
		for (i = 0; i < n; i++)
			if ((len = text_width(rows[i].cell[c])) > w[c])
				w[c] = len;
	}
}

static int
line_width(const int w[NCOLS], const struct layout *l)
{
	int	i, sum = 0;

	for (i = 0; i < l->ncols; i++)
		sum += w[l->cols[i]] + (i > 0 ? COL_GAP : 0);
	return sum;
}

static const struct layout *
choose_layout(const int w[NCOLS])
{
	size_t	i;
	int	cols = term_width();

	for (i = 0; i < NLAYOUTS - 1; i++)
		if (line_width(w, &layouts[i]) <= cols)
			break;
	return &layouts[i];
}

static bool
layout_has(const struct layout *l, int col)
{
	int	i;

	for (i = 0; i < l->ncols; i++)
		if (l->cols[i] == col)
			return true;
	return false;
}

/*
 * The colour of a state cell on a terminal (term_colour): refused red,
 * drifted, contested, clamped and paused yellow, in force green; "" for
 * anything else (the titles).
 */
static const char *
state_colour(const char *state)
{
	static const struct {
		const char	*prefix, *sgr;
	} colours[] = {
		{ "refused", "\033[31m" }, { "drifted", "\033[33m" },
		{ "contested", "\033[33m" }, { "clamped", "\033[33m" },
		{ "paused", "\033[33m" }, { "in force", "\033[32m" },
	};
	size_t	i;

	for (i = 0; i < NITEMS(colours); i++)
		if (strncmp(state, colours[i].prefix,
		    strlen(colours[i].prefix)) == 0)
			return colours[i].sgr;
	return "";
}

/* A cell, its state coloured on a terminal; the padding is plain. */
static void
print_cell(const char *s, int col, bool colour)
{
	const char	*sgr = colour && col == COL_STATE ? state_colour(s) :
	    "";

	printf("%s%s%s", sgr, s, sgr[0] ? "\033[0m" : "");
}

/* The last cell is not padded: no trailing blanks. */
static void
print_cells(const char *const cell[NCOLS], const int w[NCOLS],
    const struct layout *l)
{
	const char	*s;
	bool		 colour = term_colour();
	int		 i;

	for (i = 0; i < l->ncols - 1; i++) {
		s = cell[l->cols[i]];
		print_cell(s, l->cols[i], colour);
		printf("%*s", w[l->cols[i]] + COL_GAP - text_width(s), "");
	}
	print_cell(cell[l->cols[l->ncols - 1]], l->cols[l->ncols - 1],
	    colour);
	putchar('\n');
}

struct words {
	int		 n;		/* -1: too many to align */
	const char	*w[VALUE_WORDS];
	int		 len[VALUE_WORDS];
};

static void
split_words(const char *s, struct words *ws)
{
	ws->n = 0;
	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			return;
		if (ws->n == VALUE_WORDS) {
			ws->n = -1;
			return;
		}
		ws->w[ws->n] = s;
		while (*s != '\0' && *s != ' ')
			s++;
		ws->len[ws->n] = (int)(s - ws->w[ws->n]);
		ws->n++;
	}
}

/* Per word, the widest of the values that have n words. */
static void
word_widths(const struct words ws[NCOLS], int n, int width[VALUE_WORDS])
{
	int	c, j;

	memset(width, 0, VALUE_WORDS * sizeof(width[0]));
	for (c = COL_WANTED; c <= COL_ORIGINAL; c++)
		for (j = 0; n >= 2 && ws[c].n == n && j < n; j++)
			if (ws[c].len[j] > width[j])
				width[j] = ws[c].len[j];
}

/*
 * The columns the layout left out, one "label value" line each.  Values
 * of more than one word, such as tcp_rmem's "4096 131072 6291456 (4 KiB,
 * 128 KiB, 6 MiB)" or a size "67108864 (64 MiB)", are aligned word by
 * word, right-justified, so that they read as columns of numbers against
 * the wanted value.
 */
/* The left-out columns as one line: "    wanted 1  current 2  ...". */
static int
below_width(const struct row *row, const struct layout *l)
{
	int	c, sum = 4 - COL_GAP;

	for (c = 0; c < NCOLS; c++)
		if (!layout_has(l, c))
			sum += COL_GAP + (int)strlen(col_label[c]) + 1 +
			    text_width(row->cell[c]);
	return sum;
}

static void
print_below_line(const struct row *row, const struct layout *l)
{
	int	c, k = 0;

	for (c = 0; c < NCOLS; c++)
		if (!layout_has(l, c))
			printf("%s%s %s", k++ ? "  " : "    ", col_label[c],
			    row->cell[c]);
	if (k > 0)
		putchar('\n');
}

static void
print_below(const struct row *row, const struct layout *l, bool oneline)
{
	struct words	ws[NCOLS];
	int		width[VALUE_WORDS], c, j, n;

	if (oneline) {
		print_below_line(row, l);
		return;
	}

	for (c = COL_WANTED; c <= COL_ORIGINAL; c++)
		split_words(row->cell[c], &ws[c]);
	n = ws[COL_WANTED].n;
	word_widths(ws, n, width);
	for (c = 0; c < NCOLS; c++) {
		if (layout_has(l, c))
			continue;
		printf("    %-10s", col_label[c]);
		if (c > COL_ORIGINAL || n < 2 || ws[c].n != n) {
			printf("%s\n", row->cell[c]);
			continue;
		}
		for (j = 0; j < n; j++)
			printf("%s%*.*s", j ? " " : "", width[j], ws[c].len[j],
			    ws[c].w[j]);
		putchar('\n');
	}
}

/*
 * Non-default mode and on-reject, then the daemon's note, then the file
 * of the wanted value when it is not the config (the managed file), then
 * the other places that set the key (a sysctl.d file, tuned, bpftune).
 */
static void
print_details(const struct text_key *tk, const char *config_path)
{
	const struct msg_key_status	*ks = tk->ks;
	const char			*sep = "    ";

	if (ks->mode != MODE_ENFORCE) {
		printf("%smode %s", sep, key_mode_name(ks->mode));
		sep = ", ";
	}
	if (ks->on_reject != REJECT_FAIL) {
		printf("%son reject %s", sep, on_reject_name(ks->on_reject));
		sep = ", ";
	}
	if (*sep == ',')
		putchar('\n');
	if (tk->note[0] != '\0')
		ctl_wrap(stdout, "    ", "      ", tk->note, CTL_TEXT_WIDTH);
	if (ks->source[0] != '\0' && strcmp(ks->source, config_path) != 0)
		printf("    from %s\n", tk->source);
	if (tk->others[0] != '\0')
		ctl_wrap(stdout, "    ", "      ", tk->others, CTL_TEXT_WIDTH);
}

/*
 * One line per key when that fits the terminal (80 columns when not a
 * terminal); else the columns that do not fit go under each key, on one
 * line if that fits for every key, else on a line each.
 */
static void
text_table(const struct text_key *keys, size_t n, int64_t now,
    const char *config_path)
{
	struct row		*rows = xcalloc(n, sizeof(*rows));
	const struct layout	*l;
	int			 w[NCOLS];
	bool			 oneline = true;
	size_t			 i;

	for (i = 0; i < n; i++)
		make_row(&rows[i], &keys[i], now);
	col_widths(rows, n, w);
	l = choose_layout(w);
	for (i = 0; i < n; i++)
		if (below_width(&rows[i], l) > term_width())
			oneline = false;
	print_cells(col_title, w, l);
	for (i = 0; i < n; i++) {
		print_cells(rows[i].cell, w, l);
		print_below(&rows[i], l, oneline);
		print_details(&keys[i], config_path);
	}
	free(rows);
}

static void
text_reload_line(const struct text_info *ti)
{
	const struct msg_daemon_info	*di = ti->di;
	char				 when[64], ago[32];
	char				 line[sizeof(ti->last_reload_msg) + 128];

	if (di->last_reload == 0) {
		printf("%-12s never\n", "last reload");
		return;
	}
	fmt_local(di->last_reload, di->now, false, when, sizeof(when));
	fmt_duration(di->now - di->last_reload, ago, sizeof(ago));
	snprintf(line, sizeof(line), "%s (%s ago), %s%s%s", when, ago,
	    di->last_reload_ok ? "ok" : "FAILED",
	    ti->last_reload_msg[0] ? ": " : "", ti->last_reload_msg);
	ctl_wrap(stdout, "last reload  ", "             ", line, CTL_TEXT_WIDTH);
}

/* "3: 2 in force, 1 refused" */
static void
text_key_summary(const struct msg_key_status *keys, size_t n)
{
	size_t		count[KS_STATE_COUNT] = { 0 }, i;
	const char	*sep = ": ";

	for (i = 0; i < n; i++)
		count[keys[i].state]++;
	printf("%-12s ", "keys");
	if (n == 0)
		printf("none");
	else
		printf("%zu", n);
	for (i = 0; i < KS_STATE_COUNT; i++) {
		if (count[i] == 0)
			continue;
		printf("%s%zu %s", sep, count[i], key_state_name((uint32_t)i));
		sep = ", ";
	}
	putchar('\n');
}

/*
 * The damaged originals files the daemon keeps, a path a line (each
 * escaped on its own, the newlines between them are the daemon's).
 */
/*
 * One field of the daemon's part: its label, then its text as running
 * text indented under the label's column.
 */
static void
text_field(const char *label, const char *text)
{
	char	first[32];

	snprintf(first, sizeof(first), "%-12s ", label);
	ctl_wrap(stdout, first, "             ", text, CTL_TEXT_WIDTH);
}

static void
text_damaged(const struct msg_daemon_info *di)
{
	char		 paths[sizeof(di->damaged_copies)];
	char		 text[TT_ESCAPE_SIZE(sizeof(di->damaged_copies))];
	char		*p, *next;
	unsigned	 listed = 0;

	if (di->ndamaged == 0)
		return;
	printf("%-12s %u damaged %s kept, oldest first; see RECOVERY in "
	    "tcptuned(8)\n", "originals", di->ndamaged, di->ndamaged == 1 ?
	    "copy" : "copies");
	tt_strlcpy(paths, di->damaged_copies, sizeof(paths));
	for (p = paths; p != NULL && *p != '\0'; p = next) {
		if ((next = strchr(p, '\n')) != NULL)
			*next++ = '\0';
		ESCAPE(text, p);
		printf("%-12s %s\n", "", text);
		listed++;
	}
	if (listed < di->ndamaged)
		printf("%-12s and %u more in the state directory\n", "",
		    di->ndamaged - listed);
}

/*
 * "PAUSED since 2026-12-07 18:20:00 by uid 0 (pid 812, tcptunectl
 * restore), originals restored (tcptunectl resume)": a pause never
 * hides who and when, even across a restart (the daemon keeps both).
 */
static void
text_pause_line(const struct msg_daemon_info *di)
{
	char	when[32], by[96 + TT_ESCAPE_SIZE(TT_COMMAND_MAX)], line[512];
	char	command[TT_ESCAPE_SIZE(TT_COMMAND_MAX)];

	by[0] = '\0';
	if (di->paused_since > 0) {
		fmt_local(di->paused_since, di->now, false, when, sizeof(when));
		ESCAPE(command, di->paused_command);
		snprintf(by, sizeof(by), " since %s by uid %d (pid %d%s%s)",
		    when, di->paused_uid, di->paused_pid,
		    command[0] != '\0' ? ", " : "", command);
	}
	snprintf(line, sizeof(line), "PAUSED%s, originals restored "
	    "(tcptunectl resume)", by);
	text_field("enforcement", line);
}

static void
text_daemon(const struct text_info *ti)
{
	const struct msg_daemon_info	*di = ti->di;
	char				 up[32];

	fmt_duration(di->now - di->started, up, sizeof(up));
	printf("tcptuned %s, pid %d, up %s, backend %s\n", ti->version,
	    di->pid, up, ti->backend);
	printf("%-12s %s\n", "config", ti->config_path);
	if (di->managed_path[0] != '\0')
		printf("%-12s %s (its keys win)\n", "managed", ti->managed_path);
	printf("%-12s every %us, %llu done\n", "checks", di->check_interval,
	    (unsigned long long)di->checks);
	text_reload_line(ti);
	if (di->lease) {
		char	pid[32] = "", lease[160];

		if (di->lease_pid >= 0)
			snprintf(pid, sizeof(pid), " (pid %d)", di->lease_pid);
		snprintf(lease, sizeof(lease), "PAUSED for a measurement by "
		    "uid %d%s, %u s left; enforcing again when it ends",
		    di->lease_uid, pid, di->lease_left);
		text_field("enforcement", lease);
	} else if (di->paused)
		text_pause_line(di);
	else
		printf("%-12s %s\n", "enforcement", "active");
	printf("%-12s %s\n", "on exit", di->restore_on_exit ?
	    "originals restored" : "tuned values stay");
	if (ti->state_problem[0] != '\0')
		text_field("state", ti->state_problem);
	text_damaged(di);
}

/* The transfers held by this machine's receive ceiling, when there were. */
static void
text_flows_line(const struct reply *r)
{
	char	line[512];

	if (!r->has_diag)
		return;
	diagnose_status_line(&r->diag, line, sizeof(line));
	if (line[0] != '\0')
		text_field("connections", line);
}

static int
text_status(const struct reply *r)
{
	struct text_info	 ti;
	struct text_key		*keys;
	size_t			 i;

	safe_info(&ti, &r->info);
	text_daemon(&ti);
	keys = xcalloc(r->nkeys + 1, sizeof(*keys));
	for (i = 0; i < r->nkeys; i++)
		safe_key(&keys[i], &r->keys[i]);
	text_key_summary(r->keys, r->nkeys);
	text_flows_line(r);
	if (r->nkeys > 0) {
		putchar('\n');
		text_table(keys, r->nkeys, r->info.now, r->info.config_path);
	}
	free(keys);
	return 0;
}

/*
 * The config errors (already "file:line: message"), then the daemon's
 * message.  A denied request is told on stderr by the caller.  A failure
 * is a diagnostic, on stderr, so that `reload >/dev/null` in a script
 * still shows why; what was done is the report, on stdout.
 */
static void
text_result(const char *cmd, const struct reply *r)
{
	char	 text[TT_ESCAPE_SIZE(TT_TEXT_MAX)];
	FILE	*f = r->result.code == RESULT_OK ? stdout : stderr;
	size_t	 i;

	fflush(stdout);
	for (i = 0; i < r->nerrors; i++) {
		ESCAPE(text, r->errors[i].text);
		fprintf(stderr, "%s\n", text);
	}
	if (r->result.code == RESULT_DENIED)
		return;
	ESCAPE(text, r->result.text);
	if (text[0] != '\0')	/* running text, as status's */
		ctl_wrap(f, "", "  ", text, CTL_TEXT_WIDTH);
	else
		fprintf(f, "%s: %s\n", cmd, result_code_name(r->result.code));
}

static void
text_version(void)
{
	printf("tcptunectl %s (control protocol %d)\n", PACKAGE_VERSION,
	    TT_PROTO_VERSION);
}

/* Whether a --short line fits with its state padded to sw columns. */
static bool
short_fits(int w, int sw, int current)
{
	return w + COL_GAP + sw + COL_GAP + current <= CTL_TEXT_WIDTH;
}

/*
 * The column status --short pads the states to (names w wide): the
 * widest state with which every line stays within 80 columns, so that
 * the current values start in one column; a longer state (a refusal's
 * reason) is not padded, and its line takes its own width.
 */
static int
short_state_width(const struct reply *r, int w)
{
	struct text_key	tk;
	struct row	row;
	int		state[CTL_MAX_KEYS], current[CTL_MAX_KEYS];
	int		best = 0;
	size_t		i, j;

	for (i = 0; i < r->nkeys; i++) {
		safe_key(&tk, &r->keys[i]);
		make_row(&row, &tk, r->info.now);
		state[i] = text_width(row.state);
		current[i] = text_width(row.cell[COL_CURRENT]);
	}
	for (i = 0; i < r->nkeys; i++) {
		if (state[i] <= best)
			continue;
		/* only the lines padded to it must fit */
		for (j = 0; j < r->nkeys; j++)
			if (state[j] < state[i] &&
			    !short_fits(w, state[i], current[j]))
				break;
		if (j == r->nkeys)
			best = state[i];
	}
	return best;
}

/*
 * status --short: one line a key, "NAME  STATE  CURRENT", names and
 * states aligned within 80 columns (short_state_width); nothing about
 * the daemon (status without --short has it).
 */
static int
text_status_short(const struct reply *r)
{
	struct text_key	 tk;
	struct row	 row;
	bool		 colour = term_colour();
	size_t		 i;
	int		 w = 0, sw, pad, len;

	for (i = 0; i < r->nkeys; i++)
		if ((len = text_width(r->keys[i].name)) > w)
			w = len;
	sw = short_state_width(r, w);
	for (i = 0; i < r->nkeys; i++) {
		safe_key(&tk, &r->keys[i]);
		make_row(&row, &tk, r->info.now);
		printf("%s%*s", tk.name, w + COL_GAP - text_width(tk.name), "");
		print_cell(row.state, COL_STATE, colour);
		pad = sw - text_width(row.state);
		printf("%*s%s\n", COL_GAP + (pad > 0 ? pad : 0), "",
		    row.cell[COL_CURRENT]);
	}
	return 0;
}

const struct output text_short_output = {
	.whole_stdout = false,
	.tells_unreachable = false,
	.status = text_status_short,
	.result = text_result,
	.version = text_version,
};

const struct output text_output = {
	.whole_stdout = false,
	.tells_unreachable = false,
	.status = text_status,
	.result = text_result,
	.version = text_version,
	.diagnose = diagnose_text,
#ifndef TT_CTL_QUICK	/* the quick one execs the full one for these */
	.advice = advise_text,
	.measure = mreport_text,
	.measure_streams = mstreams_text,
#endif
};
