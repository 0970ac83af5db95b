#!/usr/bin/env python3
"""A raw client of tcptuned's control protocol, for the system tests.

It speaks the wire format of lib/proto.h directly (a 16-byte header
{type u32, len u32, seq u32, version u16, flags u16} in host byte order,
then len bytes), so it can send what tcptunectl never would.

  rawclient.py abuse SOCK [CASE...]    malformed and hostile input (the
                                       cases: bounds versions reply_types
                                       dribble pipeline half_close
                                       disconnect_mid_reply flood_unread
                                       connect_close random)
  rawclient.py mutate SOCK             every mutating request, raw (run it
                                       as a non-root user: all are denied)
  rawclient.py burst SOCK N [CONC]     N status requests, CONC at a time
  rawclient.py hold SOCK N READY RELEASE [PARTIAL]
                                       open N idle connections (every
                                       PARTIAL-th sends half a header),
                                       write how many to READY, close all
                                       once RELEASE exists
  rawclient.py status-ms SOCK          one status round trip, in ms
  rawclient.py crowd SOCK N REQS READY RELEASE
                                       N connections, each sending REQS
                                       status requests it never reads
  rawclient.py together SOCK N READY GO SENT
                                       N status requests sent at once
  rawclient.py send-and-leave SOCK REQ send reload|restore|resume, close
  rawclient.py listen SOCK READY RELEASE
                                       an impostor listening on SOCK

abuse and mutate print "PASS name: detail" or "FAIL name: detail" lines;
burst and status-ms print "key=value" figures.  Exit status 0 when every
case passed.
"""
import os
import random
import resource
import selectors
import socket
import struct
import sys
import time

HDR = struct.Struct("=IIIHH")
VERSION = 7
MAX_PAYLOAD = 16 * 1024
STATUS, RELOAD, RESTORE, RESUME = 1, 2, 3, 4
DAEMON_INFO, KEY_STATUS, CONFIG_ERROR, RESULT, MSG_VERSION, END = range(100, 106)
RESULT_SIZE = 1288
RESULT_DENIED, RESULT_BAD_REQUEST = 2, 3
CHANGE_SIZE = 128   # struct msg_change: reload, restore, resume (v7)


def change(mtype, seq=1, command=b"rawclient"):
    """A change request, with the command line it claims."""
    return (hdr(mtype, CHANGE_SIZE, seq) +
            command[:CHANGE_SIZE - 1].ljust(CHANGE_SIZE, b"\0"))
# How long to wait for the daemon: a safety net, not a deadline, so that
# a busy machine is not taken for a broken daemon (tests/system/lib.sh,
# TT_WAIT_LIMIT and TT_TIME_SCALE).
TIMEOUT = (float(os.environ.get("TT_WAIT_LIMIT") or 120) *
           float(os.environ.get("TT_TIME_SCALE") or 1))
IDLE_TIMEOUT = 30   # daemon/tcptuned.h, CONTROL_IDLE_TIMEOUT

results = []



def hold_until_released(ready, release, count):
    """Say how many connections are held (ready, written whole by a
    rename), then wait for the test's release file, bounded by the
    safety net."""
    with open(ready + ".tmp", "w") as f:
        f.write("%d\n" % count)
    os.rename(ready + ".tmp", ready)
    deadline = time.monotonic() + max(120, TIMEOUT)
    while not os.path.exists(release) and time.monotonic() < deadline:
        time.sleep(0.05)

def out(ok, name, detail=""):
    results.append(ok)
    print("%s %s: %s" % ("PASS" if ok else "FAIL", name, detail), flush=True)


def hdr(mtype, length=0, seq=1, version=VERSION, flags=0):
    return HDR.pack(mtype, length, seq, version, flags)


def conn(path, timeout=TIMEOUT):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    return s


def read_all(s, limit=1 << 24):
    """Everything until the daemon closes; None on a timeout."""
    data = b""
    try:
        while len(data) < limit:
            b = s.recv(65536)
            if not b:
                return data
            data += b
    except socket.timeout:
        return None
    except ConnectionResetError:
        return data
    return data


def messages(data):
    """Split a reply stream into (type, len, seq, version, flags, payload)."""
    msgs = []
    while len(data) >= HDR.size:
        t, n, seq, ver, fl = HDR.unpack_from(data)
        if len(data) < HDR.size + n:
            break
        msgs.append((t, n, seq, ver, fl, data[HDR.size:HDR.size + n]))
        data = data[HDR.size + n:]
    return msgs, data


LEFTOVER = {}       # socket -> (messages, bytes) read past the last MSG_END


def read_reply(s):
    """Messages up to and including MSG_END; None on timeout or close.
    What came after that MSG_END, whole messages and the start of the
    next one, is kept for the next call."""
    got, buf = LEFTOVER.pop(s, ([], b""))
    deadline = time.monotonic() + TIMEOUT
    while True:
        for i, m in enumerate(got):
            if m[0] == END:
                LEFTOVER[s] = (got[i + 1:], buf)
                return got[:i + 1]
        if time.monotonic() >= deadline:
            return None
        try:
            b = s.recv(65536)
        except socket.timeout:
            return None
        if not b:
            return None
        buf += b
        msgs, buf = messages(buf)
        got.extend(msgs)


def result_code(msgs):
    for m in msgs or []:
        if m[0] == RESULT and len(m[5]) >= 4:
            return struct.unpack_from("=I", m[5])[0]
    return None


def read_all_prompt(s):
    """read_all, but a close that only the idle timeout brought counts as
    none: the daemon must drop bad input when it reads it.  (Timed by the
    idle timeout, 30 s, which no busy machine makes a prompt close take.)"""
    t0 = time.monotonic()
    got = read_all(s)
    if got is not None and time.monotonic() - t0 >= IDLE_TIMEOUT:
        return None
    return got


def expect_closed_silently(path, data, name):
    s = conn(path)
    s.sendall(data)
    got = read_all_prompt(s)
    s.close()
    if got is None:
        out(False, name, "the daemon neither answered nor closed before "
            "its idle timeout (%ds)" % IDLE_TIMEOUT)
    elif got:
        out(False, name, "expected no reply, got %d bytes" % len(got))
    else:
        out(True, name, "closed without a reply")


def case_bounds(path):
    expect_closed_silently(path, hdr(STATUS, MAX_PAYLOAD + 1),
                           "length one past the bound (%d)" % (MAX_PAYLOAD + 1))
    expect_closed_silently(path, hdr(STATUS, 8) + b"\0" * 8,
                           "status with an 8-byte payload (must be 0)")
    expect_closed_silently(path, hdr(RELOAD, MAX_PAYLOAD) + b"A" * MAX_PAYLOAD,
                           "reload with a payload at the bound")
    expect_closed_silently(path, hdr(999), "unknown message type 999")
    expect_closed_silently(path, hdr(STATUS, flags=1), "non-zero flags")
    expect_closed_silently(path, hdr(0xffffffff, 0xffffffff, 0xffffffff,
                                     VERSION, 0xffff), "all-ones header")


def case_versions(path):
    for v in (0, VERSION - 1, VERSION + 1, 0xffff):
        s = conn(path)
        s.sendall(hdr(STATUS, seq=42, version=v))
        got = read_all(s)
        s.close()
        msgs, rest = messages(got or b"")
        ok = (got is not None and len(msgs) == 1 and not rest and
              msgs[0][0] == MSG_VERSION and msgs[0][2] == 42 and
              struct.unpack("=II", msgs[0][5]) == (VERSION, v))
        out(ok, "version %d: one MSG_VERSION reply (server %d, client %d), then close"
            % (v, VERSION, v), "got %r" % ([m[:3] for m in msgs],))


def case_reply_types(path):
    """A client sending what only the daemon sends: a bad-request result."""
    for t, size in ((RESULT, RESULT_SIZE), (END, 8), (MSG_VERSION, 8)):
        s = conn(path)
        s.sendall(hdr(t, size) + b"\0" * size)
        got = read_all(s)
        s.close()
        msgs, _ = messages(got or b"")
        code = result_code(msgs)
        out(code == RESULT_BAD_REQUEST and msgs[-1][0] == END,
            "a reply type (%d) sent as a request: 'bad request', then close" % t,
            "result code %r" % code)


def case_dribble(path):
    s = conn(path)
    for b in hdr(STATUS, seq=7):
        s.sendall(bytes([b]))
        time.sleep(0.01)
    msgs = read_reply(s)
    s.close()
    ok = msgs is not None and msgs[0][0] == DAEMON_INFO and \
        all(m[2] == 7 for m in msgs)
    out(ok, "a status request sent one byte at a time is answered",
        "%d messages" % len(msgs or []))


def case_pipeline(path):
    s = conn(path)
    s.sendall(hdr(STATUS, seq=1) + hdr(STATUS, seq=2) + hdr(STATUS, seq=3))
    seqs = []
    for _ in range(3):
        msgs = read_reply(s)
        if msgs is None:
            break
        seqs.append(msgs[-1][2])
    s.close()
    out(seqs == [1, 2, 3], "three pipelined requests get three replies in order",
        "END seqs %r" % seqs)


def case_half_close(path):
    s = conn(path)
    s.sendall(hdr(STATUS, seq=9))
    s.shutdown(socket.SHUT_WR)
    msgs = read_reply(s)
    s.close()
    out(msgs is not None, "a client that shuts its write side still gets its reply",
        "%d messages" % len(msgs or []))


def case_disconnect_mid_reply(path):
    """Unread replies and a reset: the daemon's send fails with EPIPE or
    ECONNRESET, which must not kill it (MSG_NOSIGNAL / SO_NOSIGPIPE)."""
    for i in range(30):
        s = conn(path)
        s.sendall(b"".join(hdr(STATUS, seq=n) for n in range(40)))
        if i % 2:
            s.recv(100)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    msgs = None
    try:
        s = conn(path)
        s.sendall(hdr(STATUS))
        msgs = read_reply(s)
        s.close()
    except OSError as e:
        out(False, "30 clients gone mid-reply", "then: %s" % e)
        return
    out(msgs is not None, "30 clients gone mid-reply (40 replies queued each): "
        "the daemon lives and answers")


def case_flood_unread(path):
    """Requests sent without reading: the daemon takes the next request
    only once the previous reply is sent, so what it holds for the client
    stays one reply; once the client reads, every request is answered,
    in order."""
    s = conn(path, timeout=15)
    n = 400
    s.sendall(b"".join(hdr(STATUS, seq=k) for k in range(n)))
    time.sleep(1.0)
    s.shutdown(socket.SHUT_WR)
    got = read_all(s, limit=1 << 26)
    s.close()
    if got is None:
        out(False, "400 requests read late: all answered", "no close")
        return
    seqs = [m[2] for m in messages(got)[0] if m[0] == END]
    out(seqs == list(range(n)),
        "400 requests read late: all answered, one reply at a time, in order",
        "%d of %d replies, %d bytes" % (len(seqs), n, len(got)))


def case_connect_close(path):
    for _ in range(100):
        s = conn(path)
        s.close()
    for cut in range(1, HDR.size):
        s = conn(path)
        s.sendall(hdr(STATUS)[:cut])
        s.close()
    out(True, "100 connect-and-close, 15 truncated headers then close", "")


def case_random(path):
    rng = random.Random(4)
    bad = 0
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000)))
        s = conn(path)
        try:
            s.sendall(data)
            if read_all_prompt(s) is None:
                bad += 1
        except OSError:
            pass            # closed on us while sending: fine
        s.close()
    out(bad == 0, "200 random byte strings (seed 4, 1-3000 bytes): each closed",
        "%d left hanging" % bad)


CASES = (case_bounds, case_versions, case_reply_types, case_dribble,
         case_pipeline, case_half_close, case_disconnect_mid_reply,
         case_flood_unread, case_connect_close, case_random)


def cmd_abuse(path, names):
    """The cases named (without "case_"), or all of them."""
    for case in CASES:
        if names and case.__name__[5:] not in names:
            continue
        try:
            case(path)
        except OSError as e:
            out(False, case.__name__, "error: %s" % e)
    # Last: the daemon is still there and answers.
    try:
        s = conn(path)
        s.sendall(hdr(STATUS))
        ok = read_reply(s) is not None
        s.close()
    except OSError:
        ok = False
    out(ok, "after all of it the daemon answers a status request")


def cmd_mutate(path):
    """Every mutating request, raw, alone and hidden among others."""
    for t, name in ((RELOAD, "reload"), (RESTORE, "restore"), (RESUME, "resume")):
        s = conn(path)
        s.sendall(change(t, seq=5))
        msgs = read_reply(s)
        s.close()
        code = result_code(msgs)
        out(code == RESULT_DENIED, "raw %s as uid %d: denied" % (name, os.getuid()),
            "result code %r" % code)
    s = conn(path)
    s.sendall(hdr(STATUS, seq=1) + change(RELOAD, seq=2) +
              change(RESTORE, seq=3) + change(RESUME, seq=4) +
              hdr(STATUS, seq=5))
    codes = []
    for _ in range(5):
        msgs = read_reply(s)
        if msgs is None:
            break
        codes.append((msgs[-1][2], result_code(msgs)))
    s.close()
    want = [(1, None), (2, RESULT_DENIED), (3, RESULT_DENIED),
            (4, RESULT_DENIED), (5, None)]
    out(codes == want, "pipelined status, reload, restore, resume, status: "
        "status answered, each change denied", "got %r" % codes)
    for t, name in ((RELOAD, "reload"), (RESTORE, "restore")):
        expect_closed_silently(path, hdr(t, 4) + b"root", "%s with a payload" % name)
    for v in (0, VERSION + 1):
        s = conn(path)
        s.sendall(hdr(RESTORE, version=v))
        msgs, _ = messages(read_all(s) or b"")
        s.close()
        out([m[0] for m in msgs] == [MSG_VERSION],
            "restore with version %d: only the version reply" % v, "")


def cmd_burst(path, n, conc):
    """n status requests, conc connections at a time, over non-blocking
    sockets; a connect refused with EAGAIN (backlog full) is retried."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and conc + 32 > hard:
        conc = max(1, hard - 32)
    if soft != resource.RLIM_INFINITY and soft < conc + 32:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(conc + 32, hard), hard))
    sel = selectors.DefaultSelector()
    started = answered = failed = retries = 0
    lat = []
    t_begin = time.monotonic()
    deadline = t_begin + max(90, TIMEOUT)
    while answered + failed < n and time.monotonic() < deadline:
        while started < n and len(sel.get_map()) < conc:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.setblocking(False)
            t0 = time.monotonic()
            try:
                s.connect(path)
            except BlockingIOError:
                s.close()
                retries += 1
                break
            s.send(hdr(STATUS, seq=started))
            sel.register(s, selectors.EVENT_READ, [t0, b""])
            started += 1
        for key, _ in sel.select(timeout=0.02):
            s, st = key.fileobj, key.data
            try:
                b = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                b = b""
            st[1] += b
            done = any(m[0] == END for m in messages(st[1])[0])
            if done or not b:
                sel.unregister(s)
                s.close()
                if done:
                    answered += 1
                    lat.append((time.monotonic() - st[0]) * 1000)
                else:
                    failed += 1
    lat.sort()
    total = (time.monotonic() - t_begin) * 1000
    print("connections=%d answered=%d failed=%d retries=%d concurrency=%d "
          "total_ms=%.0f max_ms=%.1f p50_ms=%.1f" % (
              n, answered, failed, retries, conc, total,
              lat[-1] if lat else -1, lat[len(lat) // 2] if lat else -1))
    return 0 if answered == n else 1


def cmd_hold(path, n, ready, release, partial):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < n + 32:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(n + 32, hard), hard))
    socks = []
    for i in range(n):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setblocking(False)
        # A full backlog (EAGAIN) may only mean the daemon has not caught
        # up yet: retry for 3 s before taking it as all we get.
        give_up = time.monotonic() + 3
        while True:
            try:
                s.connect(path)
                break
            except BlockingIOError:
                if time.monotonic() > give_up:
                    break
                time.sleep(0.01)
        try:
            s.getpeername()
        except OSError:
            s.close()
            break
        if partial and i % partial == 0:
            s.send(hdr(STATUS)[:8])
        socks.append((s, time.monotonic()))
    hold_until_released(ready, release, len(socks))
    # Which of them the daemon closed while we held them, and which of
    # those it closed before their idle timeout could have run out (held
    # for less than it now: a figure a busy machine cannot make wrong).
    closed = early = 0
    for s, t in socks:
        age = time.monotonic() - t
        gone = False
        try:
            gone = s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            gone = True
        if gone:
            closed += 1
            early += age < IDLE_TIMEOUT
        s.close()
    print("held=%d closed_by_daemon=%d closed_early=%d" % (len(socks), closed, early))
    return 0


def cmd_status_ms(path):
    t0 = time.monotonic()
    s = conn(path)
    s.sendall(hdr(STATUS))
    msgs = read_reply(s)
    s.close()
    ms = (time.monotonic() - t0) * 1000
    print("status_ms=%.1f answered=%d" % (ms, msgs is not None))
    return 0 if msgs is not None else 1


def connect_nb(path, give_up_s=3.0):
    """A non-blocking connection; a full backlog (EAGAIN) is retried for a
    while, as the daemon may not have caught up.  None when refused."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setblocking(False)
    give_up = time.monotonic() + give_up_s
    while True:
        try:
            s.connect(path)
            return s
        except BlockingIOError:
            if time.monotonic() > give_up:
                s.close()
                return None
            time.sleep(0.01)
        except OSError:
            s.close()
            return None


def cmd_crowd(path, n, reqs, ready, release):
    """N connections kept open, each sending REQS pipelined status requests
    (as many as the socket takes) and never reading a reply; then waits for
    RELEASE.  Prints opened=, closed_by_daemon= (those the daemon closed:
    over its per-user limit, or idle)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < n + 32:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(n + 32, hard), hard))
    socks = []
    flood = b"".join(hdr(STATUS, seq=k) for k in range(reqs))
    for _ in range(n):
        s = connect_nb(path)
        if s is None:
            continue
        if flood:
            try:
                s.send(flood)
            except OSError:
                pass
        socks.append(s)
    hold_until_released(ready, release, len(socks))
    closed = 0
    for s in socks:
        try:
            while True:
                b = s.recv(65536)
                if b == b"":
                    closed += 1
                    break
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    print("opened=%d closed_by_daemon=%d" % (len(socks), closed))
    return 0


def cmd_together(path, n, ready, go, sent):
    """N connections, then (once GO exists) a status request on each, all
    at once; SENT written when every request is out; then every reply
    read.  Prints answered=N."""
    socks = [conn(path) for _ in range(n)]
    with open(ready + ".tmp", "w") as f:
        f.write("%d\n" % len(socks))
    os.rename(ready + ".tmp", ready)
    deadline = time.monotonic() + max(60, TIMEOUT)
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.01)
    for k, s in enumerate(socks):
        s.sendall(hdr(STATUS, seq=k))
    with open(sent, "w") as f:
        f.write("sent\n")
    answered = sum(1 for s in socks if read_reply(s) is not None)
    for s in socks:
        s.close()
    print("answered=%d" % answered)
    return 0 if answered == n else 1


def cmd_send_and_leave(path, name):
    """One mutating request, sent and the connection closed at once, not
    waiting for the reply (run while the daemon is stopped)."""
    t = {"reload": RELOAD, "restore": RESTORE, "resume": RESUME}[name]
    s = conn(path)
    s.sendall(change(t, seq=9))
    s.close()
    print("sent %s and left" % name)
    return 0


def cmd_listen(path, ready, release):
    """Listen on PATH (an impostor), write READY, serve nothing until
    RELEASE exists."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(16)
    with open(ready + ".tmp", "w") as f:
        f.write("%d\n" % os.getuid())
    os.rename(ready + ".tmp", ready)
    deadline = time.monotonic() + max(120, TIMEOUT)
    while not os.path.exists(release) and time.monotonic() < deadline:
        time.sleep(0.05)
    s.close()
    return 0


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    cmd, path = argv[1], argv[2]
    if cmd == "abuse":
        cmd_abuse(path, argv[3:])
    elif cmd == "mutate":
        cmd_mutate(path)
    elif cmd == "burst":
        return cmd_burst(path, int(argv[3]), int(argv[4]) if len(argv) > 4 else int(argv[3]))
    elif cmd == "hold":
        return cmd_hold(path, int(argv[3]), argv[4], argv[5],
                        int(argv[6]) if len(argv) > 6 else 0)
    elif cmd == "crowd":
        return cmd_crowd(path, int(argv[3]), int(argv[4]), argv[5], argv[6])
    elif cmd == "together":
        return cmd_together(path, int(argv[3]), argv[4], argv[5], argv[6])
    elif cmd == "send-and-leave":
        return cmd_send_and_leave(path, argv[3])
    elif cmd == "listen":
        return cmd_listen(path, argv[3], argv[4])
    elif cmd == "status-ms":
        return cmd_status_ms(path)
    else:
        print(__doc__, file=sys.stderr)
        return 64
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
