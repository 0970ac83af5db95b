/*
 * A small streaming JSON writer for tcptunectl's --json output: members
 * are written as they come, indented two spaces per level.
 */
#ifndef TCPTUNECTL_JSON_H
#define TCPTUNECTL_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define JSON_DEPTH	8

struct json {
	FILE	*f;
	int	 depth;
	bool	 first[JSON_DEPTH];
};

void	 json_begin(struct json *, FILE *);
void	 json_quote(FILE *, const char *);
void	 json_open(struct json *, const char *, int);
void	 json_close(struct json *, int);
void	 json_str(struct json *, const char *, const char *);
void	 json_int(struct json *, const char *, long long);
void	 json_uint(struct json *, const char *, unsigned long long);
void	 json_num(struct json *, const char *, double);
void	 json_bool(struct json *, const char *, bool);
void	 json_null(struct json *, const char *);
void	 json_text(struct json *, const char *, const char *);	/* "": null */
void	 json_time(struct json *, const char *, long long);

#endif /* TCPTUNECTL_JSON_H */
