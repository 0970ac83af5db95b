/*
 * Just enough of <sys/sysctl.h> to build lib/backend_bsd.c on Linux, where
 * tests/shim/sysctl_shim.c answers sysctl(3) from the fake kernel.  The
 * constants are xnu's (bsd/sys/sysctl.h), which FreeBSD shares for the
 * ones used here.
 */
#ifndef TCPTUNE_SHIM_SYS_SYSCTL_H
#define TCPTUNE_SHIM_SYS_SYSCTL_H

#include <stddef.h>
#include <sys/types.h>

#define CTL_MAXNAME	12	/* xnu; FreeBSD has 24 */

#define CTLTYPE		0xf	/* mask of the type in a kind */
#define CTLTYPE_NODE	1
#define CTLTYPE_INT	2	/* xnu: also SYSCTL_LONG ("L") */
#define CTLTYPE_STRING	3
#define CTLTYPE_QUAD	4
#define CTLTYPE_OPAQUE	5
#define CTLTYPE_STRUCT	CTLTYPE_OPAQUE

#define CTLFLAG_RD	0x80000000U
#define CTLFLAG_WR	0x40000000U
#define CTLFLAG_RW	(CTLFLAG_RD | CTLFLAG_WR)
#define CTLFLAG_LOCKED	0x00800000U	/* xnu only */

/*
 * The running program's path (lib/self_freebsd.c): FreeBSD's values, from
 * its <sys/sysctl.h> as Go's src/os/executable_freebsd.go copies them;
 * xnu has no KERN_PROC_PATHNAME.
 */
#define CTL_KERN		1
#define KERN_PROC		14
#define KERN_PROC_PATHNAME	12

/*
 * Renamed, so that a test binary built on a BSD never takes libc's own
 * calls to sysctl(3) (ELF interposition) or clashes with its symbols.
 * macOS signatures: the new value is not const there.
 */
#define sysctl		shim_sysctl
#define sysctlbyname	shim_sysctlbyname
int	shim_sysctl(int *, unsigned int, void *, size_t *, void *, size_t);
int	shim_sysctlbyname(const char *, void *, size_t *, void *, size_t);

/* The kernel the shim answers from; tests set it. */
struct fake_kernel;
extern struct fake_kernel *shim_kernel;

#endif /* TCPTUNE_SHIM_SYS_SYSCTL_H */
