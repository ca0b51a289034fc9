"""The study page server's door: an ASGI middleware that every request passes before the
API sees it, and that catches whatever the API did not foresee.

In the order it looks (the first that fails answers, in JSON):

1. More than :data:`MAX_IN_FLIGHT` requests at once: 503.
2. ``Host`` must name the address served (:class:`Served`): 403.  A web page under
   another name whose DNS now points here (DNS rebinding) is refused, as Django's
   ``ALLOWED_HOSTS`` and Jupyter server's local-host check refuse it.
3. ``Origin``, when a browser sends one (it does on every POST, and on any request
   another origin's script makes), must be the page's own, ``http://`` and the ``Host``:
   403.  So no other web page can use this server through its visitors' browsers.
4. ``HEAD`` is answered as ``GET``, without the body.
5. A body larger than ``max_body`` bytes: 413 (whether it says its length up front or
   not).
6. A POST must send ``Content-Type: application/json``: 415.  A browser asks the server
   first (a CORS preflight, which gets no CORS answer) before it sends such a body to
   another origin, so a page elsewhere cannot post here even with ``mode: "no-cors"``.
7. A POST body that is not UTF-8, that nests arrays and objects more than
   :data:`MAX_DEPTH` deep (a 30,000-deep array would exhaust Python's recursion), or that
   holds a number of more digits than Python reads: 400 with the reason.  (What is not
   JSON at all is left to the endpoint: "not valid JSON".)
8. Every response gets :data:`SECURITY_HEADERS`.
9. An exception the API did not handle: 500 ``{"error": "internal error ..."}`` and one
   bounded line in the server's log (:func:`solver.web.errors.exception_line`), never a
   traceback, and nothing more reaches uvicorn's own log.
"""
from __future__ import annotations

import ipaddress
import json
import logging
import socket
import sys
from typing import Optional

from .errors import error_response, exception_line, one_line

log = logging.getLogger("solver.web")

MAX_IN_FLIGHT = 64        # requests answered at once; more get 503
MAX_DEPTH = 32            # arrays and objects inside one another in a body (the API's: 2)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")

# Nothing is loaded from anywhere but this server (the page works offline, and a page
# that tried would be stopped by the browser).
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
                                 b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


# --- the address served ---------------------------------------------------------------------
def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address (or name) only this machine can reach."""
    try:
        return all(ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback
                   for info in socket.getaddrinfo(host, None))
    except (OSError, ValueError, UnicodeError):
        return False


def _split_host(value: str) -> Optional[tuple[str, int]]:
    """A ``Host`` header's (or an origin's) name and port (80 when it names none), the
    name lower-cased and an IP address written as a URL writes it (``[::1]``); None
    when it is not a host at all."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket:
            return None
        try:
            name = f"[{ipaddress.IPv6Address(name.split('%')[0]).compressed}]"
        except ValueError:
            return None
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if rest and not (rest.startswith(":") and rest[1:].isdigit() and rest[1:].isascii()):
        return None
    port = int(rest[1:]) if rest else 80
    if not name or not 0 < port < 65536:
        return None
    return name, port


class Served:
    """Where the server is reached: the ``host`` it was told to listen on (``--host``),
    the ``port`` it listens on (None: any, for an app not bound to one yet, as under a
    test client) and the ``address`` its socket is bound to (the IP ``host`` resolved
    to).  A request's ``Host`` must name that port and one of these names:

    * the host as given, and the address it resolved to;
    * for a loopback host (the default 127.0.0.1): ``localhost``, ``127.0.0.1`` and
      ``[::1]``;
    * for every address (``0.0.0.0``, ``::``): those, the machine's host names
      (``socket.gethostname()``, ``socket.getfqdn()``), and any IP address of this
      machine (what a browser that typed it sends; an address cannot be rebound).
    """

    def __init__(self, host: str = "127.0.0.1", port: Optional[int] = None,
                 address: Optional[str] = None):
        self.host, self.port = host, port
        names = set()
        for name in (host, address):
            if name:
                split = _split_host(f"[{name}]" if ":" in name else name)
                if split:
                    names.add(split[0])
        try:
            ip = ipaddress.ip_address((address or host).split("%")[0])
        except ValueError:
            ip = None
        self.every_address = ip is not None and ip.is_unspecified
        if self.every_address or is_loopback(host):
            names.update(LOOPBACK_NAMES)
        if self.every_address:
            names.update({socket.gethostname().lower(), socket.getfqdn().lower()})
        self.names = frozenset(names)
        self._local: dict[str, bool] = {}

    def __repr__(self) -> str:
        return f"Served({self.host!r}, {self.port!r})"

    def where(self) -> str:
        """The names it answers to, for a message (``127.0.0.1:8000, localhost:8000,
        [::1]:8000``)."""
        port = "" if self.port is None else f":{self.port}"
        shown = ", ".join(f"{name}{port}" for name in sorted(self.names))
        return shown + (" or another address of this machine" if self.every_address else "")

    def allows(self, host: Optional[str]) -> bool:
        """Whether a request's ``Host`` header names this server."""
        split = None if host is None else _split_host(host)
        if split is None:
            return False
        name, port = split
        if self.port is not None and port != self.port:
            return False
        return name in self.names or (self.every_address and self._is_local(name))

    def _is_local(self, name: str) -> bool:
        """Whether ``name`` is an IP address of this machine (one a socket can bind)."""
        if name not in self._local:
            if len(self._local) > 256:
                self._local.clear()
            try:
                ip = ipaddress.ip_address(name.strip("[]"))
                with socket.socket(socket.AF_INET6 if ip.version == 6 else socket.AF_INET,
                                   socket.SOCK_DGRAM) as probe:
                    probe.bind((str(ip), 0))
                self._local[name] = True
            except (ValueError, OSError):
                self._local[name] = False
        return self._local[name]


def same_origin(origin: str, host: str) -> bool:
    """Whether the ``Origin`` header ``origin`` is the page's own: ``http://`` and the
    request's ``Host`` (the server speaks plain HTTP only).  ``null`` (a sandboxed frame,
    a file) never is."""
    scheme, sep, rest = origin.strip().partition("://")
    if not sep or scheme.lower() != "http" or "/" in rest:
        return False
    mine = _split_host(host)
    return mine is not None and _split_host(rest) == mine


# --- the body --------------------------------------------------------------------------------
class _Huge(int):
    """A number in a request body with more digits than Python reads (its digit count)."""


def _shape_problem(data) -> Optional[str]:
    """Why the parsed body ``data`` cannot be taken -- nested deeper than
    :data:`MAX_DEPTH`, or a number too long to read -- or None (no recursion: a walk
    with a stack)."""
    limit = sys.get_int_max_str_digits()
    stack = [(data, None, 0)]
    while stack:
        value, name, depth = stack.pop()
        if isinstance(value, _Huge):
            return (f"{name or 'the request body'}: a number of {int(value)} digits; this "
                    f"server reads at most {limit}")
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                return too_deep()
            if isinstance(value, dict):
                stack.extend((item, key if name is None else name, depth + 1)
                             for key, item in value.items())
            else:
                stack.extend((item, name, depth + 1) for item in value)
    return None


def too_deep() -> str:
    return (f"the request body nests arrays and objects more than {MAX_DEPTH} deep; this "
            f"server reads at most {MAX_DEPTH}")


def content_type_problem(content_type: Optional[str]):
    """``(415, message)`` for a POST whose Content-Type is not ``application/json``
    (parameters such as ``charset`` aside), or None."""
    media = (content_type or "").split(";")[0].strip().lower()
    if media == "application/json":
        return None
    sent = f"not {one_line(media, 60)}" if media else "none was sent"
    return 415, (f"the request body must be JSON, sent with Content-Type: "
                 f"application/json ({sent})")


def body_problem(body: bytes):
    """``(400, message)`` for a POST body the API cannot take, or None: bytes that are
    not UTF-8, arrays and objects nested more than :data:`MAX_DEPTH` deep, a number with
    more digits than Python reads (a 5000-digit seed).  What is not JSON at all is left
    to the endpoint ("not valid JSON")."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return 400, (f"the request body is not valid UTF-8 (byte {e.start} is "
                     f"0x{body[e.start]:02x})")
    limit = sys.get_int_max_str_digits() or None

    def read_int(digits: str) -> int:
        if limit and len(digits.lstrip("-")) > limit:
            return _Huge(len(digits.lstrip("-")))
        return int(digits)
    try:
        data = json.loads(text, parse_int=read_int)
    except RecursionError:
        return 400, too_deep()
    except ValueError:
        return None
    problem = _shape_problem(data)
    return None if problem is None else (400, problem)


# --- the middleware --------------------------------------------------------------------------
def _header(scope, name: bytes) -> Optional[str]:
    for key, value in scope.get("headers") or ():
        if key == name:
            return value.decode("latin-1")
    return None


class Guard:
    """ASGI middleware: the checks of the module docstring, in that order, before the
    app; ``served`` is the address served (:class:`Served`), ``max_body`` the largest
    body taken, in bytes."""

    def __init__(self, app, max_body: int, served: Served):
        self.app = app
        self.max_body = max_body
        self.served = served
        self.in_flight = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = False
        head = scope["method"] == "HEAD"

        async def guarded_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = dict(message, headers=list(message.get("headers", ()))
                               + SECURITY_HEADERS)
            elif message["type"] == "http.response.body" and head:
                message = dict(message, body=b"")          # HEAD: the headers only
            await send(message)

        if self.in_flight >= MAX_IN_FLIGHT:
            return await error_response(503, f"this server is answering {MAX_IN_FLIGHT} "
                                             f"requests already; try again shortly")(
                scope, receive, guarded_send)
        self.in_flight += 1
        try:
            return await self._guarded(scope, receive, guarded_send)
        except Exception as exc:               # (not the API's: a bug, or a dead client)
            path = one_line(scope.get("path", ""), 200)
            log.error("internal error on %s %s: %s", scope["method"], path,
                      exception_line(exc))
            if not started:
                await error_response(500, "internal error (the server's log says more)")(
                    scope, receive, guarded_send)
        finally:
            self.in_flight -= 1

    async def _guarded(self, scope, receive, send):
        def refuse(status: int, message: str):
            return error_response(status, message)(scope, receive, send)

        host = _header(scope, b"host")
        if not self.served.allows(host):
            return await refuse(403, f"Host: {host or '(none)'}: not an address this "
                                     f"server is served at ({self.served.where()})")
        origin = _header(scope, b"origin")
        if origin is not None and not same_origin(origin, host):
            return await refuse(403, f"Origin: {origin}: only the study page itself "
                                     f"(http://{host.strip()}) may use this server")
        if scope["method"] == "HEAD":       # answered as GET, its body dropped by send
            scope = dict(scope, method="GET", solver_head=True)
        too_large = (f"the request body is larger than this server's limit of "
                     f"{self.max_body} bytes")
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return await refuse(413, too_large)
        if scope["method"] != "POST":
            return await self.app(scope, receive, send)
        problem = content_type_problem(_header(scope, b"content-type"))
        if problem is not None:             # (the body is not read at all)
            return await refuse(*problem)
        # The whole body, read here (it is small), so that what FastAPI would answer
        # with "There was an error parsing the body" gets its reason instead.
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return                    # the client has gone
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                return await refuse(413, too_large)
        problem = body_problem(body)
        if problem is not None:
            return await refuse(*problem)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()        # (then only the client's going)

        return await self.app(scope, replay, send)
