/*
 * struct cim over WMI on Windows: COM, IWbemLocator::ConnectServer on
 * ROOT\StandardCimv2, IWbemServices::ExecQuery (WQL) to read and
 * IWbemServices::PutInstance with WBEM_FLAG_UPDATE_ONLY to change an
 * existing instance (Microsoft Learn, "Example: Getting WMI Data from the
 * Local Computer", IWbemServices::PutInstance).  The connection is made
 * on first use and again after a failure, so a WMI service that starts
 * late or restarts is picked up by the next check.  Every failure comes
 * back as its HRESULT for backend_win.c to name.
 */
#define COBJMACROS
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>
#include <objbase.h>
#include <oleauto.h>
#include <wbemidl.h>

#include "tcptune.h"
#include "cim.h"
#include "win.h"

/* cim.h's codes are the SDK's (a typo there would misname a refusal). */
_Static_assert(CIM_E_INVALID_PARAMETER == (int32_t)WBEM_E_INVALID_PARAMETER,
    "WBEM_E_INVALID_PARAMETER");
_Static_assert(CIM_E_NOT_SUPPORTED == (int32_t)WBEM_E_NOT_SUPPORTED,
    "WBEM_E_NOT_SUPPORTED");
_Static_assert(CIM_E_ILLEGAL_OPERATION == (int32_t)WBEM_E_ILLEGAL_OPERATION,
    "WBEM_E_ILLEGAL_OPERATION");
_Static_assert(CIM_E_READ_ONLY == (int32_t)WBEM_E_READ_ONLY,
    "WBEM_E_READ_ONLY");
_Static_assert(CIM_E_NOT_CAPABLE == (int32_t)WBEM_E_PROVIDER_NOT_CAPABLE,
    "WBEM_E_PROVIDER_NOT_CAPABLE");
_Static_assert(CIM_E_INVALID_METHOD_PARAMETERS ==
    (int32_t)WBEM_E_INVALID_METHOD_PARAMETERS, "WBEM_E_INVALID_METHOD_...");
_Static_assert(CIM_E_INVALID_NAMESPACE == (int32_t)WBEM_E_INVALID_NAMESPACE,
    "WBEM_E_INVALID_NAMESPACE");
_Static_assert(CIM_E_INVALID_CLASS == (int32_t)WBEM_E_INVALID_CLASS,
    "WBEM_E_INVALID_CLASS");
_Static_assert(CIM_E_INVALIDARG == (int32_t)E_INVALIDARG, "E_INVALIDARG");
_Static_assert(CIM_E_INVALIDARG ==
    (int32_t)HRESULT_FROM_WIN32(ERROR_INVALID_PARAMETER), "error 87");

#define CIM_NAMESPACE	L"ROOT\\StandardCimv2"
#define CIM_TIMEOUT_MS	10000	/* per instance of a query */

struct wmi {
	IWbemServices	*svc;
	bool		 com;	/* CoInitializeEx succeeded: uninit on free */
};

static HRESULT
wmi_connect(struct wmi *w)
{
	IWbemLocator	*loc = NULL;
	BSTR		 ns;
	HRESULT		 hr;

	if (w->svc != NULL)
		return S_OK;
	hr = CoCreateInstance(&CLSID_WbemLocator, NULL, CLSCTX_INPROC_SERVER,
	    &IID_IWbemLocator, (void **)&loc);
	if (FAILED(hr))
		return hr;
	if ((ns = SysAllocString(CIM_NAMESPACE)) == NULL) {
		IWbemLocator_Release(loc);
		return E_OUTOFMEMORY;
	}
	hr = IWbemLocator_ConnectServer(loc, ns, NULL, NULL, NULL, 0, NULL,
	    NULL, &w->svc);
	SysFreeString(ns);
	IWbemLocator_Release(loc);
	if (FAILED(hr)) {
		w->svc = NULL;
		return hr;
	}
	hr = CoSetProxyBlanket((IUnknown *)w->svc, RPC_C_AUTHN_WINNT,
	    RPC_C_AUTHZ_NONE, NULL, RPC_C_AUTHN_LEVEL_CALL,
	    RPC_C_IMP_LEVEL_IMPERSONATE, NULL, EOAC_NONE);
	if (FAILED(hr)) {
		IWbemServices_Release(w->svc);
		w->svc = NULL;
	}
	return hr;
}

static void
wmi_drop(struct wmi *w)
{
	if (w->svc != NULL)
		IWbemServices_Release(w->svc);
	w->svc = NULL;
}

static bool
widen(const char *s, wchar_t *out, size_t len)
{
	return MultiByteToWideChar(CP_UTF8, 0, s, -1, out, (int)len) != 0;
}

static bool
variant_uint(const VARIANT *v, unsigned *out)
{
	switch (V_VT(v)) {
	case VT_UI1:	*out = V_UI1(v); return true;
	case VT_I2:	*out = (unsigned)V_I2(v); return true;
	case VT_I4:	*out = (unsigned)V_I4(v); return true;
	case VT_UI4:	*out = V_UI4(v); return true;
	default:	return false;
	}
}

static void
read_row(IWbemClassObject *obj, const char *const *props, size_t nprops,
    struct cim_row *row)
{
	wchar_t	name[CIM_NAME_MAX];
	VARIANT	v;
	size_t	p;

	memset(row, 0, sizeof(*row));
	VariantInit(&v);
	if (SUCCEEDED(IWbemClassObject_Get(obj, L"SettingName", 0, &v, NULL,
	    NULL)) && V_VT(&v) == VT_BSTR)
		WideCharToMultiByte(CP_UTF8, 0, V_BSTR(&v), -1, row->setting,
		    sizeof(row->setting), NULL, NULL);
	VariantClear(&v);
	for (p = 0; p < nprops && p < CIM_MAX_PROPS; p++) {
		if (!widen(props[p], name, CIM_NAME_MAX))
			continue;
		if (SUCCEEDED(IWbemClassObject_Get(obj, name, 0, &v, NULL,
		    NULL)))
			row->has[p] = variant_uint(&v, &row->value[p]);
		VariantClear(&v);
	}
}

/*
 * Every instance of cls (WQL "SELECT * FROM cls"), one at a time; cb sees
 * each and may stop the walk by returning false.
 */
static HRESULT
each_instance(struct wmi *w, const char *cls,
    bool (*cb)(IWbemClassObject *, void *), void *arg)
{
	IEnumWbemClassObject	*en = NULL;
	IWbemClassObject	*obj;
	wchar_t			 q[128], wcls[CIM_NAME_MAX];
	BSTR			 lang, query;
	ULONG			 got;
	HRESULT			 hr;
	bool			 more = true;

	if (FAILED(hr = wmi_connect(w)))
		return hr;
	if (!widen(cls, wcls, CIM_NAME_MAX))
		return (HRESULT)WBEM_E_INVALID_CLASS;
	swprintf(q, sizeof(q) / sizeof(q[0]), L"SELECT * FROM %ls", wcls);
	lang = SysAllocString(L"WQL");
	query = SysAllocString(q);
	if (lang == NULL || query == NULL)
		hr = E_OUTOFMEMORY;
	else
		hr = IWbemServices_ExecQuery(w->svc, lang, query,
		    WBEM_FLAG_FORWARD_ONLY | WBEM_FLAG_RETURN_IMMEDIATELY,
		    NULL, &en);
	SysFreeString(lang);
	SysFreeString(query);
	while (SUCCEEDED(hr) && more) {
		obj = NULL;
		hr = IEnumWbemClassObject_Next(en, CIM_TIMEOUT_MS, 1, &obj,
		    &got);
		if (hr == (HRESULT)WBEM_S_TIMEDOUT)
			hr = (HRESULT)WBEM_E_TIMED_OUT;
		if (FAILED(hr) || got == 0)
			break;
		more = cb(obj, arg);
		IWbemClassObject_Release(obj);
	}
	if (en != NULL)
		IEnumWbemClassObject_Release(en);
	if (hr == (HRESULT)WBEM_S_FALSE)
		hr = S_OK;
	if (FAILED(hr) && hr != (HRESULT)WBEM_E_INVALID_CLASS &&
	    hr != (HRESULT)WBEM_E_INVALID_QUERY)
		wmi_drop(w);	/* connect again next time */
	return hr;
}

struct query_walk {
	const char *const	*props;
	size_t			 nprops;
	struct cim_row		*rows;
	size_t			 max;
	size_t			 n;
};

static bool
query_one(IWbemClassObject *obj, void *arg)
{
	struct query_walk	*q = arg;

	read_row(obj, q->props, q->nprops, &q->rows[q->n++]);
	return q->n < q->max;
}

static int32_t
wmi_query(struct cim *cim, const char *cls, const char *const *props,
    size_t nprops, struct cim_row *rows, size_t maxrows, size_t *nrows)
{
	struct query_walk	q = { props, nprops, rows, maxrows, 0 };
	HRESULT			hr;

	*nrows = 0;
	if (maxrows == 0)
		return CIM_OK;
	hr = each_instance(cim->ctx, cls, query_one, &q);
	*nrows = q.n;
	return (int32_t)hr;
}

struct update_walk {
	struct wmi	*w;
	const char	*setting;
	wchar_t		 prop[CIM_NAME_MAX];
	unsigned	 value;
	HRESULT		 hr;
	bool		 found;
};

static bool
update_one(IWbemClassObject *obj, void *arg)
{
	struct update_walk	*u = arg;
	struct cim_row		 row;
	VARIANT			 v;

	if (u->setting != NULL) {
		read_row(obj, NULL, 0, &row);
		if (strcmp(row.setting, u->setting) != 0)
			return true;
	}
	u->found = true;
	VariantInit(&v);
	V_VT(&v) = VT_UI1;	/* the properties are uint8 */
	V_UI1(&v) = (BYTE)u->value;
	u->hr = IWbemClassObject_Put(obj, u->prop, 0, &v, 0);
	if (SUCCEEDED(u->hr))
		u->hr = IWbemServices_PutInstance(u->w->svc, obj,
		    WBEM_FLAG_UPDATE_ONLY, NULL, NULL);
	return false;
}

static int32_t
wmi_update(struct cim *cim, const char *cls, const char *setting,
    const char *prop, unsigned value)
{
	struct update_walk	u;
	HRESULT			hr;

	memset(&u, 0, sizeof(u));
	u.w = cim->ctx;
	u.setting = setting;
	u.value = value;
	if (value > 0xff || !widen(prop, u.prop, CIM_NAME_MAX))
		return CIM_E_FAILED;
	hr = each_instance(u.w, cls, update_one, &u);
	if (FAILED(hr))
		return (int32_t)hr;
	if (!u.found)
		return CIM_E_NOT_FOUND;
	return (int32_t)u.hr;
}

static int
wmi_netsh(struct cim *cim, const char *const *args, struct cim_run *run)
{
	(void)cim;
	return netsh_run(args, run);
}

/* A policy value, read without following anything but HKLM's own key. */
static int
wmi_reg_value(struct cim *cim, const char *key, const char *name, char *buf,
    size_t len)
{
	wchar_t	wkey[256], wname[128], wval[256];
	DWORD	type, size = sizeof(wval) - sizeof(wchar_t), dw;
	LSTATUS	rc;

	(void)cim;
	if (!widen(key, wkey, 256) || !widen(name, wname, 128))
		return EINVAL;
	rc = RegGetValueW(HKEY_LOCAL_MACHINE, wkey, wname, RRF_RT_REG_SZ |
	    RRF_RT_REG_DWORD, &type, wval, &size);
	if (rc == ERROR_FILE_NOT_FOUND || rc == ERROR_PATH_NOT_FOUND)
		return ENOENT;
	if (rc != ERROR_SUCCESS)
		return win_errno((DWORD)rc);
	if (type == REG_DWORD) {
		memcpy(&dw, wval, sizeof(dw));
		snprintf(buf, len, "%lu", (unsigned long)dw);
	} else if (WideCharToMultiByte(CP_UTF8, 0, wval, -1, buf, (int)len,
	    NULL, NULL) == 0)
		return ERANGE;
	return 0;
}

static void
wmi_free(struct cim *cim)
{
	struct wmi	*w = cim->ctx;

	wmi_drop(w);
	if (w->com)
		CoUninitialize();
	free(w);
	free(cim);
}

/*
 * COM for this thread (the daemon's one thread), and process security
 * that lets WMI impersonate us; RPC_E_TOO_LATE means someone set it.
 */
struct cim *
cim_wmi_new(void)
{
	struct cim	*cim;
	struct wmi	*w;
	HRESULT		 hr;

	cim = calloc(1, sizeof(*cim));
	w = calloc(1, sizeof(*w));
	if (cim == NULL || w == NULL) {
		free(cim);
		free(w);
		return NULL;
	}
	hr = CoInitializeEx(NULL, COINIT_MULTITHREADED);
	w->com = SUCCEEDED(hr);
	hr = CoInitializeSecurity(NULL, -1, NULL, NULL,
	    RPC_C_AUTHN_LEVEL_DEFAULT, RPC_C_IMP_LEVEL_IMPERSONATE, NULL,
	    EOAC_NONE, NULL);
	if (FAILED(hr) && hr != RPC_E_TOO_LATE)
		log_warnx("CoInitializeSecurity: HRESULT 0x%08lX",
		    (unsigned long)hr);
	cim->query = wmi_query;
	cim->update = wmi_update;
	cim->netsh = wmi_netsh;
	cim->reg_value = wmi_reg_value;
	cim->free = wmi_free;
	cim->ctx = w;
	return cim;
}

struct sysctl_backend *
backend_windows_new(void)
{
	return backend_windows_over(cim_wmi_new());
}
