#!/usr/bin/env python3
"""Write the seed corpora of fuzz_proto, fuzz_reply, fuzz_value and
fuzz_answer (fuzz/corpus/).

Run from fuzz/ after a protocol change: python3 mkcorpus.py [OUTDIR]
(default corpus/ beside this script; tests/lint/fuzz_corpus.sh writes into
a temporary one and fails when the committed corpus differs).  The layouts follow lib/proto.h and
lib/parse_wire.h (host byte order, little-endian here); the versions and
the payload sizes are read from those headers (TT_PROTO_VERSION,
PW_VERSION and their _Static_asserts), so a seed cannot keep a version or
a size the code has left.
"""
import os
import re
import struct
import sys

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def header_text(path):
    with open(os.path.join(TOP, path)) as f:
        return f.read()


def define(text, name):
    m = re.search(r"^#define\s+%s\s+(\d+)u?\b" % name, text, re.M)
    assert m, "no #define %s" % name
    return int(m.group(1))


def static_sizes(text):
    """struct NAME -> N of each _Static_assert(sizeof(struct NAME) == N."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r"_Static_assert\(sizeof\(struct (\w+)\) == (\d+)", text)}


PROTO_H = header_text("lib/proto.h")
VERSION = define(PROTO_H, "TT_PROTO_VERSION")
SIZE = static_sizes(PROTO_H)
SIZE.update(static_sizes(header_text("lib/parse_wire.c")))
PW_VERSION = define(header_text("lib/parse_wire.h"), "PW_VERSION")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "fuzz",
                                                         "corpus")
T = dict(status=1, reload=2, restore=3, resume=4, lease=5, diagnose=6,
         daemon_info=100, key_status=101, config_error=102, result=103,
         version=104, end=105, diag_summary=106, flow=107)
# enum held_by
HELD = dict(unclassified=0, receive_buffer=1, send_buffer=2, peer_window=3,
            network=4, application=5)


def sized(struct_name, payload):
    assert len(payload) == SIZE[struct_name], (struct_name, len(payload))
    return payload


def hdr(mtype, length, seq=7, version=VERSION, flags=0):
    return struct.pack("<IIIHH", mtype, length, seq, version, flags)


def s(text, size):
    b = text.encode()[:size]
    return b + b"\0" * (size - len(b))


def daemon_info():
    p = struct.pack("<qqqqiiIIIIIiiIQ", 1700000000, 1700000100, 0,
                    1700000099, 42, 1, 60, 2, 0, 0, 1, 0, 4242, 25, 17)
    p += s("0.1", 32) + s("linux", 32) + s("/etc/tcptune.conf", 1024)
    p += s("", 1024) + s("", 1280) + s("", 1280)
    p += s("/var/lib/tcptune/originals.corrupt.20231114T221500Z.1", 1280)
    p += struct.pack("<II", 1, 0)
    # paused_since, paused_uid, paused_pid, paused_command (v7)
    p += struct.pack("<qii", 1700000050, 0, 812) + s("tcptunectl restore", 128)
    return sized("msg_daemon_info", p)


def change(command):
    """A change request's payload (struct msg_change, v7)."""
    return sized("msg_change", s(command, 128))


def key_status(name, wanted, current, state, err=0):
    p = s(name, 128) + s(wanted, 256) + s(wanted, 256) + s(current, 256)
    p += s("4096 131072 6291456", 256) + s("", 1280)
    p += s("/etc/tcptune.conf", 1024)
    # v7: the other places that set it
    p += s("also set by /etc/sysctl.d/90-big.conf:1 to 4096 131072 "
           "134217728, applied at boot by systemd-sysctl", 512)
    p += struct.pack("<qqIIIiII", 1700000050, 0, state, 0, 0, err, 1, 1)
    return sized("msg_key_status", p)


def result(code, text):
    return sized("msg_result", struct.pack("<II", code, 0) + s(text, 1280))


def end(n):
    return sized("msg_end", struct.pack("<II", n, 0))


def diagnose(all_flows):
    return sized("msg_diagnose", struct.pack("<II", all_flows, 0))


def diag_summary(nflows, nhidden=0, watching=1):
    """Counts over a history of nflows shown and nhidden other users'."""
    held_total = [3, 5, 0, 1, 2, 9]
    held_recent = [1, 1, 0, 0, 1, 0]
    p = struct.pack("<qqQ", 1700000100, 1700000099, 2)
    p += struct.pack("<6Q", *held_total) + struct.pack("<6I", *held_recent)
    p += struct.pack("<IIII", nflows, nhidden, nflows + nhidden, 300)
    p += struct.pack("<QII", 6291456, 1, 0)
    p += s("net.ipv4.tcp_rmem", 128) + s("sock_diag", 32)
    p += s("", 1280) + s("", 1280)
    p += struct.pack("<5QII", 40, 0, 2, 0, 0, 1000, watching)
    p += s("" if watching else "no CAP_NET_ADMIN for close notices", 1280)
    p += struct.pack("<II", 1, 0)   # capped, capped_unknown
    return sized("msg_diag_summary", p)


def flow(local, remote, held_by, ceiling_key="", receiving=1):
    p = s(local, 64) + s(remote, 64) + s(ceiling_key, 128)
    p += struct.pack("<5Qq", 6291456 if ceiling_key else 0, 310000000,
                     335000000 if ceiling_key else 0,
                     2680000000 if ceiling_key else 0, 1 << 30, 1700000098)
    p += struct.pack("<5I", 150000, HELD[held_by], 1000, receiving, 1)
    # path_rtt_us, flags (TT_FLOW_PATH_FULL), pad, window_cap
    p += struct.pack("<3IQ", 140000, 1, 0, 8388480 if receiving else 0)
    return sized("msg_flow", p)


def msg(name, payload=b"", **kw):
    return hdr(T[name], len(payload), **kw) + payload


def write(d, name, data):
    os.makedirs(os.path.join(OUT, d), exist_ok=True)
    with open(os.path.join(OUT, d, name), "wb") as f:
        f.write(data)


def status_reply(summary=True):
    """As a protocol 6 daemon answers status: the summary before the end."""
    return (msg("daemon_info", daemon_info()) +
            msg("key_status", key_status("net.ipv4.tcp_rmem",
                                          "4096 131072 67108864",
                                          "4096 131072 67108864", 1)) +
            msg("key_status", key_status("net.core.rmem_max", "67108864",
                                          "212992", 3, 13)) +
            (msg("diag_summary", diag_summary(0)) if summary else b"") +
            msg("end", end(2)))


def diagnose_reply():
    return (msg("diag_summary", diag_summary(2, nhidden=1, watching=0)) +
            msg("flow", flow("10.0.0.2:41234", "[2001:db8::1]:443",
                             "receive_buffer", "net.ipv4.tcp_rmem")) +
            msg("flow", flow("10.0.0.2:22", "192.0.2.7:50522", "network",
                             receiving=0)) +
            msg("end", end(2)))


def proto():
    write("proto", "request-status", msg("status"))
    for r in ("reload", "restore", "resume"):
        write("proto", "request-" + r, msg(r, change("tcptunectl " + r)))
    write("proto", "request-lease", msg("lease", struct.pack("<II", 30, 0)))
    write("proto", "request-diagnose", msg("diagnose", diagnose(1)))
    write("proto", "requests-pipelined", msg("status") +
          msg("reload", change("tcptunectl set a=1"), seq=8))
    write("proto", "reply-status", status_reply())
    write("proto", "reply-diagnose", diagnose_reply())
    write("proto", "reply-reload-errors",
          msg("config_error", s("/etc/tcptune.conf:5: unknown key", 1280)) +
          msg("result", result(1, "configuration rejected")) +
          msg("end", end(1)))
    write("proto", "reply-restore", msg("result", result(0, "restored")) +
          msg("end", end(0)))
    # The version seeds carry another version on purpose (the lint knows
    # them by "version" in the name).
    write("proto", "reply-version",
          msg("version", struct.pack("<II", VERSION, VERSION + 1),
              version=VERSION + 1))
    write("proto", "request-other-version", msg("status", version=VERSION + 1))
    write("proto", "request-unterminated",
          hdr(T["config_error"], 1280) + b"A" * 1280)


def reply():
    """fuzz_reply: a request byte (0 status, 1 reload, 2 restore, 3 resume,
    4 lease, 5 diagnose: fuzz_reply.c's requests[], modulo six), a chunk
    size byte (0: all at once), then the reply stream."""
    def seed(name, request, chunk, stream):
        write("reply", name, bytes([request, chunk]) + stream)

    ok_status = status_reply()
    seed("status", 0, 0, ok_status)
    seed("status-bytewise", 0, 1, ok_status)
    seed("status-chunks-7", 0, 7, ok_status)
    seed("status-count-mismatch", 0, 0, ok_status[:-24] +
         msg("end", end(3)))
    seed("status-truncated", 0, 16, ok_status[:5000])
    seed("status-without-summary", 0, 0, status_reply(summary=False))
    seed("status-key-after-summary", 0, 0, ok_status[:-24] +
         msg("key_status", key_status("net.a", "1", "1", 1)) +
         msg("end", end(3)))
    seed("status-bad-state", 0, 0, msg("daemon_info", daemon_info()) +
         msg("key_status", key_status("net.x", "1", "1", 9)) +
         msg("end", end(1)))
    # ESC, BEL, then C1 CSI and RLO as UTF-8 (C2 9B, E2 80 AE): s() encodes
    # the text, so they are written as the characters, not their bytes
    seed("status-hostile-name", 0, 0, msg("daemon_info", daemon_info()) +
         msg("key_status", key_status("net.\x1b]0;x\x07\u009b\u202e",
                                      "1", "1", 99)))
    seed("reload-errors", 1, 7,
         msg("config_error", s("/etc/tcptune.conf:5: unknown key", 1280)) +
         msg("result", result(1, "configuration rejected")) +
         msg("end", end(1)))
    seed("restore", 2, 0, msg("result", result(0, "originals restored")) +
         msg("end", end(0)))
    seed("resume-wrong-seq", 3, 0, msg("result", result(0, "resumed")) +
         msg("end", end(0), seq=8))
    seed("lease", 4, 0, msg("result", result(0, "paused for 30 s")) +
         msg("end", end(0)))
    seed("diagnose", 5, 0, diagnose_reply())
    seed("diagnose-bytewise", 5, 1, diagnose_reply())
    seed("diagnose-flow-first", 5, 0, diagnose_reply()[
        len(msg("diag_summary", diag_summary(2, nhidden=1, watching=0))):])
    seed("version-mismatch", 0, 3,
         msg("version", struct.pack("<II", 2, 1), version=2))
    seed("unexpected-type", 2, 0, msg("key_status",
                                      key_status("net.a", "1", "1", 1)))


def value():
    pairs = [
        ("4096\t131072\t6291456\n", "4096 131072 67108864"),
        ("212992\n", "67108864"),
        ("cubic\n", "bbr"),
        ("  4096   16384 4194304 ", "4096 16384 4194304"),
        ("-1 +2 003", "9223372036854775807 -9223372036854775808 0"),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", "1"),
        ("net.ipv4.tcp_rmem", "net.core.rmem_max"),
        ("net.ipv4.conf.eth-0.rp_filter", "kern.ipc.maxsockbuf"),
        # sysctl.conf lines, as other_sources.c reads other tools' files
        ("-net/ipv4/tcp_rmem = 4096 131072 134217728", "1"),
        ("  net.core.rmem_max=67108864", "= = ="),
    ]
    for i, (a, b) in enumerate(pairs):
        write("value", "pair-%02d" % i, a.encode() + b"\0" + b.encode())


def pw_head(ok, nerrs, nkeys, interval=60, setbits=1, flags=0,
            version=PW_VERSION):
    # lib/parse_wire.h struct pw_head
    return sized("pw_head", struct.pack(
        "<IIIIIIIIQ", 0x54545057, version, ok, nerrs, nkeys, interval,
        setbits, flags, 0x1234abcd) + s("", 1024))  # metrics_dir (3)


def pw_key(name, value, numeric=1, line=5):
    return sized("pw_key", s(name, 128) + s(value, 256) +
                 struct.pack("<IIIiI", numeric, 0, 0, line, 0))


def pw_error(text):
    return sized("pw_error", s(text, 1280))


def answer():
    write("answer", "config-two-keys", pw_head(1, 0, 2) +
          pw_key("net.ipv4.tcp_rmem", "4096 131072 67108864") +
          pw_key("net.core.rmem_max", "67108864", line=9))
    write("answer", "config-empty", pw_head(1, 0, 0, setbits=0))
    write("answer", "config-allow-any", pw_head(1, 0, 1, flags=2) +
          pw_key("kernel.core_pattern", "core", numeric=0))
    write("answer", "errors", pw_head(0, 2, 0) +
          pw_error("/etc/tcptune.conf:3: <integer>16M</integer> is not a "
                   "number") +
          pw_error("/etc/tcptune.conf:9: a key twice"))
    write("answer", "key-twice", pw_head(1, 0, 2) +
          pw_key("net.core.rmem_max", "1") + pw_key("net.core.rmem_max", "2"))
    # another build's version, on purpose, as the proto ones
    write("answer", "other-version", pw_head(1, 0, 0, version=PW_VERSION - 1))


if __name__ == "__main__":
    proto()
    reply()
    value()
    answer()
