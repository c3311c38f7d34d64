# Production image: gunicorn for the web, the same image runs the Celery worker.
FROM python:3.12-slim-bookworm
# numba caches compiled solver kernels on disk; /app is read-only for the app user, so the
# cache lives under the writable var dir (else every process compiles the kernels again).
# The build fills it (python -m solver.core.warm) and the worker loads it before it forks
# its pool. numba keys its cache by CPU model: on a host whose CPU differs from the build
# machine's, each new container compiles once, as its worker starts.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TIMEKEEPER_VAR_DIR=/var/lib/timekeeper NUMBA_CACHE_DIR=/var/lib/timekeeper/numba
WORKDIR /app
# The production lock: the same pins as requirements.lock, without the development tools.
COPY requirements-prod.lock .
RUN pip install --no-cache-dir -r requirements-prod.lock
COPY . .
# collectstatic and the compiled translations are baked into the image.
RUN python scripts/sync_messages.py --compile \
 && DEBUG=false SECRET_KEY=build-only-not-a-secret-build-only-not-a-secret-xx ALLOWED_HOSTS=build \
    python manage.py collectstatic --no-input -v 0 \
 && python -m solver.core.warm \
 && useradd --system --uid 1000 timekeeper && mkdir -p /var/lib/timekeeper \
 && chown -R timekeeper /var/lib/timekeeper
USER timekeeper
EXPOSE 8000
# The same command as docker-compose.yml's web service (scripts/topology.py runs it too).
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "2", "--access-logfile", "-"]
