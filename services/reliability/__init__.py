"""Reliability tools for the hosted stack (issue: reliability): :mod:`.crash`, the crash harness
(``make crash-test``)."""
