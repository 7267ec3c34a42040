"""``python -m services.scoring``: run the scoring service until SIGTERM or SIGINT."""

from services.coordinator.grpc_server import serve

from .server import SPEC

if __name__ == "__main__":
    raise SystemExit(serve(SPEC))
