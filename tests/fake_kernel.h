/*
 * A fake kernel for tests: an in-memory sysctl table with the xnu rules of
 * docs/DESIGN.md (maxsockbuf range from nmbclusters, send/recvspace capped
 * by maxsockbuf, all of it from macOS 14.4 and 8/9 before, autoXbufmax
 * unchecked) and fault injection per key.
 */
#ifndef TCPTUNE_FAKE_KERNEL_H
#define TCPTUNE_FAKE_KERNEL_H

#include <stdbool.h>

#include "tcptune.h"

/* The sysctl(8) format letters of a key, as oidfmt reports them. */
enum fake_type {
	FK_INT,		/* "I"  */
	FK_UINT,	/* "IU" */
	FK_LONG,	/* "L"  */
	FK_ULONG,	/* "LU" */
	FK_QUAD,	/* "Q"  */
	FK_STRING	/* "A" (sysctl.c prints "A" for strings) */
};

enum fake_rules {
	FK_RULES_NONE,
	FK_RULES_LINUX,		/* net.core.{r,w}mem_*'s least values */
	FK_RULES_XNU,		/* macOS 11-15, by its kern.osrelease */
	FK_RULES_FREEBSD
};

struct fake_kernel;

struct fake_kernel *fake_kernel_new(enum fake_rules);
void	 fake_kernel_free(struct fake_kernel *);
/* A stock machine of that kind, e.g. macOS with ram_gb of memory. */
void	 fake_kernel_stock_macos(struct fake_kernel *, unsigned ram_gb);
/* The same Mac on that Darwin release ("19.6.0": macOS 10.15). */
void	 fake_kernel_stock_macos_on(struct fake_kernel *, unsigned ram_gb,
	    const char *);
void	 fake_kernel_stock_freebsd(struct fake_kernel *);
/* A child network namespace of that Linux release ("6.11.0"). */
void	 fake_kernel_stock_linux(struct fake_kernel *, const char *);
/* The initial namespace: net.core.{r,w}mem_{max,default} writable. */
void	 fake_kernel_stock_linux_host(struct fake_kernel *);
int	 fake_kernel_add(struct fake_kernel *, const char *, enum fake_type,
	    const char *, bool);	/* name, type, value, writable */
/* What another program does: bypasses the rules. */
int	 fake_kernel_poke(struct fake_kernel *, const char *, const char *);
const char *fake_kernel_peek(struct fake_kernel *, const char *);
enum fake_type fake_kernel_type(struct fake_kernel *, const char *, bool *);

/* Faults: every get or set of name fails with err until cleared with 0. */
void	 fake_kernel_fail_get(struct fake_kernel *, const char *, int);
void	 fake_kernel_fail_set(struct fake_kernel *, const char *, int);
/* Transient faults: the next n gets or sets fail with err, then it clears. */
void	 fake_kernel_fail_get_n(struct fake_kernel *, const char *, int,
	    unsigned);
void	 fake_kernel_fail_set_n(struct fake_kernel *, const char *, int,
	    unsigned);
/* A set that "succeeds" but stores another value (a silent clamp). */
void	 fake_kernel_store_instead(struct fake_kernel *, const char *,
	    const char *);

/*
 * The largest buffer one socket gets under kern.ipc.maxsockbuf sb_max
 * (sbreserve): 8/9 of it on FreeBSD and macOS up to 14.3, all of it later.
 */
long long fake_kernel_sockbuf_max(struct fake_kernel *, long long);

/* Every successful set, in order: "name=value". */
size_t	 fake_kernel_nwrites(struct fake_kernel *);
const char *fake_kernel_write(struct fake_kernel *, size_t);
void	 fake_kernel_clear_writes(struct fake_kernel *);

/* The sysctl_backend over this kernel (the engine's view). */
struct sysctl_backend *fake_backend_new(struct fake_kernel *);

/* Raw access in the kernel's own terms, for the sysctl(3) shim. */
int	 fake_kernel_set_raw(struct fake_kernel *, const char *, const void *,
	    size_t);
int	 fake_kernel_get_raw(struct fake_kernel *, const char *, void *,
	    size_t *);
size_t	 fake_kernel_nkeys(struct fake_kernel *);
const char *fake_kernel_key(struct fake_kernel *, size_t);

#endif /* TCPTUNE_FAKE_KERNEL_H */
