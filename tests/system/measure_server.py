#!/usr/bin/env python3
"""An HTTP server for tests/system/measure.sh, well-behaved or not on
purpose, by path:

  /stream         200, zeros until the client goes (Content-Length huge);
                  also /stream/ANYTHING, for URLs with hostile bytes
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
        if p == "/stream" or p.startswith("/stream/"):
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
