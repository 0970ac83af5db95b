/*
 * Windows's extended TCP statistics (ESTATS) of one connection into a
 * reading, and the receive ceiling an auto-tuning level sets: the rules
 * of flows_win.c, kept portable so tests/unit/test_flows.c checks them
 * on Linux with values in the documented structures' units.
 *
 * Sources (Microsoft, Win32 API, tcpestats.h):
 *   TCP_ESTATS_DATA_ROD_v0: DataBytesOut, DataBytesIn, bytes.
 *   TCP_ESTATS_PATH_ROD_v0: SmoothedRtt, milliseconds.
 *   TCP_ESTATS_SND_CONG_ROD_v0: the cumulative milliseconds in each
 *     sender state: SndLimTimeRwin ("Receiver Limited": the sender had
 *     filled the announced receive window), SndLimTimeCwnd ("Congestion
 *     Limited", retransmission timeouts included), SndLimTimeSnd
 *     ("Sender Limited": application data or other resources ran out);
 *     CurCwnd, bytes.
 *     https://learn.microsoft.com/en-us/windows/win32/api/tcpestats/ns-tcpestats-tcp_estats_snd_cong_rod_v0
 *   TCP_ESTATS_REC_ROD_v0: CurRwinSent, MaxRwinSent, the receive window
 *     this end announced, bytes.
 *   TCP_ESTATS_OBS_REC_ROD_v0: CurRwinRcvd, the far end's window, bytes.
 * Windows does not tell a full send buffer from a program that wrote no
 * more (both are "Sender Limited"), nor the connection's owner: so no
 * send-buffer verdict, and every connection is root's for diagnose.
 *
 * The auto-tuning level fixes the largest receive window (docs/DESIGN.md
 * §3 Windows, Microsoft's "Autotuning levels" table): 65535 shifted by
 * the level's window scale (lib/catalogue.c's levels), none, 2, 4, 8
 * or 14.
 */
#include "config.h"

#include <string.h>

#include "tcptuned.h"
#include "flows.h"

#define TCP_MAXWIN	65535u
#define NO_OWNER	UINT32_MAX	/* and FLOW_KNOWS_UID unset: nobody's */

/* The largest window a level word allows; 0 for another word. */
uint64_t
flows_estats_level_window(const char *word)
{
	const char *const	*levels = catalogue_win_levels();
	size_t			 i;
	int			 scale;

	for (i = 0; levels[i] != NULL; i++)
		if (strcmp(word, levels[i]) == 0) {
			scale = catalogue_win_level_scale(i);
			return (uint64_t)TCP_MAXWIN << (scale < 0 ? 0 : scale);
		}
	return 0;
}

/*
 * The receive ceiling is the level's window; a reading counts twice its
 * window as buffer (flows.c takes half a buffer as window), hence factor
 * 2.  No send ceiling: Windows auto-tunes the send buffer and has no key.
 */
void
flows_estats_limits(const char *level, struct flow_limits *lim)
{
	memset(lim, 0, sizeof(*lim));
	lim->rcv_auto.key = "tcp.autotuninglevel";
	lim->rcv_auto.bytes = flows_estats_level_window(level);
	lim->rcv_auto.factor = 2;
}

/*
 * Busy is the time the sender was held by the window or the congestion
 * control: "Sender Limited" time is the program's, so it counts as idle,
 * and the classifier's "busy less than half the time" names it.
 */
void
flows_estats_reading(const struct estats_record *e, struct flow_reading *r)
{
	memset(r, 0, sizeof(*r));
	r->id = e->id;
	tt_strlcpy(r->local, e->local, sizeof(r->local));
	tt_strlcpy(r->remote, e->remote, sizeof(r->remote));
	r->uid = NO_OWNER;
	r->known = FLOW_KNOWS_LIMITED | FLOW_KNOWS_CWND | FLOW_KNOWS_RECEIVED |
	    FLOW_KNOWS_PEER_WND;
	r->rtt_us = e->SmoothedRtt * 1000;
	r->bytes_acked = e->DataBytesOut;
	r->bytes_received = e->DataBytesIn;
	r->busy_us = ((uint64_t)e->SndLimTimeRwin + e->SndLimTimeCwnd) * 1000;
	r->rwnd_limited_us = (uint64_t)e->SndLimTimeRwin * 1000;
	r->cwnd_bytes = e->CurCwnd;
	r->peer_wnd = e->CurRwinRcvd;
	r->rcvbuf = (uint64_t)e->MaxRwinSent * 2;
}
