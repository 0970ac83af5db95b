/*
 * The fixture the engine's tests share (test_engine, test_backend_win,
 * test_lease): an engine over a fake backend, its state in a temporary
 * directory of its own, and a clock that moves only when a test moves it.
 */
#ifndef ENGINE_FIXTURE_H
#define ENGINE_FIXTURE_H

#include "tcptuned.h"

struct fake_kernel;
struct fake_cim;

struct fixture {
	struct fake_kernel	*fk;	/* the fake under be: one of these, */
	struct fake_cim		*fc;	/* freed by the test that made it */
	struct sysctl_backend	*be;
	struct originals		 st;
	struct engine		 e;
	char			 dir[64];
};

extern time_t	fake_now;	/* the engine's tt_mono() */

time_t		 fake_mono(void);
struct config	*parse(const char *);
void		 start(struct fixture *);
void		 stop(struct fixture *);
struct fixture	*fixture_new(const char *, struct sysctl_backend *);
void		 fixture_free(struct fixture *);
const struct engine_key *key(struct fixture *, const char *);

#endif
