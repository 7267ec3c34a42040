"""``python -m services.market``: run the market service until SIGTERM or SIGINT."""

from services.coordinator.grpc_server import serve

from .server import SPEC

if __name__ == "__main__":
    raise SystemExit(serve(SPEC))
