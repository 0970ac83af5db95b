/*
 * The part of Windows the Windows backend needs: read some uint8
 * properties of every instance of a CIM (WMI) class in root/StandardCimv2,
 * change one property of one instance, run netsh.exe when the provider
 * refuses a change, and read one registry value (the QoS policy).  cim_win.c speaks COM to
 * IWbemServices on Windows; tests/fake_cim.c keeps instances in memory,
 * so the backend's rules (backend_win.c) are tested on any system.
 */
#ifndef TCPTUNE_CIM_H
#define TCPTUNE_CIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * HRESULTs the backend tells apart (wbemcli.h, WBEMSTATUS; cim_win.c
 * checks each against the SDK's at compile time).
 */
#define CIM_OK			0
#define CIM_E_FAILED		((int32_t)0x80041001)
#define CIM_E_NOT_FOUND		((int32_t)0x80041002)
#define CIM_E_ACCESS_DENIED	((int32_t)0x80041003)
#define CIM_E_INVALID_PARAMETER	((int32_t)0x80041008)
#define CIM_E_NOT_SUPPORTED	((int32_t)0x8004100C)
#define CIM_E_INVALID_NAMESPACE	((int32_t)0x8004100E)
#define CIM_E_INVALID_CLASS	((int32_t)0x80041010)
#define CIM_E_ILLEGAL_OPERATION	((int32_t)0x8004101E)
#define CIM_E_READ_ONLY		((int32_t)0x80041023)
#define CIM_E_NOT_CAPABLE	((int32_t)0x80041024)	/* PROVIDER_NOT_CAPABLE */
#define CIM_E_INVALID_METHOD_PARAMETERS	((int32_t)0x8004102F)
#define CIM_E_ACCESSDENIED	((int32_t)0x80070005)	/* E_ACCESSDENIED */
#define CIM_E_INVALIDARG	((int32_t)0x80070057)	/* Win32 error 87 */

#define CIM_MAX_PROPS		4
#define CIM_MAX_ROWS		16
#define CIM_NAME_MAX		64

/* One instance: its SettingName ("" when the class has none) and values. */
struct cim_row {
	char		setting[CIM_NAME_MAX];
	unsigned	value[CIM_MAX_PROPS];
	bool		has[CIM_MAX_PROPS];	/* the property was there */
};

/* What netsh.exe did: its exit code and the start of its output. */
#define CIM_RUN_OUT		512
/* How long a netsh run may take, start to end (it answers in well under
 * a second); one that takes longer is ended, and netsh gives ETIMEDOUT. */
#define CIM_NETSH_LIMIT_S	30
struct cim_run {
	unsigned long	exit_code;
	char		out[CIM_RUN_OUT];	/* NUL-terminated */
};

struct cim {
	/* Every instance of cls, props[0..nprops) of each: CIM_OK or an HRESULT. */
	int32_t	(*query)(struct cim *, const char *cls,
		    const char *const *props, size_t nprops,
		    struct cim_row *rows, size_t maxrows, size_t *nrows);
	/* prop = value on the instance of cls whose SettingName is setting
	 * (NULL: the class's only instance). */
	int32_t	(*update)(struct cim *, const char *cls, const char *setting,
		    const char *prop, unsigned value);
	/*
	 * %SystemRoot%\System32\netsh.exe with args (NULL-terminated, one
	 * word each, no shell): 0 when it ran (its exit code and output in
	 * *run), ETIMEDOUT when it was ended at CIM_NETSH_LIMIT_S, or an
	 * errno when it could not be run.
	 */
	int	(*netsh)(struct cim *, const char *const *args,
		    struct cim_run *run);
	/*
	 * The value name under HKEY_LOCAL_MACHINE\key, REG_SZ as it is,
	 * REG_DWORD in decimal: 0, ENOENT when it is not there, or an errno.
	 */
	int	(*reg_value)(struct cim *, const char *key, const char *name,
		    char *buf, size_t len);
	void	(*free)(struct cim *);
	void	*ctx;
};

/* cim_win.c (Windows only) */
struct cim	*cim_wmi_new(void);
/* netsh_win.c (Windows only): struct cim's netsh on this system. */
int		 netsh_run(const char *const *, struct cim_run *);

/* backend_win.c: the backend over any struct cim; takes ownership. */
struct sysctl_backend;
struct sysctl_backend	*backend_windows_over(struct cim *);
const char		*cim_strerror(int32_t);

#endif /* TCPTUNE_CIM_H */
