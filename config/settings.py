"""Timekeeper settings: one module, driven by the environment.

Defaults give the zero-setup development install (SQLite and a filesystem broker under
var/). Production sets DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL (PostgreSQL)
and CELERY_BROKER_URL (Redis); see .env.example and docker-compose.yml.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_int, env_list, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("TIMEKEEPER_VAR_DIR", str(BASE_DIR / "var")))

VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", True)

# The development key is public (it is in this file), and so is the placeholder of
# .env.example (a test keeps that file's value in this set); production must bring its own.
DEV_SECRET_KEY = "django-insecure-timekeeper-development-key-never-use-in-production"
PUBLIC_SECRET_KEYS = {
    DEV_SECRET_KEY,
    "change-me-to-a-long-random-string-of-at-least-fifty-characters",
}
SECRET_KEY = env_str("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY in PUBLIC_SECRET_KEYS:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is false, to a secret of your own: "
        "not the development key nor the placeholder of .env.example."
    )
if not DEBUG and len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters long.")

# A server's public name (docker-compose's Caddy fetches its certificate): always an allowed
# host, and by default the one trusted origin and the site's address.
DOMAIN = env_str("DOMAIN", "")
if DOMAIN and not all(part.isalnum() for part in DOMAIN.replace("-", "a").split(".")):
    raise ImproperlyConfigured(f"DOMAIN must be a bare name like play.example.org: {DOMAIN!r}")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if DOMAIN and DOMAIN not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(DOMAIN)
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DOMAIN or ALLOWED_HOSTS must be set when DEBUG is false.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [f"https://{DOMAIN}"] if DOMAIN else [])
for origin in CSRF_TRUSTED_ORIGINS:
    if not origin.startswith(("http://", "https://")):
        raise ImproperlyConfigured(f"CSRF_TRUSTED_ORIGINS items need a scheme: {origin!r}")

SITE_URL = env_str("SITE_URL", f"https://{DOMAIN}" if DOMAIN else "http://127.0.0.1:8000")
# `make serve` (scripts/serve.py): the port of its HTTPS listener (Caddy), and where Caddy
# keeps the root certificate of its local CA; the /trust/ page offers that certificate.
HTTPS_PORT = env_int("HTTPS_PORT", 8443, minimum=1, maximum=65535)
# ... and of its plain-HTTP listener (the PORT it binds): where invite links lead.
PLAIN_HTTP_PORT = env_int("PORT", 8000, minimum=1, maximum=65535)
LOCAL_CA_CERT = Path(
    env_str(
        "LOCAL_CA_CERT",
        str(VAR_DIR / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"),
    )
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "dbbackup",
    "accounts",
    "ops",
    "campaigns",
    "solver",
]

MIDDLEWARE = [
    # Outside SecurityMiddleware, to see the headers it adds (COOP only over HTTPS).
    "ops.middleware.PlainHttpHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Django's, with a Secure cookie of its own over HTTPS when both schemes are served.
    "ops.schemes.SchemeSessionMiddleware",
    "ops.schemes.TakeTrustingPhonesToHttps",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # NUL in a path, query or form is a 400 before any view (PostgreSQL refuses it in text).
    "config.parsers.RefuseNulMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # An htmx request from someone signed out: the browser opens the log-in page, rather
    # than htmx swapping the log-in page into the part it was updating.
    "config.htmx_login.HtmxLoginRedirectMiddleware",
    # A service's refusal that a page did not catch: a message and a redirect, never a 500.
    "config.refusals.RefusalMiddleware",
    # Innermost, so that it sees a view's database errors (locked, unreachable, disk full)
    # before anything else does.
    "ops.middleware.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: it answers a locked-out log-in with 429.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

# SQLite under var/ by default; DATABASE_URL=postgres://… in production and CI.
DATABASE_URL = env_url(
    "DATABASE_URL",
    f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
    ("sqlite", "postgres", "postgresql", "pgsql"),
)
# DB_CONN_MAX_AGE keeps a connection per web worker thread across requests: on PostgreSQL by
# default, where a new connection per request costs more than the live board's whole poll
# (bench/bench_poll.py: 1.9 ms of the worker's CPU against 0.2 ms, and a new backend process
# on the server). Not on SQLite by default: opening the file is cheap, and a kept
# connection would go on reading a database file that a restore has replaced.
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=env_int(
            "DB_CONN_MAX_AGE", 0 if DATABASE_URL.startswith("sqlite") else 60, minimum=0
        ),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web and worker write to the same file. WAL lets readers read while one connection
    # writes (a rollback journal makes them wait for every commit); a writer waits up to
    # `timeout` seconds for another's lock (then ops.middleware answers 503), and takes it
    # when its transaction begins, so two writers never deadlock halfway.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a log-in while the account or the address is locked out.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

# The game's rule texts came in these three languages; every visible string exists in each.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("nl", _("Dutch")), ("ja", _("Japanese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_TZ = True
# One way to write dates and times per language (config/formats/__init__.py says why).
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # whitenoise warns about a missing folder
STATICFILES_DIRS = [BASE_DIR / "static"]
# Backups (django-dbbackup; `manage.py backup` / `restore`, make backup / make restore):
# PostgreSQL through pg_dump's custom format, SQLite through its backup API, one dated file
# each in BACKUP_DIR, the newest BACKUP_KEEP kept.
BACKUP_DIR = Path(env_str("BACKUP_DIR", str(VAR_DIR / "backups")))
DBBACKUP_CLEANUP_KEEP = env_int("BACKUP_KEEP", 14, minimum=1)
DBBACKUP_FILENAME_TEMPLATE = "timekeeper-{datetime}.{extension}"
DBBACKUP_DATE_FORMAT = "%Y-%m-%d-%H%M%S"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "dbbackup": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        # Backups hold sessions and API tokens: their user's alone (Django's default: 644).
        "OPTIONS": {
            "location": str(BACKUP_DIR),
            "file_permissions_mode": 0o600,
            "directory_permissions_mode": 0o700,
        },
    },
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            # Compressing every file (gzip and brotli) is most of collectstatic's minutes on a
            # small machine; `make serve` on a local network skips it (STATIC_COMPRESS=false).
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_COMPRESS", True)
            else "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"
        )
    },
}

# E-mail (password reset, invitations): console by default, SMTP when EMAIL_HOST is set.
# EMAIL_HOST=console prints them in the terminal even with DEBUG off (make serve's default:
# a laptop at the table has no mail server, and a refused connection would be a 500).
_email_host = env_str("EMAIL_HOST", "" if DEBUG else "localhost")
if _email_host == "console":
    _email_host = ""
if _email_host:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": _email_host,
                "port": env_int("EMAIL_PORT", 587, minimum=1, maximum=65535),
                "username": env_str("EMAIL_HOST_USER", ""),
                "password": env_str("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "timekeeper@localhost")

# Security: strict by default in production so `manage.py check --deploy` passes.
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
# make serve answers both schemes: a session made over HTTPS is Secure and stays there, and
# a phone that has reached HTTPS is taken back there (ops/schemes.py).
SESSION_COOKIE_PER_SCHEME = env_bool("SESSION_COOKIE_PER_SCHEME", False)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy (Django's own middleware): scripts, styles, images and requests
# from this site only; no inline script, handler or style attribute anywhere in our markup
# (htmx's indicator style is in timekeeper.css). The API's Swagger page relaxes styles
# only (config/urls.py).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "worker-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind a TLS proxy (docker-compose's Caddy), gunicorn decides whether a request came over
# HTTPS: it honours X-Forwarded-Proto only from the addresses in FORWARDED_ALLOW_IPS (its
# default: 127.0.0.1 and ::1; compose: the proxy's fixed address) and sets wsgi.url_scheme,
# which Django reads. So SECURE_PROXY_SSL_HEADER stays unset: Django would take the header
# from anyone who reaches gunicorn.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
# How many reverse proxies in front of the app each append the caller's address to
# X-Forwarded-For: the caller is that many entries from the right. 0 (no proxy): the header
# is anyone's to forge, so only REMOTE_ADDR counts. Every reader of the caller's address
# (DRF's throttles through NUM_PROXIES, accounts.throttle) reads this one setting.
PROXY_COUNT = env_int("PROXY_COUNT", 1 if BEHIND_TLS_PROXY else 0, minimum=0, maximum=5)
# Health checks come from the local network over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

REST_FRAMEWORK = {
    # Token first: a caller without valid credentials gets 401 with WWW-Authenticate: Token
    # (DRF asks the first class for that header; the session has none and answered 403).
    # The token's key is stored only as a hash (accounts.models.ApiToken).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON only, size- and depth-limited; the schema documents every error an operation has.
    "DEFAULT_PARSER_CLASSES": ["config.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "config.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Services' refusals and the rules engine's become 400/429 answers in one place.
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    # Every API function: per address for anonymous callers, per account for the others.
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.throttle.AnonThrottle",
        "accounts.throttle.UserThrottle",
    ],
    # Behind our proxy the caller is the address it appended to X-Forwarded-For; with no
    # proxy (0), REMOTE_ADDR (None would trust a forged header).
    "NUM_PROXIES": PROXY_COUNT,
}

# Throttles (accounts/throttle.py), "<requests>/<second|minute|hour|day>"; read per request,
# so tests raise them where they make many requests on purpose.
THROTTLE_RATES = {
    "anon": env_str("THROTTLE_ANON", "60/minute"),
    "user": env_str("THROTTLE_USER", "1200/minute"),
    "signup": env_str("THROTTLE_SIGNUP", "20/hour"),
}
for _scope, _rate in THROTTLE_RATES.items():
    _count, _slash, _period = _rate.partition("/")
    if not (_count.isdigit() and _slash and _period[:1] in "smhd" and _period):
        raise ImproperlyConfigured(f"THROTTLE_{_scope.upper()} must look like 60/minute: {_rate!r}")

# Log-in attempts (accounts/lockout.py, on django-axes): after AXES_FAILURE_LIMIT wrong
# passwords in a row for one account from one address, that pair is refused (429) for the
# cool-off time; the account stays open from every other address. An address is refused for
# every account only after LOGIN_ADDRESS_FAILURE_LIMIT failures within an hour.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "accounts.lockout.LoginHandler"
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 50, minimum=1)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.login_ip"
AXES_VERBOSE = False

# Throttle counts and log-in failures per address, which every web process must share:
# CACHE_URL=redis://… (docker-compose), else the database (db://, the default with DEBUG
# off: make serve's gunicorn processes; config.cache says why not a file). locmem:// (the
# default with DEBUG on: runserver is one process) counts per process.
CACHE_URL = env_url(
    "CACHE_URL", "locmem://" if DEBUG else "db://", ("locmem", "db", "redis", "rediss")
)
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
        if CACHE_URL.startswith("locmem://")
        # Its table is made by migrate (ops.apps); a count's row lives as long as its window.
        else {
            "BACKEND": "config.cache.SharedDatabaseCache",
            "LOCATION": "timekeeper_cache",  # config.cache.SHARED_TABLE
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
        if CACHE_URL.startswith("db://")
        else {
            # Redis being down is not a request's error: throttles let it through meanwhile.
            "BACKEND": "config.cache.ForgivingRedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    )
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Timekeeper API",
    "DESCRIPTION": "Record Take Time campaigns, check layouts and ask the solver for hints.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from our own static files: no CDN at run time.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # <id:…> in a URL: a database id, at most 64 bits (config.ids).
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 2**63 - 1}
    },
}

# Celery. Default broker: kombu's filesystem transport under var/broker, so `make run`
# needs no server. Production and CI point CELERY_BROKER_URL at Redis.
CELERY_BROKER_URL = env_url(
    "CELERY_BROKER_URL", "filesystem://", ("filesystem", "redis", "rediss", "memory")
)
BROKER_IS_FILESYSTEM = CELERY_BROKER_URL.startswith("filesystem://")
if BROKER_IS_FILESYSTEM:
    _broker_dir = VAR_DIR / "broker"
    for _folder in ("queue", "control"):
        (_broker_dir / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        # The worker looks for new messages this often (kombu's default is every second).
        "polling_interval": 0.1,
    }
    # kombu's transport, with messages written whole before a worker can see them.
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
    # The filesystem transport has no fanout, so no remote control (pidbox) either;
    # /healthz counts workers by the heartbeats they write to the database instead.
    CELERY_WORKER_ENABLE_REMOTE_CONTROL = False
else:
    # A solver job runs for seconds to minutes; a message is redelivered only after this.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Results and progress live on our own rows (HintRequest), which outlive any result backend.
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
# Tasks claim their row with a conditional UPDATE, so redelivery is harmless: ack late,
# and requeue a message whose worker died mid-job.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 120, minimum=1)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 180, minimum=2)
if CELERY_TASK_TIME_LIMIT <= CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured("CELERY_TASK_TIME_LIMIT must exceed CELERY_TASK_SOFT_TIME_LIMIT.")
CELERY_TASK_ALWAYS_EAGER = False
# Tests only (a worker killed mid-job, the soft time limit): while this file exists, a hint
# job pauses at its progress reports once it has a plan in hand, so the test, not the
# machine's speed, decides when the job may go on. Empty, as in production: no pause.
HINT_HOLD_FILE = env_str("HINT_HOLD_FILE", "")
# How hard a hint's plan search works (1.0: the full schedule). At 0.5 the search chooses the
# same plans on the base clock at 2 and 3 players and one as good at 4 (same fresh deals and
# slips: `python -m bench.bench_solver --skip oracle --skip simulation --skip hint --effort 0.5`),
# in half the time, so a first hint is answered in seconds. Tests set their own.
HINT_EFFORT = 0.5
# A clock's own prior (solver.clock_priors): this many searches at this effort, once per clock
# with special rules and table size, before the plan book's patterns. Tests set their own.
CLOCK_PRIOR_EFFORT = 1.0
CLOCK_PRIOR_SEARCHES = 4
# Beat fills the plan book (solver.prefill) while no hint waits; off: only by the command.
PLAN_BOOK_PREFILL = env_bool("PLAN_BOOK_PREFILL", True)
# A worker's pool processes (hints, the prefill) run this much nicer than the web: on a shared
# machine the solver's batch work takes the CPU the pages leave, not the other way round.
SOLVER_NICE = env_int("SOLVER_NICE", 10, minimum=0, maximum=19)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# A worker writes a heartbeat this often; /healthz counts those seen within 3 periods, and
# the reaper (every period) requeues a job whose node has been silent that long: a killed
# worker's hint is running again 6-8 s after the kill (ops.heartbeat.silent_after).
WORKER_HEARTBEAT_SECONDS = env_int("WORKER_HEARTBEAT_SECONDS", 2, minimum=1)
# A history with more events than this is imported by the worker, with a progress page; a
# shorter one in the request (about a second per few hundred events).
IMPORT_INLINE_EVENTS = env_int("IMPORT_INLINE_EVENTS", 400, minimum=0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Invite tokens hidden; a 403 one line without a traceback (config/logs.py).
    "filters": {
        "redact": {"()": "config.logs.RedactingFilter"},
        "quiet_refusals": {"()": "config.logs.QuietRefusals"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact", "quiet_refusals"]}
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django's own console handler is replaced, not added to: each record printed once.
    "loggers": {"django": {"handlers": ["console"], "propagate": False}},
}
