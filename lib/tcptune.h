/*
 * tcptune: code shared by tcptuned and tcptunectl.
 * Prototypes are grouped by the file that defines them.
 */
#ifndef TCPTUNE_H
#define TCPTUNE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "catalogue.h"

#if defined(__MINGW_PRINTF_FORMAT)	/* mingw-w64's C99 printf, not msvcrt's */
#define TT_PRINTF(f, a)	__attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#define TT_NORETURN	__attribute__((noreturn))
#elif defined(__GNUC__) || defined(__clang__)
#define TT_PRINTF(f, a)	__attribute__((format(printf, f, a)))
#define TT_NORETURN	__attribute__((noreturn))
#else
#define TT_PRINTF(f, a)
#define TT_NORETURN
#endif

/* The number of elements of an array (not a pointer). */
#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))

#define TT_NAME_MAX	128	/* sysctl name, with the NUL */
#define TT_VALUE_MAX	256	/* sysctl value as text, with the NUL */
#define TT_VALUE_MAX_WORDS	(TT_VALUE_MAX / 2)	/* numbers in a value */
#define TT_CONFIG_MAX_BYTES	(1024 * 1024)
#define TT_MAX_KEYS	256
#define TT_CHECK_MIN	1
#define TT_CHECK_MAX	86400
#define TT_CHECK_DEFAULT	60

/* log.c: OpenBSD-daemon style logging, stderr or syslog. */
void	 log_init(int to_stderr, int verbose, const char *ident);
void	 log_echo_errors(int on);
void	 log_warn(const char *, ...) TT_PRINTF(1, 2);
void	 log_warnx(const char *, ...) TT_PRINTF(1, 2);
void	 log_notice(const char *, ...) TT_PRINTF(1, 2);	/* state changes */
void	 log_info(const char *, ...) TT_PRINTF(1, 2);
void	 log_debug(const char *, ...) TT_PRINTF(1, 2);
void	 fatal(const char *, ...) TT_PRINTF(1, 2) TT_NORETURN;
void	 fatalx(const char *, ...) TT_PRINTF(1, 2) TT_NORETURN;

/* log_posix.c | log_win.c: the system log, one line a call. */
enum log_level {
	TT_LOG_CRIT,
	TT_LOG_ERR,
	TT_LOG_NOTICE,		/* what an administrator must see */
	TT_LOG_INFO,
	TT_LOG_DEBUG
};
void	 log_sink_open(const char *);
void	 log_sink_write(enum log_level, const char *);
/* log.c: one line at a chosen level (control.c's bound); whether it shows. */
void	 log_at(enum log_level, const char *, ...) TT_PRINTF(2, 3);
bool	 log_enabled(enum log_level);

/* log.c: an ordered list of messages, e.g. every config error. */
struct errlist {
	char	**msg;
	size_t	  n;
	size_t	  cap;
};
void	 errlist_init(struct errlist *);
void	 errlist_add(struct errlist *, const char *, ...) TT_PRINTF(2, 3);
void	 errlist_addv(struct errlist *, const char *, va_list) TT_PRINTF(2, 0);
void	 errlist_clear(struct errlist *);

/* config.c: /etc/tcptune.conf, an Apple plist read with libxml2. */
enum key_mode {
	MODE_ENFORCE = 0,	/* revert any drift */
	MODE_ONCE,		/* apply at start and reload only */
	MODE_AT_LEAST		/* raise when below, never lower */
};
enum on_reject {
	REJECT_FAIL = 0,	/* report the refusal, leave the key */
	REJECT_CLAMP		/* set the highest value the kernel takes */
};
struct config_key {
	char		 name[TT_NAME_MAX];
	char		 value[TT_VALUE_MAX];	/* normalized text */
	bool		 numeric;	/* one or more integers */
	enum key_mode	 mode;
	enum on_reject	 on_reject;
	int		 line;
	bool		 managed;	/* from the managed file (config_model.c) */
	bool		 policy;	/* from the registry policy (Windows) */
};
#define TT_METRICS_DIR_MAX	1024	/* MetricsTextfileDirectory */
struct config {
	char		  path[1024];
	unsigned	  check_interval;	/* seconds */
	bool		  restore_on_exit;
	bool		  allow_any_sysctl;	/* beyond net.*, kern.ipc.* */
	size_t		  nkeys;
	struct config_key *keys;		/* in file order */
	uint64_t	  digest;		/* of the file's bytes */
	unsigned	  set;			/* CONFIG_SET_*: given in the file */
	char		  managed_path[1024];	/* "" when no managed file */
	char		  policy_path[128];	/* "" when no policy layer */
	char		  metrics_dir[TT_METRICS_DIR_MAX];	/* where tcptuned
					   writes tcptune.prom; "" none */
};
#define CONFIG_SET_INTERVAL	0x1	/* CheckInterval */
#define CONFIG_SET_RESTORE	0x2	/* RestoreOnExit */
#define CONFIG_SET_METRICS	0x4	/* MetricsTextfileDirectory */
#define CONFIG_CHECK_OWNER	0x1	/* refuse files root does not own */
#define CONFIG_CHECK_OS		0x2	/* config_load_layers: this OS's keys */
#define CONFIG_AS_ROOT		0x4	/* owner rule as root's, whoever runs */
#define CONFIG_DASH_STDIN	0x8	/* check: "-" is standard input */
struct config	*config_load(const char *, int, struct errlist *);
/*
 * config.c's hardened XML reader on a launchd job's plist (tcptunectl
 * import): its ProgramArguments, each with its line.
 */
#define LAUNCHD_ARGS_MAX	64
struct launchd_args {
	char	*argv[LAUNCHD_ARGS_MAX];
	int	 line[LAUNCHD_ARGS_MAX];
	int	 argc;
};
int		 config_launchd_args(const char *, size_t, const char *,
		    struct launchd_args *, struct errlist *);
void		 config_launchd_args_free(struct launchd_args *);
struct config	*config_parse(const char *, size_t, const char *,
		    struct errlist *);
void		 config_free(struct config *);
const struct config_key *config_find(const struct config *, const char *);
const char	*key_mode_name(enum key_mode);
const char	*on_reject_name(enum on_reject);
/*
 * config_write.c: the one writer of the format (config.c reads it back);
 * notes, when not NULL, are the comments: above the <plist>, and above
 * a key when key() gives text for it (NULL: none).
 */
struct config_notes {
	const char	 *head;
	const char	*(*key)(const struct config_key *, void *);
	void		 *arg;
};
int		 config_write(const struct config *,
		    const struct config_notes *, char **, size_t *);
bool		 config_same_layout(const struct config *, const char *,
		    size_t);
/* config_model.c: a key's name and words, used without the parser too. */
extern const char *const config_mode_names[MODE_AT_LEAST + 1];
extern const char *const config_reject_names[REJECT_CLAMP + 1];
bool		 sysctl_name_valid(const char *);
bool		 sysctl_name_managed(const char *);
const char	*config_name_problem(const char *, char *, size_t);
void		 config_file_error(struct errlist *, const char *, int);
/* What check checks a config for: an OS, and its kernel when be. */
struct config_target {
	enum tt_os		 os;
	struct sysctl_backend	*be;	/* NULL: not this machine */
};
/*
 * Check a config file: every error (on the second FILE), or
 * "configuration OK" (on the first); 0 or 1.  With a target, also against
 * that OS's catalogue (config_model.c).  The config, NULL when refused,
 * in the last argument when it is not NULL, for the caller to free.
 */
int		 config_report(const char *, int, const struct config_target *,
		    bool, FILE *, FILE *, struct config **);
int		 config_report_checked(struct config *, struct errlist *,
		    struct errlist *, const char *, bool, FILE *, FILE *,
		    struct config **);
/*
 * trust_posix.c | trust_win.c: the bytes, after the checks:
 * 0; an errno for config.c to word (ENOENT, EACCES, EFBIG for a file past
 * TT_CONFIG_MAX_BYTES, ...); or -1 when the file was refused for a reason
 * of this system's (owner, mode, ACL, not a regular file), said in errs.
 */
int		 config_file_read(const char *, int, char **, size_t *,
		    struct errlist *);
/* trust_posix.c: the checked descriptor; -1 and *err as above. */
int		 config_file_open(const char *, int, struct errlist *, int *);

/* config_model.c: a parsed config against an OS's catalogue. */
struct sysctl_backend;
const char	*config_key_source(const struct config *,
		    const struct config_key *);
size_t		 config_check_os(const struct config *, enum tt_os,
		    struct sysctl_backend *, struct errlist *,
		    struct errlist *);
/* One finding: the key, whether a warning, the words after "file:line: ". */
typedef void	(*config_os_fn)(void *, const struct config *,
		    const struct config_key *, bool, const char *);
void		 config_check_os_each(const struct config *, enum tt_os,
		    struct sysctl_backend *, config_os_fn, void *);

/*
 * plist_scan.c: what a plist never holds (attributes but <plist>'s
 * version, nesting past PLIST_SCAN_DEPTH, DTD declarations, an encoding
 * not ASCII's), refused in one linear pass before libxml2 parses it: 0,
 * or -1 with the line and the words.
 */
#define PLIST_SCAN_DEPTH	32
int		 plist_scan(const char *, size_t, long *, char *, size_t);

/* bplist.c: a binary plist as XML, for config_parse. */
int		 bplist_to_xml(const char *, size_t, char **, size_t *, char *,
		    size_t);

/*
 * policy_load()'s type: the registry policy's reader, handed to the
 * loaders beneath it (the policy is parsed by config.c).
 */
typedef int	(*policy_load_fn)(struct config **, struct errlist *);
/*
 * config_model.c: the managed preferences file over the config, then the
 * registry policy, each as parsed by its reader (no parsing there).
 */
bool		 config_managed_present(const char *);
struct config	*config_layers(struct config *, struct config *, bool,
		    struct errlist *);
struct config	*config_layers_finish(struct config *, policy_load_fn,
		    const struct config_target *, struct errlist *,
		    struct errlist *);
struct config	*config_merge(struct config *, struct config *,
		    struct errlist *);
struct config	*config_merge_policy(struct config *, struct config *,
		    struct errlist *);
size_t		 config_layer_names(const struct config *, char *, size_t);
void		 config_report_layers_used(const struct config *, FILE *);
int		 config_report_result(struct config *, struct errlist *,
		    const char *, FILE *, FILE *);
/*
 * config.c: the layers read in this process (config.c's reader), the
 * policy by the policy_load_fn given (policy_load).
 */
struct config	*config_load_layers(const char *, const char *,
		    policy_load_fn, int, struct errlist *);
int		 config_report_layers(const char *, const char *,
		    policy_load_fn, int, FILE *, FILE *);
int		 config_check_layers(const char *, const char *,
		    policy_load_fn, int, const struct config_target *, bool,
		    FILE *, FILE *, struct config **);

/*
 * config_policy.c: the Windows registry policy (Group Policy, Intune)
 * under TT_POLICY_KEY as a config layer, checked as a config is.  Values
 * as policy_win.c read them; no registry code, so it runs everywhere.
 */
#define TT_POLICY_KEY		"HKLM\\SOFTWARE\\Policies\\tcptune"
#define TT_POLICY_SYSCTLS	TT_POLICY_KEY "\\Sysctls"
#define TT_POLICY_SOURCE	"policy " TT_POLICY_SYSCTLS
enum policy_type {
	POLICY_SZ,		/* REG_SZ, as UTF-8 */
	POLICY_DWORD,		/* REG_DWORD */
	POLICY_OTHER		/* any other type: refused */
};
struct policy_value {
	char		 name[TT_NAME_MAX + 1];	/* longer: cut, refused */
	enum policy_type type;
	unsigned long	 dword;
	char		 text[TT_VALUE_MAX * 2];	/* longer: cut, refused */
	unsigned long	 regtype;	/* the registry's REG_* number */
	bool		 cut;		/* name or text did not fit */
};
struct config	*config_policy(const struct policy_value *, size_t,
		    const struct policy_value *, size_t, struct errlist *);
/*
 * policy_win.c | trust_posix.c: the policy now.  0 and *cfg NULL when
 * there is none (the key is absent; always so on Unix), 0 and the layer,
 * or -1 with every problem in errs.
 */
int		 policy_load(struct config **, struct errlist *);
bool		 policy_present(void);	/* the key exists (Windows) */

/* value.c: sysctl values as normalized text. */
int	 value_normalize(const char *, char *, size_t);
int	 value_policy_word(const char *, char *, size_t);
bool	 value_equal(const char *, const char *);
int	 value_numbers(const char *, long long *, int);
int	 value_at_least(const char *, const char *);
int	 value_raise(const char *, const char *, char *, size_t);
int	 value_with_last(const char *, long long, char *, size_t);

/* plan.c: platform knowledge about keys, and the order to apply them. */
int		 sysctl_rank(const char *);
const char	*sysctl_capped_by(const char *);
void		 plan_sort(const struct config_key **, size_t);
long long	 xnu_high_sb_max(long long);
int		 xnu_whole_sb_max(const char *);
long long	 xnu_sospace_max(long long, int);
long long	 bsd_sb_max_adj(long long);
long long	 bsd_sb_max_for(long long);

/* backend.c and backend_<os>.c: reading and writing sysctls. */
struct sysctl_backend {
	const char	*name;
	/* 0 or an errno; the value comes back normalized */
	int	(*get)(struct sysctl_backend *, const char *, char *, size_t);
	int	(*set)(struct sysctl_backend *, const char *, const char *);
	/*
	 * The highest value the kernel would take for a key, when it can be
	 * known without trying (macOS maxsockbuf from nmbclusters).  0 and
	 * *max set, or ENOENT when nothing is known; NULL in a backend that
	 * never knows (the engine then finds the ceiling by trying).
	 */
	int	(*ceiling)(struct sysctl_backend *, const char *, long long *,
		    char *, size_t);
	/*
	 * The largest buffer one socket can have when the ceiling key cap
	 * (kern.ipc.maxsockbuf) is capval: 8/9 of it on FreeBSD and macOS
	 * up to 14.3, all of it on macOS 14.4 and later (xnu_whole_sb_max
	 * in plan.c).  0 and *max set, or an errno; NULL in a backend whose
	 * ceilings hold whole (Linux).
	 */
	int	(*sockbuf_max)(struct sysctl_backend *, const char *, long long,
		    long long *);
	/*
	 * Why the last get or set of a key failed, in the backend's own
	 * words (Group Policy, a missing CIM class): 0 and the text, or -1
	 * for the engine's generic words.  NULL in backends without any.
	 */
	int	(*explain)(struct sysctl_backend *, const char *, char *,
		    size_t);
	void	(*free)(struct sysctl_backend *);
	void	*ctx;
	/*
	 * Whether a set of name would fail here, nothing written (check):
	 * 0, or the errno it would get, kept for explain.  NULL when the
	 * backend cannot tell.
	 */
	int	(*probe)(struct sysctl_backend *, const char *);
};
/* Linux's sysctl tree, backend_sysctl_dir.c's default root there. */
#define TT_PROC_SYS	"/proc/sys"
struct sysctl_backend	*backend_sysctl_dir_new(const char *);
struct sysctl_backend	*backend_bsd_new(void);
struct sysctl_backend	*backend_windows_new(void);	/* cim_win.c */
struct sysctl_backend	*backend_platform_new(const char *);
void			 backend_free(struct sysctl_backend *);
int			 sysctl_dir_path(const char *, const char *, char *,
			    size_t);

/*
 * trust_posix.c | trust_win.c: the one rule for a path root believes or
 * writes (docs/SECURITY.md, "Paths").  On Unix: walked from "/" with held
 * descriptors, every directory root's (or this uid's) and not writable by
 * group or others, a root-owned sticky one only on the way, a symlink
 * followed only when root owns it.  trust_write_file() applies it when
 * this process is root; a user writing their own file is not checked.
 */
#define TRUST_STICKY_LAST	0x1	/* reading root's file in sticky /tmp */
#define TRUST_SERVICE_LAST	0x2	/* last dir may be a reader account's */
#define TRUST_NO_REPLACE	0x4	/* trust_write_file: EEXIST if there */
#define TRUST_AS_ROOT		0x8	/* this uid not believed: root's rule */
#define TRUSTED_DIR_NOT_CREATED	-2
int	 trust_open_dir(const char *, int, mode_t, char *, size_t);
int	 trust_open_file(const char *, int, char *, size_t);
int	 trust_write_file(const char *, int, const void *, size_t, mode_t,
	    char *, size_t);
#ifndef _WIN32		/* no uid_t there; the sibling rule's alone */
int	 trust_open_file_as(const char *, int, uid_t, char *, size_t);
#endif
int	 trust_file_check(int, char *, size_t);
int	 trust_file_owner(int, char *, size_t);

/*
 * trust_posix.c: the sibling rule, a program run from beside the
 * running one only when as trusted as it (docs/SECURITY.md).
 * self_linux.c | self_darwin.c | self_freebsd.c: the running program's
 * own path, as the kernel knows it.
 */
int	 self_exe_path(char *, size_t);
int	 sibling_path(const char *, const char *, char *, size_t, char *,
	    size_t);
int	 sibling_check(const char *, const char *, char *, size_t);
bool	 sibling_beside(const char *, const char *);

/* util.c: text made safe for a terminal or a log (\xNN, \u{NNNN}). */
#define TT_ESCAPE_SIZE(n)	((n) * 4)	/* room for n escaped bytes */
size_t	 tt_escape(char *, size_t, const char *);
size_t	 tt_utf8_decode(const char *, uint32_t *);
bool	 tt_unsafe_char(uint32_t);
const char *tt_text_unsafe(const char *, size_t *);

/* value.c: sizes with binary units, read and shown. */
int	 tt_parse_size(const char *, long long *);
bool	 tt_size_has_unit(const char *);
void	 tt_size_human(long long, char *, size_t);

/* util.c */
size_t	 tt_strlcpy(char *, const char *, size_t);
size_t	 tt_strlcat(char *, const char *, size_t);
int	 tt_snprintf(char *, size_t, const char *, ...) TT_PRINTF(3, 4);
int	 tt_why(char *, size_t, const char *, ...) TT_PRINTF(3, 4);
int	 write_all(int, const void *, size_t);
int	 read_file_bounded(int, char **, size_t *, size_t);
uint64_t fnv1a64(const void *, size_t);
int	 parse_ll(const char *, long long *);
const char *errno_name(int);
#define TT_EDIT_MAX	TT_NAME_MAX	/* longer words are not compared */
size_t	 tt_edit_distance(const char *, const char *, bool);
bool	 tt_mem_starts(const char *, const char *, const char *);
const char *tt_mem_find(const char *, const char *, const char *);
void	 tt_wrap_line(FILE *, const char *, size_t, size_t, size_t, size_t,
	    int);

/* os_posix.c | os_win.c */
int	 write_file_atomic(const char *, const void *, size_t, mode_t);
int	 write_file_atomic_at(int, const char *, const void *, size_t,
	    mode_t);		/* Unix only: a held directory */
int	 write_file_new_at(int, const char *, const void *, size_t,
	    mode_t);		/* Unix only: EEXIST if name is there */
/* Its temporary file is path TT_ATOMIC_TMP pid; a crash can leave one. */
#define TT_ATOMIC_TMP	".tmp."
#define TT_WATOMIC_TMP	L".tmp."
time_t	 tt_mono(void);

/* os_posix.c: whether this Linux is WSL (os_win.c: never) */
bool	 tt_wsl(const char *);
#define TT_WSL_NOTE	"this is WSL: these sysctls change WSL's own Linux " \
	"network stack, not Windows'; for Windows' own TCP settings install " \
	"tcptune's Windows package (tcptune.msi) on Windows itself"
uint64_t tt_mono_ms(void);

#endif /* TCPTUNE_H */
