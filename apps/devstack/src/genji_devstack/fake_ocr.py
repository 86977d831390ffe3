"""A stand-in OCR service on loopback for tests and local runs.

`POST /extract` answers according to the screenshot URL's path, so separate processes agree
without sharing state:

* `ocr-error`: HTTP 500;
* `ocr-slow`: answers after 30 s (long enough for any client timeout to fire);
* `ocr-undecodable`: HTTP 200 with a body that is not an OCR result;
* `ocr-mismatch`: the request's code and first name with the time plus one second;
* anything else (`ocr-match` included): the request's code, time and first name.

`GET /requests` returns `{image_url: count}` of the `POST /extract` calls received so far.

In process: `with FakeOcr() as ocr: ... ocr.url`. As a process:
`python -m genji_devstack.fake_ocr --port N` serves until SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlsplit

SLOW_ANSWER_SECONDS = 30.0
HOST = "127.0.0.1"


def answer_for(request: dict[str, Any]) -> tuple[int, bytes]:
    """The status and body the fake gives to one `/extract` request (slowness aside)."""
    path = urlsplit(str(request.get("image_url", ""))).path
    if "ocr-error" in path:
        return 500, b'{"error": "fake OCR failure"}'
    if "ocr-undecodable" in path:
        return 200, b"<html>not an OCR result</html>"
    names = request.get("names") or []
    time = request.get("time")
    if "ocr-mismatch" in path and isinstance(time, int | float):
        time = time + 1.0
    extracted = {
        "name": names[0] if names else None,
        "time": time,
        "code": request.get("code"),
        "sources": {"fake": True},
        "texts": {},
    }
    return 200, json.dumps({"extracted": extracted}).encode()


class _Server(ThreadingHTTPServer):
    # Handler threads are joined on close; `stopping` wakes the slow ones first.
    daemon_threads = False
    block_on_close = True

    def __init__(self, port: int) -> None:
        super().__init__((HOST, port), _Handler)
        self.stopping = threading.Event()
        self.counts: Counter[str] = Counter()
        self.counts_lock = threading.Lock()


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    # A silent client cannot hold a handler thread (and so shutdown) for long.
    timeout = 5.0

    def do_GET(self) -> None:
        if self.path != "/requests":
            self._send(404, b'{"error": "not found"}')
            return
        with self.server.counts_lock:
            body = json.dumps(dict(self.server.counts)).encode()
        self._send(200, body)

    def do_POST(self) -> None:
        if self.path != "/extract":
            self._send(404, b'{"error": "not found"}')
            return
        length = int(self.headers.get("content-length") or 0)
        try:
            request = json.loads(self.rfile.read(length))
        except ValueError:
            self._send(400, b'{"error": "body is not JSON"}')
            return
        if not isinstance(request, dict):
            self._send(400, b'{"error": "body is not an object"}')
            return
        image_url = str(request.get("image_url", ""))
        with self.server.counts_lock:
            self.server.counts[image_url] += 1
        if "ocr-slow" in urlsplit(image_url).path:
            # Waiting on the event instead of sleeping lets shutdown end the wait at once.
            if self.server.stopping.wait(SLOW_ANSWER_SECONDS):
                return
        self._send(*answer_for(request))

    def _send(self, status: int, body: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # The client gave up (its timeout fired); nothing to answer.

    def log_message(self, format: str, *args: Any) -> None:
        pass  # Quiet: test output should not carry one line per request.


class FakeOcr:
    """The fake OCR service served from a background thread while the context is open."""

    def __init__(self, port: int = 0) -> None:
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self._running().server_address[1]}"

    def request_counts(self) -> dict[str, int]:
        """`{image_url: count}` of `/extract` calls so far (what `GET /requests` returns)."""
        server = self._running()
        with server.counts_lock:
            return dict(server.counts)

    def start(self) -> None:
        if self._server is not None:
            raise RuntimeError("the fake OCR service is already running")
        self._server = _Server(self._port)
        # A short poll interval keeps `stop` (and so every test teardown) quick.
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-ocr",
            daemon=True,
        )
        self._thread.start()

    def stop(self) -> None:
        server, self._server = self._server, None
        thread, self._thread = self._thread, None
        if server is None:
            return
        server.stopping.set()
        server.shutdown()
        server.server_close()
        if thread is not None:
            thread.join()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _running(self) -> _Server:
        if self._server is None:
            raise RuntimeError("the fake OCR service is not running")
        return self._server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m genji_devstack.fake_ocr")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    args = parser.parse_args(argv)
    stop_signals = {signal.SIGTERM, signal.SIGINT}
    # Blocked before the server thread starts, so only `sigwait` below receives them.
    signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
    with FakeOcr(args.port) as ocr:
        print(f"fake OCR listening on {ocr.url}", flush=True)
        signal.sigwait(stop_signals)
    return 0


if __name__ == "__main__":
    sys.exit(main())
