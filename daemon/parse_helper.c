/*
 * tcptune-parse: reads one config file for tcptuned, in a process of its
 * own, so that libxml2, a large parser of a file format, never runs as
 * root nor stays mapped in the resident daemon (docs/SECURITY.md,
 * "Privilege separation").  The daemon opens the file (as root, by the
 * trust rule) and starts this with:
 *
 *   fd 3  its end of a socketpair, for the answer (parse_wire.h)
 *   fd 4  the file
 *   argv  tcptune-parse name: the file's name, for messages
 *
 * It gives up root (confine_drop), confines itself (confine_enter), reads
 * and parses that one file, writes one answer and exits.  It never lays
 * one file over another: tcptuned runs a helper for each layer (the
 * config, then the managed file) and lays them over each other with the
 * one loader, config_model.c, then adds the registry policy and the
 * catalogue check (parse_posix.c).  Its own failures go to stderr (the
 * daemon's log on systemd and launchd); the daemon sees no answer.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcptune.h"
#include "parse_wire.h"
#include "confine.h"

/* Built with AddressSanitizer (configure --enable-sanitizers)? */
#if defined(__SANITIZE_ADDRESS__)
#define TT_LEAK_CHECKER	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TT_LEAK_CHECKER	1
#endif
#endif
#ifdef TT_LEAK_CHECKER
#include <sanitizer/lsan_interface.h>
#endif

/*
 * LeakSanitizer's check at exit stops the world with clone and ptrace,
 * which the confined helper may no longer do ("LeakSanitizer has
 * encountered a fatal error", exit 1: every parse failed in the
 * sanitizers stage).  So under it the check runs now, before confining,
 * and not at exit.  The parser's own leaks are checked where the same
 * code runs unconfined: tcptunectl check, test_config and fuzz_config.
 * Without a sanitizer this is nothing.
 */
static void
leak_check_before_confining(void)
{
#ifdef TT_LEAK_CHECKER
	__lsan_do_leak_check();
#endif
}

/* The file at fd 4, parsed: a config, or NULL with its errors. */
static struct config *
parse_fd(const char *name, struct errlist *errs)
{
	struct config	*cfg;
	char		*buf;
	size_t		 len;

	if (read_file_bounded(PARSE_FD_CONFIG, &buf, &len,
	    TT_CONFIG_MAX_BYTES) == -1) {
		config_file_error(errs, name, errno);
		return NULL;
	}
	close(PARSE_FD_CONFIG);
	cfg = config_parse(buf, len, name, errs);
	free(buf);
	return cfg;
}

int
main(int argc, char **argv)
{
	struct errlist	 errs;
	struct config	*cfg;
	const char	*what = "";
	char		 why[256], *buf;
	size_t		 len;
	pid_t		 daemon_pid = getppid();

	log_init(1, 0, "tcptune-parse");
	if (argc != 2)
		fatalx("usage: tcptune-parse name (started by tcptuned, the "
		    "file at fd 4)");
	leak_check_before_confining();
	if (confine_drop(TT_PARSE_USER, why, sizeof(why)) == -1)
		fatalx("giving up root: %s", why);
	/* Giving up root cleared the parent-death signal (confine_linux.c). */
	if (die_with_parent(daemon_pid) == -1)
		fatalx("tcptuned, which started this, is gone");
	if (confine_enter(why, sizeof(why), &what) == -1)
		fatalx("confining: %s", why);
	errlist_init(&errs);
	cfg = parse_fd(argv[1], &errs);
	if (parse_wire_encode(cfg, &errs, &buf, &len) == -1)
		fatalx("cannot encode the answer");
	if (write_all(PARSE_FD_ANSWER, buf, len) == -1)
		fatal("writing the answer");
	free(buf);
	config_free(cfg);
	errlist_clear(&errs);
	return 0;
}
