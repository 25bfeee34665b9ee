"""gunicorn settings for the served tests (tests/serving.py): each worker logs when it has
loaded the app (migrated, secret key read) and is about to take requests, so a test waits
for that instead of a fixed time."""

from typing import Any

READY = "Worker ready"


def post_worker_init(worker: Any) -> None:
    worker.log.info("%s (pid: %s)", READY, worker.pid)
