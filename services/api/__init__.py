"""Protobuf and gRPC code generated from ``protos/`` by ``make protos`` (never committed)."""
