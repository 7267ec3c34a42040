"""The launcher: starts and supervises the whole stack on one machine.

* :mod:`.supervisor`: a generic supervisor (process groups, readiness probes, stop
  with SIGTERM then SIGKILL, port checks);
* :mod:`.stack`: the Longhouse children and their probes;
* ``python -m services.launcher``: the main job behind ``make run``.
"""

from .stack import Stack
from .supervisor import ChildSpec, LaunchError, PortInUse, Supervisor

__all__ = ["ChildSpec", "LaunchError", "PortInUse", "Stack", "Supervisor"]
