/*
 * The Windows backend: receive-window auto-tuning and Receive-Side Scaling
 * through the documented CIM classes of the NetTCPIP provider in
 * root/StandardCimv2, never the registry.  This file holds the rules (key
 * names, value names, Group Policy, what each failure means); struct cim
 * (cim.h) is the access, COM in cim_win.c or memory in tests/fake_cim.c.
 *
 * Sources (Microsoft, win32 docs, "NetTCPIP provider"):
 *   MSFT_NetTCPSetting class (desktop-src/FWP/wmi/nettcpipprov/
 *     msft-nettcpsetting.md): AutoTuningLevelLocal uint8, read/write,
 *     0 Disabled, 1 HighlyRestricted, 2 Restricted, 3 Normal,
 *     4 Experimental; AutoTuningLevelGroupPolicy, the level Group Policy
 *     sets (same values); AutoTuningLevelEffective, 0 Local, 1 Group
 *     Policy: which of the two is in force; SettingName, the template
 *     (Internet, Datacenter, Compat, InternetCustom, DatacenterCustom,
 *     Automatic); CongestionProvider uint8 (codes below: only three are
 *     documented); Timestamps uint8, 0 Disabled,
 *     1 Enabled, 2 Allowed (used when the other side asks).
 *   MSFT_NetOffloadGlobalSetting class (msft-netoffloadglobalsetting.md):
 *     ReceiveSideScaling and ReceiveSegmentCoalescing uint8, 0 Disabled,
 *     1 Enabled; one instance.
 *   netsh interface tcp set global autotuninglevel=... rss=... are the
 *   commands users run by hand for the same two values.
 *
 * Keys, named for the plist (tcptune.conf(5)):
 *   tcp.autotuninglevel  disabled|highlyrestricted|restricted|normal|
 *                        experimental: written to every template, as the
 *                        global netsh setting is; read from "Internet"
 *                        (the first template when there is none), as
 *                        the level in force (Group Policy's when it rules).
 *   offload.rss          enabled|disabled: Receive-Side Scaling spreads
 *                        many connections over the processors; one
 *                        connection stays on one ("RSS with a single
 *                        hardware receive queue", Microsoft Learn)
 *   tcp.congestionprovider.<template>  read-only, for status: the
 *                        congestion provider of that template, lower case
 *                        (tcp.congestionprovider.internet).
 *   tcp.timestamps       read-only: disabled|enabled|allowed, from the
 *                        template the level is read from (for advise).
 *   offload.rsc          read-only: enabled|disabled, Receive Segment
 *                        Coalescing (for advise).
 *   tcp.scalingheuristics read-only: disabled|enabled, Windows Scaling
 *                        heuristics (ScalingHeuristics), which may lower
 *                        the level on their own (for status and advise).
 *   qos.tcpautotuninglevel read-only: the Policy-based QoS value "Tcp
 *                        Autotuning Level" under QOS_KEY as one word,
 *                        lower case, spaces and underscores dropped
 *                        ("Highly Restricted" is highlyrestricted);
 *                        notconfigured when absent.
 * Values are lower-case words, so a read-back compares equal to the file.
 *
 * Rules of a real Windows, each modelled in tests/fake_cim.c and tested in
 * tests/unit/test_backend_win.c:
 *   - The "Automatic" template has every tuning property empty: Microsoft's
 *     sample Get-NetTCPSetting output ("Performance Tuning Network
 *     Adapters", https://learn.microsoft.com/en-us/windows-server/
 *     networking/technologies/network-subsystem/
 *     net-sub-performance-tuning-nics) and a Windows 10 dump
 *     (https://github.com/esnet/iperf/issues/1069) show AutoTuningLevelLocal
 *     and the rest blank there.  A template without the property is never
 *     written (test_automatic_never_written).
 *   - Client editions refuse changes to the built-in templates
 *     (Windows Server allows them from 2016, the page below says):
 *     Set-NetTCPSetting -CongestionProvider CTCP, no template named, fails
 *     with "Only the custom templates InternetCustom and DatacenterCustom
 *     can be modified", a CimException of category InvalidArgument whose
 *     FullyQualifiedErrorId is "Windows System Error 87"
 *     (https://github.com/tohojo/bufferbloat-net/issues/35, 2018), and
 *     on InternetCustom a property can be refused too: "Property
 *     CongestionProvider is read-only", InvalidArgument
 *     (https://github.com/madbomb122/BlackViperScript/issues/35, 2018).
 *     Microsoft's Set-NetTCPSetting page no longer says that a client's
 *     settings are all read-only: since MicrosoftDocs/windows-powershell-
 *     docs#2180 (2020) it lists the parameters read-only on Windows 10
 *     (MinRtoMs, InitialCongestionWindowMss, AutomaticUseCustom,
 *     CongestionProvider, CwndRestart, DelayedAckTimeoutMs; not
 *     AutoTuningLevelLocal), so the refusal is taken from the provider's
 *     answer, never assumed from the edition.
 *     Error 87 reaches IWbemServices as WBEM_E_INVALID_PARAMETER,
 *     E_INVALIDARG (HRESULT_FROM_WIN32(87)) or a sibling (refused()); then
 *     netsh interface tcp set global autotuninglevel=LEVEL (rss=... for
 *     RSS), the command Microsoft documents for every edition
 *     ("Performance Tuning Network Adapters", "Autotuning levels"), is
 *     run and the value read back through CIM
 *     (test_client_edition_netsh_fallback and the tests after it).
 *   - Windows Scaling heuristics can override the level: netsh says "The
 *     above autotuninglevel setting is the result of Windows Scaling
 *     heuristics overriding any local/policy configuration"; the property
 *     is MSFT_NetTCPSetting.ScalingHeuristics (0 Disabled, 1 Enabled,
 *     msft-nettcpsetting.md) (test_scaling_heuristics_reported).
 *   - Policy-based QoS sets the "inbound TCP throughput level" (QoS Policy
 *     events 16504 to 16508, EVENT_EQOS_INFO_TCP_AUTOTUNING_NOT_CONFIGURED
 *     to _NORMAL, 0x40004078 to 0x4000407C in windows-sys' NetManagement
 *     constants; 16509 is EVENT_EQOS_INFO_APP_MARKING_NOT_CONFIGURED,
 *     https://learn.microsoft.com/en-us/
 *     windows-server/networking/technologies/qos/qos-policy-errors); tweak
 *     tools write it as the REG_SZ "Tcp Autotuning Level" under QOS_KEY.
 *     The levels are those events' EVENT_EQOS_INFO_TCP_AUTOTUNING_OFF,
 *     _HIGHLY_RESTRICTED, _RESTRICTED and _NORMAL (16505 to 16508, levels
 *     0 to 3); the scripts write them in several spellings, "Off",
 *     "Highly Restricted", "normal", so the value is read as one word
 *     (value_policy_word: case, spaces and underscores ignored).
 *     Where Group Policy rules, the refusal names that value, as written,
 *     when it is there (test_qos_policy_named).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"
#include "cim.h"

#define TCP_CLASS	"MSFT_NetTCPSetting"
#define OFFLOAD_CLASS	"MSFT_NetOffloadGlobalSetting"
#define CP_PREFIX	"tcp.congestionprovider."
#define WHY_MAX		1024	/* within a status note (TT_TEXT_MAX) */
#define EFFECTIVE_GP	1	/* AutoTuningLevelEffective: Group Policy */
#define QOS_KEY		"SOFTWARE\\Policies\\Microsoft\\Windows\\QoS"
#define QOS_VALUE	"Tcp Autotuning Level"

/*
 * The words of each key's codes and the list of the keys are the
 * catalogue's win_keys[] (lib/catalogue.c), a row per key: this file adds
 * how each is read and written.
 */
static const char *const *
codes_of(const char *name)
{
	const struct cat_win_key	*k = catalogue_win_key(name);

	return k != NULL ? k->codes : NULL;
}

/* The last refusal of each key, in the backend's own words. */
struct why {
	char	name[TT_NAME_MAX];
	char	text[WHY_MAX];
};

struct win_ctx {
	struct cim	*cim;
	struct why	 why[TT_MAX_KEYS];
	size_t		 nwhy;
};

static const char *
word_of(const char *const *table, unsigned v, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; table[i] != NULL; i++)
		if (i == v)
			return table[i];
	snprintf(buf, len, "%u", v);
	return buf;
}

/* The word for v (or its number) into buf: 0, or ERANGE. */
static int
put_word(const char *const *table, unsigned v, char *buf, size_t len)
{
	char	num[16];

	return tt_strlcpy(buf, word_of(table, v, num, sizeof(num)), len) >=
	    len ? ERANGE : 0;
}

static int
code_of(const char *const *table, const char *word, unsigned *v)
{
	unsigned	i;

	for (i = 0; table[i] != NULL; i++)
		if (strcmp(table[i], word) == 0) {
			*v = i;
			return 0;
		}
	return -1;
}

/* Remember (or, with NULL, forget) why name was refused. */
static void
set_why(struct win_ctx *c, const char *name, const char *fmt, ...)
    TT_PRINTF(3, 4);

static void
set_why(struct win_ctx *c, const char *name, const char *fmt, ...)
{
	struct why	*w = NULL;
	va_list		 ap;
	size_t		 i;

	for (i = 0; i < c->nwhy && w == NULL; i++)
		if (strcmp(c->why[i].name, name) == 0)
			w = &c->why[i];
	if (w == NULL) {
		if (c->nwhy == TT_MAX_KEYS)
			return;
		w = &c->why[c->nwhy++];
		tt_strlcpy(w->name, name, sizeof(w->name));
	}
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof(w->text), fmt, ap);
	va_end(ap);
}

/* Forget why name was refused: a success leaves no stale reason. */
static void
forget_why(struct win_ctx *c, const char *name)
{
	size_t	i;

	for (i = 0; i < c->nwhy; i++)
		if (strcmp(c->why[i].name, name) == 0) {
			c->why[i] = c->why[--c->nwhy];
			return;
		}
}

/* The reason kept for name, or "". */
static const char *
why_of(const struct win_ctx *c, const char *name)
{
	size_t	i;

	for (i = 0; i < c->nwhy; i++)
		if (strcmp(c->why[i].name, name) == 0)
			return c->why[i].text;
	return "";
}

const char *
cim_strerror(int32_t hr)
{
	switch (hr) {
	case CIM_E_INVALID_NAMESPACE:	return "WBEM_E_INVALID_NAMESPACE";
	case CIM_E_INVALID_CLASS:	return "WBEM_E_INVALID_CLASS";
	case CIM_E_NOT_FOUND:		return "WBEM_E_NOT_FOUND";
	case CIM_E_ACCESS_DENIED:	return "WBEM_E_ACCESS_DENIED";
	case CIM_E_ACCESSDENIED:	return "E_ACCESSDENIED";
	case CIM_E_NOT_SUPPORTED:	return "WBEM_E_NOT_SUPPORTED";
	case CIM_E_ILLEGAL_OPERATION:	return "WBEM_E_ILLEGAL_OPERATION";
	case CIM_E_READ_ONLY:		return "WBEM_E_READ_ONLY";
	case CIM_E_NOT_CAPABLE:		return "WBEM_E_PROVIDER_NOT_CAPABLE";
	case CIM_E_INVALID_PARAMETER:	return "WBEM_E_INVALID_PARAMETER";
	case CIM_E_INVALID_METHOD_PARAMETERS:
		return "WBEM_E_INVALID_METHOD_PARAMETERS";
	case CIM_E_INVALIDARG:		return "E_INVALIDARG (Windows error 87)";
	case CIM_E_FAILED:		return "WBEM_E_FAILED";
	default:			return "HRESULT";
	}
}

/*
 * The provider refused this change (error 87 in its forms, or a
 * read-only or unsupported property): what a client edition answers for
 * a built-in template.  netsh is then tried.
 */
static bool
refused(int32_t hr)
{
	switch (hr) {
	case CIM_E_INVALID_PARAMETER:
	case CIM_E_INVALIDARG:
	case CIM_E_INVALID_METHOD_PARAMETERS:
	case CIM_E_NOT_SUPPORTED:
	case CIM_E_ILLEGAL_OPERATION:
	case CIM_E_READ_ONLY:
	case CIM_E_NOT_CAPABLE:
		return true;
	default:
		return false;
	}
}

/* An HRESULT as an errno, with the reason kept for status. */
static int
cim_failed(struct win_ctx *c, const char *name, const char *cls,
    const char *what, int32_t hr)
{
	const char	*e = cim_strerror(hr);
	unsigned	 x = (unsigned)hr;

	switch (hr) {
	case CIM_E_INVALID_NAMESPACE:
	case CIM_E_INVALID_CLASS:
	case CIM_E_NOT_FOUND:
		set_why(c, name, "%s is not on this Windows (root/StandardCimv2"
		    ": %s 0x%08X); the other keys still apply", cls, e, x);
		return ENOENT;
	case CIM_E_ACCESS_DENIED:
	case CIM_E_ACCESSDENIED:
		set_why(c, name, "%s: %s denied (%s 0x%08X): the service must "
		    "run as LocalSystem or an Administrator", cls, what, e, x);
		return EACCES;
	case CIM_E_INVALID_PARAMETER:
	case CIM_E_INVALIDARG:
	case CIM_E_INVALID_METHOD_PARAMETERS:
		set_why(c, name, "%s: this Windows refuses the %s (%s 0x%08X; "
		    "client editions let only the custom templates "
		    "InternetCustom and DatacenterCustom be changed)", cls,
		    what, e, x);
		return EPERM;
	case CIM_E_NOT_SUPPORTED:
	case CIM_E_ILLEGAL_OPERATION:
	case CIM_E_READ_ONLY:
	case CIM_E_NOT_CAPABLE:
		set_why(c, name, "%s: this Windows refuses the %s: read-only "
		    "or not supported here (%s 0x%08X)", cls, what, e, x);
		return EPERM;
	default:
		set_why(c, name, "%s: %s failed (%s 0x%08X)", cls, what, e, x);
		return EIO;
	}
}

/* ---- netsh, when the provider refuses */

/* The first line of netsh's output, printable, for a note. */
static void
first_line(char *s)
{
	char	*p, *start = s;

	while (*start == '\r' || *start == '\n' || *start == ' ')
		start++;
	memmove(s, start, strlen(start) + 1);
	for (p = s; *p != '\0'; p++)
		if (*p == '\r' || *p == '\n') {
			*p = '\0';
			break;
		} else if ((unsigned char)*p < ' ' || (unsigned char)*p > '~')
			*p = '?';
}

static int	win_get(struct sysctl_backend *, const char *, char *, size_t);

/*
 * The provider refused the change (its reason already kept): run
 * netsh interface tcp set global arg, then read name back through CIM;
 * it must now be value.  0 with a note saying how it was applied, or an
 * errno with both refusals named.
 */
static int
netsh_fallback(struct sysctl_backend *be, const char *name, const char *arg,
    const char *value)
{
	struct win_ctx	*c = be->ctx;
	const char	*args[] = { "interface", "tcp", "set", "global", arg,
			    NULL };
	struct cim_run	 run;
	char		 cim[WHY_MAX], now[32];
	int		 err;

	tt_strlcpy(cim, why_of(c, name), sizeof(cim));
	if (c->cim->netsh == NULL)
		return EPERM;
	memset(&run, 0, sizeof(run));
	if ((err = c->cim->netsh(c->cim, args, &run)) == ETIMEDOUT) {
		set_why(c, name, "%s; netsh interface tcp set global %s did "
		    "not finish within %d s and was ended", cim, arg,
		    CIM_NETSH_LIMIT_S);
		return err;
	}
	if (err != 0) {
		set_why(c, name, "%s; netsh.exe could not be run: %s", cim,
		    strerror(err));
		return err;
	}
	first_line(run.out);
	if (run.exit_code != 0) {
		set_why(c, name, "%s; netsh interface tcp set global %s "
		    "failed too (exit %lu: %s)", cim, arg, run.exit_code,
		    run.out);
		return EPERM;
	}
	if ((err = win_get(be, name, now, sizeof(now))) != 0)
		return err;
	if (strcmp(now, value) != 0) {
		set_why(c, name, "netsh interface tcp set global %s exited 0 "
		    "(%s) but %s still reads %s; %s", arg, run.out, name, now,
		    cim);
		return EIO;
	}
	set_why(c, name, "applied with netsh interface tcp set global %s "
	    "(CIM refused: %s)", arg, cim);
	return 0;
}

/* ---- tcp.autotuninglevel */

enum { P_LOCAL, P_GP, P_EFFECTIVE, P_HEURISTICS };
static const char *const tcp_props[] = {
	"AutoTuningLevelLocal", "AutoTuningLevelGroupPolicy",
	"AutoTuningLevelEffective", "ScalingHeuristics"
};
#define NTCP_PROPS	4

/* props of every template; at least one template, or ENOENT. */
static int
tcp_rows(struct win_ctx *c, const char *name, const char *const *props,
    size_t nprops, struct cim_row *rows, size_t *n)
{
	int32_t	hr;

	hr = c->cim->query(c->cim, TCP_CLASS, props, nprops, rows,
	    CIM_MAX_ROWS, n);
	if (hr != CIM_OK)
		return cim_failed(c, name, TCP_CLASS, "query", hr);
	if (*n == 0) {
		set_why(c, name, "%s has no instances here", TCP_CLASS);
		return ENOENT;
	}
	return 0;
}

/*
 * The template a value is read from: Internet, else the first that has
 * the property (Automatic has none on a real Windows), else the first.
 */
static const struct cim_row *
main_row(const struct cim_row *rows, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].setting, "Internet") == 0 && rows[i].has[0])
			return &rows[i];
	for (i = 0; i < n; i++)
		if (rows[i].has[0])
			return &rows[i];
	return &rows[0];
}

static bool
group_policy_rules(const struct cim_row *r)
{
	return r->has[P_EFFECTIVE] && r->value[P_EFFECTIVE] == EFFECTIVE_GP;
}

static int
autotuning_get(struct win_ctx *c, const char *name, char *buf, size_t len)
{
	struct cim_row		 rows[CIM_MAX_ROWS];
	const struct cim_row	*r;
	size_t			 n;
	unsigned		 v;
	int			 err;

	if ((err = tcp_rows(c, name, tcp_props, NTCP_PROPS, rows, &n)) != 0)
		return err;
	r = main_row(rows, n);
	v = group_policy_rules(r) && r->has[P_GP] ? r->value[P_GP] :
	    r->value[P_LOCAL];
	if (!r->has[P_LOCAL] && !group_policy_rules(r)) {
		set_why(c, name, "%s (%s) has no AutoTuningLevelLocal",
		    TCP_CLASS, r->setting);
		return ENOENT;
	}
	return put_word(catalogue_win_levels(), v, buf, len);
}

/* The QoS policy value, as " (QOS_KEY "Tcp Autotuning Level" = "x")". */
static void
qos_source(struct win_ctx *c, char *buf, size_t len)
{
	char	v[64];

	buf[0] = '\0';
	if (c->cim->reg_value != NULL && c->cim->reg_value(c->cim, QOS_KEY,
	    QOS_VALUE, v, sizeof(v)) == 0)
		snprintf(buf, len, "; from the QoS policy value HKLM\\%s "
		    "\"%s\" = \"%s\" (Policy-based QoS; delete it or change "
		    "the policy)", QOS_KEY, QOS_VALUE, v);
}

/* Group Policy in force on a template: refused, never fought. */
static int
group_policy_refusal(struct win_ctx *c, const char *name,
    const struct cim_row *r)
{
	char	num[16], qos[WHY_MAX];

	qos_source(c, qos, sizeof(qos));
	set_why(c, name, "Group Policy sets the auto-tuning level (%s: "
	    "AutoTuningLevelGroupPolicy %s, AutoTuningLevelEffective "
	    "GroupPolicy)%s; tcptune does not override it", r->setting,
	    r->has[P_GP] ? word_of(catalogue_win_levels(), r->value[P_GP],
	    num, sizeof(num)) : "?", qos);
	return EPERM;
}

/* Windows Scaling heuristics on: said in the note of a write. */
static void
heuristics_note(struct win_ctx *c, const char *name,
    const struct cim_row *rows, size_t n)
{
	char	note[WHY_MAX];
	size_t	i;

	for (i = 0; i < n; i++)
		if (rows[i].has[P_HEURISTICS] && rows[i].value[P_HEURISTICS]) {
			snprintf(note, sizeof(note), "%s%sWindows Scaling "
			    "heuristics are enabled (%s): Windows may lower "
			    "this level on its own", why_of(c, name),
			    why_of(c, name)[0] != '\0' ? "; " : "",
			    rows[i].setting);
			set_why(c, name, "%s", note);
			return;
		}
}

/*
 * AutoTuningLevelLocal on every template that has it; a template without
 * it (Automatic) is never written.  0, the HRESULT of the first refusal in
 * *hr, or another errno.
 */
static int
autotuning_write(struct win_ctx *c, const char *name,
    const struct cim_row *rows, size_t n, unsigned v, int32_t *hr)
{
	size_t	i, written = 0;

	*hr = CIM_OK;
	for (i = 0; i < n; i++) {
		if (!rows[i].has[P_LOCAL])
			continue;
		written++;
		if (rows[i].value[P_LOCAL] == v)
			continue;
		*hr = c->cim->update(c->cim, TCP_CLASS, rows[i].setting,
		    tcp_props[P_LOCAL], v);
		if (*hr != CIM_OK)
			return cim_failed(c, name, TCP_CLASS, "change", *hr);
	}
	if (written == 0) {
		set_why(c, name, "no %s template has AutoTuningLevelLocal",
		    TCP_CLASS);
		return ENOENT;
	}
	return 0;
}

static int
autotuning_set(struct sysctl_backend *be, const char *name,
    const char *value)
{
	struct win_ctx	*c = be->ctx;
	struct cim_row	 rows[CIM_MAX_ROWS];
	char		 arg[48], list[96];
	size_t		 n, i;
	unsigned	 v;
	int32_t		 hr;
	int		 err;

	if (code_of(catalogue_win_levels(), value, &v) == -1) {
		catalogue_word_list(catalogue_win_levels(), list, sizeof(list));
		set_why(c, name, "not a level: %s", list);
		return EINVAL;
	}
	if ((err = tcp_rows(c, name, tcp_props, NTCP_PROPS, rows, &n)) != 0)
		return err;
	for (i = 0; i < n; i++)
		if (group_policy_rules(&rows[i]))
			return group_policy_refusal(c, name, &rows[i]);
	err = autotuning_write(c, name, rows, n, v, &hr);
	if (err != 0 && refused(hr)) {
		snprintf(arg, sizeof(arg), "autotuninglevel=%s", value);
		err = netsh_fallback(be, name, arg, value);
	}
	if (err == 0)
		heuristics_note(c, name, rows, n);
	return err;
}

/* ---- tcp.scalingheuristics, read-only */

static int
heuristics_get(struct win_ctx *c, const char *name, char *buf, size_t len)
{
	static const char *const props[] = { "ScalingHeuristics" };
	struct cim_row		 rows[CIM_MAX_ROWS];
	const struct cim_row	*r;
	size_t			 n;
	int			 err;

	if ((err = tcp_rows(c, name, props, 1, rows, &n)) != 0)
		return err;
	if (!(r = main_row(rows, n))->has[0]) {
		set_why(c, name, "%s (%s) has no ScalingHeuristics", TCP_CLASS,
		    r->setting);
		return ENOENT;
	}
	return put_word(codes_of(name), r->value[0], buf, len);
}

/*
 * ---- qos.tcpautotuninglevel, read-only: the registry value as one
 * lower-case word (value_policy_word: tools write "Highly Restricted",
 * "Off", "normal"), or notconfigured
 */

static int
qos_get(struct win_ctx *c, const char *name, char *buf, size_t len)
{
	int	err;

	if (c->cim->reg_value == NULL)
		err = ENOENT;
	else
		err = c->cim->reg_value(c->cim, QOS_KEY, QOS_VALUE, buf, len);
	/* absent is an answer, worded as Get-NetTCPSetting words Group
	 * Policy that sets nothing */
	if (err == ENOENT)
		return tt_strlcpy(buf, "notconfigured", len) >= len ? ERANGE :
		    0;
	if (err != 0) {
		set_why(c, name, "HKLM\\%s \"%s\": %s", QOS_KEY, QOS_VALUE,
		    strerror(err));
		return err;
	}
	/* nothing but spaces is as good as absent */
	if (value_policy_word(buf, buf, len) == -1)
		return tt_strlcpy(buf, "notconfigured", len) >= len ? ERANGE :
		    0;
	return 0;
}

/* ---- offload.rss */

static const char *const rss_props[] = { "ReceiveSideScaling" };
static const char *const rsc_props[] = { "ReceiveSegmentCoalescing" };

/* offload.rss, offload.rsc: one property of the only instance. */
static int
offload_get(struct win_ctx *c, const char *name, const char *const *prop,
    char *buf, size_t len)
{
	struct cim_row	row;
	size_t		n;
	int32_t		hr;

	hr = c->cim->query(c->cim, OFFLOAD_CLASS, prop, 1, &row, 1, &n);
	if (hr != CIM_OK)
		return cim_failed(c, name, OFFLOAD_CLASS, "query", hr);
	if (n == 0 || !row.has[0]) {
		set_why(c, name, "%s has no %s here", OFFLOAD_CLASS, prop[0]);
		return ENOENT;
	}
	return put_word(codes_of(name), row.value[0], buf, len);
}

static int
rss_set(struct sysctl_backend *be, const char *name, const char *value)
{
	struct win_ctx	*c = be->ctx;
	char		 arg[32], list[64];
	unsigned	 v;
	int32_t		 hr;
	int		 err;

	if (code_of(codes_of(name), value, &v) == -1) {
		/* the words in the order check's messages say them */
		catalogue_word_list(catalogue_find(name, TT_OS_WINDOWS)->words,
		    list, sizeof(list));
		set_why(c, name, "not a value: %s", list);
		return EINVAL;
	}
	hr = c->cim->update(c->cim, OFFLOAD_CLASS, NULL, rss_props[0], v);
	if (hr == CIM_OK)
		return 0;
	err = cim_failed(c, name, OFFLOAD_CLASS, "change", hr);
	if (!refused(hr))
		return err;
	snprintf(arg, sizeof(arg), "rss=%s", value);
	return netsh_fallback(be, name, arg, value);
}

/* ---- tcp.timestamps, read-only */

static const char *const ts_props[] = { "Timestamps" };

static int
timestamps_get(struct win_ctx *c, const char *name, char *buf, size_t len)
{
	struct cim_row		 rows[CIM_MAX_ROWS];
	const struct cim_row	*r;
	size_t			 n;
	int			 err;

	if ((err = tcp_rows(c, name, ts_props, 1, rows, &n)) != 0)
		return err;
	if (!(r = main_row(rows, n))->has[0]) {
		set_why(c, name, "%s (%s) has no Timestamps", TCP_CLASS,
		    r->setting);
		return ENOENT;
	}
	return put_word(codes_of(name), r->value[0], buf, len);
}

/* ---- tcp.congestionprovider.<template>, read-only */

static const char *const cp_props[] = { "CongestionProvider" };

static bool
same_lower(const char *lower, const char *s)
{
	for (; *lower != '\0' && *s != '\0'; lower++, s++) {
		char ch = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;

		if (ch != *lower)
			return false;
	}
	return *lower == *s;
}

static int
provider_get(struct win_ctx *c, const char *name, char *buf, size_t len)
{
	struct cim_row	rows[CIM_MAX_ROWS];
	const char	*tmpl = name + strlen(CP_PREFIX);
	size_t		n, i;
	int32_t		hr;

	hr = c->cim->query(c->cim, TCP_CLASS, cp_props, 1, rows,
	    CIM_MAX_ROWS, &n);
	if (hr != CIM_OK)
		return cim_failed(c, name, TCP_CLASS, "query", hr);
	for (i = 0; i < n; i++)
		if (same_lower(tmpl, rows[i].setting) && rows[i].has[0])
			return put_word(codes_of(name), rows[i].value[0],
			    buf, len);
	set_why(c, name, "no %s template named %s here", TCP_CLASS, tmpl);
	return ENOENT;
}

/* ---- the backend */

static int
not_a_key(struct win_ctx *c, const char *name)
{
	char	keys[CAT_WIN_KEYS_MAX];

	catalogue_win_key_list(keys, sizeof(keys));
	set_why(c, name, "not a Windows key: %s are (tcptune.conf(5))", keys);
	return ENOENT;
}

static int
win_get(struct sysctl_backend *be, const char *name, char *buf, size_t len)
{
	struct win_ctx	*c = be->ctx;

	if (strcmp(name, "tcp.autotuninglevel") == 0)
		return autotuning_get(c, name, buf, len);
	if (strcmp(name, "offload.rss") == 0)
		return offload_get(c, name, rss_props, buf, len);
	if (strcmp(name, "offload.rsc") == 0)
		return offload_get(c, name, rsc_props, buf, len);
	if (strcmp(name, "tcp.timestamps") == 0)
		return timestamps_get(c, name, buf, len);
	if (strcmp(name, "tcp.scalingheuristics") == 0)
		return heuristics_get(c, name, buf, len);
	if (strcmp(name, "qos.tcpautotuninglevel") == 0)
		return qos_get(c, name, buf, len);
	if (strncmp(name, CP_PREFIX, strlen(CP_PREFIX)) == 0 &&
	    name[strlen(CP_PREFIX)] != '\0')
		return provider_get(c, name, buf, len);
	return not_a_key(c, name);
}

static int
win_set(struct sysctl_backend *be, const char *name, const char *value)
{
	struct win_ctx	*c = be->ctx;

	forget_why(c, name);	/* a success explains itself or not at all */
	if (strcmp(name, "tcp.autotuninglevel") == 0)
		return autotuning_set(be, name, value);
	if (strcmp(name, "offload.rss") == 0)
		return rss_set(be, name, value);
	if (catalogue_win_key(name) != NULL) {
		set_why(c, name, "read-only: shown for status, never written "
		    "by tcptune");
		return EROFS;
	}
	return not_a_key(c, name);
}

static int
win_explain(struct sysctl_backend *be, const char *name, char *buf,
    size_t len)
{
	struct win_ctx	*c = be->ctx;
	size_t		 i;

	for (i = 0; i < c->nwhy; i++)
		if (strcmp(c->why[i].name, name) == 0) {
			tt_strlcpy(buf, c->why[i].text, len);
			return 0;
		}
	return -1;
}

static void
win_free(struct sysctl_backend *be)
{
	struct win_ctx	*c = be->ctx;

	if (c->cim != NULL && c->cim->free != NULL)
		c->cim->free(c->cim);
	free(c);
	free(be);
}

struct sysctl_backend *
backend_windows_over(struct cim *cim)
{
	struct sysctl_backend	*be;
	struct win_ctx		*c;

	if (cim == NULL)
		return NULL;
	be = calloc(1, sizeof(*be));
	c = calloc(1, sizeof(*c));
	if (be == NULL || c == NULL) {
		free(be);
		free(c);
		if (cim->free != NULL)
			cim->free(cim);
		return NULL;
	}
	c->cim = cim;
	be->name = "windows-cim";
	be->get = win_get;
	be->set = win_set;
	be->explain = win_explain;
	be->free = win_free;
	be->ctx = c;
	return be;
}
