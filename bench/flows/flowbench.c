/*
 * flowbench [SOCKETS] [PASSES]: the cost of one diagnose sampling pass
 * (daemon/flows/flows_linux.c's sock_diag dump into flows.c's history) with
 * SOCKETS TCP sockets open (10000 by default: half connected clients,
 * half the accepted ends, over loopback), FLOWS_MAX + 44 of them having
 * moved 128 KiB so that the history is full and evicting.  Prints the
 * median and the slowest of PASSES passes (20) in one line.  Run it in a
 * private network namespace with lo up (bench/flows/run.sh): it opens
 * its sockets there and writes no sysctl.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tcptuned.h"
#include "flows.h"

#define MOVERS		(FLOWS_MAX + 44)
#define MOVED		(128 * 1024)

static struct flow_history	hist;
static struct flow_limits	lim;
static uint64_t			now_ms, readings;

static double
clock_sec(clockid_t id)
{
	struct timespec	ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
listener(struct sockaddr_in *sa)
{
	socklen_t	len = sizeof(*sa);
	int		fd;

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)sa, sizeof(*sa)) == -1 ||
	    listen(fd, 4096) == -1 ||
	    getsockname(fd, (struct sockaddr *)sa, &len) == -1) {
		perror("flowbench: listener");
		exit(1);
	}
	return fd;
}

/* Read exactly n bytes. */
static int
drain(int fd, char *buf, ssize_t n)
{
	ssize_t	got;

	for (; n > 0; n -= got)
		if ((got = read(fd, buf, (size_t)n)) <= 0)
			return -1;
	return 0;
}

/* One connection: both ends stay open; the first MOVERS move data. */
static void
connect_one(int lfd, const struct sockaddr_in *sa, int i)
{
	static char	buf[MOVED];
	int		c, a;
	ssize_t		n;
	size_t		left;

	if ((c = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    connect(c, (const struct sockaddr *)sa, sizeof(*sa)) == -1 ||
	    (a = accept(lfd, NULL, NULL)) == -1) {
		fprintf(stderr, "flowbench: connection %d: %s\n", i,
		    strerror(errno));
		exit(1);
	}
	if (i >= MOVERS)
		return;
	for (left = MOVED; left > 0; left -= (size_t)n)
		if ((n = write(c, buf, left)) <= 0 || drain(a, buf, n) == -1) {
			perror("flowbench: moving data");
			exit(1);
		}
}

static void
take(void *arg, const struct flow_reading *r)
{
	(void)arg;
	readings++;
	flows_take(&hist, r, &lim, now_ms);
}

static int
cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Wall-clock ms of one pass; *cpu its CPU ms, the kernel's dump included. */
static double
one_pass(double *cpu)
{
	char	why[TT_TEXT_MAX];
	double	t0 = clock_sec(CLOCK_MONOTONIC);
	double	c0 = clock_sec(CLOCK_PROCESS_CPUTIME_ID);

	now_ms += 1000;
	flows_begin_pass(&hist, now_ms);
	if (flows_os.sample(take, NULL, why, sizeof(why)) == -1) {
		fprintf(stderr, "flowbench: %s\n", why);
		exit(1);
	}
	flows_end_pass(&hist, now_ms);
	*cpu = (clock_sec(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1000;
	return (clock_sec(CLOCK_MONOTONIC) - t0) * 1000;
}

int
main(int argc, char *argv[])
{
	struct sockaddr_in	 sa;
	struct rlimit		 rl;
	int			 sockets = argc > 1 ? atoi(argv[1]) : 10000;
	int			 passes = argc > 2 ? atoi(argv[2]) : 20, i, lfd;
	double			*ms, *cpu;

	if (sockets < 2 || passes < 1 || (ms = calloc((size_t)passes,
	    sizeof(*ms))) == NULL || (cpu = calloc((size_t)passes,
	    sizeof(*cpu))) == NULL) {
		fprintf(stderr, "usage: flowbench [SOCKETS] [PASSES]\n");
		return 64;
	}
	rl.rlim_cur = rl.rlim_max = (rlim_t)sockets + 64;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
		perror("flowbench: RLIMIT_NOFILE");
		return 1;
	}
	flows_init(&hist);
	lfd = listener(&sa);
	for (i = 0; i < sockets / 2; i++)
		connect_one(lfd, &sa, i);
	for (i = 0; i < passes; i++)
		ms[i] = one_pass(&cpu[i]);
	qsort(ms, (size_t)passes, sizeof(*ms), cmp);
	qsort(cpu, (size_t)passes, sizeof(*cpu), cmp);
	printf("flows: %d sockets (%llu readings a pass), sampling pass "
	    "median %.1f ms wall / %.1f ms CPU, slowest %.1f ms wall / %.1f "
	    "ms CPU, over %d passes; history %zu entries of %zu bytes\n",
	    sockets, (unsigned long long)(readings / (uint64_t)passes),
	    ms[passes / 2], cpu[passes / 2], ms[passes - 1],
	    cpu[passes - 1], passes, (size_t)FLOWS_MAX, sizeof(struct flow));
	free(ms);
	free(cpu);
	return 0;
}
