/*
 * Which protocols measure's transfers may use, on whatever libcurl runs.
 * CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR came in libcurl
 * 7.85.0 and replace the bitmask forms CURLOPT_PROTOCOLS and
 * CURLOPT_REDIR_PROTOCOLS, deprecated then but still honoured (libcurl's
 * CURLOPT_PROTOCOLS_STR(3) and CURLOPT_PROTOCOLS(3) pages, "AVAILABILITY"
 * and "DEPRECATED").  macOS 11, 12 and 13 ship libcurl 7.64.1, 7.77.0 and
 * 7.84.0 (apple-oss-distributions/curl), which answer the _STR options
 * with CURLE_UNKNOWN_OPTION: a binary built against newer headers would
 * then run with no limit at all, redirects to file:// or ftp:// included.
 * So the choice is made at run time, by the answer: the _STR forms when
 * libcurl takes them, else the bitmasks; when neither holds, the transfer
 * does not start.  The setters come in as functions, so
 * tests/unit/test_measure_curlopt.c can play an old libcurl.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
/* Both forms are used on purpose: no deprecation warning for the old. */
#define CURL_DISABLE_DEPRECATION	1

#include <curl/curl.h>

#include "measure_curlopt.h"

#define PROTOS		"http,https"
#define PROTO_BITS	((long)(CURLPROTO_HTTP | CURLPROTO_HTTPS))

int
measure_limit_protocols(void *h, const struct curl_setter *s)
{
#if LIBCURL_VERSION_NUM >= 0x075500	/* the headers know the _STR forms */
	if (s->str(h, CURLOPT_PROTOCOLS_STR, PROTOS) == CURLE_OK &&
	    s->str(h, CURLOPT_REDIR_PROTOCOLS_STR, PROTOS) == CURLE_OK)
		return MEASURE_PROTOS_STR;
#endif
	if (s->num(h, CURLOPT_PROTOCOLS, PROTO_BITS) == CURLE_OK &&
	    s->num(h, CURLOPT_REDIR_PROTOCOLS, PROTO_BITS) == CURLE_OK)
		return MEASURE_PROTOS_BITS;
	return -1;
}
