"""API tokens stored as a hash (accounts.models.ApiToken), and DRF's plaintext table gone.

An install from before kept each key in the clear in ``authtoken_token`` (DRF's authtoken
app). Each key is hashed into the new table, so the token keeps working, then that table
and the record of its migrations are dropped: no copy of a key stays in the database. (Had
the authtoken app been put back, ``migrate`` would make it an empty table again.)

Not reversible in substance: going back drops the hashes; the keys cannot be recovered.
"""

import datetime
import hashlib

import django.db.models.deletion
from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils import timezone
from django.utils.dateparse import parse_datetime

OLD_TABLE = "authtoken_token"
PREFIX_LENGTH = 6


def _aware(value: object) -> datetime.datetime:
    """The old row's ``created`` as the database gives it raw (SQLite: text in UTC)."""
    when = parse_datetime(value) if isinstance(value, str) else value
    if not isinstance(when, datetime.datetime):
        return timezone.now()
    return timezone.make_aware(when, datetime.UTC) if timezone.is_naive(when) else when


def hash_old_tokens(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if OLD_TABLE not in connection.introspection.table_names(cursor):
            return
        names = ", ".join(connection.ops.quote_name(name) for name in ("key", "user_id", "created"))
        cursor.execute(f"SELECT {names} FROM {connection.ops.quote_name(OLD_TABLE)}")
        rows = cursor.fetchall()
    ApiToken = apps.get_model("accounts", "ApiToken")
    db = schema_editor.connection.alias
    for key, user_id, created in rows:
        token = ApiToken.objects.using(db).create(
            user_id=user_id,
            digest=hashlib.sha256(key.encode()).hexdigest(),
            prefix=key[:PREFIX_LENGTH],
        )
        ApiToken.objects.using(db).filter(pk=token.pk).update(created=_aware(created))
    schema_editor.execute(f"DROP TABLE {connection.ops.quote_name(OLD_TABLE)}")
    schema_editor.execute("DELETE FROM django_migrations WHERE app = %s", ["authtoken"])


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("prefix", models.CharField(max_length=6)),
                ("created", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_token",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(hash_old_tokens, migrations.RunPython.noop, elidable=False),
    ]
