/*
 * What tests/unit/test_measure_net.c reaches of measure_net.c, apart
 * from measure.h: the protocols measure's transfers may use, set in the
 * form the running libcurl takes (the test hands in setters of its own),
 * and the pure parts of an upload.
 */
#ifndef TCPTUNE_MEASURE_CURLOPT_H
#define TCPTUNE_MEASURE_CURLOPT_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* curl_easy_setopt for one argument type (it is variadic). */
struct curl_setter {
	CURLcode	(*str)(void *, CURLoption, const char *);
	CURLcode	(*num)(void *, CURLoption, long);
};

#define MEASURE_PROTOS_STR	1	/* CURLOPT_*PROTOCOLS_STR took it */
#define MEASURE_PROTOS_BITS	2	/* the bitmask forms did */

/* http and https only, redirects too: which form held, or -1 none. */
int	measure_limit_protocols(void *, const struct curl_setter *);

/*
 * An upload's clock (measure_net.c), pure so that the test can check
 * what its rates are made of.  Bytes written are not bytes carried: a
 * send buffer holds what the line has not taken yet, and a tuned one
 * holds more, so the bytes still unacknowledged at the first second are
 * not counted as carried then, and the end is the server's answer to
 * the whole body, not the last write into the buffer.
 */
struct mround;
struct upload_clock {
	double		first;		/* the first body byte written */
	double		at_1s;		/* the first write after 1 s; 0 none */
	uint64_t	written_1s;	/* bytes written before it ... */
	uint64_t	queued_1s;	/* ... of which unacknowledged then */
	double		answered;	/* the answer after the body; 0 none */
	double		done;		/* the transfer's end */
	uint64_t	bytes;		/* the whole body */
};
int	mnet_upload_rates(const struct upload_clock *, struct mround *);

/* The line for an upload the server answered with status >= 400. */
void	mnet_refused_text(char *, size_t, const char *, long, bool);

#endif /* TCPTUNE_MEASURE_CURLOPT_H */
