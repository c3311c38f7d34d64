# Load the Celery app whenever Django starts, so @shared_task binds to it and
# transaction.on_commit(...delay) works from web processes too.
from config.celery import app as celery_app

__all__ = ["celery_app"]
