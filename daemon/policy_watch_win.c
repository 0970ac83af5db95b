/*
 * The watch on the registry policy (lib/policy_win.c reads it), so that a
 * policy Group Policy or Intune changes is in force without a restart.
 *
 * RegNotifyChangeKeyValue (Microsoft Learn, "RegNotifyChangeKeyValue
 * function (winreg.h)") reports one change and must be called again after
 * each; with fAsynchronous it signals an event, which the loop waits on
 * (event_win.c).  HKLM\SOFTWARE\Policies is watched with its subtree, not
 * HKLM\SOFTWARE\Policies\tcptune: the tcptune key may not exist until the
 * first policy comes, and is removed with the last one.  A change to some
 * other product's policy wakes the daemon too; the caller reads the policy
 * and finds the same digest (no reload), which costs a few registry reads
 * at each Group Policy refresh.  REG_NOTIFY_THREAD_AGNOSTIC (Windows 8 and
 * later) keeps the registration from ending with the thread that made it.
 */
#include "config.h"

#include <stdlib.h>

#include <windows.h>

#include "tcptuned.h"
#include "event.h"
#include "win.h"

#define WATCH_FILTER	(REG_NOTIFY_CHANGE_NAME | REG_NOTIFY_CHANGE_LAST_SET)

struct policy_watch {
	struct evloop	*loop;
	HKEY		 key;
	HANDLE		 ev;
	void		(*cb)(void *);
	void		*arg;
};

static int
arm(struct policy_watch *w)
{
	LSTATUS	rc;

	rc = RegNotifyChangeKeyValue(w->key, TRUE,
	    WATCH_FILTER | REG_NOTIFY_THREAD_AGNOSTIC, w->ev, TRUE);
	if (rc == ERROR_INVALID_PARAMETER)	/* a system without the flag */
		rc = RegNotifyChangeKeyValue(w->key, TRUE, WATCH_FILTER, w->ev,
		    TRUE);
	if (rc != ERROR_SUCCESS) {
		SetLastError((DWORD)rc);
		return -1;
	}
	return 0;
}

static void
on_change(void *arg)
{
	struct policy_watch	*w = arg;

	if (arm(w) == -1)
		log_warnx("the registry policy is no longer watched (error "
		    "%lu): reload with tcptunectl", GetLastError());
	w->cb(w->arg);
}

/* HKLM\SOFTWARE\Policies; HKLM\SOFTWARE if a system lacks that key. */
static HKEY
open_watched(void)
{
	HKEY	key;

	if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Policies", 0,
	    KEY_NOTIFY, &key) == ERROR_SUCCESS)
		return key;
	if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SOFTWARE", 0, KEY_NOTIFY,
	    &key) == ERROR_SUCCESS)
		return key;
	return NULL;
}

struct policy_watch *
policy_watch_new(struct evloop *loop, void (*cb)(void *), void *arg)
{
	struct policy_watch	*w;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		fatal("%s", __func__);
	w->loop = loop;
	w->cb = cb;
	w->arg = arg;
	w->key = open_watched();
	w->ev = CreateEventW(NULL, FALSE, FALSE, NULL);
	if (w->key == NULL || w->ev == NULL || arm(w) == -1 ||
	    ev_handle_add(loop, w->ev, on_change, w) == -1) {
		log_warnx("cannot watch %s (error %lu): a policy change "
		    "needs a reload", TT_POLICY_KEY, GetLastError());
		policy_watch_free(w);
		return NULL;
	}
	log_debug("watching %s", TT_POLICY_KEY);
	return w;
}

void
policy_watch_free(struct policy_watch *w)
{
	if (w == NULL)
		return;
	if (w->ev != NULL && w->loop != NULL)
		ev_handle_del(w->loop, w->ev);
	if (w->key != NULL)
		RegCloseKey(w->key);
	if (w->ev != NULL)
		CloseHandle(w->ev);
	free(w);
}
