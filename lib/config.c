/*
 * /etc/tcptune.conf: an Apple property list, so that plutil, defaults and
 * Python's plistlib can read and write it.  It drives root's writes to
 * kernel tunables, so it is read defensively: from an fd after fstat, with a
 * size limit, owned by root, and parsed by libxml2 with no network, no entity
 * expansion, no DTD loading, and any declaration refused outright.
 *
 * Every problem is reported as "file:line: message" and parsing goes on, so
 * that one run lists all of them; the messages are sorted by line at the
 * end, whatever order the checks ran in.
 *
 * Also here: the report of a check (config_report), and the layers read
 * in this process (config_load_layers, at the end of the file).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L		/* O_CLOEXEC, fstat */
#endif

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "tcptune.h"

/* libxml2 2.12 made the structured error const. */
#if LIBXML_VERSION >= 21200
typedef const xmlError	*tt_xml_error;
#else
typedef xmlError	*tt_xml_error;
#endif

#define SHOW_BUF	80	/* user text in a message: 72 bytes, then "..." */
#define MAX_PROBLEMS	100	/* listed per file; then a count of the rest */
#define MAX_WARNINGS	100	/* check's, listed beside them; the same */

struct problem {
	long	 line;
	size_t	 seq;		/* keeps one line's problems in found order */
	bool	 warning;	/* check's: the config is good all the same */
	char	*msg;
};

struct parse {
	const char	*label;		/* file name in messages */
	struct config	*cfg;
	struct problem	*probs;
	size_t		 nprobs;
	size_t		 capprobs;
	bool		 fatal;		/* the document cannot be trusted */
	bool		 too_many;	/* "too many sysctls" said once */
	size_t		 nnames;	/* valid sysctl names seen */
	bool		*bad;		/* per cfg->keys: a problem of its own */
	size_t		 nwarns;	/* of probs, warnings (check's) */
};

/* Fields of a dict with fixed keys; at most FIELDS_MAX of them. */
#define FIELDS_MAX	5
static const char *const top_fields[] = {
	"CheckInterval", "RestoreOnExit", "AllowAnySysctl", "Sysctls",
	"MetricsTextfileDirectory"
};
enum { TOP_INTERVAL, TOP_RESTORE, TOP_ALLOW_ANY, TOP_SYSCTLS, TOP_METRICS,
	TOP_N };

static const char *const key_fields[] = { "Value", "Mode", "OnReject" };
enum { KEY_VALUE, KEY_MODE, KEY_REJECT, KEY_N };


static void	problem(struct parse *, long, const char *, ...)
		    TT_PRINTF(3, 4);
static void	nproblem(struct parse *, const xmlNode *, const char *, ...)
		    TT_PRINTF(3, 4);

/*
 * User text for a message: control and non-ASCII bytes as \xNN so that one
 * problem stays one line, and long text cut short.
 */
static const char *
show(const char *s, char *buf, size_t size)
{
	size_t	n = 0;

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		/* Room for one more \xNN, then "..." and the NUL. */
		if (n + 8 >= size) {
			memcpy(buf + n, "...", 3);
			n += 3;
			break;
		}
		if (c < 0x20 || c >= 0x7f)
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
		else
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return buf;
}

static void
add_problem(struct parse *p, long line, const char *msg)
{
	struct problem	*grown;
	size_t		 cap;

	if (p->nprobs == p->capprobs) {
		cap = p->capprobs ? p->capprobs * 2 : 16;
		grown = realloc(p->probs, cap * sizeof(*grown));
		if (grown == NULL)
			fatal("%s", __func__);
		p->probs = grown;
		p->capprobs = cap;
	}
	if ((p->probs[p->nprobs].msg = malloc(strlen(msg) + 1)) == NULL)
		fatal("%s", __func__);
	strcpy(p->probs[p->nprobs].msg, msg);
	p->probs[p->nprobs].line = line;
	p->probs[p->nprobs].seq = p->nprobs;
	p->probs[p->nprobs].warning = false;
	p->nprobs++;
}

static void
problem(struct parse *p, long line, const char *fmt, ...)
{
	char	msg[1024];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	add_problem(p, line, msg);
}

static void
nproblem(struct parse *p, const xmlNode *n, const char *fmt, ...)
{
	char	msg[1024];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	add_problem(p, xmlGetLineNo(n), msg);
}

static int
problem_cmp(const void *a, const void *b)
{
	const struct problem	*pa = a, *pb = b;

	if (pa->line != pb->line)
		return pa->line < pb->line ? -1 : 1;
	return pa->seq < pb->seq ? -1 : pa->seq > pb->seq;
}

static void
not_listed(struct parse *p, struct errlist *errs, size_t n,
    const char *what, int max)
{
	if (n > 0)
		errlist_add(errs, "%s: %zu more %s%s not listed (only the "
		    "first %d are)", p->label, n, what, n == 1 ? "" : "s", max);
}

/*
 * Hand the problems to the caller's list in file order, the first
 * MAX_PROBLEMS of them, and check's warnings among them, the first
 * MAX_WARNINGS (so a flood of warnings hides no error).  A 1 MiB file can
 * hold some 50,000 bad keys: all of them would flood the log on every
 * reload and overflow the control socket's reply (CONTROL_MAX_OUTPUT), so
 * that tcptunectl reload showed none.  The last lines say how many more
 * there are.
 */
static void
flush_problems(struct parse *p, struct errlist *errs)
{
	struct problem	*pr;
	size_t		 i, seen[2] = { 0, 0 };
	const size_t	 max[2] = { MAX_PROBLEMS, MAX_WARNINGS };
	bool		 listed;

	qsort(p->probs, p->nprobs, sizeof(*p->probs), problem_cmp);
	for (i = 0; i < p->nprobs; i++) {
		pr = &p->probs[i];
		listed = seen[pr->warning]++ < max[pr->warning];
		if (listed && pr->line > 0)
			errlist_add(errs, "%s:%ld: %s", p->label, pr->line,
			    pr->msg);
		else if (listed)
			errlist_add(errs, "%s: %s", p->label, pr->msg);
		free(pr->msg);
	}
	not_listed(p, errs, seen[0] > max[0] ? seen[0] - max[0] : 0,
	    "problem", MAX_PROBLEMS);
	not_listed(p, errs, seen[1] > max[1] ? seen[1] - max[1] : 0,
	    "warning", MAX_WARNINGS);
	free(p->probs);
	p->probs = NULL;
	p->nprobs = p->capprobs = 0;
}

/* ---- libxml2 hooks: errors, and refusing everything DTD-related */

static struct parse *
ctxt_parse(void *ctx)
{
	return ((xmlParserCtxtPtr)ctx)->_private;
}

static long
ctxt_line(void *ctx)
{
	xmlParserCtxtPtr	ctxt = ctx;

	return ctxt->input != NULL ? (long)ctxt->input->line : 0;
}

static void
xml_error(void *ctx, tt_xml_error err)
{
	struct parse	*p = ctxt_parse(ctx);
	char		 msg[512], buf[512];

	/* Warnings (e.g. about namespaces) do not make a config wrong. */
	if (err == NULL || err->level == XML_ERR_WARNING)
		return;
	/*
	 * Folded: libxml2 puts newlines inside some messages ("Input is not
	 * proper UTF-8, indicate encoding !\nBytes: ..."), and one problem
	 * must stay one readable line.
	 */
	if (value_normalize(err->message ? err->message : "XML error", msg,
	    sizeof(msg)) == -1)
		tt_strlcpy(msg, err->message, sizeof(msg));
	problem(p, err->line, "%s", show(msg, buf, sizeof(buf)));
	if (err->level == XML_ERR_FATAL)
		p->fatal = true;
}

/*
 * Declarations are what entity expansion attacks (billion laughs, external
 * entities) are made of, and a plist needs none: stop at the first one, so
 * nothing it declares is ever parsed, expanded or loaded.
 */
static void
refuse(void *ctx, const char *what, const xmlChar *name)
{
	struct parse	*p = ctxt_parse(ctx);
	char		 buf[SHOW_BUF];

	problem(p, ctxt_line(ctx), "%s \"%s\" not allowed: a tcptune config "
	    "has no DTD declarations or entities", what,
	    show(name ? (const char *)name : "", buf, sizeof(buf)));
	p->fatal = true;
	xmlStopParser(ctx);
}

static void
sax_entity_decl(void *ctx, const xmlChar *name, int type,
    const xmlChar *publicId, const xmlChar *systemId, xmlChar *content)
{
	(void)type;
	(void)publicId;
	(void)systemId;
	(void)content;
	refuse(ctx, "entity declaration", name);
}

static void
sax_element_decl(void *ctx, const xmlChar *name, int type,
    xmlElementContentPtr content)
{
	(void)type;
	(void)content;
	refuse(ctx, "element declaration", name);
}

static void
sax_attribute_decl(void *ctx, const xmlChar *elem, const xmlChar *fullname,
    int type, int def, const xmlChar *defaultValue, xmlEnumerationPtr tree)
{
	(void)elem;
	(void)type;
	(void)def;
	(void)defaultValue;
	xmlFreeEnumeration(tree);	/* the callee owns it */
	refuse(ctx, "attribute declaration", fullname);
}

static void
sax_notation_decl(void *ctx, const xmlChar *name, const xmlChar *publicId,
    const xmlChar *systemId)
{
	(void)publicId;
	(void)systemId;
	refuse(ctx, "notation declaration", name);
}

static void
sax_unparsed_entity_decl(void *ctx, const xmlChar *name,
    const xmlChar *publicId, const xmlChar *systemId,
    const xmlChar *notationName)
{
	(void)publicId;
	(void)systemId;
	(void)notationName;
	refuse(ctx, "entity declaration", name);
}

static void
sax_reference(void *ctx, const xmlChar *name)
{
	refuse(ctx, "entity reference", name);
}

/* Only the five predefined entities (&amp; and friends) exist. */
static xmlEntityPtr
sax_get_entity(void *ctx, const xmlChar *name)
{
	(void)ctx;
	return xmlGetPredefinedEntity(name);
}

static xmlEntityPtr
sax_get_parameter_entity(void *ctx, const xmlChar *name)
{
	(void)ctx;
	(void)name;
	return NULL;
}

/* The DOCTYPE's external subset (Apple's DTD URL) is never fetched. */
static void
sax_external_subset(void *ctx, const xmlChar *name, const xmlChar *ExternalID,
    const xmlChar *SystemID)
{
	(void)ctx;
	(void)name;
	(void)ExternalID;
	(void)SystemID;
}

static xmlParserInputPtr
sax_resolve_entity(void *ctx, const xmlChar *publicId,
    const xmlChar *systemId)
{
	(void)publicId;
	refuse(ctx, "external entity", systemId);
	return NULL;
}

static void
harden_sax(xmlSAXHandler *sax)
{
	sax->entityDecl = sax_entity_decl;
	sax->elementDecl = sax_element_decl;
	sax->attributeDecl = sax_attribute_decl;
	sax->notationDecl = sax_notation_decl;
	sax->unparsedEntityDecl = sax_unparsed_entity_decl;
	sax->reference = sax_reference;
	sax->getEntity = sax_get_entity;
	sax->getParameterEntity = sax_get_parameter_entity;
	sax->externalSubset = sax_external_subset;
	sax->resolveEntity = sax_resolve_entity;
	sax->serror = xml_error;
}

/*
 * Parse with libxml2, once plist_scan() has found nothing a plist never
 * holds: XML_PARSE_NONET, never XML_PARSE_NOENT (no entity
 * substitution), never DTDLOAD/DTDVALID/HUGE.  BIG_LINES keeps line
 * numbers right past 65535.  The thread's structured error handler is
 * pointed at us too, for errors raised without the context.
 */
static xmlDocPtr
xml_read(struct parse *p, const char *buf, size_t len)
{
	xmlParserCtxtPtr	 ctxt;
	xmlStructuredErrorFunc	 old_fn;
	void			*old_ctx;
	xmlDocPtr		 doc;
	long			 line;
	char			 why[512];

	/* What would cost libxml2 quadratic time (plist_scan.c). */
	if (plist_scan(buf, len, &line, why, sizeof(why)) == -1) {
		problem(p, line, "%s", why);
		p->fatal = true;
		return NULL;
	}
	xmlInitParser();
	if ((ctxt = xmlCreateMemoryParserCtxt(buf, (int)len)) == NULL) {
		problem(p, 0, "cannot create an XML parser");
		p->fatal = true;
		return NULL;
	}
	ctxt->_private = p;
	harden_sax(ctxt->sax);
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	old_fn = xmlStructuredError;
	old_ctx = xmlStructuredErrorContext;
	xmlSetStructuredErrorFunc(ctxt, xml_error);
	xmlParseDocument(ctxt);
	xmlSetStructuredErrorFunc(old_ctx, old_fn);
	doc = ctxt->myDoc;
	ctxt->myDoc = NULL;
	if (!ctxt->wellFormed)
		p->fatal = true;
	xmlFreeParserCtxt(ctxt);
	return doc;
}

/*
 * The same hardened read for a plist that is not a config (import's
 * launchd job): no entities, no network, no DTD loaded.  The document
 * (xmlFreeDoc), or NULL with the reasons in errs as label:line: text.
 */
static xmlDocPtr
xml_doc(const char *buf, size_t len, const char *label,
    struct errlist *errs)
{
	struct parse	p;
	xmlDocPtr	doc = NULL;

	memset(&p, 0, sizeof(p));
	p.label = label;
	if (len > TT_CONFIG_MAX_BYTES || memchr(buf, '\0', len) != NULL)
		problem(&p, 0, "not a text plist of at most %d bytes",
		    TT_CONFIG_MAX_BYTES);
	else
		doc = xml_read(&p, buf, len);
	if (p.nprobs == 0 && !p.fatal)
		return doc;
	if (p.nprobs == 0)
		problem(&p, 0, "not a well-formed XML document");
	flush_problems(&p, errs);
	if (doc != NULL)
		xmlFreeDoc(doc);
	return NULL;
}

/*
 * The <string>s of a ProgramArguments <array>, each with the element's
 * own line, so that a message points at the word it is about.
 */
static void
launchd_argv(xmlNode *array, struct launchd_args *la)
{
	xmlNode	*v;
	xmlChar	*t;

	for (v = array->children; v != NULL; v = v->next) {
		if (v->type != XML_ELEMENT_NODE ||
		    la->argc == LAUNCHD_ARGS_MAX ||
		    (t = xmlNodeGetContent(v)) == NULL)
			continue;
		if ((la->argv[la->argc] = strdup((char *)t)) == NULL)
			fatal("%s", __func__);
		xmlFree(t);
		la->line[la->argc++] = (int)xmlGetLineNo(v);
	}
}

/*
 * A launchd job's ProgramArguments, read by the reader a config is read
 * by (import): 0 with them in *la (none when the job has none), -2 when
 * the plist is a tcptune.conf (it has Sysctls), -1 with the reasons in
 * errs.  config_launchd_args_free() frees them.
 */
int
config_launchd_args(const char *buf, size_t len, const char *label,
    struct launchd_args *la, struct errlist *errs)
{
	xmlDocPtr	 doc;
	xmlNode		*n, *dict, *v;
	xmlChar		*t;
	int		 rv = 0, is_args;

	memset(la, 0, sizeof(*la));
	if ((doc = xml_doc(buf, len, label, errs)) == NULL)
		return -1;
	dict = xmlDocGetRootElement(doc);
	for (dict = dict ? dict->children : NULL; dict != NULL &&
	    (dict->type != XML_ELEMENT_NODE || !xmlStrEqual(dict->name,
	    BAD_CAST "dict")); dict = dict->next)
		;
	for (n = dict ? dict->children : NULL; n != NULL && rv == 0;
	    n = n->next) {
		if (n->type != XML_ELEMENT_NODE || !xmlStrEqual(n->name,
		    BAD_CAST "key") || (t = xmlNodeGetContent(n)) == NULL)
			continue;
		if (xmlStrEqual(t, BAD_CAST "Sysctls"))
			rv = -2;
		is_args = xmlStrEqual(t, BAD_CAST "ProgramArguments");
		xmlFree(t);
		for (v = n->next; is_args && v != NULL &&
		    v->type != XML_ELEMENT_NODE; v = v->next)
			;
		if (is_args && v != NULL)
			launchd_argv(v, la);
	}
	xmlFreeDoc(doc);
	if (rv == -2)
		config_launchd_args_free(la);
	return rv;
}

void
config_launchd_args_free(struct launchd_args *la)
{
	int	i;

	for (i = 0; i < la->argc; i++)
		free(la->argv[i]);
	la->argc = 0;
}

/* ---- walking the plist */

static bool
is_el(const xmlNode *n, const char *name)
{
	return n != NULL && n->type == XML_ELEMENT_NODE && n->ns == NULL &&
	    strcmp((const char *)n->name, name) == 0;
}

static bool
blank(const xmlChar *s)
{
	if (s == NULL)
		return true;
	for (; *s != '\0'; s++)
		if (!isspace(*s))
			return false;
	return true;
}

/* "<string>", "<true/>": how a value's type is named in messages. */
static const char *
type_name(const xmlNode *n, char *buf, size_t size)
{
	char	name[56], full[128];	/* name fits "<name/>" in 64 */

	if (n->ns != NULL && n->ns->prefix != NULL)
		snprintf(full, sizeof(full), "%s:%s",
		    (const char *)n->ns->prefix, (const char *)n->name);
	else if (n->ns != NULL)		/* a plist has no namespace */
		snprintf(full, sizeof(full), "%s xmlns=\"%s\"",
		    (const char *)n->name, (const char *)n->ns->href);
	else
		tt_strlcpy(full, (const char *)n->name, sizeof(full));
	show(full, name, sizeof(name));
	if (is_el(n, "true") || is_el(n, "false"))
		snprintf(buf, size, "<%s/>", name);
	else
		snprintf(buf, size, "<%s>", name);
	return buf;
}

/*
 * The line where text's first non-blank character is.  libxml2 dates a
 * text node by where its parser happened to be, which can be a line or two
 * off; an element's start tag is exact, so count back from the next one.
 */
static long
text_line(const xmlNode *n)
{
	const xmlChar	*c = n->content;
	long		 nl = 0;

	if (n->next == NULL || n->next->type != XML_ELEMENT_NODE)
		return xmlGetLineNo(n);
	while (*c != '\0' && isspace(*c))
		c++;
	for (; *c != '\0'; c++)
		nl += *c == '\n';
	return xmlGetLineNo(n->next) - nl;
}

/*
 * The next element from n on, skipping comments, processing instructions
 * and white space; other text between elements is a problem.
 */
static xmlNode *
next_el(struct parse *p, xmlNode *n, const char *where)
{
	char	text[SHOW_BUF], buf[SHOW_BUF];

	for (; n != NULL; n = n->next) {
		if (n->type == XML_ELEMENT_NODE)
			return n;
		if ((n->type != XML_TEXT_NODE &&
		    n->type != XML_CDATA_SECTION_NODE) || blank(n->content))
			continue;
		/* Folded and cut short: only a reminder of what it was. */
		if (value_normalize((const char *)n->content, text,
		    sizeof(text)) == -1)
			tt_strlcpy(text, (const char *)n->content,
			    sizeof(text));
		problem(p, text_line(n), "unexpected text \"%s\" in %s",
		    show(text, buf, sizeof(buf)), where);
	}
	return NULL;
}

/*
 * The text of <key>, <string> or <integer>: text and CDATA only.  NULL
 * after a problem.  The caller frees it.
 */
static char *
text_of(struct parse *p, const xmlNode *n, const char *owner)
{
	const xmlNode	*c;
	xmlChar		*s;
	char		 tbuf[64];

	for (c = n->children; c != NULL; c = c->next) {
		if (c->type == XML_ELEMENT_NODE) {
			nproblem(p, c, "%s%s must hold text only, not "
			    "elements", owner, type_name(n, tbuf,
			    sizeof(tbuf)));
			return NULL;
		}
	}
	if ((s = xmlNodeGetContent(n)) == NULL)
		fatal("%s", __func__);
	return (char *)s;
}

/* "a, b or c" */
static const char *
join_or(const char *const *names, size_t n, char *buf, size_t size)
{
	size_t	i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		strncat(buf, names[i], size - strlen(buf) - 1);
		strncat(buf, i + 2 < n ? ", " : i + 1 < n ? " or " : "",
		    size - strlen(buf) - 1);
	}
	return buf;
}

typedef void (*pair_fn)(struct parse *, xmlNode *, const char *, xmlNode *,
    void *);

/*
 * A plist <dict>: <key>name</key> followed by its value, repeated.  fn
 * gets each well-formed pair; anything else is reported here.
 */
static void
dict_walk(struct parse *p, xmlNode *dict, const char *owner, pair_fn fn,
    void *arg)
{
	xmlNode	*k, *v;
	char	*name, tbuf[64], buf[SHOW_BUF];

	k = next_el(p, dict->children, "<dict>");
	while (k != NULL) {
		if (!is_el(k, "key")) {
			nproblem(p, k, "%sexpected <key> in <dict>, found %s",
			    owner, type_name(k, tbuf, sizeof(tbuf)));
			k = next_el(p, k->next, "<dict>");
			continue;
		}
		v = next_el(p, k->next, "<dict>");
		if ((name = text_of(p, k, owner)) == NULL) {
			/* Skip its value too, rather than call it a key. */
			k = v == NULL || is_el(v, "key") ? v :
			    next_el(p, v->next, "<dict>");
			continue;
		}
		if (v == NULL || is_el(v, "key")) {
			nproblem(p, k, "%skey \"%s\" has no value", owner,
			    show(name, buf, sizeof(buf)));
			xmlFree(name);
			k = v;
			continue;
		}
		fn(p, k, name, v, arg);
		xmlFree(name);
		k = next_el(p, v->next, "<dict>");
	}
}

struct fields {
	const char *const	*names;
	size_t			 n;
	const char		*owner;		/* message prefix */
	xmlNode			*key[FIELDS_MAX];
	xmlNode			*val[FIELDS_MAX];
};

static void
field_pair(struct parse *p, xmlNode *k, const char *name, xmlNode *v,
    void *arg)
{
	struct fields	*f = arg;
	char		 buf[SHOW_BUF], known[128];
	size_t		 i;

	for (i = 0; i < f->n; i++) {
		if (strcmp(name, f->names[i]) != 0)
			continue;
		if (f->key[i] != NULL) {
			nproblem(p, k, "%sduplicate key \"%s\" (first at "
			    "line %ld)", f->owner, name,
			    xmlGetLineNo(f->key[i]));
			return;
		}
		f->key[i] = k;
		f->val[i] = v;
		return;
	}
	nproblem(p, k, "%sunknown key \"%s\" (expected %s)", f->owner,
	    show(name, buf, sizeof(buf)), join_or(f->names, f->n, known,
	    sizeof(known)));
}

/* A dict with fixed keys: find each, report unknown and repeated ones. */
static void
fields_collect(struct parse *p, xmlNode *dict, struct fields *f)
{
	memset(f->key, 0, sizeof(f->key));
	memset(f->val, 0, sizeof(f->val));
	dict_walk(p, dict, f->owner, field_pair, f);
}

/* ---- values */

static bool
type_is(struct parse *p, xmlNode *v, const char *want, const char *owner,
    const char *what)
{
	char	tbuf[64];

	if (is_el(v, want))
		return true;
	nproblem(p, v, "%s%s must be %s <%s>, not %s", owner, what,
	    strchr("aeiou", want[0]) ? "an" : "a", want,
	    type_name(v, tbuf, sizeof(tbuf)));
	return false;
}

/* [+-]digits: looks like an integer, whether or not it fits. */
static bool
looks_integer(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * "16M" in an <integer>: a size the config takes, as a <string> (value.c),
 * for a key counted in bytes.
 */
static bool
size_as_string(const char *word, bool bytes)
{
	long long	n;

	return bytes && tt_size_has_unit(word) && tt_parse_size(word, &n) == 0;
}

/*
 * One decimal integer, white space around it allowed; bytes: a size with
 * a unit would do as a <string>, and the message says so.
 */
static bool
integer_of(struct parse *p, xmlNode *v, const char *owner, const char *what,
    bool bytes, long long *out)
{
	char	*text, word[TT_VALUE_MAX], buf[SHOW_BUF];
	bool	 ok = false;

	if ((text = text_of(p, v, owner)) == NULL)
		return false;
	if (blank((const xmlChar *)text))
		nproblem(p, v, "%s%s is an empty <integer>", owner, what);
	else if (value_normalize(text, word, sizeof(word)) == -1)
		nproblem(p, v, "%s%s \"%s\" is too long (at most %d "
		    "characters)", owner, what, show(text, buf, sizeof(buf)),
		    TT_VALUE_MAX - 1);
	else if (size_as_string(word, bytes))
		nproblem(p, v, "%s%s is a size: write it as a <string>", owner,
		    show(word, buf, sizeof(buf)));
	else if (!looks_integer(word))
		nproblem(p, v, "%s%s \"%s\" is not a decimal integer", owner,
		    what, show(text, buf, sizeof(buf)));
	else if (parse_ll(word, out) == -1)
		nproblem(p, v, "%s%s %s does not fit in a 64-bit integer",
		    owner, what, show(word, buf, sizeof(buf)));
	else
		ok = true;
	xmlFree(text);
	return ok;
}

static void
parse_interval(struct parse *p, xmlNode *v)
{
	long long	n;

	if (!type_is(p, v, "integer", "", "CheckInterval") ||
	    !integer_of(p, v, "", "CheckInterval", false, &n))
		return;
	if (n < TT_CHECK_MIN || n > TT_CHECK_MAX) {
		nproblem(p, v, "CheckInterval must be between %d and %d "
		    "seconds, not %lld", TT_CHECK_MIN, TT_CHECK_MAX, n);
		return;
	}
	p->cfg->check_interval = (unsigned)n;
	p->cfg->set |= CONFIG_SET_INTERVAL;
}

static bool
parse_bool(struct parse *p, xmlNode *v, const char *what, bool *out)
{
	char	tbuf[64];

	if (is_el(v, "true"))
		*out = true;
	else if (is_el(v, "false"))
		*out = false;
	else {
		nproblem(p, v, "%s must be <true/> or <false/>, not %s", what,
		    type_name(v, tbuf, sizeof(tbuf)));
		return false;
	}
	return true;
}

/* After the whole file: AllowAnySysctl may come after Sysctls. */
static void
check_managed(struct parse *p)
{
	size_t	i;

	if (p->cfg->allow_any_sysctl)
		return;
	for (i = 0; i < p->cfg->nkeys; i++)
		if (!sysctl_name_managed(p->cfg->keys[i].name)) {
			problem(p, p->cfg->keys[i].line, "%s is not a network "
			    "or socket-buffer sysctl (net.*, kern.ipc.*, tcp.*, "
			    "offload.*): "
			    "tcptune changes no other unless AllowAnySysctl "
			    "is <true/>", p->cfg->keys[i].name);
			p->bad[i] = true;
		}
}

/*
 * Every word an integer: such values take at-least and clamp.  A word that
 * looks like an integer but does not fit is a problem, not text.
 */
static bool
string_numeric(struct parse *p, xmlNode *v, const char *owner,
    const char *norm, bool *numeric)
{
	char		 buf[TT_VALUE_MAX], sbuf[SHOW_BUF], *w, *end;
	long long	 n;

	tt_strlcpy(buf, norm, sizeof(buf));
	*numeric = true;
	for (w = buf; w != NULL; w = end) {
		if ((end = strchr(w, ' ')) != NULL)
			*end++ = '\0';
		if (!looks_integer(w)) {
			*numeric = false;
			continue;
		}
		if (parse_ll(w, &n) == -1) {
			nproblem(p, v, "%svalue word %s does not fit in a "
			    "64-bit integer", owner, show(w, sbuf,
			    sizeof(sbuf)));
			return false;
		}
	}
	return true;
}

/*
 * A value goes to the kernel and is shown by status and check -v: no C0
 * or C1 control, no bidi control, nothing that is not UTF-8 (util.c
 * says why each is refused).  true, with the reason in why, when s
 * holds one.
 */
static bool
has_control(const char *s, char *why, size_t size)
{
	const char	*what;
	char		 one[5] = { 0 }, esc[16];
	uint32_t	 cp;
	size_t		 off = 0, n;

	if ((what = tt_text_unsafe(s, &off)) == NULL)
		return false;
	n = tt_utf8_decode(s + off, &cp);
	memcpy(one, s + off, n == 0 ? 1 : n);
	tt_escape(esc, sizeof(esc), one);
	snprintf(why, size, "%s (%s)", what, esc);
	return true;
}

/*
 * "4K 128K 32MiB" as "4096 131072 33554432", for a key the catalogue
 * says counts bytes (value.c's grammar of sizes: binary units).  A word
 * that is not a size stays as written, for the catalogue's check to
 * refuse.
 */
static void
sizes_to_bytes(const char *name, char *value, size_t len)
{
	const struct cat_key	*c = catalogue_find_any(name);
	char			 in[TT_VALUE_MAX], *w, *save = NULL;
	long long		 n;
	size_t			 used = 0;

	if (c == NULL || c->unit != CAT_BYTES ||
	    tt_strlcpy(in, value, sizeof(in)) >= sizeof(in))
		return;
	for (w = strtok_r(in, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		if (tt_size_has_unit(w) && tt_parse_size(w, &n) == 0)
			tt_snprintf(value + used, len - used, "%s%lld",
			    used ? " " : "", n);
		else
			tt_snprintf(value + used, len - used, "%s%s",
			    used ? " " : "", w);
		used = strlen(value);
	}
}

/* A <string> value, white space folded as value.c compares them. */
static bool
string_value(struct parse *p, xmlNode *v, const char *owner,
    struct config_key *k)
{
	char	*text, why[96];
	bool	 ok = false;

	if ((text = text_of(p, v, owner)) == NULL)
		return false;
	if (blank((const xmlChar *)text))
		nproblem(p, v, "%sempty value", owner);
	else if (value_normalize(text, k->value, sizeof(k->value)) == -1)
		nproblem(p, v, "%svalue is too long (at most %d characters "
		    "with white space folded)", owner, TT_VALUE_MAX - 1);
	else if (has_control(k->value, why, sizeof(why)))
		nproblem(p, v, "%svalue contains %s", owner, why);
	else {
		sizes_to_bytes(k->name, k->value, sizeof(k->value));
		ok = string_numeric(p, v, owner, k->value, &k->numeric);
	}
	xmlFree(text);
	return ok;
}

/* Whether the catalogue counts name in bytes, on any OS. */
static bool
key_in_bytes(const char *name)
{
	const struct cat_key	*c = catalogue_find_any(name);

	return c != NULL && c->unit == CAT_BYTES;
}

static bool
integer_value(struct parse *p, xmlNode *v, const char *owner,
    struct config_key *k)
{
	long long	n;

	if (!integer_of(p, v, owner, "value", key_in_bytes(k->name), &n))
		return false;
	if (n < 0) {
		nproblem(p, v, "%svalue %lld is negative: sysctl values here "
		    "are 0 or more", owner, n);
		return false;
	}
	/* Canonical text, so "+7" and "007" are written as "7". */
	snprintf(k->value, sizeof(k->value), "%lld", n);
	k->numeric = true;
	return true;
}

static bool
scalar_value(struct parse *p, xmlNode *v, const char *owner,
    struct config_key *k, bool in_dict)
{
	char	tbuf[64];

	if (is_el(v, "integer"))
		return integer_value(p, v, owner, k);
	if (is_el(v, "string"))
		return string_value(p, v, owner, k);
	nproblem(p, v, "%s%s must be %s, not %s", owner,
	    in_dict ? "Value" : "value", in_dict ? "<integer> or <string>" :
	    "<integer>, <string> or <dict>", type_name(v, tbuf, sizeof(tbuf)));
	return false;
}

/* Mode and OnReject: a <string> from a fixed list. */
static bool
choice_of(struct parse *p, xmlNode *v, const char *owner, const char *what,
    const char *const *names, size_t n, int *out)
{
	char	*text, word[32], list[64], buf[SHOW_BUF];
	size_t	 i;
	bool	 ok = false;

	if (!type_is(p, v, "string", owner, what) ||
	    (text = text_of(p, v, owner)) == NULL)
		return false;
	if (value_normalize(text, word, sizeof(word)) == 0) {
		for (i = 0; i < n && !ok; i++)
			if (strcmp(word, names[i]) == 0) {
				*out = (int)i;
				ok = true;
			}
	}
	if (!ok)
		nproblem(p, v, "%s%s \"%s\" is not %s", owner, what,
		    show(text, buf, sizeof(buf)), join_or(names, n, list,
		    sizeof(list)));
	xmlFree(text);
	return ok;
}

/* <dict> with Value, Mode and OnReject. */
static void
key_dict(struct parse *p, xmlNode *dict, const char *owner,
    struct config_key *k)
{
	struct fields	f = { key_fields, KEY_N, owner, { 0 }, { 0 } };
	bool		value_ok = false;
	int		c;

	fields_collect(p, dict, &f);
	if (f.val[KEY_VALUE] == NULL)
		nproblem(p, dict, "%sValue is missing", owner);
	else
		value_ok = scalar_value(p, f.val[KEY_VALUE], owner, k, true);
	if (f.val[KEY_MODE] != NULL && choice_of(p, f.val[KEY_MODE], owner,
	    "Mode", config_mode_names, NITEMS(config_mode_names), &c)) {
		k->mode = (enum key_mode)c;
		if (value_ok && !k->numeric && k->mode == MODE_AT_LEAST)
			nproblem(p, f.val[KEY_MODE], "%sMode at-least needs "
			    "a numeric value, not \"%s\"", owner, k->value);
	}
	if (f.val[KEY_REJECT] != NULL && choice_of(p, f.val[KEY_REJECT],
	    owner, "OnReject", config_reject_names,
	    NITEMS(config_reject_names), &c)) {
		k->on_reject = (enum on_reject)c;
		if (value_ok && !k->numeric && k->on_reject == REJECT_CLAMP)
			nproblem(p, f.val[KEY_REJECT], "%sOnReject clamp "
			    "needs a numeric value, not \"%s\"", owner,
			    k->value);
	}
}

/*
 * Past TT_MAX_KEYS a key is checked but not kept.  bad: a problem was
 * found in it, so the catalogue's pass (config_report) leaves it out.
 */
static void
add_key(struct parse *p, const struct config_key *k, bool bad)
{
	struct config	*cfg = p->cfg;

	if (cfg->keys == NULL &&
	    ((cfg->keys = calloc(TT_MAX_KEYS, sizeof(*cfg->keys))) == NULL ||
	    (p->bad = calloc(TT_MAX_KEYS, sizeof(*p->bad))) == NULL))
		fatal("%s", __func__);
	if (cfg->nkeys < TT_MAX_KEYS) {
		p->bad[cfg->nkeys] = bad;
		cfg->keys[cfg->nkeys++] = *k;
	}
}

/* One entry of Sysctls: name -> integer, string or per-key dict. */
static void
sysctl_pair(struct parse *p, xmlNode *kn, const char *name, xmlNode *v,
    void *arg)
{
	struct config_key	 k;
	const struct config_key	*first;
	const char		*why;
	char			 owner[TT_NAME_MAX + 2], buf[SHOW_BUF];
	char			 wbuf[128];
	size_t			 before = p->nprobs;

	(void)arg;
	memset(&k, 0, sizeof(k));
	k.line = (int)xmlGetLineNo(kn);
	why = config_name_problem(name, wbuf, sizeof(wbuf));
	/* Messages about its value start with the name, shown safely. */
	snprintf(owner, sizeof(owner), "%s: ", why == NULL ? name :
	    show(name, buf, sizeof(buf)));
	if (why != NULL)
		nproblem(p, kn, "\"%s\" is not a sysctl name: %s",
		    show(name, buf, sizeof(buf)), why);
	else if ((first = config_find(p->cfg, name)) != NULL)
		nproblem(p, kn, "duplicate sysctl %s (first at line %d)",
		    name, first->line);
	else {
		tt_strlcpy(k.name, name, sizeof(k.name));
		if (++p->nnames > TT_MAX_KEYS && !p->too_many) {
			nproblem(p, kn, "too many sysctls (at most %d)",
			    TT_MAX_KEYS);
			p->too_many = true;
		}
	}
	if (is_el(v, "dict"))
		key_dict(p, v, owner, &k);
	else
		scalar_value(p, v, owner, &k, false);
	/* Kept even with a bad value, so later duplicates are still seen. */
	if (k.name[0] != '\0')
		add_key(p, &k, p->nprobs != before);
}

/*
 * MetricsTextfileDirectory: an absolute path of printable ASCII, where
 * tcptuned writes tcptune.prom (daemon/metrics.c); the directory itself
 * is judged when the file is written, by the trust rule of
 * tcptunectl status --textfile.
 */
static void
parse_metrics(struct parse *p, xmlNode *v)
{
	const char	*what = "MetricsTextfileDirectory";
	char		*t;
	size_t		 i;

	if (!type_is(p, v, "string", "", what) ||
	    (t = text_of(p, v, what)) == NULL)
		return;
	for (i = 0; t[i] != '\0'; i++)
		if (t[i] < 0x20 || t[i] > 0x7e)
			break;
	if (t[0] != '/' || t[i] != '\0' || i >= TT_METRICS_DIR_MAX)
		nproblem(p, v, "%s must be an absolute path of printable "
		    "ASCII, shorter than %d bytes", what, TT_METRICS_DIR_MAX);
	else {
		tt_strlcpy(p->cfg->metrics_dir, t,
		    sizeof(p->cfg->metrics_dir));
		p->cfg->set |= CONFIG_SET_METRICS;
	}
	xmlFree(t);
}

static void
parse_sysctls(struct parse *p, xmlNode *v)
{
	if (type_is(p, v, "dict", "", "Sysctls"))
		dict_walk(p, v, "", sysctl_pair, NULL);
}

static void
parse_top(struct parse *p, xmlNode *dict)
{
	struct fields	f = { top_fields, TOP_N, "", { 0 }, { 0 } };

	fields_collect(p, dict, &f);
	if (f.val[TOP_INTERVAL] != NULL)
		parse_interval(p, f.val[TOP_INTERVAL]);
	if (f.val[TOP_RESTORE] != NULL)
		if (parse_bool(p, f.val[TOP_RESTORE], "RestoreOnExit",
		    &p->cfg->restore_on_exit))
			p->cfg->set |= CONFIG_SET_RESTORE;
	if (f.val[TOP_ALLOW_ANY] != NULL)
		parse_bool(p, f.val[TOP_ALLOW_ANY], "AllowAnySysctl",
		    &p->cfg->allow_any_sysctl);
	if (f.val[TOP_SYSCTLS] != NULL)
		parse_sysctls(p, f.val[TOP_SYSCTLS]);
	if (f.val[TOP_METRICS] != NULL)
		parse_metrics(p, f.val[TOP_METRICS]);
	check_managed(p);
}

/* <plist> holding exactly one <dict>. */
static void
parse_root(struct parse *p, xmlDocPtr doc)
{
	xmlNode	*root, *d, *more;
	char	 tbuf[64];

	if ((root = xmlDocGetRootElement(doc)) == NULL) {
		problem(p, 0, "no root element");
		return;
	}
	if (!is_el(root, "plist")) {
		nproblem(p, root, "the root element must be <plist>, not %s",
		    type_name(root, tbuf, sizeof(tbuf)));
		return;
	}
	d = next_el(p, root->children, "<plist>");
	if (d == NULL || !is_el(d, "dict")) {
		nproblem(p, d ? d : root, "<plist> must hold one <dict>%s%s",
		    d ? ", not " : "", d ? type_name(d, tbuf,
		    sizeof(tbuf)) : "");
		return;
	}
	if ((more = next_el(p, d->next, "<plist>")) != NULL)
		nproblem(p, more, "<plist> must hold one <dict>, found %s "
		    "after it", type_name(more, tbuf, sizeof(tbuf)));
	parse_top(p, d);
}

/* The line of buf that at is on. */
static long
line_at(const char *buf, const char *at)
{
	long	line = 1;

	for (; buf < at; buf++)
		line += *buf == '\n';
	return line;
}

/* Nothing but white space (or nothing): as good as empty. */
static bool
all_space(const char *buf, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)buf[i]))
			return false;
	return true;
}

static struct config *
config_new(const char *label)
{
	struct config	*cfg;

	if ((cfg = calloc(1, sizeof(*cfg))) == NULL)
		fatal("%s", __func__);
	tt_strlcpy(cfg->path, label, sizeof(cfg->path));
	cfg->check_interval = TT_CHECK_DEFAULT;
	return cfg;
}

static void
parse_xml(struct parse *p, const char *buf, size_t len)
{
	xmlDocPtr	doc;

	if ((doc = xml_read(p, buf, len)) != NULL) {
		if (!p->fatal)
			parse_root(p, doc);
		xmlFreeDoc(doc);
	}
}

/*
 * A binary plist is rewritten as XML, one element a line, and read as
 * that: the same checks, and line numbers of that XML form.
 */
static void
parse_binary(struct parse *p, const char *buf, size_t len)
{
	char	*xml, why[256];
	size_t	 xmllen;

	if (bplist_to_xml(buf, len, &xml, &xmllen, why, sizeof(why)) == -1) {
		problem(p, 0, "binary property list: %s", why);
		return;
	}
	parse_xml(p, xml, xmllen);
	free(xml);
}

/*
 * The first line of buf that reads as sysctl.conf(5)'s "name = value"
 * (a dotted name, then '='), when no line before it opens a tag; or the
 * first comment of a file of comments alone (a distribution's
 * /etc/sysctl.conf, every line commented out): 0 when there is none.
 */
static long
sysctl_conf_line(const char *buf, size_t len)
{
	const char	*at = buf, *end = buf + len, *nl, *c;
	long		 line = 1, comment = 0;

	for (; at < end; at = nl + 1, line++) {
		if ((nl = memchr(at, '\n', (size_t)(end - at))) == NULL)
			nl = end;
		for (c = at; c < nl && isspace((unsigned char)*c); c++)
			;
		if (c < nl && (*c == '#' || *c == ';') && comment == 0)
			comment = line;
		if (c == nl || *c == '#' || *c == ';')
			continue;
		if (*c == '<')
			return 0;
		for (; c < nl && (isalnum((unsigned char)*c) || *c == '_' ||
		    *c == '-' || *c == '.' || *c == '/'); c++)
			;
		while (c < nl && (*c == ' ' || *c == '\t'))
			c++;
		return c < nl && *c == '=' && memchr(at, '.',
		    (size_t)(c - at)) != NULL ? line : 0;
	}
	return comment;
}

static void
parse_text(struct parse *p, const char *buf, size_t len)
{
	long	line;

	parse_xml(p, buf, len);
	if (p->fatal && (line = sysctl_conf_line(buf, len)) > 0)
		problem(p, line, "this looks like a sysctl.conf file: turn it "
		    "into a config with tcptunectl import FILE");
}

/* Parse into p, every problem kept there; p->cfg holds the keys read. */
static void
parse_buf(struct parse *p, const char *buf, size_t len, const char *label)
{
	const char	*nul;

	memset(p, 0, sizeof(*p));
	p->label = label;
	p->cfg = config_new(label);
	p->cfg->digest = fnv1a64(buf, len);
	if (len > TT_CONFIG_MAX_BYTES)
		problem(p, 0, "larger than %d bytes: refusing to parse it",
		    TT_CONFIG_MAX_BYTES);
	else if (all_space(buf, len))
		problem(p, 0, "empty file: expected a <plist> holding a "
		    "<dict>");
	/* What macOS writes under /Library/Managed Preferences (bplist.c). */
	else if (len >= 6 && memcmp(buf, "bplist", 6) == 0)
		parse_binary(p, buf, len);
	/*
	 * libxml2 takes a NUL for the end of its input, so whatever follows
	 * one would be ignored unseen (and one in a name would cut it short
	 * in C): refused, on the line where it is.
	 */
	else if ((nul = memchr(buf, '\0', len)) != NULL)
		problem(p, line_at(buf, nul), "a NUL byte: a config is text "
		    "and holds none");
	else
		parse_text(p, buf, len);
	if (p->nprobs == 0 && p->fatal)	/* stopped without saying why */
		problem(p, 0, "not a well-formed XML document");
}

/*
 * p's config when it has no problem (warnings aside), else NULL after
 * adding every problem to errs.
 */
static struct config *
parse_end(struct parse *p, struct errlist *errs)
{
	struct config	*cfg = p->cfg;
	bool		 good = p->nprobs == p->nwarns;

	if (p->nprobs > 0)
		flush_problems(p, errs);
	free(p->bad);
	p->bad = NULL;
	if (good)
		return cfg;
	config_free(cfg);
	return NULL;
}

/*
 * Parse a config held in memory; label names it in messages.  Returns
 * NULL after adding every problem found to errs.
 */
struct config *
config_parse(const char *buf, size_t len, const char *label,
    struct errlist *errs)
{
	struct parse	p;

	parse_buf(&p, buf, len, label);
	return parse_end(&p, errs);
}

/* A finding of config_check_os_each as one of the file's problems. */
static void
os_problem(void *arg, const struct config *cfg, const struct config_key *k,
    bool warning, const char *msg)
{
	struct parse	*p = arg;

	(void)cfg;
	problem(p, k->line, "%s%s", warning ? "warning: " : "", msg);
	p->probs[p->nprobs - 1].warning = warning;
	p->nwarns += warning;
}

/*
 * The keys the file gave without a problem against t's catalogue (and
 * kernel), their findings among the file's own, so that one run lists
 * every problem in line order: a bad CheckInterval hides no key's.
 * The others are dropped (the config is refused anyway).
 */
static void
check_target(struct parse *p, const struct config_target *t)
{
	struct config	*cfg = p->cfg;
	size_t		 i, n = 0;

	for (i = 0; i < cfg->nkeys; i++)
		if (!p->bad[i])
			cfg->keys[n++] = cfg->keys[i];
	cfg->nkeys = n;
	config_check_os_each(cfg, t->os, t->be, os_problem, p);
}

/*
 * Standard input, whole (one byte past the limit, for parse_buf to
 * refuse): `advise --config /dev/stdout | tcptunectl check -`.  0, or an
 * errno.
 */
static int
read_stdin(char **bufp, size_t *lenp)
{
	size_t	 len = 0, cap = TT_CONFIG_MAX_BYTES + 1, n;
	char	*buf;

	if ((buf = malloc(cap + 1)) == NULL)
		return errno;
	while (len < cap && (n = fread(buf + len, 1, cap - len, stdin)) > 0)
		len += n;
	if (ferror(stdin)) {
		free(buf);
		return EIO;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

/*
 * Read path (config_file_read: with the owner checks of this system; "-"
 * standard input with CONFIG_DASH_STDIN) and parse it, checked against
 * t's catalogue when t is not NULL (check's warnings then among the
 * errors).  flags: CONFIG_CHECK_OWNER, CONFIG_DASH_STDIN.
 */
static struct config *
load_target(const char *path, int flags, const struct config_target *t,
    struct errlist *errs)
{
	struct parse	 p;
	char		*buf;
	size_t		 len;
	int		 rv;

	if ((flags & CONFIG_DASH_STDIN) && strcmp(path, "-") == 0)
		rv = read_stdin(&buf, &len);
	else
		rv = config_file_read(path, flags, &buf, &len, errs);
	if (rv != 0) {
		if (rv > 0)
			config_file_error(errs, path, rv);
		return NULL;
	}
	parse_buf(&p, buf, len, path);
	free(buf);
	if (t != NULL)
		check_target(&p, t);
	return parse_end(&p, errs);
}

struct config *
config_load(const char *path, int flags, struct errlist *errs)
{
	return load_target(path, flags, NULL, errs);
}

/* ---- config_report: the output of tcptuned -n and tcptunectl check */

static void
report_plan(const struct config *cfg, FILE *out)
{
	const struct config_key	**order;
	const struct config_key	 *k;
	char			  name[TT_ESCAPE_SIZE(TT_NAME_MAX)];
	char			  value[TT_ESCAPE_SIZE(TT_VALUE_MAX)];
	size_t			  i;

	fprintf(out, "check interval: %u second%s\n", cfg->check_interval,
	    cfg->check_interval == 1 ? "" : "s");
	fprintf(out, "restore on exit: %s\n", cfg->restore_on_exit ?
	    "yes" : "no");
	if (cfg->allow_any_sysctl)
		fprintf(out, "any sysctl: allowed (AllowAnySysctl)\n");
	if (cfg->metrics_dir[0] != '\0')
		fprintf(out, "metrics: tcptuned writes %s/tcptune.prom\n",
		    cfg->metrics_dir);
	if (cfg->nkeys == 0) {
		fprintf(out, "apply order: no sysctls\n");
		return;
	}
	if ((order = calloc(cfg->nkeys, sizeof(*order))) == NULL)
		fatal("%s", __func__);
	for (i = 0; i < cfg->nkeys; i++)
		order[i] = &cfg->keys[i];
	plan_sort(order, cfg->nkeys);
	fprintf(out, "apply order (restore runs in reverse):\n");
	for (i = 0; i < cfg->nkeys; i++) {
		k = order[i];
		/* Escaped although parsing refused what needs it. */
		tt_escape(name, sizeof(name), k->name);
		tt_escape(value, sizeof(value), k->value);
		/* Quoted when it has words, so the value's end is plain. */
		fprintf(out, "%4zu. %s = %s%s%s (mode %s, on reject %s)\n",
		    i + 1, name, strchr(value, ' ') ? "\"" : "",
		    value, strchr(value, ' ') ? "\"" : "",
		    key_mode_name(k->mode), on_reject_name(k->on_reject));
	}
	free(order);
}

/* An error line: the path in it is anyone's text. */
static void
report_line(FILE *out, const char *msg, const char *tail)
{
	char	safe[TT_ESCAPE_SIZE(2048)];

	tt_escape(safe, sizeof(safe), msg);
	fprintf(out, "%s%s\n", safe, tail);
}

/* Every line of errs, escaped. */
static void
report_all(FILE *out, const struct errlist *errs)
{
	size_t	i;

	for (i = 0; i < errs->n; i++)
		report_line(out, errs->msg[i], "");
}

/*
 * The config a report judged, to the caller when it asked for it (keep
 * not NULL: *keep, NULL when the config was refused), so that it need not
 * read and parse the file again to go on (check's other sources).
 */
static void
keep_or_free(struct config *cfg, struct config **keep)
{
	if (keep != NULL)
		*keep = cfg;
	else
		config_free(cfg);
}

/*
 * Check path as tcptuned would load it: print every problem on err, one
 * "file:line: message" a line in line order, or "configuration OK" on out,
 * after the plan when verbose.  With a target, also what cannot apply on
 * its OS and, when it names a backend, on its kernel (config_model.c), and
 * the warnings (a key in no catalogue) on err, among the errors.  The
 * findings are diagnostics, the plan a report: a script that keeps the
 * plan (2>/dev/null) still sees why a file failed, as with cc or nginx -t.
 * The config in *keep when keep is not NULL (keep_or_free).  0 when the
 * config is good, 1 otherwise.
 */
int
config_report(const char *path, int flags, const struct config_target *t,
    bool verbose, FILE *out, FILE *err, struct config **keep)
{
	struct errlist	 errs;
	struct config	*cfg;
	int		 rv = 1;

	errlist_init(&errs);
	if ((cfg = load_target(path, flags, t, &errs)) == NULL) {
		report_all(err, &errs);
		if (errs.n == 0)
			report_line(err, path, ": cannot be used");
	} else {
		report_all(err, &errs);
		fflush(err);
		if (verbose)
			report_plan(cfg, out);
		fprintf(out, "configuration OK\n");
		rv = 0;
	}
	keep_or_free(cfg, keep);
	errlist_clear(&errs);
	return rv;
}

/*
 * The same for a config already read and checked in layers
 * (config_check_layers): its errors, or the layers in use as tcptuned -n
 * names them, the warnings, the plan when verbose and "configuration OK";
 * the errors and warnings on err, the rest on out (config_report).
 * Frees errs and warns, and cfg unless keep takes it (keep_or_free); 0
 * when good, 1 otherwise.
 */
int
config_report_checked(struct config *cfg, struct errlist *errs,
    struct errlist *warns, const char *path, bool verbose, FILE *out,
    FILE *err, struct config **keep)
{
	int	rv = 1;

	report_all(err, errs);
	if (cfg == NULL && errs->n == 0)
		report_line(err, path, ": cannot be used");
	if (cfg != NULL)
		config_report_layers_used(cfg, out);
	fflush(out);
	report_all(err, warns);
	fflush(err);
	if (cfg != NULL) {
		if (verbose)
			report_plan(cfg, out);
		fprintf(out, "configuration OK\n");
		rv = 0;
	}
	keep_or_free(cfg, keep);
	errlist_clear(errs);
	errlist_clear(warns);
	return rv;
}

/*
 * ---- the layers read in this process
 *
 * Each file opened by the trust rule (config_file_read) and parsed here,
 * then laid over each other by config_model.c (config_layers).  tcptunectl
 * check, tcptuned -n and the daemon on Windows; the POSIX daemon has its
 * parse helper parse them instead (parse_posix.c) and hands the answers
 * to the same config_layers, so neither may parse differently.  The
 * registry policy's reader is given by the caller (policy_load): it
 * parses through this file, so this file may not call it
 * (tests/lint/call_cycles.sh).
 */

/*
 * Every layer read here, finished against t (NULL: no catalogue), the
 * registry policy read by load.
 */
static struct config *
load_layers(const char *path, const char *managed_path, policy_load_fn load,
    int flags, const struct config_target *t, struct errlist *errs,
    struct errlist *warns)
{
	struct config	*local, *managed = NULL;
	bool		 has_managed = config_managed_present(managed_path);

	local = config_load(path, flags, errs);
	if (has_managed)
		managed = config_load(managed_path, flags, errs);
	return config_layers_finish(config_layers(local, managed, has_managed,
	    errs), load, t, errs, warns);
}

/*
 * path, then managed_path over it when that file exists (NULL or "": no
 * managed layer), then the registry policy load reads (policy_load), as
 * tcptuned reads them; CONFIG_CHECK_OS: against this OS's keys.
 */
struct config *
config_load_layers(const char *path, const char *managed_path,
    policy_load_fn load, int flags, struct errlist *errs)
{
	struct config_target	host = { catalogue_host_os(), NULL };

	return load_layers(path, managed_path, load, flags,
	    (flags & CONFIG_CHECK_OS) ? &host : NULL, errs, NULL);
}

/*
 * tcptunectl check when a layer is over path (a managed file, the
 * registry policy): the layers tcptuned -n reads, checked against t, so
 * that both find the same problems in the same files; check's warnings
 * and -v's plan besides; the config in *keep when keep is not NULL
 * (keep_or_free).  0 when good, 1 otherwise.
 */
int
config_check_layers(const char *path, const char *managed_path,
    policy_load_fn load, int flags, const struct config_target *t,
    bool verbose, FILE *out, FILE *err, struct config **keep)
{
	struct errlist	 errs, warns;
	struct config	*cfg;

	errlist_init(&errs);
	errlist_init(&warns);
	cfg = load_layers(path, managed_path, load, flags, t, &errs, &warns);
	return config_report_checked(cfg, &errs, &warns, path, verbose, out,
	    err, keep);
}

/*
 * tcptuned -n: every problem of both files, one a line, on err, or
 * "configuration OK" on out after naming the managed file in use.  0 when
 * good, 1 otherwise.
 */
int
config_report_layers(const char *path, const char *managed_path,
    policy_load_fn load, int flags, FILE *out, FILE *err)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = config_load_layers(path, managed_path, load, flags, &errs);
	return config_report_result(cfg, &errs, path, out, err);
}
