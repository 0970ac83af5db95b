/*
 * tcptunectl diagnose: the connections tcptuned sampled and what held
 * each back (daemon/flows/flows.c classifies), told in sentences or as JSON.
 * tcptunectl.c's run_diagnose asks the daemon; diagnose_words.c writes,
 * from a reply alone, so tests/unit/test_diagnose.c checks every
 * sentence.
 */
#ifndef TCPTUNECTL_DIAGNOSE_H
#define TCPTUNECTL_DIAGNOSE_H

#include <stdbool.h>
#include <stdio.h>

struct output;
struct reply;

/* diagnose_words.c */
void	 diagnose_sentence(const struct msg_flow *, char *, size_t);
void	 diagnose_cap_sentence(const struct msg_flow *, char *, size_t);
void	 diagnose_text(FILE *, const struct reply *);
void	 diagnose_json(FILE *, const struct reply *);
void	 diagnose_status_line(const struct msg_diag_summary *, char *, size_t);

#endif /* TCPTUNECTL_DIAGNOSE_H */
