/*
 * The registry policy Group Policy or Intune leaves for tcptune
 * (packaging/windows/tcptune.admx): HKLM\SOFTWARE\Policies\tcptune, with
 * CheckInterval (REG_DWORD) and a Sysctls subkey holding one REG_SZ per
 * key, named by the key.  Read here with RegOpenKeyExW, RegEnumValueW and
 * RegQueryValueExW (Microsoft Learn, "RegQueryValueExW function
 * (winreg.h)": a REG_SZ may lack its terminating NUL, so the length
 * returned is what counts); config_policy.c turns the values into a
 * config layer with a config's checks.  A key that does not exist, or
 * one with no values, is no policy.  Only Administrators and SYSTEM may
 * write under HKLM\SOFTWARE\Policies by default (docs/SECURITY.md); each
 * key is still held to the config file's ACL rule (win_trusted_key), so
 * a key someone loosened is refused.  trust_posix.c is the Unix side.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "tcptune.h"
#include "win.h"

#define POLICY_WKEY	L"SOFTWARE\\Policies\\tcptune"
#define POLICY_WSYSCTLS	L"Sysctls"
#define NAME_WMAX	16384	/* a registry value name's limit, in WCHARs */
#define TEXT_WMAX	(TT_VALUE_MAX * 2)

struct values {
	struct policy_value	*v;
	size_t			 n;
};

/* UTF-16 to UTF-8 into out; false when it does not fit or is not UTF-16. */
static bool
to_utf8(const wchar_t *w, int wlen, char *out, size_t size)
{
	int	n;

	n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, wlen, out,
	    (int)size - 1, NULL, NULL);
	if (n <= 0 && wlen != 0) {
		out[0] = '\0';
		return false;
	}
	out[n] = '\0';
	return true;
}

/* A REG_SZ's text, without the NUL it may or may not end with. */
static void
read_text(HKEY key, const wchar_t *wname, struct policy_value *v)
{
	wchar_t	text[TEXT_WMAX + 1];
	DWORD	type, size = sizeof(text) - sizeof(wchar_t);
	size_t	len;

	if (RegQueryValueExW(key, wname, NULL, &type, (BYTE *)text,
	    &size) != ERROR_SUCCESS || type != REG_SZ) {
		v->cut = true;	/* too long, or replaced as we read */
		return;
	}
	len = size / sizeof(wchar_t);
	text[len] = L'\0';
	len = wcslen(text);	/* a NUL inside ends it, as for any C reader */
	if (!to_utf8(text, (int)len, v->text, sizeof(v->text)))
		v->cut = true;
}

static void
read_dword(HKEY key, const wchar_t *wname, struct policy_value *v)
{
	DWORD	type, dw = 0, size = sizeof(dw);

	if (RegQueryValueExW(key, wname, NULL, &type, (BYTE *)&dw,
	    &size) != ERROR_SUCCESS || type != REG_DWORD ||
	    size != sizeof(dw)) {
		v->cut = true;
		return;
	}
	v->type = POLICY_DWORD;
	v->dword = dw;
}

/* Value i of key: 1 read, 0 none left, -1 a failure said in errs. */
static int
read_one(HKEY key, DWORD i, const char *label, struct policy_value *v,
    struct errlist *errs)
{
	static wchar_t	wname[NAME_WMAX + 1];
	char		why[128];
	DWORD		wlen = NAME_WMAX + 1, type;
	LSTATUS		rc;

	memset(v, 0, sizeof(*v));
	rc = RegEnumValueW(key, i, wname, &wlen, NULL, &type, NULL, NULL);
	if (rc == ERROR_NO_MORE_ITEMS)
		return 0;
	if (rc != ERROR_SUCCESS) {
		win_strerror((DWORD)rc, why, sizeof(why));
		errlist_add(errs, "%s: cannot read value %lu: %s", label,
		    (unsigned long)i, why);
		return -1;
	}
	if (!to_utf8(wname, (int)wlen, v->name, sizeof(v->name)) ||
	    strlen(v->name) >= TT_NAME_MAX)
		v->cut = true;
	v->regtype = type;
	v->type = POLICY_OTHER;
	if (type == REG_SZ) {
		v->type = POLICY_SZ;
		read_text(key, wname, v);
	} else if (type == REG_DWORD)
		read_dword(key, wname, v);
	return 1;
}

/* Every value of key; more than a config could hold is refused. */
static int
read_values(HKEY key, const char *label, struct values *out,
    struct errlist *errs)
{
	DWORD	n = 0, i;
	int	rv = 0;

	out->v = NULL;
	out->n = 0;
	if (RegQueryInfoKeyW(key, NULL, NULL, NULL, NULL, NULL, NULL, &n,
	    NULL, NULL, NULL, NULL) != ERROR_SUCCESS)
		n = 0;
	if (n > TT_MAX_KEYS + 4) {
		errlist_add(errs, "%s: %lu values, more than tcptune reads "
		    "(%d)", label, (unsigned long)n, TT_MAX_KEYS + 4);
		return -1;
	}
	if ((out->v = calloc(n + 1, sizeof(*out->v))) == NULL)
		fatal("%s", __func__);
	for (i = 0; i < n && rv == 0; i++) {
		switch (read_one(key, i, label, &out->v[out->n], errs)) {
		case 1: out->n++; break;
		case 0: i = n; break;		/* one went as we read */
		default: rv = -1; break;
		}
	}
	return rv;
}

/*
 * sub of key, or NULL when it does not exist (-1 for any other failure):
 * only a key Administrators and SYSTEM alone may change is believed, as
 * only such a config file is (trust_win.c).
 */
static int
open_key(HKEY key, const wchar_t *sub, const char *label, HKEY *out,
    struct errlist *errs)
{
	char	why[256];
	LSTATUS	rc;

	*out = NULL;
	rc = RegOpenKeyExW(key, sub, 0, KEY_READ | READ_CONTROL, out);
	if (rc == ERROR_FILE_NOT_FOUND || rc == ERROR_PATH_NOT_FOUND) {
		*out = NULL;
		return 0;
	}
	if (rc != ERROR_SUCCESS) {
		win_strerror((DWORD)rc, why, sizeof(why));
		errlist_add(errs, "%s: cannot open: %s", label, why);
		return -1;
	}
	if (win_trusted_key(*out, why, sizeof(why)) == -1) {
		errlist_add(errs, "%s: %s: refusing the policy", label, why);
		RegCloseKey(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

static int
read_policy(struct values *top, struct values *sys, struct errlist *errs)
{
	HKEY	root, sub = NULL;
	int	rv;

	if (open_key(HKEY_LOCAL_MACHINE, POLICY_WKEY, TT_POLICY_KEY, &root,
	    errs) == -1)
		return -1;
	if (root == NULL)
		return 0;
	rv = read_values(root, TT_POLICY_KEY, top, errs);
	if (rv == 0 && (rv = open_key(root, POLICY_WSYSCTLS,
	    TT_POLICY_SYSCTLS, &sub, errs)) == 0 && sub != NULL)
		rv = read_values(sub, TT_POLICY_SYSCTLS, sys, errs);
	if (sub != NULL)
		RegCloseKey(sub);
	RegCloseKey(root);
	return rv;
}

int
policy_load(struct config **cfg, struct errlist *errs)
{
	struct values	top = { NULL, 0 }, sys = { NULL, 0 };
	int		rv;

	*cfg = NULL;
	rv = read_policy(&top, &sys, errs);
	if (rv == 0 && top.n + sys.n > 0 &&
	    (*cfg = config_policy(top.v, top.n, sys.v, sys.n, errs)) == NULL)
		rv = -1;
	free(top.v);
	free(sys.v);
	return rv;
}

/* For messages: is there a policy key at all? */
bool
policy_present(void)
{
	HKEY	key;

	if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, POLICY_WKEY, 0, KEY_QUERY_VALUE,
	    &key) != ERROR_SUCCESS)
		return false;
	RegCloseKey(key);
	return true;
}
