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
 *     Automatic); CongestionProvider uint8; Timestamps uint8, 0 Disabled,
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
 *   offload.rss          enabled|disabled
 *   tcp.congestionprovider.<template>  read-only, for status: the
 *                        congestion provider of that template, lower case
 *                        (tcp.congestionprovider.internet).
 *   tcp.timestamps       read-only: disabled|enabled|allowed, from the
 *                        template the level is read from (for advise).
 *   offload.rsc          read-only: enabled|disabled, Receive Segment
 *                        Coalescing (for advise).
 * Values are lower-case words, so a read-back compares equal to the file.
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
#define WHY_MAX		256
#define EFFECTIVE_GP	1	/* AutoTuningLevelEffective: Group Policy */
#define NOT_A_KEY	"not a Windows key: tcp.autotuninglevel, offload.rss " \
			"and, read-only, tcp.congestionprovider.<template>, " \
			"tcp.timestamps and offload.rsc are (tcptune.conf(5))"

static const char *const levels[] = {
	"disabled", "highlyrestricted", "restricted", "normal",
	"experimental", NULL
};
static const char *const rss_values[] = { "disabled", "enabled", NULL };
static const char *const ts_values[] = {
	"disabled", "enabled", "allowed", NULL
};
/*
 * CongestionProvider as the Set-NetTCPSetting documentation names its
 * values; one this table does not know is shown as its number.
 */
static const char *const providers[] = {
	"default", "newreno", "ctcp", "dctcp", "ledbat", "cubic", NULL
};

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
	case CIM_E_READ_ONLY:		return "WBEM_E_ILLEGAL_OPERATION";
	case CIM_E_FAILED:		return "WBEM_E_FAILED";
	default:			return "HRESULT";
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
	case CIM_E_NOT_SUPPORTED:
	case CIM_E_READ_ONLY:
		set_why(c, name, "%s: this Windows refuses the %s (%s 0x%08X)",
		    cls, what, e, x);
		return EPERM;
	default:
		set_why(c, name, "%s: %s failed (%s 0x%08X)", cls, what, e, x);
		return EIO;
	}
}

/* ---- tcp.autotuninglevel */

enum { P_LOCAL, P_GP, P_EFFECTIVE };
static const char *const tcp_props[] = {
	"AutoTuningLevelLocal", "AutoTuningLevelGroupPolicy",
	"AutoTuningLevelEffective"
};

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

/* The template the level is read from: Internet, or the first. */
static const struct cim_row *
main_row(const struct cim_row *rows, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].setting, "Internet") == 0)
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

	if ((err = tcp_rows(c, name, tcp_props, 3, rows, &n)) != 0)
		return err;
	r = main_row(rows, n);
	v = group_policy_rules(r) && r->has[P_GP] ? r->value[P_GP] :
	    r->value[P_LOCAL];
	if (!r->has[P_LOCAL] && !group_policy_rules(r)) {
		set_why(c, name, "%s (%s) has no AutoTuningLevelLocal",
		    TCP_CLASS, r->setting);
		return ENOENT;
	}
	return put_word(levels, v, buf, len);
}

/*
 * Group Policy in force on any template: refused, never fought.  The
 * value it sets is what status shows as current.
 */
static int
autotuning_set(struct win_ctx *c, const char *name, const char *value)
{
	struct cim_row	rows[CIM_MAX_ROWS];
	char		num[16];
	size_t		n, i;
	unsigned	v;
	int32_t		hr;
	int		err;

	if (code_of(levels, value, &v) == -1) {
		set_why(c, name, "not a level: disabled, highlyrestricted, "
		    "restricted, normal or experimental");
		return EINVAL;
	}
	if ((err = tcp_rows(c, name, tcp_props, 3, rows, &n)) != 0)
		return err;
	for (i = 0; i < n; i++)
		if (group_policy_rules(&rows[i])) {
			set_why(c, name, "Group Policy sets the auto-tuning "
			    "level (%s: AutoTuningLevelGroupPolicy %s, "
			    "AutoTuningLevelEffective GroupPolicy); tcptune "
			    "does not override it", rows[i].setting,
			    rows[i].has[P_GP] ? word_of(levels,
			    rows[i].value[P_GP], num, sizeof(num)) : "?");
			return EPERM;
		}
	for (i = 0; i < n; i++) {
		if (rows[i].has[P_LOCAL] && rows[i].value[P_LOCAL] == v)
			continue;
		hr = c->cim->update(c->cim, TCP_CLASS, rows[i].setting,
		    tcp_props[P_LOCAL], v);
		if (hr != CIM_OK)
			return cim_failed(c, name, TCP_CLASS, "change", hr);
	}
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
	return put_word(rss_values, row.value[0], buf, len);
}

static int
rss_set(struct win_ctx *c, const char *name, const char *value)
{
	unsigned	v;
	int32_t		hr;

	if (code_of(rss_values, value, &v) == -1) {
		set_why(c, name, "not a value: enabled or disabled");
		return EINVAL;
	}
	hr = c->cim->update(c->cim, OFFLOAD_CLASS, NULL, rss_props[0], v);
	return hr == CIM_OK ? 0 : cim_failed(c, name, OFFLOAD_CLASS,
	    "change", hr);
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
	return put_word(ts_values, r->value[0], buf, len);
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
			return put_word(providers, rows[i].value[0], buf,
			    len);
	set_why(c, name, "no %s template named %s here", TCP_CLASS, tmpl);
	return ENOENT;
}

/* ---- the backend */

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
	if (strncmp(name, CP_PREFIX, strlen(CP_PREFIX)) == 0 &&
	    name[strlen(CP_PREFIX)] != '\0')
		return provider_get(c, name, buf, len);
	set_why(c, name, NOT_A_KEY);
	return ENOENT;
}

static int
win_set(struct sysctl_backend *be, const char *name, const char *value)
{
	struct win_ctx	*c = be->ctx;

	if (strcmp(name, "tcp.autotuninglevel") == 0)
		return autotuning_set(c, name, value);
	if (strcmp(name, "offload.rss") == 0)
		return rss_set(c, name, value);
	if ((strncmp(name, CP_PREFIX, strlen(CP_PREFIX)) == 0 &&
	    name[strlen(CP_PREFIX)] != '\0') ||
	    strcmp(name, "tcp.timestamps") == 0 ||
	    strcmp(name, "offload.rsc") == 0) {
		set_why(c, name, "read-only: shown for status, never written "
		    "by tcptune");
		return EROFS;
	}
	set_why(c, name, NOT_A_KEY);
	return ENOENT;
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
