"""A TCP proxy on loopback whose connections a test can cut, to drop a client's connections
(an SSE stream's, say) in the middle, as a network failure would."""

from __future__ import annotations

import socket
import threading

from tests.support.ports import free_port


class TcpProxy:
    """Forward ``127.0.0.1:<port>`` to ``upstream`` (``(host, port)``), a thread per direction.

    Attributes:
        port: where clients connect.
        sent: every byte clients sent (to look for the requests they made).
        connections: how many client connections were accepted.
    """

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.port = free_port()
        self.sent = bytearray()
        self.connections = 0
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", self.port), backlog=64)
        self._closed = False
        threading.Thread(target=self._accept, name="tcp-proxy", daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.upstream, timeout=10)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                self.connections += 1
                self._pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, from_client: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if from_client:
                    with self._lock:
                        self.sent += data
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> int:
        """Drop every open connection at once (both ends); returns how many were cut."""
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for client, upstream in pairs:
            for s in (client, upstream):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
        return len(pairs)

    def close(self) -> None:
        """Stop accepting and cut every connection."""
        self._closed = True
        self._server.close()
        self.cut()
