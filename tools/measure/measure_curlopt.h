/*
 * The protocols measure's transfers may use, set in the form the running
 * libcurl takes (measure_net.c), apart from measure.h so that
 * tests/unit/test_measure_net.c can hand in setters of its own.
 */
#ifndef TCPTUNE_MEASURE_CURLOPT_H
#define TCPTUNE_MEASURE_CURLOPT_H

#include <curl/curl.h>

/* curl_easy_setopt for one argument type (it is variadic). */
struct curl_setter {
	CURLcode	(*str)(void *, CURLoption, const char *);
	CURLcode	(*num)(void *, CURLoption, long);
};

#define MEASURE_PROTOS_STR	1	/* CURLOPT_*PROTOCOLS_STR took it */
#define MEASURE_PROTOS_BITS	2	/* the bitmask forms did */

/* http and https only, redirects too: which form held, or -1 none. */
int	measure_limit_protocols(void *, const struct curl_setter *);

#endif /* TCPTUNE_MEASURE_CURLOPT_H */
