/*
 * The fake CIM of fake_cim.h.  Values are kept as the provider keeps
 * them, uint8 codes, so the backend's word tables are tested too.
 * It is a real Windows 10/11 client as published dumps show it
 * (lib/backend_win.c has the sources): the Automatic template with every
 * tuning property empty, Group Policy not configured, the custom templates
 * InternetCustom and DatacenterCustom present, Scaling heuristics
 * disabled, no QoS policy value.  fake_cim_client_edition() makes the
 * built-in templates refuse changes as client editions do; netsh.exe is
 * a fake runner that changes every template, as the global setting does.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cim.h"

#define NTEMPLATES	6

/* SettingName of each template (MSFT_NetTCPSetting docs). */
static const char *const templates[NTEMPLATES] = {
	"Automatic", "InternetCustom", "DatacenterCustom", "Compat",
	"Datacenter", "Internet"
};
/*
 * CongestionProvider of a Windows 11 client: CUBIC (5), Compat NewReno (1),
 * codes Microsoft does not document (lib/backend_win.c, providers[]).
 */
static const unsigned stock_provider[NTEMPLATES] = { 5, 5, 5, 1, 5, 5 };

struct fail {
	char	cls[CIM_NAME_MAX];
	int32_t	hr;
	bool	update_only;
};

struct fake_cim {
	struct cim	cim;
	unsigned	local[NTEMPLATES];
	unsigned	provider[NTEMPLATES];
	int		gp;		/* level Group Policy sets, -1 none */
	unsigned	timestamps[NTEMPLATES];
	unsigned	heuristics[NTEMPLATES];
	unsigned	rss;
	unsigned	rsc;
	struct fail	fails[4];
	size_t		nfails;
	unsigned	nupdates;
	unsigned	automatic_writes;
	int32_t		client_hr;	/* built-ins refuse with it; 0 no */
	enum fake_netsh	netsh_mode;
	unsigned long	netsh_exit;
	char		netsh_out[128];
	unsigned	netsh_calls;
	char		netsh_args[256];
	char		qos[64];	/* "" none */
};

/* Automatic: every tuning property empty on a real Windows. */
#define AUTOMATIC	0
static bool
is_custom(size_t t)
{
	return strcmp(templates[t], "InternetCustom") == 0 ||
	    strcmp(templates[t], "DatacenterCustom") == 0;
}

static int32_t
failure(struct fake_cim *f, const char *cls, bool update)
{
	size_t	i;

	for (i = 0; i < f->nfails; i++)
		if (strcmp(f->fails[i].cls, cls) == 0 && f->fails[i].hr != 0 &&
		    (!f->fails[i].update_only || update))
			return f->fails[i].hr;
	return CIM_OK;
}

static bool
prop_value(struct fake_cim *f, size_t t, const char *prop, unsigned *v)
{
	if (t == AUTOMATIC)
		return false;
	if (strcmp(prop, "AutoTuningLevelLocal") == 0)
		*v = f->local[t];
	else if (strcmp(prop, "AutoTuningLevelGroupPolicy") == 0)
		*v = f->gp < 0 ? 0 : (unsigned)f->gp;
	else if (strcmp(prop, "AutoTuningLevelEffective") == 0)
		*v = f->gp < 0 ? 0 : 1;
	else if (strcmp(prop, "CongestionProvider") == 0)
		*v = f->provider[t];
	else if (strcmp(prop, "Timestamps") == 0)
		*v = f->timestamps[t];
	else if (strcmp(prop, "ScalingHeuristics") == 0)
		*v = f->heuristics[t];
	else
		return false;
	return true;
}

static int32_t
fake_query(struct cim *cim, const char *cls, const char *const *props,
    size_t nprops, struct cim_row *rows, size_t maxrows, size_t *nrows)
{
	struct fake_cim	*f = cim->ctx;
	int32_t		 hr;
	size_t		 t, p;

	*nrows = 0;
	if ((hr = failure(f, cls, false)) != CIM_OK)
		return hr;
	if (strcmp(cls, "MSFT_NetOffloadGlobalSetting") == 0) {
		memset(rows, 0, sizeof(*rows));
		for (p = 0; p < nprops && p < CIM_MAX_PROPS; p++)
			if (strcmp(props[p], "ReceiveSideScaling") == 0) {
				rows[0].value[p] = f->rss;
				rows[0].has[p] = true;
			} else if (strcmp(props[p],
			    "ReceiveSegmentCoalescing") == 0) {
				rows[0].value[p] = f->rsc;
				rows[0].has[p] = true;
			}
		*nrows = 1;
		return CIM_OK;
	}
	if (strcmp(cls, "MSFT_NetTCPSetting") != 0)
		return CIM_E_INVALID_CLASS;
	for (t = 0; t < NTEMPLATES && t < maxrows; t++) {
		memset(&rows[t], 0, sizeof(rows[t]));
		strcpy(rows[t].setting, templates[t]);
		for (p = 0; p < nprops && p < CIM_MAX_PROPS; p++)
			rows[t].has[p] = prop_value(f, t, props[p],
			    &rows[t].value[p]);
		(*nrows)++;
	}
	return CIM_OK;
}

static int32_t
fake_update(struct cim *cim, const char *cls, const char *setting,
    const char *prop, unsigned value)
{
	struct fake_cim	*f = cim->ctx;
	int32_t		 hr;
	size_t		 t;

	if ((hr = failure(f, cls, true)) != CIM_OK)
		return hr;
	if (strcmp(cls, "MSFT_NetOffloadGlobalSetting") == 0 &&
	    setting == NULL && strcmp(prop, "ReceiveSideScaling") == 0 &&
	    value <= 1) {
		f->rss = value;
		f->nupdates++;
		return CIM_OK;
	}
	if (strcmp(cls, "MSFT_NetTCPSetting") != 0 || setting == NULL)
		return CIM_E_INVALID_CLASS;
	if (strcmp(prop, "AutoTuningLevelLocal") != 0)
		return CIM_E_READ_ONLY;	/* the rest is not ours to write */
	if (value > 4)
		return CIM_E_FAILED;
	for (t = 0; t < NTEMPLATES; t++) {
		if (strcmp(templates[t], setting) != 0)
			continue;
		if (t == AUTOMATIC) {
			/* not a property it has: the provider refuses */
			f->automatic_writes++;
			return CIM_E_INVALID_PARAMETER;
		}
		if (f->client_hr != 0 && !is_custom(t))
			return f->client_hr;
		f->local[t] = value;
		f->nupdates++;
		return CIM_OK;
	}
	return CIM_E_NOT_FOUND;
}

/* "interface tcp set global autotuninglevel=X" or "... rss=X": applied. */
static int
netsh_apply(struct fake_cim *f, const char *arg)
{
	static const char *const lv[] = { "disabled", "highlyrestricted",
	    "restricted", "normal", "experimental" };
	size_t	t, i;

	if (strcmp(arg, "rss=enabled") == 0 || strcmp(arg, "rss=disabled") == 0) {
		f->rss = strcmp(arg, "rss=enabled") == 0;
		return 0;
	}
	if (strncmp(arg, "autotuninglevel=", 16) != 0)
		return 1;
	for (i = 0; i < 5; i++)
		if (strcmp(arg + 16, lv[i]) == 0) {
			for (t = 0; t < NTEMPLATES; t++)
				if (t != AUTOMATIC)
					f->local[t] = (unsigned)i;
			return 0;
		}
	return 1;
}

static int
fake_netsh(struct cim *cim, const char *const *args, struct cim_run *run)
{
	struct fake_cim	*f = cim->ctx;
	size_t		 i, n = 0;

	f->netsh_calls++;
	f->netsh_args[0] = '\0';
	for (i = 0; args[i] != NULL; i++) {
		strncat(f->netsh_args, i > 0 ? " " : "",
		    sizeof(f->netsh_args) - strlen(f->netsh_args) - 1);
		strncat(f->netsh_args, args[i],
		    sizeof(f->netsh_args) - strlen(f->netsh_args) - 1);
		n = i;
	}
	if (f->netsh_mode == FAKE_NETSH_CANNOT_RUN)
		return ENOENT;
	if (f->netsh_mode == FAKE_NETSH_HANGS)	/* as run_win.c ends it */
		return ETIMEDOUT;
	if (f->netsh_mode == FAKE_NETSH_FAILS) {
		run->exit_code = f->netsh_exit;
		snprintf(run->out, sizeof(run->out), "%s", f->netsh_out);
		return 0;
	}
	run->exit_code = f->netsh_mode == FAKE_NETSH_IGNORES ? 0 :
	    (unsigned long)netsh_apply(f, args[n]);
	snprintf(run->out, sizeof(run->out), "\r\nOk.\r\n\r\n");
	return 0;
}

static int
fake_reg_value(struct cim *cim, const char *key, const char *name,
    char *buf, size_t len)
{
	struct fake_cim	*f = cim->ctx;

	if (strcmp(key, "SOFTWARE\\Policies\\Microsoft\\Windows\\QoS") != 0 ||
	    strcmp(name, "Tcp Autotuning Level") != 0 || f->qos[0] == '\0')
		return ENOENT;
	snprintf(buf, len, "%s", f->qos);
	return 0;
}

static void
fake_free(struct cim *cim)
{
	free(cim->ctx);
}

struct fake_cim *
fake_cim_new(void)
{
	struct fake_cim	*f;
	size_t		 t;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		abort();
	for (t = 0; t < NTEMPLATES; t++) {
		f->local[t] = 3;
		f->provider[t] = stock_provider[t];
	}
	f->gp = -1;
	f->rss = 1;
	f->rsc = 1;	/* timestamps 0: disabled, as Windows ships */
	f->cim.query = fake_query;
	f->cim.update = fake_update;
	f->cim.netsh = fake_netsh;
	f->cim.reg_value = fake_reg_value;
	f->cim.free = fake_free;
	f->cim.ctx = f;
	return f;
}

struct cim *
fake_cim_cim(struct fake_cim *f)
{
	return &f->cim;
}

void
fake_cim_poke_level(struct fake_cim *f, unsigned level)
{
	size_t	t;

	for (t = 0; t < NTEMPLATES; t++)
		f->local[t] = level;
}

void
fake_cim_poke_rss(struct fake_cim *f, unsigned on)
{
	f->rss = on;
}

void
fake_cim_poke_rsc(struct fake_cim *f, unsigned on)
{
	f->rsc = on;
}

void
fake_cim_poke_timestamps(struct fake_cim *f, unsigned v)
{
	size_t	t;

	for (t = 0; t < NTEMPLATES; t++)
		f->timestamps[t] = v;
}

unsigned
fake_cim_level(struct fake_cim *f, const char *setting)
{
	size_t	t;

	for (t = 0; t < NTEMPLATES; t++)
		if (strcmp(templates[t], setting) == 0)
			return f->local[t];
	abort();
}

unsigned
fake_cim_rss(struct fake_cim *f)
{
	return f->rss;
}

void
fake_cim_group_policy(struct fake_cim *f, int level)
{
	f->gp = level;
}

static void
add_fail(struct fake_cim *f, const char *cls, int32_t hr, bool update_only)
{
	size_t	i;

	for (i = 0; i < f->nfails; i++)
		if (strcmp(f->fails[i].cls, cls) == 0 &&
		    f->fails[i].update_only == update_only) {
			f->fails[i].hr = hr;
			return;
		}
	if (f->nfails == sizeof(f->fails) / sizeof(f->fails[0]))
		abort();
	strncpy(f->fails[f->nfails].cls, cls, CIM_NAME_MAX - 1);
	f->fails[f->nfails].hr = hr;
	f->fails[f->nfails].update_only = update_only;
	f->nfails++;
}

void
fake_cim_fail_class(struct fake_cim *f, const char *cls, int32_t hr)
{
	add_fail(f, cls, hr, false);
}

void
fake_cim_fail_update(struct fake_cim *f, const char *cls, int32_t hr)
{
	add_fail(f, cls, hr, true);
}

unsigned
fake_cim_nupdates(struct fake_cim *f)
{
	return f->nupdates;
}

void
fake_cim_client_edition(struct fake_cim *f, int32_t hr)
{
	f->client_hr = hr;
}

void
fake_cim_netsh(struct fake_cim *f, enum fake_netsh mode,
    unsigned long exit_code, const char *out)
{
	f->netsh_mode = mode;
	f->netsh_exit = exit_code;
	snprintf(f->netsh_out, sizeof(f->netsh_out), "%s", out);
}

unsigned
fake_cim_netsh_calls(struct fake_cim *f)
{
	return f->netsh_calls;
}

const char *
fake_cim_netsh_args(struct fake_cim *f)
{
	return f->netsh_args;
}

unsigned
fake_cim_automatic_writes(struct fake_cim *f)
{
	return f->automatic_writes;
}

void
fake_cim_poke_heuristics(struct fake_cim *f, unsigned on)
{
	size_t	t;

	for (t = 0; t < NTEMPLATES; t++)
		f->heuristics[t] = on;
}

void
fake_cim_qos_policy(struct fake_cim *f, const char *value)
{
	snprintf(f->qos, sizeof(f->qos), "%s", value == NULL ? "" : value);
}
