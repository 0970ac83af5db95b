#!/usr/bin/env python3
"""An HTTP server for tests/system/measure.sh, well-behaved or not on
purpose, by path:

  /stream         200, zeros until the client goes (Content-Length huge);
                  also /stream/ANYTHING, for URLs with hostile bytes, and
                  /upload and /get-only, for --both
  /short          200, 100 kB and done
  /status/N       that HTTP status, with a small body
  /loop           302 to itself, for ever
  /redirect       302 to /stream
  /stall-body     200, 1 MB, then nothing with the connection open
  /stall-head     reads the request and never answers
  /cut            Content-Length 1 GB, 2 MB sent, then the connection closed
  /to-ftp         302 to ftp://user:t0ps3cret@HOST/file (a scheme measure
                  does not follow, with a password it must not show)
  /to-file        302 to file:///etc/passwd
  /to-hostile     302 to an ftp:// URL full of C0, C1 (raw and UTF-8),
                  and bidi bytes, in its userinfo, host and path
  /hostile-error  500 with those bytes in the reason phrase, a header
                  and the body

PUT and POST (an upload, its body chunked or of a Content-Length):
  /upload         reads the body and drops it, prints "upload METHOD
                  PATH BYTES" on stdout, answers 200 with a short body
  /status/N       that HTTP status, before the body when the client asks
                  "Expect: 100-continue" (as nginx answers a PUT it does
                  not take), else after reading it
  /moved          307 to /upload, likewise
  /get-only       405, likewise (a GET of it streams)

  measure_server.py ADDR PORT [CERT KEY]   (TLS with CERT and KEY)
Prints "listening" once it is.  Python's standard library only.
"""
import http.server
import socketserver
import ssl
import sys
import time

CHUNK = b"\0" * (1 << 20)
# ESC [31m, BEL, U+009B (CSI) as UTF-8, U+202E (RLO) as UTF-8, a raw
# 0x9b (CSI as one byte); as latin-1 text, which http.server writes out
# byte for byte.
HOSTILE = b"\x1b[31m\x07\xc2\x9b\xe2\x80\xae\x9b".decode("latin-1")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def body(self, status, length):
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.end_headers()

    def stream(self, total):
        sent = 0
        try:
            while sent < total:
                n = min(len(CHUNK), total - sent)
                self.wfile.write(CHUNK[:n])
                sent += n
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass
        return sent

    def do_GET(self):
        p = self.path
        if (p == "/stream" or p.startswith("/stream/") or
                p in ("/upload", "/get-only")):
            self.body(200, 1 << 42)
            self.stream(1 << 42)
        elif p == "/short":
            self.body(200, 100000)
            self.stream(100000)
        elif p.startswith("/status/"):
            code = int(p.rsplit("/", 1)[1])
            self.body(code, 5)
            self.wfile.write(b"oops\n")
        elif p == "/loop":
            self.redirect("/loop")
        elif p == "/redirect":
            self.redirect("/stream")
        elif p == "/stall-body":
            self.body(200, 1 << 30)
            self.stream(1 << 20)
            self.wfile.flush()
            time.sleep(60)
        elif p == "/stall-head":
            time.sleep(60)
        elif p == "/cut":
            self.body(200, 1 << 30)
            self.stream(2 << 20)
            self.close_connection = True
        elif p == "/to-ftp":
            self.redirect("ftp://user:t0ps3cret@%s/file" % self.host())
        elif p == "/to-file":
            self.redirect("file:///etc/passwd")
        elif p == "/to-hostile":
            self.redirect("ftp://us%ser:t0ps3cret@h%sst/p%s" %
                          (HOSTILE, HOSTILE, HOSTILE))
        elif p == "/hostile-error":
            body = HOSTILE.encode("latin-1")
            self.send_response(500, "Oops" + HOSTILE)
            self.send_header("X-Hostile", HOSTILE)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.body(404, 0)

    # ---- uploads

    def early(self):
        """The status an upload to this path gets without its body, or
        None."""
        p = self.path
        if p.startswith("/status/"):
            return int(p.rsplit("/", 1)[1])
        if p == "/moved":
            return 307
        if p == "/get-only":
            return 405
        if p == "/upload":
            return None
        return 404

    def answer(self, code):
        self.send_response(code)
        if code == 307:
            self.send_header("Location", "/upload")
        self.send_header("Content-Length", "5")
        self.end_headers()
        self.wfile.write(b"oops\n")

    def handle_expect_100(self):
        code = self.early()
        if code is None:
            return super().handle_expect_100()
        self.answer(code)
        self.close_connection = True
        return False

    def read_exactly(self, n):
        while n > 0:
            b = self.rfile.read(min(n, 1 << 20))
            if not b:
                raise ConnectionError("the body ended early")
            n -= len(b)

    def read_body(self):
        """The body's length, read and dropped."""
        if self.headers.get("Transfer-Encoding", "").lower() != "chunked":
            n = int(self.headers.get("Content-Length", "0"))
            self.read_exactly(n)
            return n
        total = 0
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass        # trailers
                return total
            self.read_exactly(size)
            self.rfile.readline()   # the chunk's CRLF
            total += size

    def do_PUT(self):
        try:
            n = self.read_body()
        except (ConnectionError, ValueError, ssl.SSLError):
            self.close_connection = True
            return
        code = self.early()
        if code is not None:
            self.answer(code)
            return
        print("upload %s %s %d" % (self.command, self.path, n), flush=True)
        body = b"received %d\n" % n
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_PUT

    def host(self):
        return self.server.server_address[0]

    def redirect(self, where):
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    srv = Server((sys.argv[1], int(sys.argv[2])), Handler)
    if len(sys.argv) == 5:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(sys.argv[3], sys.argv[4])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    print("listening", flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
