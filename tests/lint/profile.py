#!/usr/bin/env python3
"""The MDM files in etc/: the example configuration profile and the
ProfileManifests manifest.  Speaks TAP; run by tests/lint/profile.sh.

- both are well-formed property lists (plistlib);
- the .mobileconfig is a Configuration profile whose payload is
  com.apple.ManagedClient.preferences for org.tcptune.tcptuned (Apple
  DeviceManagement "ManagedPreferences"), with unique UUIDs, and its Forced
  mcx_preference_settings, written out as the plist macOS leaves in
  /Library/Managed Preferences, pass `tcptunectl check`; a copy with a bad
  value must fail it, so the check can fail;
- the manifest follows the ProfileManifests format (wiki "Manifest
  Format": pfm_domain, pfm_format_version, pfm_title, pfm_description,
  pfm_subkeys, each subkey with pfm_name and a known pfm_type, defaults of
  that type) and lists every key lib/config.c accepts, each choice of Mode
  and OnReject, and CheckInterval's bounds from lib/tcptune.h, all read
  from the sources, so a key added there and not here fails.
"""
import os
import plistlib
import re
import subprocess
import sys
import tempfile

SRC = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__), "..", "..")
BUILD = os.environ.get("top_builddir") or "."
TCPTUNECTL = os.environ.get("TCPTUNECTL") or os.path.join(BUILD, "tcptunectl")
MOBILECONFIG = os.path.join(SRC, "etc", "org.tcptune.tcptuned.mobileconfig")
MANIFEST = os.path.join(SRC, "etc", "ProfileManifests", "org.tcptune.tcptuned.plist")
DOMAIN = "org.tcptune.tcptuned"
UUID_RE = re.compile(r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")
PFM_TYPES = {"string": str, "integer": int, "boolean": bool, "dictionary": dict,
             "array": list, "real": float, "date": object, "data": bytes}

n = 0
failed = 0


def tap(ok, desc, *diag):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", n, desc))
    if not ok:
        for d in diag:
            for line in str(d).splitlines():
                print("# " + line)
    return ok


def c_array(text, name):
    """The strings of `... name[] = { "a", [X] = "b", ... };` in C source."""
    m = re.search(r"\b%s\[[A-Z_ +0-9]*\][^=]*=\s*\{(.*?)\};" % re.escape(name), text, re.S)
    return re.findall(r'"([^"]*)"', m.group(1)) if m else None


def c_define(text, name):
    m = re.search(r"^#define\s+%s\s+(\d+)" % re.escape(name), text, re.M)
    return int(m.group(1)) if m else None


def load(path):
    try:
        with open(path, "rb") as f:
            return plistlib.load(f, fmt=plistlib.FMT_XML), None
    except Exception as e:  # any parse error is the test's answer
        return None, e


def check_file(settings, tag):
    """tcptunectl check on settings written as an XML plist: (rc, output).
    The profile is for Macs: checked against macOS's keys (--platform)."""
    with tempfile.NamedTemporaryFile("wb", suffix="-%s.plist" % tag, delete=False) as f:
        plistlib.dump(settings, f, fmt=plistlib.FMT_XML)
        path = f.name
    try:
        p = subprocess.run([TCPTUNECTL, "check", "--platform", "macos", path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        return p.returncode, p.stdout
    finally:
        os.unlink(path)


def forced_settings(profile):
    """Every Forced mcx_preference_settings for DOMAIN in the profile."""
    out = []
    for p in profile.get("PayloadContent", []):
        if p.get("PayloadType") != "com.apple.ManagedClient.preferences":
            continue
        for f in p.get("PayloadContent", {}).get(DOMAIN, {}).get("Forced", []):
            if "mcx_preference_settings" in f:
                out.append(f["mcx_preference_settings"])
    return out


def test_mobileconfig():
    profile, err = load(MOBILECONFIG)
    if not tap(profile is not None, "the .mobileconfig is a well-formed plist", err):
        return None
    tap(profile.get("PayloadType") == "Configuration" and
        profile.get("PayloadVersion") == 1 and
        isinstance(profile.get("PayloadIdentifier"), str),
        "the .mobileconfig is a Configuration profile, version 1, with an identifier")
    payloads = profile.get("PayloadContent", [])
    tap(len(payloads) == 1 and payloads[0].get("PayloadType") ==
        "com.apple.ManagedClient.preferences" and
        list(payloads[0].get("PayloadContent", {})) == [DOMAIN],
        "its one payload is com.apple.ManagedClient.preferences for " + DOMAIN,
        repr([p.get("PayloadType") for p in payloads]))
    uuids = [profile.get("PayloadUUID")] + [p.get("PayloadUUID") for p in payloads]
    tap(all(isinstance(u, str) and UUID_RE.match(u) for u in uuids) and
        len(set(u.upper() for u in uuids)) == len(uuids),
        "every PayloadUUID is a UUID, none repeated", repr(uuids))
    ids = [profile.get("PayloadIdentifier")] + [p.get("PayloadIdentifier") for p in payloads]
    tap(len(set(ids)) == len(ids), "every PayloadIdentifier is unique", repr(ids))
    settings = forced_settings(profile)
    if not tap(len(settings) == 1, "one Forced mcx_preference_settings", repr(settings)):
        return None
    s = settings[0]
    rc, out = check_file(s, "payload")
    tap(rc == 0 and "configuration OK" in out,
        "the embedded payload passes tcptunectl check", "exit %d" % rc, out)
    bad = dict(s)
    bad["Sysctls"] = dict(s.get("Sysctls", {}))
    bad["Sysctls"]["not a sysctl"] = "1"
    bad["CheckInterval"] = 0
    rc, out = check_file(bad, "bad")
    tap(rc == 1 and "CheckInterval" in out and "not a sysctl" in out,
        "a broken copy of the payload fails tcptunectl check (the check can fail)",
        "exit %d" % rc, out)
    return s


def walk(subkeys, path, problems):
    for k in subkeys:
        name = k.get("pfm_name")
        where = "%s/%s" % (path, name)
        if not isinstance(name, str) and not path.endswith("[]"):
            problems.append("%s: no pfm_name" % where)
        t = k.get("pfm_type")
        if t not in PFM_TYPES:
            problems.append("%s: pfm_type %r is not one of %s" % (where, t, sorted(PFM_TYPES)))
            continue
        if "pfm_default" in k and PFM_TYPES[t] is not object and \
                type(k["pfm_default"]) is not PFM_TYPES[t]:
            problems.append("%s: pfm_default %r is not a %s" % (where, k["pfm_default"], t))
        for v in k.get("pfm_range_list", []):
            if type(v) is not PFM_TYPES[t]:
                problems.append("%s: pfm_range_list item %r is not a %s" % (where, v, t))
        if "pfm_range_list_titles" in k and \
                len(k["pfm_range_list_titles"]) != len(k.get("pfm_range_list", [])):
            problems.append("%s: pfm_range_list_titles does not match pfm_range_list" % where)
        for f in ("pfm_title", "pfm_description"):
            if not isinstance(k.get(f), str) or not k.get(f):
                problems.append("%s: no %s" % (where, f))
        if "pfm_subkeys" in k:
            walk(k["pfm_subkeys"], where + ("[]" if t == "array" else ""), problems)


def by_name(subkeys):
    return {k.get("pfm_name"): k for k in subkeys}


def test_manifest(payload):
    m, err = load(MANIFEST)
    if not tap(m is not None, "the manifest is a well-formed plist", err):
        return
    root = ("pfm_domain", "pfm_format_version", "pfm_title", "pfm_description",
            "pfm_subkeys", "pfm_version", "pfm_platforms", "pfm_targets",
            "pfm_last_modified")
    missing = [k for k in root if k not in m]
    tap(not missing and m["pfm_domain"] == DOMAIN and
        isinstance(m["pfm_format_version"], int) and "macOS" in m["pfm_platforms"],
        "manifest root: pfm_domain %s and the format's root keys" % DOMAIN,
        "missing: %r" % missing)
    problems = []
    walk(m.get("pfm_subkeys", []), "", problems)
    tap(not problems, "every subkey has a pfm_name, a known pfm_type, a title, "
        "a description, defaults and choices of its type", *problems)
    top = by_name(m.get("pfm_subkeys", []))
    payload_keys = ["PayloadDisplayName", "PayloadIdentifier", "PayloadType",
                    "PayloadUUID", "PayloadVersion"]
    tap(all(top.get(k, {}).get("pfm_require") == "always" for k in payload_keys) and
        top["PayloadType"].get("pfm_default") == DOMAIN,
        "the required payload keys, PayloadType defaulting to " + DOMAIN)

    with open(os.path.join(SRC, "lib", "config.c")) as f:
        config_c = f.read()
    # The Mode and OnReject words: config_model.c, which tcptunectl shares.
    with open(os.path.join(SRC, "lib", "config_model.c")) as f:
        config_c += f.read()
    with open(os.path.join(SRC, "lib", "tcptune.h")) as f:
        tcptune_h = f.read()
    top_fields = c_array(config_c, "top_fields")
    key_fields = c_array(config_c, "key_fields")
    modes = c_array(config_c, "config_mode_names")
    rejects = c_array(config_c, "config_reject_names")
    if not tap(all((top_fields, key_fields, modes, rejects)),
               "lib/config.c's key tables found"):
        return
    settings = [k for k in top if not k.startswith("Payload")]
    tap(sorted(settings) == sorted(top_fields),
        "the manifest's keys are exactly lib/config.c's top-level keys %r" % top_fields,
        "manifest: %r" % sorted(settings))
    ci = top.get("CheckInterval", {})
    lo, hi = c_define(tcptune_h, "TT_CHECK_MIN"), c_define(tcptune_h, "TT_CHECK_MAX")
    tap(ci.get("pfm_type") == "integer" and ci.get("pfm_range_min") == lo and
        ci.get("pfm_range_max") == hi and
        ci.get("pfm_default") == c_define(tcptune_h, "TT_CHECK_DEFAULT"),
        "CheckInterval: an integer from %s to %s, default as tcptune.h" % (lo, hi), repr(ci))
    tap(top.get("RestoreOnExit", {}).get("pfm_type") == "boolean",
        "RestoreOnExit: a boolean")
    sysctls = top.get("Sysctls", {})
    sub = by_name(sysctls.get("pfm_subkeys", []))
    value = sub.get("{{value}}", {})
    fields = by_name(value.get("pfm_subkeys", []))
    tap(sysctls.get("pfm_type") == "dictionary" and "{{key}}" in sub and
        value.get("pfm_type") == "dictionary" and sorted(fields) == sorted(key_fields),
        "Sysctls: a dictionary of user-named keys ({{key}}) whose settings are "
        "exactly lib/config.c's %r" % key_fields, "got %r" % sorted(fields))
    tap(fields.get("Mode", {}).get("pfm_range_list") == modes and
        fields.get("Mode", {}).get("pfm_default") == modes[0],
        "Mode: the choices %r, default %s" % (modes, modes[0]))
    tap(fields.get("OnReject", {}).get("pfm_range_list") == rejects and
        fields.get("OnReject", {}).get("pfm_default") == rejects[0],
        "OnReject: the choices %r, default %s" % (rejects, rejects[0]))
    fmt = sub.get("{{key}}", {}).get("pfm_format", "")
    good = ["kern.ipc.maxsockbuf", "net.ipv4.tcp_rmem", "net.ipv4.conf.eth-0.rp_filter"]
    bad = ["kern", ".a.b", "a..b", "a.-b", "a b.c", "a.b."]
    tap(all(re.match(fmt, g) for g in good) and not any(re.match(fmt, b) for b in bad),
        "the sysctl name format takes names config.c takes and refuses others", fmt)
    if payload is not None:
        unknown = [k for k in payload if k not in top]
        tap(not unknown, "every key of the example profile is described by the manifest",
            repr(unknown))


def main():
    if not os.access(TCPTUNECTL, os.X_OK):
        print("Bail out! %s not built" % TCPTUNECTL)
        return 99
    payload = test_mobileconfig()
    test_manifest(payload)
    print("1..%d" % n)
    print("# profile: %d of %d failed" % (failed, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
