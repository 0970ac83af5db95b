/*
 * Just enough of <sys/event.h> to compile daemon/event_bsd.c on Linux
 * (tests/lint/bsd_compile.sh, -fsyntax-only; nothing links against it).
 * The layout of struct kevent follows the flavour being checked: macOS
 * (xnu bsd/sys/event.h) when __APPLE__ is defined, FreeBSD 12 and later
 * (sys/sys/event.h, 64-bit data and ext[4]) otherwise.  __FreeBSD__ is
 * not used to choose: GCC's own <stddef.h> would then want FreeBSD's.
 * The values are xnu's, which FreeBSD shares for every name used here.
 */
#ifndef TCPTUNE_SHIM_SYS_EVENT_H
#define TCPTUNE_SHIM_SYS_EVENT_H

#include <stdint.h>
#include <time.h>

#define EVFILT_READ		(-1)
#define EVFILT_WRITE		(-2)
#define EVFILT_VNODE		(-4)
#define EVFILT_SIGNAL		(-6)
#define EVFILT_TIMER		(-7)

#define EV_ADD			0x0001
#define EV_DELETE		0x0002
#define EV_ENABLE		0x0004
#define EV_DISABLE		0x0008
#define EV_ONESHOT		0x0010
#define EV_CLEAR		0x0020
#define EV_ERROR		0x4000
#define EV_EOF			0x8000

/* EVFILT_VNODE */
#define NOTE_DELETE		0x00000001
#define NOTE_WRITE		0x00000002
#define NOTE_EXTEND		0x00000004
#define NOTE_ATTRIB		0x00000008
#define NOTE_LINK		0x00000010
#define NOTE_RENAME		0x00000020
#define NOTE_REVOKE		0x00000040

/* EVFILT_TIMER: the data is milliseconds unless one of these says */
#define NOTE_SECONDS		0x00000001

#ifdef __APPLE__
#define NOTE_MACH_CONTINUOUS_TIME	0x00000080	/* xnu only */

/*
 * macOS declares this in <fcntl.h>; it is here so that the macOS flavour
 * compiles the O_EVTONLY branch of event_bsd.c.
 */
#ifndef O_EVTONLY
#define O_EVTONLY		0x00008000
#endif

struct kevent {
	uintptr_t	 ident;
	int16_t		 filter;
	uint16_t	 flags;
	uint32_t	 fflags;
	intptr_t	 data;
	void		*udata;
};

/* The timer's leeway is in ext[1] of a kevent64_s (xnu bsd/sys/event.h). */
#define NOTE_LEEWAY		0x00000010	/* xnu only */

struct kevent64_s {
	uint64_t	 ident;
	int16_t		 filter;
	uint16_t	 flags;
	uint32_t	 fflags;
	int64_t		 data;
	uint64_t	 udata;
	uint64_t	 ext[2];
};

#define EV_SET64(kevp, a, b, c, d, e, f, g, h) do {			\
	*(kevp) = (struct kevent64_s){					\
	    .ident = (a), .filter = (b), .flags = (c),			\
	    .fflags = (d), .data = (e), .udata = (f),			\
	    .ext = { (g), (h) }						\
	};								\
} while (0)

int	kevent64(int, const struct kevent64_s *, int, struct kevent64_s *,
	    int, unsigned int, const struct timespec *);
#else
struct kevent {
	uintptr_t	 ident;
	short		 filter;
	unsigned short	 flags;
	unsigned int	 fflags;
	int64_t		 data;
	void		*udata;
	uint64_t	 ext[4];
};
#endif

/* As FreeBSD writes it: a compound literal zeroes the rest. */
#define EV_SET(kevp, a, b, c, d, e, f) do {				\
	*(kevp) = (struct kevent){					\
	    .ident = (a), .filter = (b), .flags = (c),			\
	    .fflags = (d), .data = (e), .udata = (f)			\
	};								\
} while (0)

int	kqueue(void);
int	kevent(int, const struct kevent *, int, struct kevent *, int,
	    const struct timespec *);

#endif /* TCPTUNE_SHIM_SYS_EVENT_H */
