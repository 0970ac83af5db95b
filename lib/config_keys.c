/*
 * The parts of a parsed configuration that the resident daemon uses,
 * apart from the parser (config.c, with libxml2): tcptuned validates what
 * its parse helper (tools/parse/tcptune-parse.c) sends with these, and
 * must not link libxml2 (docs/SECURITY.md, "Privilege separation").
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"

/*
 * What tcptune manages unless the config says AllowAnySysctl: the network
 * and socket-buffer sysctls (Linux net.*; macOS and FreeBSD net.inet.*
 * and kern.ipc.*; Windows tcp.* and offload.*, the auto-tuning level and
 * RSS).  A root daemon that writes whatever its file names is
 * one mistake (or one injected line) away from kernel.core_pattern or
 * kern.securelevel; the opt-in makes that a decision, in the file.
 */
static const char *const managed_prefixes[] = {
	"net.", "kern.ipc.",
	"tcp.", "offload."	/* Windows: backend_win.c's keys */
};

/* The words of Mode and OnReject, for the parser and for status. */
const char *const config_mode_names[MODE_AT_LEAST + 1] = {
	[MODE_ENFORCE] = "enforce",
	[MODE_ONCE] = "once",
	[MODE_AT_LEAST] = "at-least",
};
const char *const config_reject_names[REJECT_CLAMP + 1] = {
	[REJECT_FAIL] = "fail",
	[REJECT_CLAMP] = "clamp",
};

const char *
key_mode_name(enum key_mode m)
{
	if ((size_t)m >= NITEMS(config_mode_names))
		return "?";
	return config_mode_names[m];
}

const char *
on_reject_name(enum on_reject r)
{
	if ((size_t)r >= NITEMS(config_reject_names))
		return "?";
	return config_reject_names[r];
}

static bool
name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/*
 * Why name is not a sysctl name, or NULL when it is one: dot-separated
 * parts of [A-Za-z0-9_-], none empty and none starting with '-', at least
 * two of them.  Nothing else can appear, so a name can never become "..",
 * "/" or an option when a backend maps it to a path.
 */
const char *
config_name_problem(const char *name, char *buf, size_t size)
{
	size_t	i, len, part = 0, nparts = 1;

	if ((len = strlen(name)) == 0)
		return "it is empty";
	if (len >= TT_NAME_MAX) {
		snprintf(buf, size, "it is longer than %d characters",
		    TT_NAME_MAX - 1);
		return buf;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == '.') {
			if (part == 0)
				return "it has an empty part (a leading, "
				    "trailing or doubled dot)";
			part = 0;
			nparts++;
			continue;
		}
		if (!name_char(c)) {
			if (c == ' ')
				tt_strlcpy(buf, "a space is not allowed", size);
			else
				snprintf(buf, size, c > 0x20 && c < 0x7f ?
				    "'%c' is not allowed" :
				    "byte \\x%02x is not allowed", c);
			strncat(buf, " (only letters, digits, '_', '-' and "
			    "dots)", size - strlen(buf) - 1);
			return buf;
		}
		if (part++ == 0 && c == '-')
			return "a part starts with '-'";
	}
	if (part == 0)
		return "it has an empty part (a leading, trailing or doubled "
		    "dot)";
	if (nparts < 2)
		return "it needs at least two dot-separated parts";
	return NULL;
}

bool
sysctl_name_valid(const char *name)
{
	char	buf[128];

	return config_name_problem(name, buf, sizeof(buf)) == NULL;
}

bool
sysctl_name_managed(const char *name)
{
	size_t	i;

	for (i = 0; i < NITEMS(managed_prefixes); i++)
		if (strncmp(name, managed_prefixes[i],
		    strlen(managed_prefixes[i])) == 0)
			return true;
	return false;
}

/*
 * Why path could not be read: err from the system, or EFBIG for a file
 * past TT_CONFIG_MAX_BYTES.  One wording on every OS.
 */
void
config_file_error(struct errlist *errs, const char *path, int err)
{
	if (err == EFBIG)
		errlist_add(errs, "%s: larger than %d bytes: refusing to read "
		    "it", path, TT_CONFIG_MAX_BYTES);
	else
		errlist_add(errs, "%s: %s", path, strerror(err));
}

void
config_free(struct config *cfg)
{
	if (cfg == NULL)
		return;
	free(cfg->keys);
	free(cfg);
}

const struct config_key *
config_find(const struct config *cfg, const char *name)
{
	size_t	i;

	for (i = 0; i < cfg->nkeys; i++)
		if (strcmp(cfg->keys[i].name, name) == 0)
			return &cfg->keys[i];
	return NULL;
}

/* The file a key's wanted value came from (config_layers.c). */
const char *
config_key_source(const struct config *cfg, const struct config_key *k)
{
	if (k->policy && cfg->policy_path[0] != '\0')
		return cfg->policy_path;
	return k->managed && cfg->managed_path[0] != '\0' ?
	    cfg->managed_path : cfg->path;
}

/* The layers over the config, for status: "" when none. */
size_t
config_layer_names(const struct config *cfg, char *buf, size_t size)
{
	return (size_t)snprintf(buf, size, "%s%s%s", cfg->managed_path,
	    cfg->managed_path[0] != '\0' && cfg->policy_path[0] != '\0' ?
	    ", then " : "", cfg->policy_path);
}

/*
 * The layers laid over cfg's file, one line each, as tcptuned -n and
 * tcptunectl check name them before "configuration OK".
 */
void
config_report_layers_used(const struct config *cfg, FILE *out)
{
	if (cfg->managed_path[0] != '\0')
		fprintf(out, "managed preferences: %s (its keys win over "
		    "%s)\n", cfg->managed_path, cfg->path);
	if (cfg->policy_path[0] != '\0')
		fprintf(out, "registry policy: %s (its keys win over %s)\n",
		    cfg->policy_path + strlen("policy "), cfg->managed_path[0] ?
		    "both files" : cfg->path);
}

/*
 * tcptuned -n's answer for a load, done in-process (config_report_layers)
 * or through the parse helper (parse_report): every error, one a line, or
 * the layers in use and "configuration OK".  Frees cfg and errs; 0 when
 * good, 1 otherwise.
 */
int
config_report_result(struct config *cfg, struct errlist *errs,
    const char *path, FILE *out)
{
	size_t	i;

	if (cfg == NULL) {
		for (i = 0; i < errs->n; i++)
			fprintf(out, "%s\n", errs->msg[i]);
		if (errs->n == 0)
			fprintf(out, "%s: cannot be used\n", path);
		errlist_clear(errs);
		return 1;
	}
	config_report_layers_used(cfg, out);
	fprintf(out, "configuration OK\n");
	config_free(cfg);
	errlist_clear(errs);
	return 0;
}
