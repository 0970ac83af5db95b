/*
 * The managed preferences file over /etc/tcptune.conf.
 *
 * An MDM configuration profile with a com.apple.ManagedClient.preferences
 * payload for the domain org.tcptune.tcptuned ends up on the Mac as
 * /Library/Managed Preferences/org.tcptune.tcptuned.plist, holding the
 * payload's mcx_preference_settings: the same keys as tcptune.conf.  It is
 * read by the same reader with the same checks (config_load) and laid over
 * the local file key by key, as macOS lays forced preferences over the
 * other sources one key at a time (CFPreferencesAppValueIsForced() asks
 * about one key of a domain; Apple's "ManagedPreferences" payload reference
 * in the DeviceManagement documentation): a sysctl, CheckInterval or
 * RestoreOnExit given in the managed file wins; what it does not name
 * stays as the local file says.  So a fleet pins what it cares about and a
 * host keeps its own extra keys, and each key's status names the file its
 * wanted value came from (config_key_source, in config_keys.c).
 *
 * On Windows the registry policy that Group Policy or Intune leaves under
 * HKLM\SOFTWARE\Policies\tcptune (config_policy.c, policy_win.c) is one
 * more layer, laid over both files by the same rules: Windows gives policy
 * precedence over local settings, and an administrator who deploys one
 * means it to win (docs/DESIGN.md §3, Windows).
 *
 * This is the one loader, given what was parsed: which layers there are
 * (config_managed_present), each parsed by its reader (config.c's in this
 * process, config_load.c, or the parse helper's on the files tcptuned
 * opened for it, parse_helper.c) and laid over the one below
 * (config_layers), then the registry policy and the catalogue
 * (config_layers_finish, in this process or in tcptuned on the helper's
 * answers, parse_posix.c).  So tcptunectl check, tcptuned -n and the
 * daemon read the same layers by construction.  Nothing here parses:
 * tcptuned links this without libxml2 (docs/SECURITY.md, "Privilege
 * separation"), and nothing here reads the registry: the policy's reader
 * is handed in (policy_load: it parses, through config.c, which calls
 * this file; tests/lint/call_cycles.sh).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tcptune.h"
#include "catalogue.h"

static void
mark(struct config_key *k, bool policy)
{
	k->managed = !policy;
	k->policy = policy;
}

static const struct config_key *
find_in(const struct config *cfg, const char *name)
{
	return cfg == NULL ? NULL : config_find(cfg, name);
}

/* The keys of local, each replaced by managed's of the same name, then
 * managed's other keys in their order.  n: how many. */
static struct config_key *
merged_keys(const struct config *local, const struct config *managed,
    bool policy, size_t *n)
{
	struct config_key	*keys;
	const struct config_key	*m;
	size_t			 i;

	keys = calloc(local->nkeys + managed->nkeys + 1, sizeof(*keys));
	if (keys == NULL)
		fatal("%s", __func__);
	*n = 0;
	for (i = 0; i < local->nkeys; i++) {
		if ((m = find_in(managed, local->keys[i].name)) != NULL) {
			keys[*n] = *m;
			mark(&keys[*n], policy);
		} else
			keys[*n] = local->keys[i];
		(*n)++;
	}
	for (i = 0; i < managed->nkeys; i++) {
		if (find_in(local, managed->keys[i].name) != NULL)
			continue;
		keys[*n] = managed->keys[i];
		mark(&keys[(*n)++], policy);
	}
	return keys;
}

/*
 * Lay managed over local; both are consumed.  Returns local, changed, or
 * NULL when together they name more sysctls than the daemon keeps.
 * policy: managed is the registry policy, laid over the managed file.
 */
static struct config *
merge_layer(struct config *local, struct config *managed, bool policy,
    struct errlist *errs)
{
	struct config_key	*keys;
	size_t			 n;
	uint64_t		 d[2];

	if (managed == NULL)
		return local;
	keys = merged_keys(local, managed, policy, &n);
	if (n > TT_MAX_KEYS) {
		errlist_add(errs, "%s: with %s it makes %zu sysctls, more than "
		    "%d", managed->path, local->path, n, TT_MAX_KEYS);
		free(keys);
		config_free(local);
		config_free(managed);
		return NULL;
	}
	free(local->keys);
	local->keys = keys;
	local->nkeys = n;
	if (managed->set & CONFIG_SET_INTERVAL)
		local->check_interval = managed->check_interval;
	if (managed->set & CONFIG_SET_RESTORE)
		local->restore_on_exit = managed->restore_on_exit;
	/* Each file was checked alone: a key either brings is allowed. */
	local->allow_any_sysctl = local->allow_any_sysctl ||
	    managed->allow_any_sysctl;
	local->set |= managed->set;
	/* Either file changing changes the digest, and so does adding one. */
	d[0] = local->digest;
	d[1] = managed->digest;
	local->digest = fnv1a64(d, sizeof(d));
	if (policy)
		tt_strlcpy(local->policy_path, managed->path,
		    sizeof(local->policy_path));
	else
		tt_strlcpy(local->managed_path, managed->path,
		    sizeof(local->managed_path));
	config_free(managed);
	return local;
}

struct config *
config_merge(struct config *local, struct config *managed,
    struct errlist *errs)
{
	return merge_layer(local, managed, false, errs);
}

/*
 * The registry policy (config_policy.c) over the config and the managed
 * file, by the same rules: its keys win, key by key.
 */
struct config *
config_merge_policy(struct config *local, struct config *policy,
    struct errlist *errs)
{
	return merge_layer(local, policy, true, errs);
}

/*
 * Whether a managed layer is to be read at path (NULL or "": none): it
 * exists, or stat cannot say that it does not (a file behind a directory
 * that may not be searched is an error to report, not an absent layer).
 * The one test of every side that opens the layers.
 */
bool
config_managed_present(const char *managed_path)
{
	struct stat	st;

	return managed_path != NULL && managed_path[0] != '\0' &&
	    (stat(managed_path, &st) == 0 || errno != ENOENT);
}

/*
 * The config's layer, local, with the managed file's over it: both as
 * their reader parsed them, both consumed.  has_managed: there is a
 * managed layer, and managed NULL means its read failed.  A read that
 * failed (NULL, its problems already in errs) fails the whole: both files
 * are read, so that every problem of both is listed, and nothing is
 * returned unless both are good.
 */
struct config *
config_layers(struct config *local, struct config *managed, bool has_managed,
    struct errlist *errs)
{
	if (local == NULL || (has_managed && managed == NULL)) {
		config_free(local);
		config_free(managed);
		return NULL;
	}
	return config_merge(local, managed, errs);
}

/*
 * The files' layers (cfg, NULL when they failed) finished: the registry
 * policy, read by load (policy_load), over them, its problems listed
 * whatever the files' were, then, with t, the whole checked against t's
 * catalogue (and kernel when t names a backend), its warnings in warns
 * (NULL: dropped).  The config, or NULL with every problem in errs.
 */
struct config *
config_layers_finish(struct config *cfg, policy_load_fn load,
    const struct config_target *t, struct errlist *errs,
    struct errlist *warns)
{
	struct config	*policy = NULL;

	if (load(&policy, errs) == -1 || cfg == NULL) {
		config_free(cfg);
		config_free(policy);
		return NULL;
	}
	if ((cfg = config_merge_policy(cfg, policy, errs)) != NULL &&
	    t != NULL && config_check_os(cfg, t->os, t->be, errs, warns) > 0) {
		config_free(cfg);
		return NULL;
	}
	return cfg;
}
