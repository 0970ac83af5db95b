/*
 * Runs files through a harness without libFuzzer: `replay_NAME FILE...`.
 * Built with the normal compiler (and the sanitizers under
 * --enable-sanitizers), so every input that once crashed stays fixed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "tcptune.h"

/* Larger than any harness looks at: a bigger file is a mistake. */
#define REPLAY_MAX	(TT_CONFIG_MAX_BYTES + 4096)

/* An exact copy of the input, so that reading past its end is caught. */
static void
run_exact(const char *buf, size_t len)
{
	uint8_t	*exact;

	if ((exact = malloc(len ? len : 1)) == NULL)
		abort();
	memcpy(exact, buf, len);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
}

static int
replay(const char *path)
{
	char	*buf;
	size_t	 len;
	int	 fd, rv;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if ((rv = read_file_bounded(fd, &buf, &len, REPLAY_MAX)) == -1)
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
	close(fd);
	if (rv == -1)
		return -1;
	run_exact(buf, len);
	free(buf);
	return 0;
}

int
main(int argc, char *argv[])
{
	int	i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 64;
	}
	for (i = 1; i < argc; i++)
		if (replay(argv[i]) == -1)
			rc = 1;
	return rc;
}
