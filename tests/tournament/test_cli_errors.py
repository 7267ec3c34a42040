"""``python -m services.tournament`` ends a run it cannot make with one line and exit code 2.

A fresh user's trial found tracebacks instead: for a wrong or missing operator key (the
gateway's 401/403), a gateway that does not answer, and a key file that cannot be read (README,
"Operator keys"; services/tournament/__main__.py).
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from services.tournament.__main__ import main


class Refusing(BaseHTTPRequestHandler):
    """Answers every request as a gateway that does not accept the operator key."""

    def _refuse(self) -> None:
        body = json.dumps({"error": "wrong_operator_key", "reason": "this operator key is not accepted here"}).encode()
        self.send_response(403)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _refuse

    def log_message(self, *args) -> None:  # quiet
        pass


@pytest.fixture
def refusing_gateway():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Refusing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_refused_operator_key_is_one_line_and_exit_2(refusing_gateway, tmp_path, capsys):
    key = tmp_path / "operator.key"
    key.write_text("lhop_not-accepted-here\n")
    code = main(["--url", refusing_gateway, "--games", "1", "--operator-key-file", str(key)])
    err = capsys.readouterr().err
    assert code == 2
    assert "wrong_operator_key" in err and "Traceback" not in err
    assert "lhop_not-accepted-here" not in err  # the key itself is never printed


def test_no_gateway_is_one_line_and_exit_2(capsys):
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = main(["--url", f"http://127.0.0.1:{port}", "--games", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"no gateway answers at http://127.0.0.1:{port}" in err and "Traceback" not in err


def test_an_unreadable_key_file_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--games", "1", "--operator-key-file", str(tmp_path / "missing.key")])
    assert stop.value.code == 2
    assert "cannot read the operator key file" in capsys.readouterr().err
