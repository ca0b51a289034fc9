"""A test hook for the study page's training tests: Python runs this file at start-up in
every process that has this folder on ``PYTHONPATH`` -- the server and each of its worker
processes, which a test cannot otherwise reach.  With ``SOLVER_TEST_TRAINING="ROUNDS,DEALS"``
(optionally ``,CHUNK``) set, the default training preset is that small one (seconds, not
minutes; tests/test_training.py's ``TINY`` is ``1,300``), and the deals are played CHUNK at
a time, so that a short training still shows its progress step by step."""
import os

_spec = os.environ.get("SOLVER_TEST_TRAINING")
if _spec:
    import solver.policy_training
    import solver.training

    _rounds, _deals, *_chunk = map(int, _spec.split(","))
    solver.training.PRESETS["default"] = solver.training.Preset(_rounds, _deals)
    if _chunk:
        solver.policy_training.CHUNK_DEALS = _chunk[0]
