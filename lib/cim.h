/*
 * The part of CIM (WMI) the Windows backend needs: read some uint8
 * properties of every instance of a class in root/StandardCimv2, and
 * change one property of one instance.  cim_win.c speaks COM to
 * IWbemServices on Windows; tests/fake_cim.c keeps instances in memory,
 * so the backend's rules (backend_win.c) are tested on any system.
 */
#ifndef TCPTUNE_CIM_H
#define TCPTUNE_CIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* HRESULTs the backend tells apart (wbemcli.h, WBEMSTATUS). */
#define CIM_OK			0
#define CIM_E_FAILED		((int32_t)0x80041001)
#define CIM_E_NOT_FOUND		((int32_t)0x80041002)
#define CIM_E_ACCESS_DENIED	((int32_t)0x80041003)
#define CIM_E_INVALID_NAMESPACE	((int32_t)0x8004100E)
#define CIM_E_INVALID_CLASS	((int32_t)0x80041010)
#define CIM_E_NOT_SUPPORTED	((int32_t)0x8004100C)
#define CIM_E_READ_ONLY		((int32_t)0x80041024)	/* ILLEGAL_OPERATION */
#define CIM_E_ACCESSDENIED	((int32_t)0x80070005)	/* E_ACCESSDENIED */

#define CIM_MAX_PROPS		4
#define CIM_MAX_ROWS		16
#define CIM_NAME_MAX		64

/* One instance: its SettingName ("" when the class has none) and values. */
struct cim_row {
	char		setting[CIM_NAME_MAX];
	unsigned	value[CIM_MAX_PROPS];
	bool		has[CIM_MAX_PROPS];	/* the property was there */
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
	void	(*free)(struct cim *);
	void	*ctx;
};

/* cim_win.c (Windows only) */
struct cim	*cim_wmi_new(void);

/* backend_win.c: the backend over any struct cim; takes ownership. */
struct sysctl_backend;
struct sysctl_backend	*backend_windows_over(struct cim *);
const char		*cim_strerror(int32_t);

#endif /* TCPTUNE_CIM_H */
