/*
 * An OS whose connections tcptuned does not read (yet): FreeBSD.  Its
 * table has nothing but the sentence diagnose prints: no reading, no
 * ceilings, no notices (NULL, flows.h); diagnose answers with an empty
 * history and says why.
 */
#include "config.h"

#include "tcptuned.h"
#include "flows.h"

const struct flows_ops flows_os = {
	.name = "none",
	.cannot_tell = "tcptuned does not read this system's TCP "
	    "connections: nothing to diagnose",
};
