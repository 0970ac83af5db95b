/*
 * statusbench: status round trips against a running tcptuned, from N
 * concurrent clients, and their latency distribution.
 *
 *   statusbench [-C] [-o FILE] [-p PAUSE_US] -s SOCKET -c CLIENTS -n REQUESTS
 *   statusbench -P [-k KEY]... [-r ROOT] [-o FILE] [-p PAUSE_US] [-s SOCKET]
 *       -c CLIENTS -n REQUESTS
 *
 * Each client is a thread with its own connection.  All connect first,
 * then start together (a barrier), and each sends REQUESTS status requests
 * one after the other, timing each from the send to the MSG_END that
 * closes its reply.  With -C every request gets a fresh connection, as
 * tcptunectl does (connect, request, reply, close).  With -p each client
 * waits between requests, a random time of 0 to 2 x PAUSE_US microseconds
 * (independent clients that each ask now and then, as monitoring agents
 * do, rather than back to back and in step; the pause is not timed).  The reply stream is
 * checked: MSG_DAEMON_INFO, then MSG_KEY_STATUS as many as MSG_END counts,
 * every message with the request's sequence number.
 *
 * With -P the clients ask no daemon: each "request" is one round of
 * reading, by open, read and close, the /proc/sys file of every key the
 * daemon reports (or under ROOT, as tcptuned -r), which is what a status
 * reply costs a client that reads the kernel itself.  The keys are those
 * of one status reply on SOCKET, fetched first, or the -k ones.  The same
 * threads, barrier and figures, so that the two runs compare on the same
 * machine: the ratio status / -P is what asking the daemon costs.  A key
 * whose file cannot be read (a global key inside a network namespace) is
 * still tried every round, as the daemon tries it.
 *
 * Prints one line of key=value figures (microseconds):
 *   clients=64 requests=128000 p50_us=.. p99_us=.. max_us=.. mean_us=..
 *   rps=.. keys=.. reconnect=.. pause_us=.. client_cpu_us=..
 * (and proc=1 with -P), where client_cpu_us is the CPU time, user and
 * system, of all the clients together (getrusage(2) RUSAGE_SELF, every
 * thread of the process) per request: on a machine whose cores the
 * clients share with the daemon, what they leave it of the CPU.
 * and with -o every latency, one a line, in microseconds.  Exits 1 on any
 * failed or malformed reply, 64 on a usage error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"
#include "proto_client.h"

#define REPLY_TIMEOUT_MS	10000	/* a stuck daemon fails the run */
#define MAX_KEYS		1024

struct client {
	pthread_t	 thread;
	int		 id;
	uint64_t	*lat;		/* ns, one per request */
	unsigned	 keys;		/* as the last MSG_END counted */
	char		 error[256];	/* "" when every request succeeded */
};

static const char	*sock_path;
static unsigned		 nrequests;
static int		 reconnect;
static unsigned		 pause_us;
static int		 proc_mode;
static const char	*sysctl_root = "/proc/sys";
static char		*key_names[MAX_KEYS];	/* "net.ipv4.tcp_rmem" */
static char		*key_paths[MAX_KEYS];	/* under sysctl_root */
static unsigned		 nkeys;
static int		 collect_keys;	/* round_trip fills key_names */
static pthread_barrier_t start_line;

static uint64_t
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int
connect_daemon(void)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(sock_path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sun.sun_path, sock_path, strlen(sock_path) + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

static int
add_key(const char *name)
{
	if (nkeys == MAX_KEYS || (key_names[nkeys] = strdup(name)) == NULL)
		return -1;
	nkeys++;
	return 0;
}

/* One request and its whole reply, checked; 0 or -1 with c->error set. */
static int
round_trip(struct client *c, int fd, uint32_t seq)
{
	static const char	 none[1];
	struct msg_hdr		 h;
	union {
		struct msg_daemon_info	di;
		struct msg_key_status	ks;
		struct msg_end		end;
		char			raw[TT_PROTO_MAX_PAYLOAD];
	}			 p;
	unsigned		 items = 0, n = 0;

	if (proto_write_msg(fd, MSG_STATUS, seq, none, 0) == -1) {
		snprintf(c->error, sizeof(c->error), "send: %s",
		    strerror(errno));
		return -1;
	}
	for (;; n++) {
		if (proto_read_msg(fd, &h, &p, sizeof(p), REPLY_TIMEOUT_MS)
		    == -1) {
			snprintf(c->error, sizeof(c->error), "reply %u: %s", n,
			    strerror(errno));
			return -1;
		}
		/* the keys, then diagnose's summary (proto.h, version 6) */
		if (h.seq != seq || (n == 0 && h.type != MSG_DAEMON_INFO) ||
		    (n > 0 && h.type != MSG_KEY_STATUS &&
		    h.type != MSG_DIAG_SUMMARY && h.type != MSG_END)) {
			snprintf(c->error, sizeof(c->error), "reply %u: "
			    "unexpected %s (seq %u, wanted %u)", n,
			    proto_type_name(h.type), h.seq, seq);
			return -1;
		}
		if (h.type == MSG_KEY_STATUS && collect_keys &&
		    add_key(p.ks.name) == -1) {
			snprintf(c->error, sizeof(c->error), "too many keys");
			return -1;
		}
		if (h.type == MSG_KEY_STATUS)
			items++;
		if (h.type == MSG_END)
			break;
	}
	if (p.end.count != items) {
		snprintf(c->error, sizeof(c->error), "MSG_END counts %u keys, "
		    "%u came", p.end.count, items);
		return -1;
	}
	c->keys = items;
	return 0;
}

/*
 * One round of reading every key's file, as a client that asks the kernel
 * itself does: open, read to the end, close.  A file that cannot be opened
 * or read costs its attempt, as it does the daemon.
 */
static void
proc_round(void)
{
	char		buf[4096];
	unsigned	k;
	int		fd;

	for (k = 0; k < nkeys; k++) {
		if ((fd = open(key_paths[k], O_RDONLY | O_CLOEXEC)) == -1)
			continue;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
}

static void *
proc_client_run(void *arg)
{
	struct client	*c = arg;
	uint64_t	 t0;
	unsigned	 i, seed = (unsigned)c->id * 2654435761U;

	c->keys = nkeys;
	pthread_barrier_wait(&start_line);
	for (i = 0; i < nrequests; i++) {
		if (pause_us > 0)
			usleep((useconds_t)(rand_r(&seed) % (2 * pause_us)));
		t0 = now_ns();
		proc_round();
		c->lat[i] = now_ns() - t0;
	}
	return NULL;
}

static void *
client_run(void *arg)
{
	struct client	*c = arg;
	uint64_t	 t0;
	unsigned	 i, seed = (unsigned)c->id * 2654435761U;
	int		 fd;

	fd = connect_daemon();
	if (fd == -1)
		snprintf(c->error, sizeof(c->error), "connect %s: %s",
		    sock_path, strerror(errno));
	pthread_barrier_wait(&start_line);
	for (i = 0; fd != -1 && i < nrequests; i++) {
		if (pause_us > 0)
			usleep((useconds_t)(rand_r(&seed) % (2 * pause_us)));
		t0 = now_ns();
		if (reconnect && i > 0 && (close(fd), fd = connect_daemon())
		    == -1) {
			snprintf(c->error, sizeof(c->error), "connect: %s",
			    strerror(errno));
			break;
		}
		if (round_trip(c, fd, (uint32_t)c->id << 20 | i) == -1)
			break;
		c->lat[i] = now_ns() - t0;
	}
	if (fd != -1)
		close(fd);
	return NULL;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The p-th percentile of sorted v[n], nearest rank. */
static double
percentile_us(const uint64_t *v, size_t n, double p)
{
	size_t	rank = (size_t)(p / 100.0 * (double)n + 0.999999);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return (double)v[rank - 1] / 1000.0;
}

/* The process's CPU time so far, user and system, in microseconds. */
static double
cpu_used_us(void)
{
	struct rusage	ru;

	if (getrusage(RUSAGE_SELF, &ru) == -1)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static int
report(struct client *cl, unsigned nclients, uint64_t wall, double cpu_us,
    const char *out)
{
	size_t		 n = (size_t)nclients * nrequests, i;
	uint64_t	*all, sum = 0;
	FILE		*f = NULL;

	if ((all = malloc(n * sizeof(*all))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		all[i] = cl[i / nrequests].lat[i % nrequests];
		sum += all[i];
	}
	qsort(all, n, sizeof(*all), cmp_u64);
	printf("clients=%u requests=%zu p50_us=%.1f p90_us=%.1f p99_us=%.1f "
	    "max_us=%.1f mean_us=%.1f rps=%.0f keys=%u reconnect=%d pause_us=%u"
	    " client_cpu_us=%.1f%s\n",
	    nclients, n, percentile_us(all, n, 50), percentile_us(all, n, 90),
	    percentile_us(all, n, 99), (double)all[n - 1] / 1000.0,
	    (double)sum / (double)n / 1000.0,
	    (double)n / ((double)wall / 1e9), cl[0].keys, reconnect, pause_us,
	    cpu_us / (double)n, proc_mode ? " proc=1" : "");
	if (out != NULL && (f = fopen(out, "w")) == NULL) {
		fprintf(stderr, "statusbench: %s: %s\n", out, strerror(errno));
		free(all);
		return -1;
	}
	for (i = 0; f != NULL && i < n; i++)
		fprintf(f, "%.1f\n", (double)all[i] / 1000.0);
	if (f != NULL && fclose(f) == EOF)
		return -1;
	free(all);
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: statusbench [-C] [-o file] [-p pause_us] "
	    "-s socket -c clients -n requests\n"
	    "       statusbench -P [-k key]... [-r root] [-o file] "
	    "[-p pause_us] [-s socket]\n"
	    "           -c clients -n requests\n");
	exit(64);
}

static unsigned
number(const char *s, unsigned max)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || v < 1 || v > max)
		usage();
	return (unsigned)v;
}

/*
 * Start every client, wait for all; the wall time is from the barrier,
 * the CPU time from just before it (a connect still under way may fall
 * inside: one a client, against thousands of requests).
 */
static int
run_clients(struct client *cl, unsigned nclients, uint64_t *wall,
    double *cpu_us)
{
	uint64_t	t0;
	unsigned	i;
	int		failed = 0;

	if (pthread_barrier_init(&start_line, NULL, nclients + 1) != 0)
		return -1;
	for (i = 0; i < nclients; i++) {
		cl[i].id = (int)i;
		if ((cl[i].lat = calloc(nrequests, sizeof(uint64_t))) == NULL ||
		    pthread_create(&cl[i].thread, NULL, proc_mode ?
		    proc_client_run : client_run, &cl[i]))
			return -1;
	}
	*cpu_us = cpu_used_us();
	pthread_barrier_wait(&start_line);
	t0 = now_ns();
	for (i = 0; i < nclients; i++)
		pthread_join(cl[i].thread, NULL);
	*wall = now_ns() - t0;
	*cpu_us = cpu_used_us() - *cpu_us;
	for (i = 0; i < nclients; i++)
		if (cl[i].error[0] != '\0') {
			fprintf(stderr, "statusbench: client %u: %s\n", i,
			    cl[i].error);
			failed = 1;
		}
	return failed ? -1 : 0;
}

/* The keys of one status reply, when no -k named them. */
static int
fetch_keys(void)
{
	struct client	c;
	int		fd, rc;

	memset(&c, 0, sizeof(c));
	if ((fd = connect_daemon()) == -1) {
		fprintf(stderr, "statusbench: connect %s: %s\n", sock_path,
		    strerror(errno));
		return -1;
	}
	collect_keys = 1;
	rc = round_trip(&c, fd, 1);
	collect_keys = 0;
	close(fd);
	if (rc == -1)
		fprintf(stderr, "statusbench: %s\n", c.error);
	else if (nkeys == 0) {
		fprintf(stderr, "statusbench: the daemon reports no keys\n");
		rc = -1;
	}
	return rc;
}

/* ROOT/net/ipv4/tcp_rmem for net.ipv4.tcp_rmem; warns of unreadable ones. */
static int
key_files(void)
{
	unsigned	 k;
	size_t		 len;
	char		*p;

	for (k = 0; k < nkeys; k++) {
		len = strlen(sysctl_root) + strlen(key_names[k]) + 2;
		if ((key_paths[k] = malloc(len)) == NULL)
			return -1;
		snprintf(key_paths[k], len, "%s/%s", sysctl_root,
		    key_names[k]);
		for (p = key_paths[k] + strlen(sysctl_root) + 1; *p; p++)
			if (*p == '.')
				*p = '/';
		if (access(key_paths[k], R_OK) == -1)
			fprintf(stderr, "statusbench: %s: %s (tried every "
			    "round all the same)\n", key_paths[k],
			    strerror(errno));
	}
	return 0;
}

static int
proc_setup(void)
{
	if (nkeys == 0 && (sock_path == NULL || fetch_keys() == -1))
		return -1;
	return key_files();
}

int
main(int argc, char **argv)
{
	struct client	*cl;
	const char	*out = NULL;
	unsigned	 nclients = 0;
	uint64_t	 wall;
	double		 cpu_us;
	unsigned	 i;
	int		 ch, rc;

	while ((ch = getopt(argc, argv, "CPc:k:n:o:p:r:s:")) != -1) {
		switch (ch) {
		case 'C': reconnect = 1; break;
		case 'P': proc_mode = 1; break;
		case 'c': nclients = number(optarg, 1024); break;
		case 'k':
			if (add_key(optarg) == -1)
				usage();
			break;
		case 'n': nrequests = number(optarg, 1000000); break;
		case 'o': out = optarg; break;
		case 'p': pause_us = number(optarg, 10000000); break;
		case 'r': sysctl_root = optarg; break;
		case 's': sock_path = optarg; break;
		default: usage();
		}
	}
	/* -P needs a socket or keys; -k and -r mean nothing without -P. */
	if (optind != argc || nclients == 0 || nrequests == 0 ||
	    (!proc_mode && (sock_path == NULL || nkeys > 0)) ||
	    (proc_mode && ((sock_path == NULL && nkeys == 0) || reconnect)))
		usage();
	if (proc_mode && proc_setup() == -1)
		return 1;
	if ((cl = calloc(nclients, sizeof(*cl))) == NULL) {
		perror("statusbench");
		return 1;
	}
	rc = run_clients(cl, nclients, &wall, &cpu_us) == -1 ||
	    report(cl, nclients, wall, cpu_us, out) == -1 ? 1 : 0;
	for (i = 0; i < nclients; i++)
		free(cl[i].lat);
	free(cl);
	return rc;
}
