/*
 * The config reader on arbitrary bytes: config_parse() is the same code
 * tcptuned and `tcptunectl check` run on /etc/tcptune.conf, from memory.
 * Besides memory errors (the sanitizers), a parse must either give a
 * config that keeps the reader's promises or at least one error, never
 * both and never neither.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "tcptune.h"

#define LABEL	"fuzz.conf"

static void
check_value(const struct config_key *k)
{
	char		 norm[TT_VALUE_MAX], buf[TT_VALUE_MAX], *w, *save = NULL;
	long long	 n;

	/* values are kept normalized: the engine compares them as text */
	FUZZ_CHECK(value_normalize(k->value, norm, sizeof(norm)) == 0);
	FUZZ_CHECK(strcmp(norm, k->value) == 0);
	if (!k->numeric) {
		FUZZ_CHECK(k->mode != MODE_AT_LEAST);
		FUZZ_CHECK(k->on_reject != REJECT_CLAMP);
		return;
	}
	tt_strlcpy(buf, k->value, sizeof(buf));
	for (w = strtok_r(buf, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		FUZZ_CHECK(parse_ll(w, &n) == 0);
	/* at-least and clamp must be able to compare what the reader took */
	FUZZ_CHECK(value_at_least(k->value, k->value) == 1);
}

static void
check_config(const struct config *cfg, const uint8_t *data, size_t size)
{
	size_t	i, j;

	FUZZ_CHECK(cfg->check_interval >= TT_CHECK_MIN);
	FUZZ_CHECK(cfg->check_interval <= TT_CHECK_MAX);
	FUZZ_CHECK(cfg->nkeys <= TT_MAX_KEYS);
	FUZZ_CHECK(cfg->digest == fnv1a64(data, size));
	for (i = 0; i < cfg->nkeys; i++) {
		const struct config_key *k = &cfg->keys[i];

		FUZZ_CHECK(memchr(k->name, '\0', sizeof(k->name)) != NULL);
		FUZZ_CHECK(sysctl_name_valid(k->name));
		FUZZ_CHECK(k->mode <= MODE_AT_LEAST);
		FUZZ_CHECK(k->on_reject <= REJECT_CLAMP);
		FUZZ_CHECK(config_find(cfg, k->name) == k);
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(cfg->keys[j].name, k->name) != 0);
		check_value(k);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errlist	 errs;
	struct config	*cfg;
	size_t		 i;

	errlist_init(&errs);
	cfg = config_parse((const char *)data, size, LABEL, &errs);
	FUZZ_CHECK((cfg == NULL) == (errs.n > 0));
	/* every message names the file, for "file:line: message" */
	for (i = 0; i < errs.n; i++)
		FUZZ_CHECK(strncmp(errs.msg[i], LABEL ":",
		    strlen(LABEL ":")) == 0);
	if (cfg != NULL) {
		check_config(cfg, data, size);
		config_free(cfg);
	}
	errlist_clear(&errs);
	return 0;
}
