/*
 * The parse helper's answer as tcptuned reads it (lib/parse_wire.c,
 * parse_wire_decode) on arbitrary bytes, as a helper that libxml2's bugs
 * had taken over could send them: it runs as a user of its own, and its
 * answer is all it can do to the daemon (docs/SECURITY.md, "Privilege
 * separation").  Checked: garbage is refused with a reason; a config
 * taken holds only what the config reader itself could have produced
 * (names a sysctl's, managed unless AllowAnySysctl, values normalized,
 * none twice, nothing marked managed, settings in range) and goes through
 * the encoder and back unchanged; a list of errors taken is lines of
 * text.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "tcptune.h"
#include "parse_wire.h"

static void
check_key(const struct config *cfg, size_t i)
{
	const struct config_key	*k = &cfg->keys[i];
	char			 norm[TT_VALUE_MAX];
	size_t			 j;

	FUZZ_CHECK(sysctl_name_valid(k->name));
	FUZZ_CHECK(cfg->allow_any_sysctl || sysctl_name_managed(k->name));
	FUZZ_CHECK(value_normalize(k->value, norm, sizeof(norm)) == 0 &&
	    strcmp(norm, k->value) == 0);
	FUZZ_CHECK(!k->managed && !k->policy && k->line >= 0);
	for (j = 0; j < i; j++)
		FUZZ_CHECK(strcmp(cfg->keys[j].name, k->name) != 0);
}

/* What the encoder makes of cfg reads back as cfg. */
static void
check_round_trip(const struct config *cfg)
{
	struct config	*again = NULL;
	struct errlist	 errs;
	char		*buf, why[256];
	size_t		 len, i;

	errlist_init(&errs);
	FUZZ_CHECK(parse_wire_encode(cfg, NULL, &buf, &len) == 0);
	FUZZ_CHECK(parse_wire_decode(buf, len, cfg->path, &again, &errs, why,
	    sizeof(why)) == 0 && again != NULL);
	FUZZ_CHECK(again->nkeys == cfg->nkeys &&
	    again->check_interval == cfg->check_interval &&
	    again->digest == cfg->digest && again->set == cfg->set);
	for (i = 0; i < cfg->nkeys; i++)
		FUZZ_CHECK(strcmp(again->keys[i].name, cfg->keys[i].name) == 0 &&
		    strcmp(again->keys[i].value, cfg->keys[i].value) == 0);
	config_free(again);
	free(buf);
	errlist_clear(&errs);
}

static void
check_errors(const struct errlist *errs)
{
	size_t	i, j;

	FUZZ_CHECK(errs->n > 0);
	for (i = 0; i < errs->n; i++) {
		FUZZ_CHECK(errs->msg[i][0] != '\0');
		for (j = 0; errs->msg[i][j] != '\0'; j++)
			FUZZ_CHECK((unsigned char)errs->msg[i][j] >= 0x20 &&
			    errs->msg[i][j] != 0x7f);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config	*cfg = NULL;
	struct errlist	 errs;
	char		*buf, why[256];
	size_t		 i;

	if (size > PW_MAX_BYTES + 1)
		return 0;
	/* the daemon's buffer is malloc's, aligned: so is this copy */
	if ((buf = malloc(size ? size : 1)) == NULL)
		abort();
	memcpy(buf, data, size);
	errlist_init(&errs);
	why[0] = '\0';
	if (parse_wire_decode(buf, size, "/etc/tcptune.conf", &cfg, &errs,
	    why, sizeof(why)) == -1) {
		FUZZ_CHECK(cfg == NULL && errs.n == 0 && why[0] != '\0');
	} else if (cfg != NULL) {
		FUZZ_CHECK(errs.n == 0 && cfg->nkeys <= TT_MAX_KEYS);
		FUZZ_CHECK(cfg->check_interval >= TT_CHECK_MIN &&
		    cfg->check_interval <= TT_CHECK_MAX);
		for (i = 0; i < cfg->nkeys; i++)
			check_key(cfg, i);
		check_round_trip(cfg);
	} else
		check_errors(&errs);
	config_free(cfg);
	errlist_clear(&errs);
	free(buf);
	return 0;
}
