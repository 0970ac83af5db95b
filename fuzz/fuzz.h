/*
 * The libFuzzer entry point of each harness, and the checks they make.
 * Every harness also links with replay.c into a plain program that runs
 * saved inputs (the seed corpus and fuzz/regress/) in `make check`.
 */
#ifndef TCPTUNE_FUZZ_H
#define TCPTUNE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * A broken invariant is a crash: libFuzzer saves the input, and the replay
 * program fails.  Plain abort() so it works with and without sanitizers.
 */
#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant broken: %s\n",\
			    __FILE__, __LINE__, #cond);			\
			abort();					\
		}							\
	} while (0)

#endif /* TCPTUNE_FUZZ_H */
