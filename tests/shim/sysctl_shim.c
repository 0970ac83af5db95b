/*
 * sysctl(3) and sysctlbyname(3) answered from the fake kernel, so that
 * lib/backend_bsd.c runs its real code paths in the unit tests on Linux.
 * tests/shim/sys/sysctl.h renames both to shim_*, so the functions below
 * never meet libc's.
 *
 * It models what xnu does (bsd/kern/kern_newsysctl.c):
 *  - a MIB tree: every dotted prefix of a key is a node, with numbers
 *    kern 1, vm 2, vfs 3, net 4, debug 5, hw 6 at the top (bsd/sys/sysctl.h
 *    CTL_*) and OID_AUTO_START (100) upwards below, in the order keys were
 *    added; {0,...} is the sysctl node itself;
 *  - {0,3} name2oid: the name comes as the new value; ENOENT when empty or
 *    unknown, ENAMETOOLONG at MAXPATHLEN; a trailing '.' is ignored; a
 *    node's name gives the node's OID (sysctl_sysctl_name2oid, name2oid);
 *  - {0,4,oid...} oidfmt: the kind, an int, then the format and its NUL;
 *    EISDIR when the OID goes on past a leaf (sysctl_sysctl_oidfmt);
 *  - a read or write of a node is ENOENT, of an OID that runs on past a
 *    leaf EISDIR (sysctl_root);
 *  - a write goes through sysctl_io_number's width rules: 4 bytes into an
 *    8-byte value are sign-extended, 8 into a 4-byte one give ERANGE when
 *    they do not fit an int (the fake kernel checks that), fewer bytes
 *    than the value are EINVAL (sysctl_new_user), more are cut to size;
 *  - a read into too small a buffer is ENOMEM (sysctl_old_user); with no
 *    buffer, the length is reported.
 * The fake kernel does not say which keys are writable, so every leaf's
 * kind claims CTLFLAG_RW; a write to a read-only key gets its EPERM from
 * the fake kernel, as xnu's sysctl_root gives it.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/sysctl.h>

#include "../fake_kernel.h"

#define SHIM_OID_AUTO_START	100
#define SHIM_MAXPATHLEN		1024
#define SHIM_VALUE_MAX		(TT_VALUE_MAX + 1)

struct fake_kernel *shim_kernel;

static const struct {
	const char	*name;
	int		 number;
} shim_top[] = {
	{ "kern", 1 }, { "vm", 2 }, { "vfs", 3 }, { "net", 4 },
	{ "debug", 5 }, { "hw", 6 }, { "machdep", 7 }, { "user", 8 },
};

/* Bytes of the first n components of a dotted name; 0 if it has fewer. */
static size_t
prefix_len(const char *name, unsigned int n)
{
	const char	*p = name;
	unsigned int	 i;

	for (i = 0; i < n; i++) {
		if (i > 0) {
			if (*p != '.')
				return 0;
			p++;
		}
		if (*p == '\0' || *p == '.')
			return 0;
		p += strcspn(p, ".");
	}
	return (size_t)(p - name);
}

static unsigned int
depth_of(const char *name)
{
	unsigned int	n = 1;

	for (; *name != '\0'; name++)
		if (*name == '.')
			n++;
	return n;
}

static bool
same_prefix(const char *a, const char *b, unsigned int n)
{
	size_t	la = prefix_len(a, n), lb = prefix_len(b, n);

	return n == 0 || (la != 0 && la == lb && memcmp(a, b, la) == 0);
}

/* Component `level` of name, which has more than `level` components. */
static const char *
component(const char *name, unsigned int level, size_t *len)
{
	const char	*p = name + prefix_len(name, level);

	if (level > 0)
		p++;
	*len = strcspn(p, ".");
	return p;
}

static int
top_number(const char *c, size_t len)
{
	size_t	i;

	for (i = 0; i < sizeof(shim_top) / sizeof(shim_top[0]); i++)
		if (strlen(shim_top[i].name) == len &&
		    memcmp(shim_top[i].name, c, len) == 0)
			return shim_top[i].number;
	return -1;
}

/* Component `level` of key j, if j lies under the same parent as name. */
static const char *
sibling(const char *name, size_t j, unsigned int level, size_t *len)
{
	const char	*other = fake_kernel_key(shim_kernel, j);

	if (depth_of(other) <= level || !same_prefix(name, other, level))
		return NULL;
	return component(other, level, len);
}

/*
 * The number of component `level` of key k: OID_AUTO_START plus its place
 * among the distinct siblings under the same parent, in the order the
 * keys were added, as OID_AUTO numbering goes (sysctl_register_oid).
 */
static int
component_number(size_t k, unsigned int level)
{
	const char	*name = fake_kernel_key(shim_kernel, k), *c, *o;
	const char	*seen[TT_MAX_KEYS];
	size_t		 len, olen, seenlen[TT_MAX_KEYS], nseen = 0, j, i;
	int		 top;

	c = component(name, level, &len);
	if (level == 0 && (top = top_number(c, len)) != -1)
		return top;
	for (j = 0; j <= k && nseen < TT_MAX_KEYS; j++) {
		if ((o = sibling(name, j, level, &olen)) == NULL ||
		    (level == 0 && top_number(o, olen) != -1))
			continue;
		if (olen == len && memcmp(o, c, len) == 0)
			break;
		for (i = 0; i < nseen; i++)
			if (seenlen[i] == olen && memcmp(seen[i], o, olen) == 0)
				break;
		if (i == nseen) {
			seen[nseen] = o;
			seenlen[nseen++] = olen;
		}
	}
	return SHIM_OID_AUTO_START + (int)nseen;
}

/* The OID of key k, all of it. */
static void
key_oid(size_t k, int *oid, unsigned int *len)
{
	const char	*name = fake_kernel_key(shim_kernel, k);
	unsigned int	 level, depth = depth_of(name);

	for (level = 0; level < depth && level < CTL_MAXNAME; level++)
		oid[level] = component_number(k, level);
	*len = level;
}

/*
 * Find what an OID names: a key (the leaf, *is_node false) or a node, a
 * proper prefix of some key's OID.  *key is a key at or under it, *used how
 * many of the OID's numbers lead to it.  EISDIR when the OID runs on past
 * a leaf, as xnu's oidfmt says; ENOENT when nothing matches.
 */
static int
oid_find(const int *oid, unsigned int len, size_t *key, bool *is_node)
{
	int		 koid[CTL_MAXNAME];
	unsigned int	 klen, i;
	size_t		 k, n = fake_kernel_nkeys(shim_kernel);

	if (len == 0)
		return ENOENT;
	for (k = 0; k < n; k++) {
		key_oid(k, koid, &klen);
		for (i = 0; i < len && i < klen && koid[i] == oid[i]; i++)
			;
		if (i == klen && len > klen)
			return EISDIR;
		if (i == len) {
			*key = k;
			*is_node = len < klen;
			return 0;
		}
	}
	return ENOENT;
}

/* The name of a leaf OID; ENOENT for a node, EISDIR past a leaf. */
static int
oid_leaf_name(const int *oid, unsigned int len, const char **name)
{
	size_t	k;
	bool	is_node;
	int	err;

	if ((err = oid_find(oid, len, &k, &is_node)) != 0)
		return err;
	if (is_node)
		return ENOENT;
	*name = fake_kernel_key(shim_kernel, k);
	return 0;
}

/* SYSCTL_OUT: the whole of src, or ENOMEM if the caller's buffer is short. */
static int
copy_out(void *oldp, size_t *oldlenp, const void *src, size_t len)
{
	if (oldlenp == NULL)
		return 0;
	if (oldp == NULL) {
		*oldlenp = len;
		return 0;
	}
	if (*oldlenp < len)
		return ENOMEM;
	memcpy(oldp, src, len);
	*oldlenp = len;
	return 0;
}

/* {0,3}: the name to look up is the new value, not NUL-terminated. */
static int
shim_name2oid(void *oldp, size_t *oldlenp, const void *newp, size_t newlen)
{
	char		 name[SHIM_MAXPATHLEN];
	int		 koid[CTL_MAXNAME];
	unsigned int	 klen, depth;
	size_t		 k, n = fake_kernel_nkeys(shim_kernel);

	if (newp == NULL || newlen < 1)
		return ENOENT;
	if (newlen >= SHIM_MAXPATHLEN)
		return ENAMETOOLONG;
	memcpy(name, newp, newlen);
	name[newlen] = '\0';
	if (name[newlen - 1] == '.')
		name[newlen - 1] = '\0';
	if (name[0] == '\0')
		return ENOENT;
	depth = depth_of(name);
	for (k = 0; k < n; k++) {
		const char *key = fake_kernel_key(shim_kernel, k);

		if (depth > depth_of(key) || !same_prefix(name, key, depth) ||
		    prefix_len(name, depth) != strlen(name))
			continue;
		key_oid(k, koid, &klen);
		return copy_out(oldp, oldlenp, koid, depth * sizeof(int));
	}
	return ENOENT;
}

static const char *
format_of(enum fake_type type)
{
	switch (type) {
	case FK_INT:	return "I";
	case FK_UINT:	return "IU";
	case FK_LONG:	return "L";
	case FK_ULONG:	return "LU";
	case FK_QUAD:	return "Q";
	case FK_STRING:	return "A";
	}
	return "";
}

static unsigned int
kind_of(enum fake_type type)
{
	unsigned int	kind = CTLFLAG_RW | CTLFLAG_LOCKED;

	switch (type) {
	case FK_QUAD:	return kind | CTLTYPE_QUAD;
	case FK_STRING:	return kind | CTLTYPE_STRING;
	default:	return kind | CTLTYPE_INT;	/* xnu: longs too */
	}
}

/* {0,4,oid...}: the kind as an int, then the format with its NUL. */
static int
shim_oidfmt(const int *oid, unsigned int len, void *oldp, size_t *oldlenp)
{
	unsigned char	 buf[sizeof(int) + 8];
	unsigned int	 kind;
	const char	*fmt, *name;
	size_t		 k;
	bool		 is_node, found;
	enum fake_type	 type;
	int		 err;

	if ((err = oid_find(oid, len, &k, &is_node)) != 0)
		return err;
	if (is_node) {
		kind = CTLFLAG_RW | CTLFLAG_LOCKED | CTLTYPE_NODE;
		fmt = "N";
	} else {
		name = fake_kernel_key(shim_kernel, k);
		type = fake_kernel_type(shim_kernel, name, &found);
		kind = kind_of(type);
		fmt = format_of(type);
	}
	memcpy(buf, &kind, sizeof(int));
	memcpy(buf + sizeof(int), fmt, strlen(fmt) + 1);
	return copy_out(oldp, oldlenp, buf, sizeof(int) + strlen(fmt) + 1);
}

static size_t
width_of(enum fake_type type)
{
	return type == FK_INT || type == FK_UINT ? 4 : 8;
}

/* sysctl_io_number: the new value brought to the width the kernel holds. */
static int
shim_write_number(const char *name, enum fake_type type, const void *newp,
    size_t newlen)
{
	size_t	width = width_of(type);
	int32_t	i32;
	int64_t	i64;

	if (newlen == 4 && width == 8) {
		memcpy(&i32, newp, 4);
		i64 = i32;
		return fake_kernel_set_raw(shim_kernel, name, &i64, 8);
	}
	if (newlen == 8 && width == 4)	/* the fake gives ERANGE */
		return fake_kernel_set_raw(shim_kernel, name, newp, 8);
	if (newlen < width)
		return EINVAL;
	return fake_kernel_set_raw(shim_kernel, name, newp, width);
}

static int
shim_write(const char *name, const void *newp, size_t newlen)
{
	enum fake_type	type;
	bool		found;

	type = fake_kernel_type(shim_kernel, name, &found);
	if (!found)
		return ENOENT;
	if (type == FK_STRING)
		return fake_kernel_set_raw(shim_kernel, name, newp, newlen);
	return shim_write_number(name, type, newp, newlen);
}

static int
shim_read(const char *name, void *oldp, size_t *oldlenp)
{
	unsigned char	buf[SHIM_VALUE_MAX];
	size_t		len = sizeof(buf);
	int		err;

	if (oldlenp == NULL)
		return 0;
	if ((err = fake_kernel_get_raw(shim_kernel, name, buf, &len)) != 0)
		return err;
	return copy_out(oldp, oldlenp, buf, len);
}

/* A leaf: the old value out first, then the new one in, as handlers do. */
static int
shim_leaf(const char *name, void *oldp, size_t *oldlenp, const void *newp,
    size_t newlen)
{
	int	err;

	if ((err = shim_read(name, oldp, oldlenp)) != 0)
		return err;
	if (newp == NULL || newlen == 0)
		return 0;
	return shim_write(name, newp, newlen);
}

static int
shim_fail(int err)
{
	errno = err;
	return err == 0 ? 0 : -1;
}

int
sysctl(int *name, unsigned int namelen, void *oldp, size_t *oldlenp,
    void *newp, size_t newlen)
{
	const char	*key;
	int		 err;

	if (shim_kernel == NULL || namelen < 2 || namelen > CTL_MAXNAME)
		return shim_fail(EINVAL);
	if (name[0] == 0 && name[1] == 3)
		return shim_fail(shim_name2oid(oldp, oldlenp, newp, newlen));
	if (name[0] == 0 && name[1] == 4)
		return shim_fail(shim_oidfmt(name + 2, namelen - 2, oldp,
		    oldlenp));
	if (name[0] == 0)
		return shim_fail(ENOENT);	/* other staff functions */
	if ((err = oid_leaf_name(name, namelen, &key)) != 0)
		return shim_fail(err);
	return shim_fail(shim_leaf(key, oldp, oldlenp, newp, newlen));
}

/* As libc does it: {0,3} for the OID, then the OID itself. */
int
sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp,
    size_t newlen)
{
	int	qoid[2] = { 0, 3 };
	int	oid[CTL_MAXNAME];
	char	buf[SHIM_MAXPATHLEN];
	size_t	len = sizeof(oid);

	if (strlen(name) >= sizeof(buf))
		return shim_fail(ENAMETOOLONG);
	memcpy(buf, name, strlen(name) + 1);
	if (sysctl(qoid, 2, oid, &len, buf, strlen(buf)) == -1)
		return -1;
	return sysctl(oid, (unsigned int)(len / sizeof(int)), oldp, oldlenp,
	    newp, newlen);
}
