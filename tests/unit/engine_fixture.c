/* The engine tests' shared fixture: see engine_fixture.h. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>	/* mkdtemp on macOS; stdlib.h on glibc */
#include <cmocka.h>

#include "engine_fixture.h"

time_t	fake_now = 1000;

time_t
fake_mono(void)
{
	return fake_now;
}

/* The config in text; its errors, if any, printed, and the test failed. */
struct config *
parse(const char *text)
{
	struct errlist	 errs;
	struct config	*cfg;
	size_t		 i;

	errlist_init(&errs);
	cfg = config_parse(text, strlen(text), "test.conf", &errs);
	for (i = 0; i < errs.n; i++)
		print_error("%s\n", errs.msg[i]);
	errlist_clear(&errs);
	assert_non_null(cfg);
	return cfg;
}

/* The daemon starting: its state opened, a new engine on the fake clock. */
void
start(struct fixture *f)
{
	assert_int_equal(originals_open(&f->st, f->dir), 0);
	engine_init(&f->e, f->be, &f->st);
	f->e.mono = fake_mono;
}

/* The daemon stopping as if killed: nothing restored. */
void
stop(struct fixture *f)
{
	engine_free(&f->e);
	originals_close(&f->st);
}

/*
 * A started fixture over be (NULL: the caller sets f->be and starts),
 * its state in a new directory /tmp/NAME.XXXXXX; the clock at 1000.
 */
struct fixture *
fixture_new(const char *name, struct sysctl_backend *be)
{
	struct fixture	*f = calloc(1, sizeof(*f));

	assert_non_null(f);
	log_init(1, 0, "test");
	snprintf(f->dir, sizeof(f->dir), "/tmp/%s.XXXXXX", name);
	assert_non_null(mkdtemp(f->dir));
	f->be = be;
	start(f);
	fake_now = 1000;
	return f;
}

/* Stopped, its backend and directory gone; its fake is the caller's. */
void
fixture_free(struct fixture *f)
{
	char	cmd[128];

	stop(f);
	backend_free(f->be);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
}

const struct engine_key *
key(struct fixture *f, const char *name)
{
	const struct engine_key	*k = engine_find_key(&f->e, name);

	assert_non_null(k);
	return k;
}
