/*
 * driftbench: how long tcptuned takes to revert an outside write.
 *
 *   driftbench [-o FILE] [-s SEED] -n SAMPLES -t TIMEOUT_MS KEYFILE
 *
 * KEYFILE has one key a line: "PATH<TAB>WANTED<TAB>DRIFT", where PATH is a
 * sysctl file under /proc/sys/net/ (in a private network namespace: the
 * caller checks that) or any file outside /proc (a sysctl root directory,
 * tcptuned -r).  Sample i takes key i mod K, waits a random time of up to
 * a second plus 50 ms (a random phase against the daemon's check timer),
 * writes DRIFT, and polls every millisecond until the file shows WANTED
 * again.  Keys are taken in turn so that none is corrected often enough to
 * become "contested" (3 corrections within 5 minutes), which would slow
 * its corrections on purpose.
 *
 * Prints "samples=N p50_ms= p95_ms= max_ms= min_ms= timeouts=" and with -o
 * every latency in milliseconds, one a line.  Exit 1 on a timeout or an
 * I/O error, 64 on a usage error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_KEYS	256
#define VAL_MAX		1100	/* a whole KEYFILE line fits */

struct key {
	char	path[VAL_MAX];
	char	wanted[VAL_MAX];
	char	drift[VAL_MAX];
};

static double
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void
sleep_ms(double ms)
{
	struct timespec	ts;

	ts.tv_sec = (time_t)(ms / 1e3);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1e3) * 1e6);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Fold runs of blanks to one space and drop them at both ends. */
static void
fold(char *s)
{
	char	*r = s, *w = s;

	while (*r != '\0') {
		if (*r == ' ' || *r == '\t' || *r == '\n') {
			while (*r == ' ' || *r == '\t' || *r == '\n')
				r++;
			if (w != s && *r != '\0')
				*w++ = ' ';
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

static int
read_value(const char *path, char *buf, size_t len)
{
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	fold(buf);
	return 0;
}

static int
write_value(const char *path, const char *v)
{
	size_t	len = strlen(v);
	int	fd, rv;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	rv = write(fd, v, len) == (ssize_t)len ? 0 : -1;
	if (close(fd) == -1)
		rv = -1;
	return rv;
}

/* Only the namespace's own net keys, or files outside /proc. */
static int
allowed_path(const char *p)
{
	if (strncmp(p, "/proc/", 6) != 0)
		return strstr(p, "/proc/") == NULL;
	return strncmp(p, "/proc/sys/net/ipv4/", 19) == 0 ||
	    strncmp(p, "/proc/sys/net/ipv6/", 19) == 0;
}

static int
load_keys(const char *file, struct key *k, size_t *n)
{
	char	line[VAL_MAX], *a, *b;
	FILE	*f;

	if ((f = fopen(file, "r")) == NULL)
		return -1;
	for (*n = 0; *n < MAX_KEYS && fgets(line, sizeof(line), f) != NULL;) {
		line[strcspn(line, "\n")] = '\0';
		if ((a = strchr(line, '\t')) == NULL ||
		    (b = strchr(a + 1, '\t')) == NULL)
			continue;
		*a++ = '\0';
		*b++ = '\0';
		if (!allowed_path(line)) {
			fprintf(stderr, "driftbench: refusing %s\n", line);
			fclose(f);
			return -1;
		}
		snprintf(k[*n].path, sizeof(k[*n].path), "%s", line);
		snprintf(k[*n].wanted, sizeof(k[*n].wanted), "%s", a);
		snprintf(k[*n].drift, sizeof(k[*n].drift), "%s", b);
		fold(k[*n].wanted);
		(*n)++;
	}
	fclose(f);
	return *n > 0 ? 0 : -1;
}

/* One sample: the revert latency in ms, -1 on timeout, -2 on error. */
static double
sample(const struct key *k, double timeout_ms)
{
	char	cur[VAL_MAX];
	double	t0, t;

	sleep_ms(50.0 + (double)(random() % 1000));
	if (read_value(k->path, cur, sizeof(cur)) == -1 ||
	    strcmp(cur, k->wanted) != 0) {
		fprintf(stderr, "driftbench: %s is '%s', not '%s', before "
		    "the write\n", k->path, cur, k->wanted);
		return -2;
	}
	t0 = now_ms();
	if (write_value(k->path, k->drift) == -1) {
		fprintf(stderr, "driftbench: write %s: %s\n", k->path,
		    strerror(errno));
		return -2;
	}
	for (;;) {
		t = now_ms();
		if (read_value(k->path, cur, sizeof(cur)) == 0 &&
		    strcmp(cur, k->wanted) == 0)
			return t - t0;
		if (t - t0 > timeout_ms)
			return -1;
		sleep_ms(1.0);
	}
}

static int
cmp_d(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
pct(const double *v, size_t n, double p)
{
	size_t	rank = (size_t)(p / 100.0 * (double)n + 0.999999);

	return v[(rank < 1 ? 1 : rank > n ? n : rank) - 1];
}

static size_t	timeouts;

static int
run(const struct key *k, size_t nk, double *lat, size_t n, double tmo)
{
	size_t	i, got = 0;
	double	v;

	for (i = 0; i < n; i++) {
		v = sample(&k[i % nk], tmo);
		if (v == -2)
			return -1;
		if (v < 0)
			timeouts++;
		else
			lat[got++] = v;
	}
	if (got == 0) {
		fprintf(stderr, "driftbench: no write was reverted\n");
		return -1;
	}
	qsort(lat, got, sizeof(*lat), cmp_d);
	printf("samples=%zu p50_ms=%.1f p95_ms=%.1f max_ms=%.1f min_ms=%.1f "
	    "timeouts=%zu keys=%zu\n", got, pct(lat, got, 50),
	    pct(lat, got, 95), lat[got - 1], lat[0], timeouts, nk);
	return (int)got;
}

int
main(int argc, char **argv)
{
	static struct key	 keys[MAX_KEYS];
	double			*lat, tmo = 0;
	const char		*out = NULL;
	size_t			 nk, n = 0, i;
	int			 ch, got;
	FILE			*f;

	srandom((unsigned)time(NULL) ^ (unsigned)getpid());
	while ((ch = getopt(argc, argv, "n:o:s:t:")) != -1) {
		switch (ch) {
		case 'n': n = strtoul(optarg, NULL, 10); break;
		case 'o': out = optarg; break;
		case 's': srandom((unsigned)strtoul(optarg, NULL, 10)); break;
		case 't': tmo = strtod(optarg, NULL); break;
		default: n = 0; break;
		}
	}
	if (n == 0 || n > 100000 || tmo <= 0 || optind != argc - 1) {
		fprintf(stderr, "usage: driftbench [-o file] [-s seed] "
		    "-n samples -t timeout_ms keyfile\n");
		return 64;
	}
	if (load_keys(argv[optind], keys, &nk) == -1) {
		fprintf(stderr, "driftbench: no usable keys in %s\n",
		    argv[optind]);
		return 1;
	}
	if ((lat = calloc(n, sizeof(*lat))) == NULL)
		return 1;
	got = run(keys, nk, lat, n, tmo);
	if (got > 0 && out != NULL && (f = fopen(out, "w")) != NULL) {
		for (i = 0; i < (size_t)got; i++)
			fprintf(f, "%.2f\n", lat[i]);
		fclose(f);
	}
	free(lat);
	return got > 0 && timeouts == 0 ? 0 : 1;
}
