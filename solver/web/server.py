"""Serving the study page: :func:`serve` binds the address, prints it (and a warning
when it is not loopback) and runs the app (:func:`solver.web.app.create_app`) with
uvicorn, whose HTTP protocol it adjusts (:func:`_protocol`): a request that has not all
arrived within :data:`READ_TIMEOUT` seconds is answered 408 and dropped, and what is not
HTTP gets a JSON 400.
"""
from __future__ import annotations

import errno
import json
import socket
import sys

from .._checks import check_int
from .app import Limits, create_app
from .guard import Served, is_loopback
from .trainings import MAX_MODELS

READ_TIMEOUT = 5.0       # seconds a request (its headers and body) may take to arrive


def _raw_json_response(status: int, reason: str, error: str) -> bytes:
    """A whole HTTP response with ``{"error": error}``, for the protocol to write when no
    request reached the app (half a request, or not HTTP)."""
    body = json.dumps({"error": error}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


def _protocol():
    """uvicorn's HTTP/1.1 protocol (h11), with two changes: a request whose headers and
    body have not all arrived within :data:`READ_TIMEOUT` seconds of its first byte (or
    of the connection) is answered 408 and dropped, so that clients sending half a
    request cannot hold the server's connections (uvicorn has no such limit); and what
    is not HTTP gets a JSON 400, as every other error, not uvicorn's plain text."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        read_timer = None

        def connection_made(self, transport):
            super().connection_made(transport)
            self._arm()

        def _arm(self):
            if self.read_timer is None:
                self.read_timer = self.loop.call_later(READ_TIMEOUT, self._too_slow)

        def _disarm(self):
            if self.read_timer is not None:
                self.read_timer.cancel()
                self.read_timer = None

        def data_received(self, data):
            if self.conn.their_state is h11.IDLE:
                self._arm()                         # a new request begins
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE and \
                    self.conn.their_state is not h11.SEND_BODY:
                self._disarm()                      # all of it has arrived (or it ended)

        def connection_lost(self, exc):
            self._disarm()
            super().connection_lost(exc)

        def on_response_complete(self):
            super().on_response_complete()          # (its keep-alive timer takes over)
            self._disarm()

        def _too_slow(self):
            self.read_timer = None
            if self.transport.is_closing():
                return
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(_raw_json_response(
                    408, "Request Timeout", f"the request did not arrive within "
                                            f"{READ_TIMEOUT:g} s"))
            self.transport.close()

        def send_400_response(self, msg):
            self._disarm()
            self.transport.write(_raw_json_response(400, "Bad Request",
                                                    "not an HTTP/1.1 request this server "
                                                    "can read"))
            self.transport.close()

    return Protocol


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one); OSError when it cannot."""
    port = check_int("port", port, 0, 65535)
    not_here = ValueError(f"host={host}: not an address of this machine")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port,
                                                             type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError):
        raise not_here from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise ValueError(f"port={port}: another program is listening on it "
                             f"(port=0 takes a free one)") from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise not_here from None
        raise
    sock.listen(128)
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, *, max_samples: int = 4000,
          timeout: float = 60.0, max_body: int = 64 * 1024,
          max_models: int = MAX_MODELS) -> int:
    """Serve the study page on ``host:port`` until interrupted (Ctrl+C); print its address
    first.  Another host than loopback (127.0.0.1, the default) lets every machine that
    can reach the port use every endpoint -- solves, reviews, trainings -- with no
    authentication; the server warns so when it starts.  Requests must name the address
    served in their ``Host`` (:class:`solver.web.guard.Served`)."""
    import uvicorn
    limits = Limits(max_samples=max_samples, timeout=timeout, max_body=max_body,
                    max_models=max_models)
    sock = _bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(f"the study page: http://{shown}:{bound_port}/  (Ctrl+C stops it)", flush=True)
    if not is_loopback(host):
        print(f"warning: listening on {host}: anyone on the network who can reach port "
              f"{bound_port} can use every endpoint of this server -- solve, review, deal, "
              f"train opponent models (minutes of work each, kept on this disk) -- with no "
              f"authentication, over plain HTTP",
              file=sys.stderr, flush=True)
    app = create_app(limits, Served(host, bound_port, bound_host))

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None):
            # The work stops first, so that requests at work are answered ("the server
            # is stopping") rather than cancelled mid-way.
            app.state.solver.workers.close()
            app.state.solver.trainings.close()
            await super().shutdown(sockets)

    # (No limit_concurrency: its 503 is plain text; the app's own limit answers in JSON.)
    config = uvicorn.Config(app, log_level="warning", http=_protocol(), timeout_keep_alive=5,
                            timeout_graceful_shutdown=1)
    Server(config).run(sockets=[sock])
    return 0
