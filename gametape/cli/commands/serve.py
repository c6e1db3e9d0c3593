"""`gametape serve`: the web recorder, a page per seat (docs/serve.md)."""

from __future__ import annotations

import contextlib
import re
import signal
import socket
import sys
from typing import Annotated, Any

import typer
from rich.text import Text

from gametape.cli.common import STATE, JsonOpt
from gametape.cli.output import err, friendly_errors, out, print_json
from gametape.cli.quick import label as label_of
from gametape.errors import UsageError
from gametape.messages import render, say
from gametape.usecases.links import ROLE

app = typer.Typer()

OPEN_HOSTS = ("0.0.0.0", "::", "")


@app.command()
@friendly_errors
def serve(
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on (this machine only by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port (0: any free one).")] = 8000,
    links: Annotated[
        list[str] | None,
        typer.Option(
            "--links",
            metavar="GAME",
            help="Make new links for a game already in the store and print them (repeatable).",
        ),
    ] = None,
    qr: Annotated[
        bool | None,
        typer.Option(
            "--qr/--no-qr", help="Print a QR code under each link (default: on a terminal)."
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The address phones reach the server at, for the links it shows (behind a "
            "reverse proxy: https://games.example). Default: the address it listens on.",
        ),
    ] = None,
    lead_timeout: Annotated[
        float,
        typer.Option(
            "--lead-timeout",
            min=1.0,
            help="Seconds a review room's leader may be gone before anyone can take the lead.",
        ),
    ] = 60.0,
    json: JsonOpt = False,
) -> None:
    """Start the web recorder: every player records from their own phone, secret moves
    private. A game started on its front page (or named with `--links`) gets one secret link
    per seat, one for the host and one for spectators; they are printed here, with a QR code
    each for phones to scan, and shown once on the page. The CLI can record in the same
    store at the same time. Ctrl-C stops the server; no recorded move is lost.

    Example: `gametape serve` · `gametape serve --host 0.0.0.0 --port 8080` ·
    `gametape serve --links k3x9`
    """
    import uvicorn

    from gametape.usecases.tables import Tables
    from gametape.web.app import create_app

    if hasattr(signal, "SIGPIPE"):
        # The CLI lets SIGPIPE end a command whose reader went away (`... | head`). A server
        # must not: a phone that drops its connection mid-answer would stop every game.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    store = STATE.store.ensure()
    listener = _listen(host, port)
    port = listener.getsockname()[1]
    url = f"http://{_shown_host(host)}:{port}"
    if public_url is not None:
        if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+(/[A-Za-z0-9._~\-/]*)?", public_url):
            raise UsageError(say("cli.serve-public-url", "--public-url {url} is not an http(s) "
                                 "address", url=repr(public_url[:80])))  # fmt: skip
        url = public_url.rstrip("/")
    show_qr = sys.stdout.isatty() if qr is None else qr

    def announce(game: str, ruleset: str, issued: list[Any]) -> None:
        found: dict[str, str] = {}
        seats = []
        shown: dict[str, str] = {}  # each link's label as said to the reader
        for link in issued:
            label = link.label
            if link.role == "seat":
                seats.append({"name": label, "seat": link.seat, "link": url + link.path(game)})
                if label in ("host", "spectator"):  # a player called so keeps their link
                    label = f"{label} (seat {link.seat + 1})"
                said = link.label
                if label != link.label:
                    at = say(
                        "cli.serve-seat", "{name} (seat {seat})", name=said, seat=link.seat + 1
                    )
                    said = render(at)
            else:
                said = render(ROLE[link.role])
            found[label] = shown[said] = url + link.path(game)
        if json:
            print_json({"game": game, "ruleset": ruleset, "links": found, "seats": seats})
            sys.stdout.flush()
            return
        heading = say("cli.serve-links", "{game} {id}: links (keep them private; the host's "
                      "link shows them again)", game=ruleset, id=game)  # fmt: skip
        out.print(Text(render(heading), style="bold"))
        for label, link in shown.items():
            out.print(Text(f"  {label}: ", style="bold").append(link, style=""))
            if show_qr:
                _qr(link)
        sys.stdout.flush()

    tables = Tables(store, lead_timeout=lead_timeout)
    app = create_app(tables, announce=announce, public_url=url)
    if host in OPEN_HOSTS:
        everywhere = say("cli.serve-everywhere", "listening on every network address: anyone "
                         "on the network who has a link can join its game, and anyone who can "
                         "reach the server can start one")  # fmt: skip
        err.print(Text(f"{label_of('warning')} {render(everywhere)}", style="yellow"))
    if json:
        print_json({"url": url, "store": str(store.name)})
    else:
        serving = say("cli.serve-at", "gametape serve: {url}  (store {store}; Ctrl-C stops)",
                      url=url, store=str(store.name))  # fmt: skip
        out.print(Text(render(serving)))
    sys.stdout.flush()
    for ref in links or ():
        announce(*tables.links(ref))
    from gametape.web.protocol import BoundedH11Protocol

    config = uvicorn.Config(
        app,
        log_level="warning",
        timeout_graceful_shutdown=1,
        access_log=False,
        lifespan="on",
        # X-Forwarded-* are believed only behind a proxy the operator names (--public-url):
        # from any other client they would let one pass for another address
        proxy_headers=public_url is not None,
        timeout_keep_alive=5,
        http=BoundedH11Protocol,  # a request's headers in 5 s (uvicorn bounds none)
    )

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            tables.close()  # live streams end now, not at the graceful timeout
            super().handle_exit(sig, frame)

    with contextlib.suppress(KeyboardInterrupt):
        Server(config).run(sockets=[listener])


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; a port in use or a bad address is a usage error
    (before anything starts)."""
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port} is not a port (0-65535)")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # answers go out at once: without this, an answer's second write waits for the
        # phone's delayed ACK (40 ms on Linux); accepted sockets inherit it
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)
    except (OSError, OverflowError) as exc:
        raise UsageError(
            f"cannot listen on {host}:{port}: {exc.strerror if isinstance(exc, OSError) else exc}",
            hint="choose another --port (0 takes any free one), or check --host",
        ) from None
    sock.set_inheritable(True)
    return sock


def _shown_host(host: str) -> str:
    """The address to print in links: this machine's address on the network when listening
    on every address (phones cannot reach 0.0.0.0)."""
    if host not in OPEN_HOSTS:
        return f"[{host}]" if ":" in host else host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
        return str(s.getsockname()[0])
    return "127.0.0.1"


def _qr(link: str) -> None:
    import segno

    segno.make(link, error="m").terminal(out=sys.stdout, compact=True, border=2)
