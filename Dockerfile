# Production image: gunicorn for the web, the same image runs the Celery worker.
FROM python:3.12-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TIMEKEEPER_VAR_DIR=/var/lib/timekeeper
WORKDIR /app
COPY requirements.lock .
RUN pip install --no-cache-dir -r requirements.lock
COPY . .
# collectstatic and the compiled translations are baked into the image.
RUN python scripts/sync_messages.py --compile \
 && DEBUG=false SECRET_KEY=build-only-not-a-secret-build-only-not-a-secret-xx ALLOWED_HOSTS=build \
    python manage.py collectstatic --no-input -v 0 \
 && useradd --system --uid 1000 timekeeper && mkdir -p /var/lib/timekeeper \
 && chown -R timekeeper /var/lib/timekeeper
USER timekeeper
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
