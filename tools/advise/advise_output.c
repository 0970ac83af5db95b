/*
 * tcptunectl advise, printed: text for people, JSON for scripts, and a
 * tcptune.conf plist that tcptunectl check accepts, with the reasoning in
 * XML comments.  Each writes to the FILE it is given, so the unit test can
 * read what it wrote.
 *
 * The JSON shape is an interface: fields may be added, never renamed or
 * removed.  Sizes are integers of bytes, rates numbers of bit/s, times
 * numbers of seconds.
 *
 *   { "version": 1,
 *     "path": { "rate_bps": num, "rtt_s": num,
 *       "rtt_source": "given"|"measured",
 *       "measurement": null | { "host": str, "address": str, "port": int,
 *         "attempts": int, "samples": int, "refused": int,
 *         "min_s": num, "median_s": num, "max_s": num } },
 *     "bdp_bytes": int, "window_bytes": int,
 *     "platform": { "os": "linux"|"darwin"|"freebsd"|"windows",
 *       "kernel": str, "live": bool, "receive_window_per_buffer_byte": num,
 *       "send_window_per_buffer_byte": num,
 *       "maxsockbuf_ceiling": int|null,
 *       "autotuning": null | { "level": str, "window_ceiling_bytes": int,
 *         "least_level": str|null, "recommended_level": str,
 *         "levels": [ { "name": str, "scale": int|null,
 *           "window_ceiling_bytes": int }, ... ] } },
 *     "keys": [ { "name": str,
 *       "role": "ceiling"|"sockopt"|"switch"|"info",
 *       "current": str|null, "assumed": bool, "given": bool,
 *       "recommended": str,
 *       "needed": int|null, "change": bool, "why": str,
 *       "why_id": str }, ... ],
 *     "now": { "receive": DIR, "send": DIR },
 *     "recommended": { "receive": DIR, "send": DIR },
 *     "verdict": "ok"|"tune"|"capped", "verdict_text": str,
 *     "streams": int, "notes": [ str, ... ], "note_ids": [ str, ... ],
 *     "config_file": str|null }
 *   DIR: { "buffer_bytes": int, "window_bytes": int, "rate_bps": num,
 *          "limited_by": str|null }
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "catalogue.h"
#include "tcptunectl.h"
#include "json.h"

#define WRAP		76	/* columns of running text */
#define JSON_VERSION	1

/* ---- text */

/* Text built in a caller's buffer, cut short at its size. */
struct text {
	char	*p;
	size_t	 size, len;
};

static void	text_add(struct text *, const char *, ...) TT_PRINTF(2, 3);

static void
text_add(struct text *t, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (t->len + 1 >= t->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->p + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len = (size_t)n < t->size - t->len ? t->len + (size_t)n :
		    t->size - 1;
}

/* Running text, wrapped at WRAP, every line after the first indented. */
static void
wrap_text(struct text *t, const char *first, const char *indent,
    const char *text)
{
	if (t->len + 1 < t->size)
		t->len += ctl_wrap_buf(t->p + t->len, t->size - t->len, first,
		    indent, text, WRAP);
}

static void
wrap(FILE *f, const char *first, const char *indent, const char *text)
{
	char		buf[ADV_COMMENT_MAX];
	struct text	t = { buf, sizeof(buf), 0 };

	buf[0] = '\0';
	wrap_text(&t, first, indent, text);
	fputs(buf, f);
}

static void
text_path(FILE *f, const struct advice *a)
{
	const struct adv_result	*r = &a->res;
	const struct adv_probe	*pr = a->probe;
	char			 rate[32], rtt[32], lo[32], hi[32], line[512];
	char			 refused[96] = "";

	adv_fmt_rate(r->rate, rate, sizeof(rate));
	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	if (pr == NULL) {
		fprintf(f, "%-12s%s, round trip %s\n", "Path", rate, rtt);
		return;
	}
	adv_fmt_time(pr->min, lo, sizeof(lo));
	adv_fmt_time(pr->max, hi, sizeof(hi));
	if (pr->refused == pr->samples)
		snprintf(refused, sizeof(refused), "; the port refused them, "
		    "and a refusal (reset) is a round trip too");
	else if (pr->refused > 0)
		snprintf(refused, sizeof(refused), "; the port refused %d of "
		    "them, and a refusal (reset) is a round trip too",
		    pr->refused);
	snprintf(line, sizeof(line), "%s, round trip %s: the median of %d "
	    "TCP connects to %s port %d (%s to %s)%s%s", rate, rtt,
	    pr->samples, pr->addr, pr->port, lo, hi, pr->raised ?
	    ", raised to 10 us, the least the model takes" : "", refused);
	wrap(f, "Path        ", "            ", line);
	if (pr->samples < pr->attempts)
		fprintf(f, "%-12s%d of %d attempts got no answer in time\n",
		    "", pr->attempts - pr->samples, pr->attempts);
}

/* Whether any current value came from --set. */
static bool
any_given(const struct adv_result *r)
{
	size_t	i;

	for (i = 0; i < r->nkeys; i++)
		if (r->keys[i].given)
			return true;
	return false;
}

static void
text_head(FILE *f, const struct advice *a)
{
	const struct adv_result	*r = &a->res;
	char			 bdp[32], line[512];

	text_path(f, a);
	adv_fmt_bytes(r->bdp, bdp, sizeof(bdp));
	snprintf(line, sizeof(line), "%.0f bytes (%s), the bandwidth-delay "
	    "product: the window one stream needs in each direction it "
	    "carries data", r->bdp, bdp);
	wrap(f, "In flight   ", "            ", line);
	if (r->none_read)
		fprintf(f, "%-12s%s: nothing could be read here, stock values "
		    "stand in\n", "Machine", r->kernel);
	else if (a->in.live && any_given(r)) {
		snprintf(line, sizeof(line), "%s, values read live except "
		    "those given with --set (nothing is changed)", r->kernel);
		wrap(f, "Machine     ", "            ", line);
	} else if (a->in.live)
		fprintf(f, "%-12s%s, values read live (nothing is changed)\n",
		    "Machine", r->kernel);
	else
		fprintf(f, "%-12s%s (--platform): stock values unless given "
		    "with --set\n", "Machine", r->kernel);
}

/* A row whose value is a word (a Windows level), not a byte count. */
static bool
key_is_word(const struct adv_key *k)
{
	long long	v[3];

	return value_numbers(k->recommended, v, 3) <= 0;
}

/* A row held below what the path needs (the verdict says why). */
static bool
key_capped(const struct adv_key *k)
{
	long long	v[3];
	int		n, i;

	if (k->needed <= 0)
		return false;
	if ((n = value_numbers(k->recommended, v, 3)) > 0)
		return v[n - 1] < k->needed;
	for (i = 0; i < adv_win_levels(); i++)	/* a level: its window */
		if (strcmp(k->recommended, adv_win_level_name(i)) == 0)
			return adv_win_level_window(i) < k->needed;
	return false;
}

static const char *
change_word(const struct adv_key *k)
{
	if (k->role == ROLE_INFO)
		return "-";
	if (key_capped(k))
		return k->change ? "raise, capped" : "capped";
	if (!k->change)
		return "keep";
	return k->role == ROLE_SWITCH ? "turn on" : "raise";
}

enum { KC_NAME, KC_CUR, KC_REC, KC_NEED, KC_CHANGE, KC_N };
#define KC_CELL		(TT_VALUE_MAX + 2)

/*
 * A row's cells, and under it the human size of each byte value ("4 KiB
 * 128 KiB 64 MiB" under "4096 131072 67108864"):
 * side by side on one line, a Linux row was 150 columns wide.  Empty
 * human cells when the key's unit is not bytes (the catalogue's).
 */
static void
key_cells(const struct adv_key *k, char cell[KC_N][KC_CELL],
    char human[KC_N][KC_CELL])
{
	const char	*cur = k->current[0] ? k->current : "?";
	int		 c;

	for (c = 0; c < KC_N; c++)
		human[c][0] = '\0';
	snprintf(cell[KC_NAME], sizeof(cell[0]), "%s", k->name);
	snprintf(cell[KC_CUR], sizeof(cell[0]), "%s%s", cur,
	    k->assumed ? "*" : k->given ? "=" : "");
	/* spaced as the numbers above them, no commas: within 80 columns */
	(void)catalogue_size_human(k->name, cur, " ", human[KC_CUR],
	    sizeof(human[0]));
	snprintf(cell[KC_REC], sizeof(cell[0]), "%s", k->recommended);
	(void)catalogue_size_human(k->name, k->recommended, " ",
	    human[KC_REC], sizeof(human[0]));
	/* a level's need is a window in bytes: said under the table */
	if (k->needed > 0 && !key_is_word(k)) {
		snprintf(cell[KC_NEED], sizeof(cell[0]), "%lld", k->needed);
		tt_size_human(k->needed, human[KC_NEED], sizeof(human[0]));
	} else
		snprintf(cell[KC_NEED], sizeof(cell[0]), "-");
	snprintf(cell[KC_CHANGE], sizeof(cell[0]), "%s", change_word(k));
}

static bool
any_cell(char cell[KC_N][KC_CELL])
{
	int	c;

	for (c = 0; c < KC_N; c++)
		if (cell[c][0] != '\0')
			return true;
	return false;
}

static void
print_row(FILE *f, char cell[KC_N][KC_CELL], const int w[KC_N])
{
	char	line[KC_N * (KC_CELL + 2)];
	size_t	n = 0;
	int	c;

	line[0] = '\0';
	for (c = 0; c < KC_N - 1; c++)
		if (w[c] >= 0 && n < sizeof(line))	/* -1: left out */
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			    "%-*s  ", w[c], cell[c]);
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "%s", cell[KC_N - 1]);
	n = strlen(line);
	while (n > 0 && line[n - 1] == ' ')	/* a human row's empty end */
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

static void
widen(int w[KC_N], char cell[KC_N][KC_CELL])
{
	int	c;

	for (c = 0; c < KC_N; c++)
		if ((int)strlen(cell[c]) > w[c])
			w[c] = (int)strlen(cell[c]);
}

/* Any row with a byte count: else no AT LEAST column (Windows). */
static bool
any_bytes(const struct adv_result *r)
{
	size_t	i;

	for (i = 0; i < r->nkeys; i++)
		if (!key_is_word(&r->keys[i]))
			return true;
	return false;
}

/*
 * What a cell cannot say: the window a level row's path needs (a byte
 * count beside a word would read as a level), and why a row stays below
 * its AT LEAST.
 */
static void
key_footnote(FILE *f, const struct adv_result *r, const struct adv_key *k)
{
	char	line[400], need[32], got[32];

	if (k->needed <= 0)
		return;
	adv_fmt_bytes((double)k->needed, need, sizeof(need));
	if (key_is_word(k) && r->os == TT_OS_WINDOWS) {
		adv_fmt_bytes((double)adv_win_level_window(r->win_rec), got,
		    sizeof(got));
		snprintf(line, sizeof(line), "%s: this path needs a receive "
		    "window of %lld bytes (%s); %s lets it grow to %s.",
		    k->name, k->needed, need, k->recommended, got);
	} else if (key_capped(k))
		snprintf(line, sizeof(line), "capped: %s stays below the %lld "
		    "bytes (%s) this path needs: it cannot be set higher here; "
		    "the verdict says why.", k->name, k->needed, need);
	else
		return;
	wrap(f, "", "  ", line);
}

static void
text_keys(FILE *f, const struct adv_result *r)
{
	static const char *const title[KC_N] = { "KEY", "CURRENT",
	    "RECOMMENDED", "AT LEAST", "CHANGE" };
	char	cell[KC_N][KC_CELL], human[KC_N][KC_CELL];
	int	w[KC_N], c;
	size_t	i;
	bool	assumed = false, given = any_given(r);

	for (c = 0; c < KC_N; c++)
		w[c] = (int)strlen(title[c]);
	for (i = 0; i < r->nkeys; i++) {
		key_cells(&r->keys[i], cell, human);
		widen(w, cell);
		widen(w, human);
		assumed |= r->keys[i].assumed;
	}
	if (!any_bytes(r))
		w[KC_NEED] = -1;
	for (c = 0; c < KC_N; c++)
		snprintf(cell[c], sizeof(cell[c]), "%s", title[c]);
	fputc('\n', f);
	print_row(f, cell, w);
	for (i = 0; i < r->nkeys; i++) {
		key_cells(&r->keys[i], cell, human);
		print_row(f, cell, w);
		if (any_cell(human))
			print_row(f, human, w);
	}
	if (assumed)
		fprintf(f, "* stock default, not read from this machine\n");
	if (given)
		fprintf(f, "= given with --set, not read from this machine\n");
	for (i = 0; i < r->nkeys; i++)
		key_footnote(f, r, &r->keys[i]);
}

/* "895 Mbit/s, window 16 MiB, held by net.ipv4.tcp_rmem" */
static void
dir_cell(const struct adv_dir *d, char *buf, size_t len)
{
	char	rate[32], win[32];

	adv_fmt_rate(d->rate, rate, sizeof(rate));
	adv_fmt_bytes((double)d->window, win, sizeof(win));
	if (adv_limit_text(d) == NULL)
		snprintf(buf, len, "%s, window %s", rate, win);
	else
		snprintf(buf, len, "%s, window %s, held by %s", rate, win,
		    adv_limit_text(d));
}

static void
text_streams(FILE *f, const struct adv_result *r)
{
	char	cell[160], rtt[32];

	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	fprintf(f, "\nONE STREAM AT %s\n", rtt);
	dir_cell(&r->now_rcv, cell, sizeof(cell));
	fprintf(f, "receiving  now    %s\n", cell);
	dir_cell(&r->rec_rcv, cell, sizeof(cell));
	fprintf(f, "           tuned  %s\n", cell);
	dir_cell(&r->now_snd, cell, sizeof(cell));
	fprintf(f, "sending    now    %s\n", cell);
	dir_cell(&r->rec_snd, cell, sizeof(cell));
	fprintf(f, "           tuned  %s\n", cell);
}

static void
text_notes(FILE *f, const struct advice *a)
{
	const struct adv_result	*r = &a->res;
	char			 text[ADV_TEXT_MAX + ADV_NOTE_MAX];
	size_t			 i;

	fputc('\n', f);
	adv_verdict_text(r, text, sizeof(text));
	wrap(f, "Verdict: ", "  ", text);
	fprintf(f, "\nWhy:\n");
	for (i = 0; i < r->nnotes; i++) {
		adv_note_text(&a->in, r, &r->notes[i], text, sizeof(text));
		wrap(f, "  - ", "    ", text);
	}
	if (a->config_path != NULL)
		fprintf(f, "\nWrote %s; check it with: tcptunectl check %s\n",
		    a->config_path, a->config_path);
	else if (r->verdict != VERDICT_OK) {
		fputc('\n', f);
		/*
		 * --apply beside --config: installed over the daemon's
		 * config, the file would drop every key advise does not know.
		 */
		wrap(f, "", "", r->os == TT_OS_WINDOWS ? "Add --config FILE to "
		    "write the recommended values as a tcptune.conf to check "
		    "and merge into %ProgramData%\\tcptune\\tcptune.conf by "
		    "hand (put in its place, it would drop the keys advise does "
		    "not know), or --apply (as Administrator) to put them in "
		    "force in one step: the running daemon's config gets the "
		    "keys to raise, its other keys stay." : "Add --config FILE "
		    "to write the recommended values as a tcptune.conf to check "
		    "and merge into /etc/tcptune.conf by hand (put in its "
		    "place, it would drop the keys advise does not know), or "
		    "--apply (as root) to put them in force in one step: the "
		    "running daemon's config gets the keys to raise, its other "
		    "keys stay.");
	}
}

void
advise_text(FILE *f, const struct advice *a)
{
	text_head(f, a);
	text_keys(f, &a->res);
	text_streams(f, &a->res);
	text_notes(f, a);
}

/* ---- JSON */

static void
json_probe(struct json *j, const struct adv_probe *pr)
{
	if (pr == NULL) {
		json_null(j, "measurement");
		return;
	}
	json_open(j, "measurement", '{');
	json_str(j, "host", pr->host);
	json_str(j, "address", pr->addr);
	json_int(j, "port", pr->port);
	json_int(j, "attempts", pr->attempts);
	json_int(j, "samples", pr->samples);
	json_int(j, "refused", pr->refused);
	json_num(j, "min_s", pr->min);
	json_num(j, "median_s", pr->median);
	json_num(j, "max_s", pr->max);
	json_close(j, '}');
}

static void
json_path(struct json *j, const struct advice *a)
{
	json_open(j, "path", '{');
	json_num(j, "rate_bps", a->res.rate);
	json_num(j, "rtt_s", a->res.rtt);
	json_str(j, "rtt_source", a->probe ? "measured" : "given");
	json_probe(j, a->probe);
	json_close(j, '}');
}

/* Windows: the levels and their windows, as numbers. */
static void
json_autotuning(struct json *j, const struct adv_result *r)
{
	int	i;

	if (r->os != TT_OS_WINDOWS) {
		json_null(j, "autotuning");
		return;
	}
	json_open(j, "autotuning", '{');
	json_str(j, "level", adv_win_level_name(r->win_level));
	json_int(j, "window_ceiling_bytes", adv_win_level_window(r->win_level));
	json_str(j, "least_level", r->win_least < 0 ? NULL :
	    adv_win_level_name(r->win_least));
	json_str(j, "recommended_level", adv_win_level_name(r->win_rec));
	json_open(j, "levels", '[');
	for (i = 0; i < adv_win_levels(); i++) {
		json_open(j, NULL, '{');
		json_str(j, "name", adv_win_level_name(i));
		if (adv_win_level_scale(i) < 0)
			json_null(j, "scale");
		else
			json_int(j, "scale", adv_win_level_scale(i));
		json_int(j, "window_ceiling_bytes", adv_win_level_window(i));
		json_close(j, '}');
	}
	json_close(j, ']');
	json_close(j, '}');
}

static void
json_platform(struct json *j, const struct advice *a)
{
	const struct adv_result	*r = &a->res;

	json_open(j, "platform", '{');
	json_str(j, "os", catalogue_os_name(r->os));
	json_str(j, "kernel", r->kernel);
	json_bool(j, "live", a->in.live);
	json_num(j, "receive_window_per_buffer_byte", r->rcv_ratio);
	json_num(j, "send_window_per_buffer_byte", r->snd_ratio);
	json_num(j, "send_sizing_window_per_buffer_byte", r->snd_size_ratio);
	if (r->sb_cap > 0)
		json_int(j, "maxsockbuf_ceiling", r->sb_cap);
	else
		json_null(j, "maxsockbuf_ceiling");
	json_autotuning(j, r);
	json_close(j, '}');
}

static const char *
role_name(enum adv_role role)
{
	switch (role) {
	case ROLE_CEILING:
		return "ceiling";
	case ROLE_SOCKOPT:
		return "sockopt";
	case ROLE_SWITCH:
		return "switch";
	case ROLE_INFO:
		return "info";
	}
	return "?";
}

static void
json_key(struct json *j, const struct adv_result *r, const struct adv_key *k)
{
	char	why[ADV_NOTE_MAX];

	json_open(j, NULL, '{');
	json_str(j, "name", k->name);
	json_str(j, "role", role_name(k->role));
	json_str(j, "current", k->current[0] ? k->current : NULL);
	json_bool(j, "assumed", k->assumed);
	json_bool(j, "given", k->given);
	json_str(j, "recommended", k->recommended);
	if (k->needed > 0)
		json_int(j, "needed", k->needed);
	else
		json_null(j, "needed");
	json_bool(j, "change", k->change);
	adv_why_text(r, k, why, sizeof(why));
	json_str(j, "why", why);
	json_str(j, "why_id", adv_why_name(k->why));
	json_close(j, '}');
}

static void
json_dir(struct json *j, const char *key, const struct adv_dir *d)
{
	json_open(j, key, '{');
	json_int(j, "buffer_bytes", d->buffer);
	json_int(j, "window_bytes", d->window);
	json_num(j, "rate_bps", d->rate);
	json_str(j, "limited_by", adv_limit_text(d));
	json_close(j, '}');
}

static void
json_streams(struct json *j, const char *key, const struct adv_dir *rcv,
    const struct adv_dir *snd)
{
	json_open(j, key, '{');
	json_dir(j, "receive", rcv);
	json_dir(j, "send", snd);
	json_close(j, '}');
}

void
advise_json(FILE *f, const struct advice *a)
{
	const struct adv_result	*r = &a->res;
	struct json		 j;
	char			 text[ADV_TEXT_MAX + ADV_NOTE_MAX];
	size_t			 i;

	json_begin(&j, f);
	json_open(&j, NULL, '{');
	json_int(&j, "version", JSON_VERSION);
	json_path(&j, a);
	json_int(&j, "bdp_bytes", (long long)(r->bdp + 0.5));
	json_int(&j, "window_bytes", r->window);
	json_platform(&j, a);
	json_open(&j, "keys", '[');
	for (i = 0; i < r->nkeys; i++)
		json_key(&j, r, &r->keys[i]);
	json_close(&j, ']');
	json_streams(&j, "now", &r->now_rcv, &r->now_snd);
	json_streams(&j, "recommended", &r->rec_rcv, &r->rec_snd);
	json_str(&j, "verdict", adv_verdict_name(r->verdict));
	adv_verdict_text(r, text, sizeof(text));
	json_str(&j, "verdict_text", text);
	json_int(&j, "streams", r->streams);
	json_open(&j, "notes", '[');
	for (i = 0; i < r->nnotes; i++) {
		adv_note_text(&a->in, r, &r->notes[i], text, sizeof(text));
		json_str(&j, NULL, text);
	}
	json_close(&j, ']');
	json_open(&j, "note_ids", '[');
	for (i = 0; i < r->nnotes; i++)
		json_str(&j, NULL, adv_note_name(r->notes[i].id));
	json_close(&j, ']');
	json_str(&j, "config_file", a->config_path);
	json_close(&j, '}');
}

/* ---- plist: advise's config and its comments, for config_write.c */

/*
 * Text wrapped into an open comment, each line indented by ind.  A
 * comment may not hold "--" (XML 1.0, section 2.5), and a host name may:
 * such dashes are spaced out.
 */
static void
comment_text(struct text *t, const char *ind, const char *text)
{
	char	buf[2 * (ADV_TEXT_MAX + ADV_NOTE_MAX)];
	size_t	n = 0;

	for (; *text != '\0' && n + 8 < sizeof(buf); text++) {
		/*
		 * "--set" as the option's name ("option set", said in the
		 * head); inside a word ("a--b", a host) the hyphens split.
		 */
		if (text[0] == '-' && text[1] == '-' && isalpha((unsigned char)
		    text[2]) && (n == 0 || buf[n - 1] == ' ' ||
		    buf[n - 1] == '(')) {
			memcpy(buf + n, "option ", 7);
			n += 7;
			text++;
			continue;
		}
		buf[n++] = *text;
		if (text[0] == '-' && text[1] == '-')	/* no "--" at all */
			buf[n++] = ' ';
	}
	buf[n] = '\0';
	wrap_text(t, ind, ind, buf);
}

static void
plist_path(struct text *t, const struct advice *a)
{
	const struct adv_result	*r = &a->res;
	char			 rate[32], rtt[32], bdp[32], line[600];
	char			 nr[32], ns[32], rr[32], rs[32];

	adv_fmt_rate(r->rate, rate, sizeof(rate));
	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	adv_fmt_bytes(r->bdp, bdp, sizeof(bdp));
	adv_fmt_rate(r->now_rcv.rate, nr, sizeof(nr));
	adv_fmt_rate(r->now_snd.rate, ns, sizeof(ns));
	adv_fmt_rate(r->rec_rcv.rate, rr, sizeof(rr));
	adv_fmt_rate(r->rec_snd.rate, rs, sizeof(rs));
	snprintf(line, sizeof(line), "Path: %s with a round trip of %s%s%s. "
	    "Bandwidth-delay product: %.0f bytes (%s) in flight.", rate, rtt,
	    a->probe ? ", measured with TCP connects to " : "",
	    a->probe ? a->probe->host : "", r->bdp, bdp);
	comment_text(t, "\t", line);
	/* before: read live for --config, the config's own for --apply */
	snprintf(line, sizeof(line), "One stream with the values before this "
	    "file: receiving %s, sending %s. With these values: receiving %s, "
	    "sending %s.", nr, ns, rr, rs);
	text_add(t, "\n");
	comment_text(t, "\t", line);
}

/* What tcptuned does with a key of each mode, said once per mode. */
static const char *const hold_words[MODE_AT_LEAST + 1] = {
	[MODE_ENFORCE] = "tcptuned sets it back when something else changes "
	    "it",
	[MODE_ONCE] = "tcptuned sets it at start and reload only",
	[MODE_AT_LEAST] = "tcptuned raises a value that falls below it and "
	    "leaves alone one that something else set higher",
};

/* Whether every key of cfg is held in mode m (none: true). */
static bool
all_in_mode(const struct config *cfg, enum key_mode m)
{
	size_t	i;

	for (i = 0; i < cfg->nkeys; i++)
		if (cfg->keys[i].mode != m)
			return false;
	return true;
}

/* "Mode at-least (why): a, b." for the keys of cfg in mode m, or "". */
static void
hold_list(const struct config *cfg, enum key_mode m, char *buf, size_t len)
{
	size_t	i, used = strlen(buf);
	int	n = 0;

	for (i = 0; i < cfg->nkeys; i++) {
		if (cfg->keys[i].mode != m)
			continue;
		if (n++ == 0)
			snprintf(buf + used, len - used, "%sMode %s (%s): %s",
			    used ? " " : "", key_mode_name(m), hold_words[m],
			    cfg->keys[i].name);
		else
			snprintf(buf + used, len - used, ", %s",
			    cfg->keys[i].name);
		used = strlen(buf);
	}
	if (n > 0)
		snprintf(buf + used, len - used, ".");
}

/*
 * How the keys of the file written (cfg) are held, as the file says it:
 * one sentence when all share a mode, else the keys of each mode named.
 */
static void
plist_hold(struct text *t, enum tt_os os, const struct config *cfg)
{
	char		 buf[TT_MAX_KEYS * (TT_NAME_MAX + 2) + 1024];
	enum key_mode	 m;

	buf[0] = '\0';
	if (os == TT_OS_WINDOWS && all_in_mode(cfg, MODE_ENFORCE))
		snprintf(buf, sizeof(buf), "Each key is enforced: tcptuned "
		    "sets it back when something else changes it (where Group "
		    "Policy sets the auto-tuning level, tcptuned reports it and "
		    "leaves it).");
	else if (all_in_mode(cfg, MODE_AT_LEAST))
		snprintf(buf, sizeof(buf), "Every key is Mode at-least: %s.",
		    hold_words[MODE_AT_LEAST]);
	else
		for (m = MODE_ENFORCE; m <= MODE_AT_LEAST; m++)
			hold_list(cfg, m, buf, sizeof(buf));
	/*
	 * Installed over the daemon's config, this file would drop the keys
	 * advise does not know: --apply (or set) adds these to it instead.
	 * An XML comment may not hold "--", so the option is named in words.
	 */
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " Check this "
	    "file with tcptunectl check. To put it in force, run the same "
	    "tcptunectl advise with its apply option, which adds these keys "
	    "to %s and keeps its others, or merge them into that file by hand "
	    "and run tcptunectl reload.", os == TT_OS_WINDOWS ?
	    "%ProgramData%\\tcptune\\tcptune.conf" : "/etc/tcptune.conf");
	comment_text(t, "\t", buf);
}

/*
 * The comment above the <plist>: the path, the verdict, the notes, and
 * how the keys of cfg, the file written, are held.
 */
static void
plist_head(struct text *t, const struct advice *a, const struct config *cfg)
{
	const struct adv_result	*r = &a->res;
	char			 line[128], text[ADV_TEXT_MAX + ADV_NOTE_MAX];
	size_t			 i;

	snprintf(line, sizeof(line), "tcptune.conf(5) for %s, written by "
	    "tcptunectl advise.", catalogue_os_label(r->os));
	comment_text(t, "\t", line);
	text_add(t, "\n");
	/* XML forbids two hyphens in a row inside a comment */
	comment_text(t, "\t", "An XML comment cannot hold two hyphens in a "
	    "row, so the options of tcptunectl advise are named below as "
	    "\"option set\", \"option platform\": type them with two "
	    "leading hyphens.");
	text_add(t, "\n");
	plist_path(t, a);
	text_add(t, "\n");
	adv_verdict_text(r, text, sizeof(text));
	comment_text(t, "\t", text);
	for (i = 0; i < r->nnotes; i++) {
		text_add(t, "\n");
		adv_note_text(&a->in, r, &r->notes[i], text, sizeof(text));
		comment_text(t, "\t", text);
	}
	text_add(t, "\n");
	plist_hold(t, r->os, cfg);
}

/* A row of the advice that goes in a config (the rest is only shown). */
static const struct adv_key *
advised_key(const struct adv_result *r, const char *name)
{
	size_t	i;

	for (i = 0; i < r->nkeys; i++)
		if (r->keys[i].role != ROLE_INFO &&
		    strcmp(r->keys[i].name, name) == 0)
			return &r->keys[i];
	return NULL;
}

/* config_notes' key(): why the advice sets k, or NULL for a key not its. */
static const char *
plist_key_note(const struct config_key *ck, void *arg)
{
	struct advise_notes	*n = arg;
	const struct adv_result	*r = &n->advice->res;
	const struct adv_key	*k;
	struct text		 t = { n->key, sizeof(n->key), 0 };
	char			 line[ADV_NOTE_MAX + 2 * TT_VALUE_MAX + 128];
	char			 need[80] = "", why[ADV_NOTE_MAX];
	long long		 v[3];
	bool			 word;

	if ((k = advised_key(r, ck->name)) == NULL)
		return NULL;
	word = value_numbers(k->recommended, v, 3) <= 0;
	if (k->needed > 0)
		snprintf(need, sizeof(need), word ? " This path needs a window "
		    "of at least %lld bytes." : " This path needs at least %lld.",
		    k->needed);
	adv_why_text(r, k, why, sizeof(why));
	snprintf(line, sizeof(line), "%s: %s.%s%s%s%s", k->name, why,
	    need, key_capped(k) ? " It cannot be set higher here (the "
	    "verdict above says why). Now " : k->change ? " Was " :
	    " Already enough, kept so it stays: ",
	    k->current[0] ? k->current : "unknown",
	    k->assumed ? " (stock default, not read)." : ".");
	n->key[0] = '\0';
	comment_text(&t, "\t\t\t", line);
	return n->key;
}

/*
 * advise's comments, for config_write: the same for --config and for
 * --apply (through set_apply), so the two write the same file.
 */
void
advise_notes(const struct advice *a, const struct config *cfg,
    struct advise_notes *n, struct config_notes *cn)
{
	struct text	t = { n->head, sizeof(n->head), 0 };

	n->advice = a;
	n->head[0] = '\0';
	plist_head(&t, a, cfg);
	cn->head = n->head;
	cn->key = plist_key_note;
	cn->arg = n;
}

/*
 * How a key the advice sets is held: a number at-least, so that tcptuned
 * never lowers what something else set higher, clamped where the advice
 * says; a word enforced (it has no order).
 */
void
advise_key_hold(const struct adv_key *k, enum key_mode *mode,
    enum on_reject *on_reject)
{
	long long	v[3];

	*mode = value_numbers(k->recommended, v, 3) > 0 ? MODE_AT_LEAST :
	    MODE_ENFORCE;
	*on_reject = k->clamp ? REJECT_CLAMP : REJECT_FAIL;
}

/*
 * The recommended ceilings as a tcptune.conf, written by config_write.c.
 * Rows that are only shown (the initial buffers) stay out: tcptuned
 * would hold them for nothing.
 */
void
advise_plist(FILE *f, const struct advice *a)
{
	const struct adv_result	*r = &a->res;
	struct config_key	 keys[ADV_MAX_KEYS];
	struct config		 cfg;
	struct config_notes	 cn;
	struct advise_notes	*n;
	char			*buf;
	size_t			 i, len;

	memset(&cfg, 0, sizeof(cfg));
	memset(keys, 0, sizeof(keys));
	cfg.check_interval = TT_CHECK_DEFAULT;
	cfg.keys = keys;
	for (i = 0; i < r->nkeys; i++) {
		if (r->keys[i].role == ROLE_INFO)
			continue;
		tt_strlcpy(keys[cfg.nkeys].name, r->keys[i].name,
		    sizeof(keys[0].name));
		tt_strlcpy(keys[cfg.nkeys].value, r->keys[i].recommended,
		    sizeof(keys[0].value));
		advise_key_hold(&r->keys[i], &keys[cfg.nkeys].mode,
		    &keys[cfg.nkeys].on_reject);
		cfg.nkeys++;
	}
	if ((n = malloc(sizeof(*n))) == NULL)
		fatal("%s", __func__);
	advise_notes(a, &cfg, n, &cn);
	if (config_write(&cfg, &cn, &buf, &len) == -1)
		fatal("%s", __func__);
	fwrite(buf, 1, len, f);
	free(buf);
	free(n);
}

/* The plist must pass tcptunectl check: a failure here is a bug. */
int
advise_self_check(const char *buf, size_t len, const char *path)
{
	struct errlist	 errs;
	struct config	*cfg;
	size_t		 i;

	errlist_init(&errs);
	if ((cfg = config_parse(buf, len, path, &errs)) != NULL) {
		config_free(cfg);
		return 0;
	}
	for (i = 0; i < errs.n; i++)
		ctl_warnx("bug: the advice does not parse: %s", errs.msg[i]);
	errlist_clear(&errs);
	return -1;
}
