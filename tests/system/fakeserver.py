#!/usr/bin/env python3
"""A server on a control socket that is not tcptuned, for tests/system/client.sh.

  fakeserver.py SOCK MODE READY

listens on SOCK, writes READY once tcptunectl may connect, and serves
until it is killed.  It speaks the wire format of lib/proto.h (a 16-byte
header {type u32, len u32, seq u32, version u16, flags u16} in host byte
order, then the payload) and answers whatever it is asked as MODE says:

  restored      "originals restored", result ok: an impostor's lie
  backlog       never accepts, and fills its own listen queue first
  silent        accepts and reads, never answers
  stall         answers half a daemon-info message, then nothing
  hostile       a valid status reply whose strings carry C0, C1 and bidi
                controls and bytes that are not UTF-8
  hostile-bad   a status reply with such a key name in an unknown state
  bad-request   result "bad request" (exit 4, nothing on stdout)
  sizes         a status reply of byte sizes (one vector, one clamped),
                a count, a switch and a key in no catalogue
  dgram         a datagram socket in the stream socket's place
  refuse-reload status names FAKE_CONFIG (from the environment) as its
                config, plainly; reload is refused (result "failed"):
                for set and advise --apply putting the file back
"""
import os
import socket
import struct
import sys
import time

HDR = struct.Struct("=IIIHH")
VERSION = 7
DAEMON_INFO, KEY_STATUS, RESULT, END = 100, 101, 103, 105
MSG_STATUS = 1
EVIL = b"\x1b[31m\x1b]0;owned\x07\xc2\x9b2J\xe2\x80\xae\x9b\xff"


def s(raw, size):
    raw = raw[:size - 1]
    return raw + b"\0" * (size - len(raw))


def msg(mtype, seq, payload):
    return HDR.pack(mtype, len(payload), seq, VERSION, 0) + payload


def daemon_info(nkeys, config=b"/etc/tcptune.conf" + EVIL):
    # v2: last_check after last_reload, managed_path after config_path
    # and the lease (none): lease, uid, pid, seconds left
    p = struct.pack("=qqqqiiIIIIIiiIQ", 1700000000, 1700000100, 0, 0, 4242,
                    1, 60, nkeys, 0, 0, 0, 0, -1, 0, 3)
    p += s(b"0.1" + EVIL, 32) + s(b"sysctl-dir" + EVIL, 32)
    p += s(config, 1024) + s(b"", 1024)
    p += s(b"reloaded" + EVIL, 1280) + s(b"", 1280)
    # v3: the damaged originals files kept (none), their count, pad
    p += s(b"", 1280) + struct.pack("=II", 0, 0)
    # v7: who paused (nobody): since, uid, pid, command
    p += struct.pack("=qii", 0, -1, -1) + s(b"", 128)
    assert len(p) == 6184
    return p


def key_status(name, state):
    p = s(name, 128) + s(b"4096 " + EVIL, 256) + s(b"1" + EVIL, 256)
    p += s(b"2" + EVIL, 256) + s(b"3" + EVIL, 256)
    p += s(b"note" + EVIL, 1280) + s(b"", 1024)   # v2: source
    p += s(b"", 512)                              # v7: others
    p += struct.pack("=qqIIIiII", 0, 0, state, 0, 0, 0, 0, 1)
    assert len(p) == 4008
    return p


def key_values(name, wanted, current, original, state=1, applied=None):
    p = s(name, 128) + s(wanted, 256) + s(applied or wanted, 256)
    p += s(current, 256) + s(original, 256)
    p += s(b"", 1280) + s(b"", 1024) + s(b"", 512)
    p += struct.pack("=qqIIIiII", 0, 0, state, 0, 0, 0, 0,
                     1 if original else 0)
    assert len(p) == 4008
    return p


SIZES = [
    key_values(b"net.ipv4.tcp_rmem", b"4096 131072 67108864",
               b"4096 87380 6291456", b"4096 131072 6291456"),
    key_values(b"net.core.rmem_max", b"67108864", b"67108864", b"212992"),
    key_values(b"net.core.wmem_max", b"4294967296", b"2147483647",
               b"212992", state=2, applied=b"2147483647"),
    key_values(b"net.ipv4.tcp_mem", b"188319 251092 376638",
               b"188319 251092 376638", b""),
    key_values(b"net.ipv4.tcp_window_scaling", b"1", b"1", b"1"),
    # pending: a state shorter than "in force", for --short's columns
    key_values(b"net.example.rmem", b"4096", b"4096", b"", state=0),
]


def result(code, text):
    return struct.pack("=II", code, 0) + s(text, 1280)


def end(n):
    return struct.pack("=II", n, 0)


def answer(mode, seq, mtype=0):
    if mode == "refuse-reload" and mtype == MSG_STATUS:
        conf = os.environ["FAKE_CONFIG"].encode()
        return (msg(DAEMON_INFO, seq, daemon_info(0, conf)) +
                msg(END, seq, end(0)))
    if mode == "refuse-reload":
        return (msg(RESULT, seq, result(1, b"refused by the fake")) +
                msg(END, seq, end(0)))
    if mode == "restored":
        return (msg(RESULT, seq, result(0, b"originals restored")) +
                msg(END, seq, end(0)))
    if mode == "bad-request":
        return (msg(RESULT, seq, result(3, b"what is this")) +
                msg(END, seq, end(0)))
    if mode == "stall":
        return msg(DAEMON_INFO, seq, daemon_info(0))[:100]
    if mode == "hostile":
        return (msg(DAEMON_INFO, seq, daemon_info(1)) +
                msg(KEY_STATUS, seq, key_status(b"net.evil" + EVIL, 1)) +
                msg(END, seq, end(1)))
    if mode == "sizes":
        return (msg(DAEMON_INFO, seq, daemon_info(len(SIZES))) +
                b"".join(msg(KEY_STATUS, seq, k) for k in SIZES) +
                msg(END, seq, end(len(SIZES))))
    if mode == "hostile-bad":
        return (msg(DAEMON_INFO, seq, daemon_info(1)) +
                msg(KEY_STATUS, seq, key_status(b"net.evil" + EVIL, 77)))
    return b""


def read_request(conn):
    data = b""
    while len(data) < HDR.size:
        got = conn.recv(HDR.size - len(data))
        if not got:
            return None
        data += got
    h = HDR.unpack(data)
    left = h[1]             # the payload (v7: a change's command line)
    while left > 0:
        got = conn.recv(left)
        if not got:
            return None
        left -= len(got)
    return h


def fill_queue(path):
    """Connect to ourselves until the queue is full: Linux's connect(2)
    then fails with EAGAIN on a non-blocking socket."""
    held = []
    for _ in range(1000):
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        c.setblocking(False)
        try:
            c.connect(path)
        except (BlockingIOError, ConnectionRefusedError):
            c.close()
            return held
        held.append(c)
    raise SystemExit("the listen queue never filled")


def main():
    path, mode, ready = sys.argv[1:4]
    kind = socket.SOCK_DGRAM if mode == "dgram" else socket.SOCK_STREAM
    srv = socket.socket(socket.AF_UNIX, kind)
    srv.bind(path)
    os.chmod(path, 0o666)
    if mode != "dgram":
        srv.listen(0 if mode == "backlog" else 16)
    held = fill_queue(path) if mode == "backlog" else []
    with open(ready + ".tmp", "w") as f:
        f.write("%d\n" % len(held))
    os.rename(ready + ".tmp", ready)
    if mode in ("backlog", "dgram"):
        while True:
            time.sleep(60)
    while True:
        conn, _ = srv.accept()
        held.append(conn)
        hdr = read_request(conn)
        if hdr is None:
            continue
        try:
            conn.sendall(answer(mode, hdr[2], hdr[0]))
        except OSError:
            pass
        if mode not in ("silent", "stall"):
            conn.close()
            held.remove(conn)


if __name__ == "__main__":
    main()
