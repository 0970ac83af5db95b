/*
 * A fake root/StandardCimv2 for tests: the instances of
 * MSFT_NetTCPSetting (one per template) and MSFT_NetOffloadGlobalSetting
 * in memory, as the Microsoft docs describe them (lib/backend_win.c),
 * with Group Policy, a missing class and refusals to inject.
 */
#ifndef TCPTUNE_FAKE_CIM_H
#define TCPTUNE_FAKE_CIM_H

#include "cim.h"

struct fake_cim;

/*
 * A stock Windows 10/11 client: six templates, level normal, RSS and RSC
 * on, timestamps disabled.
 */
struct fake_cim	*fake_cim_new(void);
struct cim	*fake_cim_cim(struct fake_cim *);	/* give to the backend */
/* What netsh or a "TCP optimizer" does: every template, or RSS. */
void		 fake_cim_poke_level(struct fake_cim *, unsigned);
void		 fake_cim_poke_rss(struct fake_cim *, unsigned);
void		 fake_cim_poke_rsc(struct fake_cim *, unsigned);
void		 fake_cim_poke_timestamps(struct fake_cim *, unsigned);
unsigned	 fake_cim_level(struct fake_cim *, const char *);
unsigned	 fake_cim_rss(struct fake_cim *);
/* Group Policy sets the level (in force) or stops (gp < 0). */
void		 fake_cim_group_policy(struct fake_cim *, int);
/* Every call on cls fails with hr (0 clears): a class this Windows lacks. */
void		 fake_cim_fail_class(struct fake_cim *, const char *, int32_t);
/* Updates of cls fail with hr; queries still work. */
void		 fake_cim_fail_update(struct fake_cim *, const char *, int32_t);
unsigned	 fake_cim_nupdates(struct fake_cim *);

/* Client edition: changes to the built-in templates fail with hr. */
void		 fake_cim_client_edition(struct fake_cim *, int32_t);
enum fake_netsh {
	FAKE_NETSH_APPLIES,	/* exit 0, every template changed */
	FAKE_NETSH_FAILS,	/* the exit code and output given */
	FAKE_NETSH_IGNORES,	/* exit 0, nothing changed */
	FAKE_NETSH_CANNOT_RUN,	/* not started: ENOENT */
	FAKE_NETSH_HANGS	/* ended at the deadline: ETIMEDOUT */
};
void		 fake_cim_netsh(struct fake_cim *, enum fake_netsh,
		    unsigned long, const char *);
unsigned	 fake_cim_netsh_calls(struct fake_cim *);
const char	*fake_cim_netsh_args(struct fake_cim *);
unsigned	 fake_cim_automatic_writes(struct fake_cim *);
void		 fake_cim_poke_heuristics(struct fake_cim *, unsigned);
void		 fake_cim_qos_policy(struct fake_cim *, const char *);

#endif /* TCPTUNE_FAKE_CIM_H */
