# Read by gunicorn started from the repository root (docker-compose, make serve, the
# benchmarks): its access log hides invite tokens (config/logs.py).
logger_class = "config.logs.GunicornLogger"
