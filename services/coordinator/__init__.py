"""The coordinator: :mod:`.table` drives games through the domain ports (:mod:`.ports`,
:mod:`.grpc_ports`), the event stores (:mod:`.store`, :mod:`.redis_store`), projections
(:mod:`.projection`) and phase schedulers (:mod:`.scheduler`).
"""
