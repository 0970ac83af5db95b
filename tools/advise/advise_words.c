/*
 * tcptunectl advise, in words: why each row matters, the notes under the
 * verdict, and the verdict itself, made from the identifiers and numbers
 * the model returns (advise_model.c says nothing in English).  The text,
 * JSON and plist outputs all take their sentences from here, so they say
 * the same; the identifiers' names go into the JSON beside the sentences
 * ("why_id", "note_ids") for scripts that want data rather than prose.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

#define KIB		1024LL
#define MIB		(1024LL * KIB)
#define GIB		(1024LL * MIB)

/* ---- why each row */

static const struct {
	const char	*name;
	const char	*text;
} whys[WHY_COUNT] = {
	[WHY_LINUX_RMEM] = { "linux-rmem-ceiling",
	    "the receive buffer autotuning may grow to; the window is a "
	    "share of it, 1/2 to 2/3" },
	[WHY_LINUX_WMEM] = { "linux-wmem-ceiling",
	    "the send buffer autotuning may grow to; it holds a round trip "
	    "of unacknowledged data, counted with its overhead" },
	[WHY_LINUX_RMEM_MAX] = { "linux-rmem-max-sockopt",
	    "bounds programs that set SO_RCVBUF themselves, not autotuning; "
	    "kept at tcp_rmem's maximum" },
	[WHY_LINUX_WMEM_MAX] = { "linux-wmem-max-sockopt",
	    "bounds programs that set SO_SNDBUF themselves, not autotuning; "
	    "kept at tcp_wmem's maximum" },
	[WHY_LINUX_MODERATE_OFF] = { "linux-receive-autotuning-off",
	    "receive autotuning is off: every socket keeps tcp_rmem[1] as "
	    "its buffer" },
	[WHY_BSD_AUTORCV] = { "bsd-receive-autotuning-ceiling",
	    "how far receive autotuning grows a buffer (the window)" },
	[WHY_BSD_AUTOSND] = { "bsd-send-autotuning-ceiling",
	    "how far send autotuning grows a buffer" },
	[WHY_BSD_AUTORCV_OFF] = { "bsd-receive-autotuning-off",
	    "receive autotuning is off: sockets keep recvspace" },
	[WHY_XNU_MAXSOCKBUF] = { "macos-maxsockbuf", NULL },	/* a number */
	[WHY_XNU_NMBCLUSTERS] = { "macos-nmbclusters",
	    "the mbuf cluster pool, set from memory at boot; it sets the most "
	    "kern.ipc.maxsockbuf takes" },
	[WHY_XNU_RECVSPACE] = { "macos-recvspace",
	    "a new socket's first receive buffer, not a ceiling" },
	[WHY_XNU_SENDSPACE] = { "macos-sendspace",
	    "a new socket's first send buffer, not a ceiling" },
	[WHY_FREEBSD_MAXSOCKBUF] = { "freebsd-maxsockbuf",
	    "at least 9/8 of the largest buffer: only 8/9 of it can be "
	    "reserved (sb_max_adj)" },
	[WHY_WIN_AUTOTUNING] = { "windows-autotuning-level", NULL },
	[WHY_WIN_RSS] = { "windows-receive-side-scaling",
	    "Receive-Side Scaling spreads the receive processing of many "
	    "connections over the processors (one connection stays on one); "
	    "Microsoft's tuning guide advises offloads on" },
	[WHY_WIN_RSC] = { "windows-receive-segment-coalescing",
	    "Receive Segment Coalescing hands TCP fewer, larger segments; "
	    "read only here, not a tcptune.conf key" },
	[WHY_WIN_TIMESTAMPS] = { "windows-timestamps",
	    "RFC 1323 timestamps (RFC 7323); off by default on Windows, "
	    "window scaling works without them; read only here" },
};

const char *
adv_why_name(enum adv_why w)
{
	return w < WHY_COUNT && whys[w].name != NULL ? whys[w].name : "?";
}

void
adv_why_text(const struct adv_result *r, const struct adv_key *k, char *buf,
    size_t len)
{
	char	high[32];

	if (k->why == WHY_WIN_AUTOTUNING) {
		adv_fmt_bytes((double)adv_win_level_window(r->win_rec), high,
		    sizeof(high));
		snprintf(buf, len, "the receive window auto-tuning level: it "
		    "fixes the window scale offered, so the largest window; "
		    "%s allows %s", adv_win_level_name(r->win_rec), high);
	} else if (k->why == WHY_XNU_MAXSOCKBUF) {
		adv_fmt_bytes((double)r->sb_cap, high, sizeof(high));
		snprintf(buf, len, "every socket buffer's ceiling; a buffer may "
		    "use %s of it; at most %s on %s", r->sb_whole ? "all" :
		    "8/9", high, r->live ? "this Mac" : "the Mac modelled");
	} else if (k->why < WHY_COUNT && whys[k->why].text != NULL)
		snprintf(buf, len, "%s", whys[k->why].text);
	else
		snprintf(buf, len, "?");
}

/* ---- the notes */

static const char *const note_names[NOTE_COUNT] = {
	[NOTE_LINUX_RCV_SCALED] = "linux-receive-window-scaling-ratio",
	[NOTE_LINUX_RCV_ADV_WIN] = "linux-receive-window-adv-win-scale",
	[NOTE_LINUX_SND] = "linux-send-buffer-twice-cwnd",	/* a JSON name: kept */
	[NOTE_LINUX_NAMESPACE] = "linux-namespace-and-global-keys",
	[NOTE_XNU_NCL_DERIVED] = "macos-nmbclusters-from-memory",
	[NOTE_XNU_CEILING] = "macos-maxsockbuf-ceiling",
	[NOTE_XNU_HEADROOM] = "macos-buffer-headroom",
	[NOTE_XNU_WHOLE] = "macos-buffer-whole",
	[NOTE_XNU_SHIPPED] = "macos-differences-from-shipped-config",
	[NOTE_FREEBSD_HEADROOM] = "freebsd-buffer-headroom",
	[NOTE_FREEBSD_VNET] = "freebsd-vnet-and-global-keys",
	[NOTE_WIN_LEVELS] = "windows-autotuning-ceilings",
	[NOTE_WIN_REDUCED] = "windows-autotuning-reduced",
	[NOTE_WIN_EXPERIMENTAL] = "windows-experimental-warning",
	[NOTE_WIN_SEND] = "windows-no-send-ceiling",
	[NOTE_WIN_RSS_OFF] = "windows-rss-off",
	[NOTE_WIN_RSC_OFF] = "windows-rsc-off",
	[NOTE_WIN_TIMESTAMPS_OFF] = "windows-timestamps-off",
	[NOTE_WIN_HEURISTICS_ON] = "windows-scaling-heuristics-on",
	[NOTE_WIN_QOS_POLICY] = "windows-qos-autotuning-policy",
	[NOTE_CEILINGS] = "ceilings-not-allocations",
	[NOTE_NEW_CONNECTIONS] = "new-connections-only",
	[NOTE_UNREAD] = "values-not-read",
	[NOTE_ASSUMED_LIVE] = "values-assumed",
	[NOTE_ASSUMED_MODEL] = "values-stock-defaults",
	[NOTE_NONE_READ] = "nothing-read",
};

/* The notes that need no number: their sentence as it is. */
static const char *const note_plain[NOTE_COUNT] = {
	[NOTE_LINUX_NAMESPACE] = "net.ipv4.tcp_rmem and tcp_wmem belong to "
	    "a network namespace (a container has its own copy); "
	    "net.core.rmem_max and wmem_max are global, can be changed only "
	    "from the host, and bound only programs that set SO_RCVBUF or "
	    "SO_SNDBUF themselves (iperf3 -w, for one).",
	[NOTE_XNU_HEADROOM] = "Up to macOS 14.3 a socket buffer may use at "
	    "most 8/9 of kern.ipc.maxsockbuf (the rest pays for the mbufs "
	    "that hold the data), so maxsockbuf must be at least 9/8 of the "
	    "buffer wanted. autorcvbufmax and autosndbufmax are taken "
	    "whatever their value, and each socket is held to the smaller of "
	    "them and that 8/9.",
	[NOTE_FREEBSD_HEADROOM] = "A buffer above 8/9 of kern.ipc.maxsockbuf "
	    "cannot be reserved, and receive autotuning that reaches that "
	    "point stops for good on the socket: hence maxsockbuf at least "
	    "9/8 (1.125 x) of the largest buffer.",
	[NOTE_FREEBSD_VNET] = "net.inet.tcp.recvbuf_max and sendbuf_max "
	    "belong to a jail's own network stack (VNET); kern.ipc.maxsockbuf "
	    "is global.",
	[NOTE_WIN_SEND] = "Sending: tcptune holds no send-side ceiling on "
	    "Windows, so sending is shown at the window the path needs; what "
	    "a download can carry is set by the receiving machine's window.",
	/*
	 * RSS spreads connections, not one stream: "processing for a given
	 * connection can be bound to a given CPU" (Microsoft Learn, Windows
	 * drivers, "RSS with a single hardware receive queue").
	 */
	[NOTE_WIN_RSS_OFF] = "Receive-Side Scaling is off: the receive "
	    "processing of every connection is on one processor. RSS spreads "
	    "many connections over the processors; one stream is still "
	    "handled by one processor, so RSS does not speed up a single "
	    "transfer. Microsoft's tuning guide: "
	    "\"Turning on network adapter offload features is usually "
	    "beneficial\" (netsh interface tcp set global rss=enabled; "
	    "offload.rss enabled in tcptune.conf).",
	[NOTE_WIN_RSC_OFF] = "Receive Segment Coalescing is off (on by "
	    "default): more, smaller segments reach TCP, which costs "
	    "processor time at high rates. tcptune does not manage it; "
	    "Set-NetOffloadGlobalSetting -ReceiveSegmentCoalescing Enabled "
	    "turns it back on.",
	[NOTE_WIN_HEURISTICS_ON] = "Windows Scaling heuristics are enabled: "
	    "Windows may lower the auto-tuning level on its own, whatever is "
	    "set (netsh then says the level \"is the result of Windows "
	    "Scaling heuristics overriding any local/policy configuration\"). "
	    "netsh interface tcp set heuristics disabled turns them off; "
	    "tcptune does not manage them.",
	[NOTE_CEILINGS] = "These are ceilings, not allocations: autotuning "
	    "grows a socket's buffers only as far as its connection needs.",
	[NOTE_NEW_CONNECTIONS] = "Only connections opened after a change get "
	    "it: the window scale is fixed at the handshake.",
};

const char *
adv_note_name(enum adv_note_id id)
{
	return id < NOTE_COUNT && note_names[id] != NULL ? note_names[id] :
	    "?";
}

/* "less than 4 GB", "4 to 8 GB", "32 GB or more"; "" if no stock pool. */
static void
ram_class(const struct adv_result *r, char *buf, size_t len)
{
	if (r->pool_min_gb < 0)
		snprintf(buf, len, "%s", "");
	else if (r->pool_min_gb == 0)
		snprintf(buf, len, "less than %d GB", r->pool_max_gb);
	else if (r->pool_max_gb == 0)
		snprintf(buf, len, "%d GB or more", r->pool_min_gb);
	else
		snprintf(buf, len, "%d to %d GB", r->pool_min_gb,
		    r->pool_max_gb);
}

/*
 * "a, b (Permission denied)": what could not be read live, each reason
 * once (on a Windows without the CIM classes every key has the same).
 */
static void
unread_text(const struct adv_input *in, char *buf, size_t len)
{
	char		 list[ADV_NOTE_MAX], why[ADV_NOTE_MAX];
	const char	*w;
	size_t		 i, n = 0;

	list[0] = why[0] = '\0';
	for (i = 0; i < in->nvalues; i++) {
		if (in->values[i].err == 0)
			continue;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%s", n++ ? ", " : "", in->values[i].name);
		w = in->values[i].why[0] ? in->values[i].why :
		    strerror(in->values[i].err);
		if (strstr(why, w) == NULL)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
			    "%s%s", why[0] ? "; " : "", w);
	}
	snprintf(buf, len, "Could not read %s here (%s); the stock default%s "
	    "assumed.", list, why, n > 1 ? "s are" : " is");
}

static void
linux_rcv_text(const struct adv_result *r, const struct adv_note *n,
    char *buf, size_t len)
{
	if (n->id == NOTE_LINUX_RCV_SCALED)
		snprintf(buf, len, "The receive window is about tcp_rmem[2] x "
		    "scaling_ratio / 256 (Linux 6.6 and later), scaling_ratio "
		    "measured on each connection from how much memory its "
		    "packets take: it starts at 1/2 (about 1/4 before a 2024 "
		    "fix), then follows the NIC; %.0f/256 was measured on a "
		    "1500-byte path and is used for the rates. A raised "
		    "tcp_rmem[2] is sized at the starting 1/2, about 2 x the "
		    "bandwidth-delay product.%s", r->rcv_ratio * 256,
		    n->arg[0] ? "" :
		    " (Kernel version unknown: 6.6 or later assumed.)");
	else
		snprintf(buf, len, "Before Linux 6.6 the receive window is "
		    "tcp_rmem[2] less 1/2^tcp_adv_win_scale of it "
		    "(tcp_adv_win_scale %lld: %.0f%% is window), so "
		    "tcp_rmem[2] should be the bandwidth-delay product "
		    "divided by that.", n->arg[0], r->rcv_ratio * 100);
}

static void
linux_snd_text(const struct adv_result *r, char *buf, size_t len)
{
	snprintf(buf, len, "Sending: autotuning grows a send buffer to 2 (3 "
	    "under BBR) x the congestion window in segments x the worst-case "
	    "memory of one segment, about 3 to 5 x the window, so tcp_wmem[2] "
	    "is what binds. A buffer held there keeps %.2f of it in flight "
	    "on average (the writer is woken when a third is free), so one of "
	    "at least the bandwidth-delay product / %.2f is kept, and a "
	    "raised one is sized at 2 x the bandwidth-delay product.",
	    r->snd_ratio, r->snd_ratio);
}

static void
xnu_ceiling_text(const struct adv_result *r, char *buf, size_t len)
{
	char	high[32], ram[32];

	adv_fmt_bytes((double)r->sb_cap, high, sizeof(high));
	ram_class(r, ram, sizeof(ram));
	snprintf(buf, len, "kern.ipc.maxsockbuf takes at most %s here: 1/16 "
	    "of the mbuf cluster pool (kern.ipc.nmbclusters %lld), which "
	    "macOS 11 and later size from memory%s%s%s: 8 MiB from 8 GB, "
	    "16 MiB from 16 GB, 32 MiB from 32 GB.", high, r->ncl,
	    ram[0] ? " (this pool: a Mac with " : "", ram, ram[0] ? ")" : "");
}

/* "1 MiB": the largest window of a level (a note's number), in buf. */
static const char *
win_ceiling(long long level, char *buf, size_t len)
{
	adv_fmt_bytes((double)adv_win_level_window((int)level), buf, len);
	return buf;
}

/* The levels' ceilings, and where this path falls among them. */
static void
win_levels_text(const struct adv_result *r, const struct adv_note *n,
    char *buf, size_t len)
{
	char	table[200] = "", least[160], c[32];
	int	i;

	for (i = 0; i < adv_win_levels(); i++)
		snprintf(table + strlen(table), sizeof(table) - strlen(table),
		    "%s%s %s", i ? ", " : "", adv_win_level_name(i),
		    win_ceiling(i, c, sizeof(c)));
	if (n->arg[1] >= 0 && n->arg[1] <= n->arg[2])
		snprintf(least, sizeof(least), "%s is the least level that "
		    "holds the %lld bytes this path needs",
		    adv_win_level_name((int)n->arg[1]), r->window);
	else if (n->arg[1] >= 0)
		snprintf(least, sizeof(least), "Only %s holds the %lld bytes "
		    "this path needs", adv_win_level_name((int)n->arg[1]),
		    r->window);
	else
		snprintf(least, sizeof(least), "no level holds the %lld bytes "
		    "this path needs", r->window);
	snprintf(buf, len, "The auto-tuning level fixes the window scale "
	    "offered at the handshake, so the largest receive window: %s "
	    "(Microsoft's table of autotuning levels: no scale, then scale "
	    "factors 2, 4, 8 and 14). %s.", table, least);
}

/*
 * tcptune's shipped macOS config (etc/tcptune.conf.darwin), the values
 * the README gives: what advise says differs, each with its reason.
 */
static const struct {
	const char	*name;
	long long	 value;
} shipped_darwin[] = {
	{ "kern.ipc.maxsockbuf", 16777216 },
	{ "net.inet.tcp.autorcvbufmax", 33554432 },
	{ "net.inet.tcp.autosndbufmax", 33554432 },
	{ "net.inet.tcp.recvspace", 262144 },
	{ "net.inet.tcp.sendspace", 262144 },
	{ "net.inet.tcp.autosndbufinc", 65536 },
};

static const struct adv_key *
result_key(const struct adv_result *r, const char *name)
{
	size_t	i;

	for (i = 0; i < r->nkeys; i++)
		if (strcmp(r->keys[i].name, name) == 0)
			return &r->keys[i];
	return NULL;
}

/* One difference, or nothing when advise says what the config says. */
static void
shipped_one(const struct adv_key *k, const char *name, long long ship,
    char *buf, size_t len)
{
	long long	rec;

	buf[0] = '\0';
	if (k == NULL) {
		snprintf(buf, len, "%s (%lld there) is left alone: it sets how "
		    "fast send autotuning grows a buffer, not how far, so no "
		    "path needs it", name, ship);
		return;
	}
	rec = strtoll(k->recommended, NULL, 10);
	if (rec == ship)
		return;
	if (k->role == ROLE_INFO)
		snprintf(buf, len, "%s stays %lld (%lld there): only a new "
		    "socket's first buffer, which autotuning grows (the window "
		    "scale comes from autorcvbufmax, xnu tcp_set_max_rwinscale), "
		    "so it holds no stream back", name, rec, ship);
	else if (k->needed > rec)
		snprintf(buf, len, "%s %lld (%lld there): the most it can be "
		    "here", name, rec, ship);
	else if (rec > ship)
		snprintf(buf, len, "%s %lld (%lld there): this path needs %lld",
		    name, rec, ship, k->needed);
	else
		snprintf(buf, len, "%s %lld (%lld there): enough for this path, "
		    "which needs %lld; the config's value does no harm", name,
		    rec, ship, k->needed);
}

static void
shipped_text(const struct adv_result *r, char *buf, size_t len)
{
	char	one[240];
	size_t	i, n = 0;

	snprintf(buf, len, "Compared with tcptune's shipped macOS config (the "
	    "README's values):");
	for (i = 0; i < NITEMS(shipped_darwin); i++) {
		shipped_one(result_key(r, shipped_darwin[i].name),
		    shipped_darwin[i].name, shipped_darwin[i].value, one,
		    sizeof(one));
		if (one[0] != '\0')
			snprintf(buf + strlen(buf), len - strlen(buf), "%s %s",
			    n++ ? ";" : "", one);
	}
	snprintf(buf + strlen(buf), len - strlen(buf), ".");
}

/*
 * experimental, in the words of netsh's own help ("netsh interface tcp
 * set global /?"): the reason advise recommends normal at most.
 */
static void
win_experimental_text(const struct adv_note *n, char *buf, size_t len)
{
	static const char	*warn = "netsh's own help says of it: "
	    "\"WARNING: This can dramatically degrade performance in common "
	    "scenarios and should only be used for research purposes.\"";

	if (n->arg[0])
		snprintf(buf, len, "experimental is kept because it is the "
		    "level already, and advise never lowers one; %s normal, "
		    "Microsoft's default, is what advise recommends otherwise.",
		    warn);
	else
		snprintf(buf, len, "advise recommends normal, Microsoft's "
		    "default, at most. The one level above it, experimental "
		    "(up to 1 GiB), is not advised: %s To see what it would "
		    "give, model it with --set tcp.autotuninglevel=experimental.",
		    warn);
}

void
adv_note_text(const struct adv_input *in, const struct adv_result *r,
    const struct adv_note *n, char *buf, size_t len)
{
	char	c[32];

	switch (n->id) {
	case NOTE_LINUX_RCV_SCALED:
	case NOTE_LINUX_RCV_ADV_WIN:
		linux_rcv_text(r, n, buf, len);
		return;
	case NOTE_LINUX_SND:
		linux_snd_text(r, buf, len);
		return;
	case NOTE_XNU_NCL_DERIVED:
		snprintf(buf, len, "kern.ipc.nmbclusters was not read: %lld is "
		    "what macOS gives a Mac with hw.memsize %lld%s (%.0f GB).",
		    n->arg[0], n->arg[1], n->arg[2] ? "*" : "",
		    (double)n->arg[1] / GIB);
		return;
	case NOTE_XNU_CEILING:
		xnu_ceiling_text(r, buf, len);
		return;
	case NOTE_XNU_WHOLE:
		snprintf(buf, len, "From macOS 14.4 on a socket buffer may use "
		    "all of kern.ipc.maxsockbuf (before, 8/9 of it). "
		    "autorcvbufmax and autosndbufmax are taken whatever their "
		    "value, and each socket is held to the smaller of them and "
		    "maxsockbuf.%s", n->arg[0] ? "" : " (macOS release unknown: "
		    "14.4 or later assumed; --set kernel.osrelease=23.3.0 models "
		    "14.3.)");
		return;
	case NOTE_WIN_LEVELS:
		win_levels_text(r, n, buf, len);
		return;
	case NOTE_WIN_REDUCED:
		win_ceiling(n->arg[0], c, sizeof(c));
		snprintf(buf, len, "Auto-tuning is turned down (%s): the "
		    "window stops at %s. Microsoft's tuning guide: before "
		    "auto-tuning a fixed 65535-byte window \"limited the overall "
		    "potential throughput\", and the default level is Normal.",
		    adv_win_level_name((int)n->arg[0]), c);
		return;
	case NOTE_XNU_SHIPPED:
		shipped_text(r, buf, len);
		return;
	case NOTE_WIN_EXPERIMENTAL:
		win_experimental_text(n, buf, len);
		return;
	case NOTE_WIN_TIMESTAMPS_OFF:
		snprintf(buf, len, "RFC 1323 timestamps are %s (Windows "
		    "ships them disabled, as netsh shows in Microsoft's tuning "
		    "guide), so advise does not flag them: window scaling does "
		    "not need them. Without them there is no PAWS (RFC 7323 "
		    "section 5) on these connections. tcptune does not manage "
		    "them.", n->arg[0] == 2 ? "only allowed (used when the "
		    "other side asks)" : "off");
		return;
	case NOTE_WIN_QOS_POLICY:
		snprintf(buf, len, "A Policy-based QoS value sets the inbound "
		    "TCP throughput (auto-tuning) level: \"Tcp Autotuning "
		    "Level\" = \"%s\" under HKLM\\SOFTWARE\\Policies\\"
		    "Microsoft\\Windows\\QoS. Policy rules over the local "
		    "level, so tcptune leaves the level alone; tweak tools write "
		    "this value on unmanaged PCs: delete it (or change the "
		    "policy) to let the level be set.",
		    adv_input_get(in, "qos.tcpautotuninglevel") != NULL ?
		    adv_input_get(in, "qos.tcpautotuninglevel") : "?");
		return;
	case NOTE_UNREAD:
		unread_text(in, buf, len);
		return;
	case NOTE_ASSUMED_LIVE:
		snprintf(buf, len, "Values marked * could not be read: they are "
		    "the stock defaults of %s. Give the real ones with --set "
		    "NAME=VALUE.", catalogue_os_label(r->os));
		return;
	case NOTE_NONE_READ:
		snprintf(buf, len, "Nothing could be read on this machine: the "
		    "advice is for a stock %s, as --platform %s gives it, not "
		    "for this one. Give its real values with --set NAME=VALUE.",
		    catalogue_os_label(r->os), catalogue_os_name(r->os));
		return;
	case NOTE_ASSUMED_MODEL:
		snprintf(buf, len, "Values marked * are the stock defaults of "
		    "%s, not this machine's: --platform models a machine from "
		    "them and from --set NAME=VALUE.",
		    catalogue_os_label(r->os));
		return;
	default:
		break;
	}
	snprintf(buf, len, "%s", n->id < NOTE_COUNT && note_plain[n->id] ?
	    note_plain[n->id] : "?");
}

/* ---- the verdict */

/* What holds a direction back, as shown: a key, the window, or NULL. */
const char *
adv_limit_text(const struct adv_dir *d)
{
	return d->window_limited ? "the TCP window limit" : d->limit;
}

static const char *
short_key(const char *name)
{
	const char	*dot = strrchr(name, '.');

	return dot != NULL && strncmp(name, "net.", 4) == 0 ? dot + 1 : name;
}

/* "895 Mbit/s receiving (held by tcp_rmem)" */
static void
dir_text(const struct adv_dir *d, const char *what, char *buf, size_t len)
{
	char		 rate[32];
	const char	*limit = adv_limit_text(d);

	adv_fmt_rate(d->rate, rate, sizeof(rate));
	if (limit == NULL)
		snprintf(buf, len, "the full %s %s", rate, what);
	else
		snprintf(buf, len, "%s %s (held by %s)", rate, what,
		    short_key(limit));
}

static void
verdict_ok(const struct adv_result *r, char *buf, size_t len)
{
	char	want[32], rtt[32];

	adv_fmt_rate(r->rate, want, sizeof(want));
	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	snprintf(buf, len, "The current ceilings already let one stream carry "
	    "the full %s at %s, receiving and sending: nothing needs to "
	    "change.", want, rtt);
}

static void
verdict_tune(const struct adv_result *r, char *buf, size_t len)
{
	char	rcv[128], snd[128], want[32];

	adv_fmt_rate(r->rate, want, sizeof(want));
	dir_text(&r->now_rcv, "receiving", rcv, sizeof(rcv));
	dir_text(&r->now_snd, "sending", snd, sizeof(snd));
	snprintf(buf, len, "Now one stream reaches %s and %s. With the "
	    "recommended values it can carry the full %s both ways.", rcv,
	    snd, want);
}

static void
verdict_window(const struct adv_result *r, char *buf, size_t len)
{
	char	want[32], rtt[32], bdp[32], got[32];

	adv_fmt_rate(r->rate, want, sizeof(want));
	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	adv_fmt_bytes(r->bdp, bdp, sizeof(bdp));
	adv_fmt_rate((double)ADV_MAX_WINDOW * 8 / r->rtt, got, sizeof(got));
	snprintf(buf, len, "No single TCP stream can carry %s at %s: that "
	    "takes %s in flight, and a TCP window is at most 1 GiB (RFC 7323 "
	    "window scaling). One stream reaches about %s at best; use %d or "
	    "more parallel streams.", want, rtt, bdp, got, r->streams);
}

/* The capped Mac, told plainly. */
static void
verdict_darwin(const struct adv_result *r, double best, char *buf,
    size_t len)
{
	char	eff[32], cap[32], rtt[32], got[32], raw[32], want[32];
	char	class[32], ram[96] = "", more[64] = "";
	/* "This Mac" only when the values were read on one */
	const char *mac = r->live ? "This Mac" : "A stock Mac (modelled)";

	adv_fmt_bytes((double)(r->sb_whole ? r->sb_cap :
	    bsd_sb_max_adj(r->sb_cap)), eff, sizeof(eff));
	adv_fmt_bytes((double)r->sb_cap, cap, sizeof(cap));
	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	adv_fmt_rate(best, got, sizeof(got));
	adv_fmt_rate((double)r->sb_cap * 8 / r->rtt, raw, sizeof(raw));
	adv_fmt_rate(r->rate, want, sizeof(want));
	ram_class(r, class, sizeof(class));
	if (class[0] != '\0')
		snprintf(ram, sizeof(ram), ": this is the pool of a Mac with "
		    "%s", class);
	if (r->ram_for_window > 0)
		snprintf(more, sizeof(more), ", or a Mac with %d GB of memory "
		    "or more", r->ram_for_window);
	if (r->sb_whole)
		snprintf(buf, len, "%s cannot give one socket more than "
		    "%s: kern.ipc.maxsockbuf can be raised to that at most "
		    "here (1/16 of the mbuf cluster pool, which macOS sizes "
		    "from memory%s). At %s that lets one stream reach about %s, "
		    "not %s. Use %d or more parallel streams%s.", mac, cap,
		    ram, rtt, got, want, r->streams, more);
	else
		snprintf(buf, len, "%s cannot give one socket more than "
		    "%s: kern.ipc.maxsockbuf can be raised to %s at most here "
		    "(1/16 of the mbuf cluster pool, which macOS sizes from "
		    "memory%s), and before macOS 14.4 a socket may use 8/9 of "
		    "it. At %s that lets one stream reach about %s (%s / %s = "
		    "%s before that overhead), not %s. Use %d or more parallel "
		    "streams%s.", mac, eff, cap, ram, rtt, got, cap, rtt, raw,
		    want, r->streams, more);
}

/*
 * Windows where normal does not hold the window: normal all the same
 * (experimental is not advised, see win_experimental_text), and streams.
 */
static void
verdict_windows_capped(const struct adv_result *r, char *buf, size_t len)
{
	char		 want[32], rtt[32], got[32], bdp[32], now[96] = "";
	char		 crec[32], cnow[32], gnow[32];
	const char	*rec = adv_win_level_name(r->win_rec);

	adv_fmt_rate(r->rate, want, sizeof(want));
	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	adv_fmt_rate(r->rec_rcv.rate, got, sizeof(got));
	adv_fmt_rate(r->now_rcv.rate, gnow, sizeof(gnow));
	adv_fmt_bytes(r->bdp, bdp, sizeof(bdp));
	win_ceiling(r->win_rec, crec, sizeof(crec));
	win_ceiling(r->win_level, cnow, sizeof(cnow));
	if (r->win_level != r->win_rec)
		snprintf(now, sizeof(now), " (with %s now: %s, about %s)",
		    adv_win_level_name(r->win_level), cnow, gnow);
	snprintf(buf, len, "With auto-tuning level %s%s a receive window "
	    "grows to %s%s: one stream receives about %s at %s, not the %s "
	    "that needs %s in flight. Use %d or more parallel streams.",
	    rec, strcmp(rec, "normal") == 0 ? ", Microsoft's default," : "",
	    crec, now, got, rtt, want, bdp, r->streams);
}

static void
verdict_capped(const struct adv_result *r, char *buf, size_t len)
{
	char	got[32], want[32], rtt[32];
	double	best = r->rec_rcv.rate < r->rec_snd.rate ? r->rec_rcv.rate :
	    r->rec_snd.rate;

	if (r->rec_rcv.window_limited || r->rec_snd.window_limited) {
		verdict_window(r, buf, len);
		return;
	}
	if (r->os == TT_OS_DARWIN) {
		verdict_darwin(r, best, buf, len);
		return;
	}
	if (r->os == TT_OS_WINDOWS) {
		verdict_windows_capped(r, buf, len);
		return;
	}
	adv_fmt_rate(best, got, sizeof(got));
	adv_fmt_rate(r->rate, want, sizeof(want));
	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	snprintf(buf, len, "Even with the recommended values one stream "
	    "reaches only %s of %s at %s; use %d or more parallel streams.",
	    got, want, rtt, r->streams);
}

/* Windows: the level, what it lets one stream receive, and RSS. */
static void
verdict_windows(const struct adv_result *r, char *buf, size_t len)
{
	char		 want[32], rtt[32], got[32], bdp[32], rss[96] = "";
	char		 cnow[32], crec[32];
	const char	*now = adv_win_level_name(r->win_level);
	const char	*rec = adv_win_level_name(r->win_rec);
	bool		 rss_off = false;
	size_t		 i;

	for (i = 0; i < r->nkeys; i++)
		rss_off |= r->keys[i].why == WHY_WIN_RSS && r->keys[i].change;
	adv_fmt_rate(r->rate, want, sizeof(want));
	adv_fmt_time(r->rtt, rtt, sizeof(rtt));
	adv_fmt_rate(r->now_rcv.rate, got, sizeof(got));
	adv_fmt_bytes(r->bdp, bdp, sizeof(bdp));
	win_ceiling(r->win_level, cnow, sizeof(cnow));
	win_ceiling(r->win_rec, crec, sizeof(crec));
	if (rss_off)	/* never with VERDICT_OK */
		snprintf(rss, sizeof(rss), " Receive-Side Scaling is off: turn "
		    "it back on.");
	if (r->verdict == VERDICT_OK)
		snprintf(buf, len, "Auto-tuning level %s lets a receive window "
		    "grow to %s, and the full %s at %s needs %s in flight: one "
		    "stream can carry it, nothing needs to change.%s", now,
		    cnow, want, rtt, bdp, r->win_level > r->win_least &&
		    strcmp(now, "experimental") == 0 ? " But netsh's own help "
		    "warns that experimental \"can dramatically degrade "
		    "performance in common scenarios\": normal would do here." :
		    strcmp(now, "experimental") == 0 ? " But netsh's own help "
		    "warns that experimental \"can dramatically degrade "
		    "performance in common scenarios\" (below)." : "");
	else if (r->now_rcv.limit == NULL)
		snprintf(buf, len, "Auto-tuning level %s lets a receive window "
		    "grow to %s, enough for the full %s at %s (%s in flight).%s"
		    "%s", now, cnow, want, rtt, bdp,
		    r->win_rec != r->win_level ? " It is turned down, though: "
		    "normal, the default, lets longer paths grow too." : "", rss);
	else
		snprintf(buf, len, "With auto-tuning level %s a receive window "
		    "stops at %s: one stream receives about %s at %s, not the "
		    "%s that needs %s in flight. Level %s (up to %s) lets it "
		    "carry the full rate.%s", now, cnow, got, rtt, want, bdp,
		    rec, crec, rss);
}

void
adv_verdict_text(const struct adv_result *r, char *buf, size_t len)
{
	if (r->os == TT_OS_WINDOWS && r->verdict != VERDICT_CAPPED) {
		verdict_windows(r, buf, len);
		return;
	}
	switch (r->verdict) {
	case VERDICT_OK:
		verdict_ok(r, buf, len);
		break;
	case VERDICT_TUNE:
		verdict_tune(r, buf, len);
		break;
	default:
		verdict_capped(r, buf, len);
		break;
	}
}
