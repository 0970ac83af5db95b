/*
 * tcptuned's entry point on Unix systems: the daemon runs in the
 * foreground, supervised by launchd, systemd or daemon(8).  Windows has
 * its own in service_win.c, for the Service Control Manager.
 */
#include "config.h"

#include "tcptuned.h"

int
main(int argc, char **argv)
{
	return tcptuned_main(argc, argv);
}
