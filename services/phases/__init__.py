"""The phase worker: Celery tasks that run the phases between moves (DESIGN "Phases on Celery").

* :mod:`.worker`: the Celery app (``celery -A services.phases.worker worker``) and the
  task ``run_phase(game_id, phase, version)``;
* :mod:`.hosting`: builds the coordinator ``Table`` a hosted process (worker or gateway)
  runs, from its settings.
"""
