"""API tokens are stored only as a hash (accounts.models): no table holds a key, a key made
before (DRF's authtoken, in the clear) is hashed by the migration and keeps working, the
command prints a new key once, and the API's schema still describes the Token scheme."""

from __future__ import annotations

import binascii
import hashlib
import os
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken

MIGRATION = ("accounts", "0001_api_tokens_hashed")


def api_status(key: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return int(client.get("/api/groups/").status_code)


def rows_holding(text: str) -> list[str]:
    """Every table whose rows hold ``text`` anywhere (any column, as the database has it)."""
    found = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            if any(text in str(value) for row in cursor.fetchall() for value in row):
                found.append(table)
    return found


@pytest.mark.django_db
def test_no_table_holds_a_key_made_on_the_page_only_its_hash(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    html = client.post("/accounts/token/", {"create": "1"}).content.decode()
    token = ApiToken.objects.get(user=alice)
    key = html.split('<code class="token">', 1)[1].split("</code>", 1)[0]
    assert len(key) == 40 and api_status(key) == 200
    assert rows_holding(key) == []  # not in accounts_apitoken, the session, anywhere
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    assert token.prefix == key[:6]


@pytest.mark.django_db
def test_the_command_prints_a_new_working_key_once(alice: User) -> None:
    out, err = StringIO(), StringIO()
    call_command("api_token", "alice", stdout=out, stderr=err)
    words = out.getvalue().split()
    assert words[:2] == ["Generated", "token"] and words[3:] == ["for", "user", "alice"]
    key = words[2]
    assert api_status(key) == 200 and rows_holding(key) == []
    assert "shown only now" in err.getvalue()
    call_command("api_token", "alice", stdout=StringIO(), stderr=StringIO())
    assert api_status(key) == 401  # replaced


@pytest.mark.django_db
def test_the_command_refuses_an_unknown_account_with_exit_2() -> None:
    with pytest.raises(CommandError) as refused:
        call_command("api_token", "nobody-here", stdout=StringIO(), stderr=StringIO())
    assert refused.value.returncode == 2 and "nobody-here" in str(refused.value)


@pytest.mark.django_db
def test_a_wrong_key_a_digest_or_a_prefix_is_refused(alice: User) -> None:
    key = ApiToken.issue(alice)
    token = ApiToken.objects.get(user=alice)
    for wrong in (token.digest, token.prefix, key[:-1] + ("0" if key[-1] != "0" else "1")):
        assert api_status(wrong) == 401
    assert api_status(key) == 200
    User.objects.filter(pk=alice.pk).update(is_active=False)
    assert api_status(key) == 401


@pytest.mark.django_db
def test_the_schema_still_describes_the_token_scheme() -> None:
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    schemes = schema["components"]["securitySchemes"]
    assert {"type": "apiKey", "in": "header", "name": "Authorization"}.items() <= schemes[
        "tokenAuth"
    ].items()


def _old_table() -> None:
    """authtoken_token as DRF's authtoken app made it (its migrations 0001-0004)."""
    with connection.schema_editor() as editor:
        user_table = editor.quote_name("auth_user")
        editor.execute(
            'CREATE TABLE "authtoken_token" ("key" varchar(40) NOT NULL PRIMARY KEY, '
            '"created" timestamp NOT NULL, '
            f'"user_id" integer NOT NULL UNIQUE REFERENCES {user_table} ("id"))'
        )
        editor.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES "
            "('authtoken', '0004_alter_tokenproxy_options', CURRENT_TIMESTAMP)"
        )


@pytest.mark.django_db(transaction=True)
def test_a_token_made_the_old_way_still_works_after_the_migration(alice: User) -> None:
    """Before the migration: DRF's table with the key in the clear. After: the same key
    authenticates, and the plaintext table, its rows and its migrations are gone."""
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", None)])  # as before this release
    _old_table()
    key = binascii.hexlify(os.urandom(20)).decode()  # DRF's Token.generate_key
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
            [key, "2026-01-02 03:04:05", alice.pk],
        )
    assert rows_holding(key) == ["authtoken_token"]
    executor = MigrationExecutor(connection)
    executor.migrate([MIGRATION])
    assert api_status(key) == 200
    assert rows_holding(key) == []
    assert "authtoken_token" not in connection.introspection.table_names()
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM django_migrations WHERE app = 'authtoken'")
        assert cursor.fetchone() == (0,)
    token = ApiToken.objects.get(user=alice)
    assert (token.prefix, token.created.year) == (key[:6], 2026)


@pytest.mark.django_db(transaction=True)
def test_the_migration_is_harmless_on_a_new_install() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", None)])
    executor = MigrationExecutor(connection)
    executor.migrate([MIGRATION])
    assert ApiToken.objects.count() == 0
