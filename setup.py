"""Build hook of the server's distribution: the gRPC stubs are generated from ``protos/`` into
``services/api/`` before the packages are collected, so a wheel built from a clean checkout
(``pip wheel .``, ``python -m build``) carries them. The metadata is all in ``pyproject.toml``."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithStubs(build_py):
    """``build_py`` that first runs ``grpc_tools.protoc`` as ``make protos`` does.

    Raises:
        RuntimeError: protoc failed (its errors are on stderr).
    """

    def run(self) -> None:
        root = Path(__file__).resolve().parent
        protos = sorted((root / "protos").glob("*.proto"))
        if protos:
            from grpc_tools import protoc

            args = ["protoc", f"--proto_path=services/api={root / 'protos'}", f"--python_out={root}",
                    f"--grpc_python_out={root}", f"--pyi_out={root}", *(f"services/api/{p.name}" for p in protos)]
            if protoc.main(args) != 0:
                raise RuntimeError("protoc could not generate the gRPC stubs from protos/")
        super().run()


setup(cmdclass={"build_py": BuildWithStubs})
