#!/usr/bin/env python3
"""An HTTP server for tests/system/measure.sh, well-behaved or not on
purpose, by path:

  /stream         200, zeros until the client goes (Content-Length huge)
  /short          200, 100 kB and done
  /status/N       that HTTP status, with a small body
  /loop           302 to itself, for ever
  /redirect       302 to /stream
  /stall-body     200, 1 MB, then nothing with the connection open
  /stall-head     reads the request and never answers
  /cut            Content-Length 1 GB, 2 MB sent, then the connection closed

  measure_server.py ADDR PORT [CERT KEY]   (TLS with CERT and KEY)
Prints "listening" once it is.  Python's standard library only.
"""
import http.server
import socketserver
import ssl
import sys
import time

CHUNK = b"\0" * (1 << 20)


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
        if p == "/stream":
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
        else:
            self.body(404, 0)

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
