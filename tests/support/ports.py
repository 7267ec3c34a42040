"""Free loopback ports for test processes: the launcher's own pick
(:func:`services.launcher.supervisor.free_port`, outside the kernel's range for outgoing connections)."""

from __future__ import annotations

from services.launcher.supervisor import free_port

__all__ = ["free_port"]
