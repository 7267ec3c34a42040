"""Longhouse's Python services: rules core, games, coordinator, gRPC services, phase worker, bots, launcher."""
