/*
 * lib/prom.c: tcptuned's status in the Prometheus text format, written
 * by tcptunectl (tools/output_prom.c) and by tcptuned itself
 * (daemon/metrics.c) from one copy of the format.
 */
#ifndef TCPTUNE_PROM_H
#define TCPTUNE_PROM_H

#include <stdio.h>

#include "proto.h"

#define PROM_FILE	"tcptune.prom"	/* in a textfile collector's dir */

void	 prom_label_value(FILE *, const char *);
void	 prom_single(FILE *, const char *, const char *, const char *,
	    long long);
void	 prom_write_status(FILE *, const struct msg_daemon_info *,
	    const struct msg_key_status *, size_t,
	    const struct msg_diag_summary *);

#endif /* TCPTUNE_PROM_H */
