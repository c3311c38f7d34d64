import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_list, env_str, env_url


def test_env_bool_reads_the_usual_spellings() -> None:
    assert env_bool("X", False, {"X": "yes"}) is True
    assert env_bool("X", True, {"X": "Off"}) is False
    assert env_bool("X", True, {}) is True


def test_env_bool_rejects_anything_else() -> None:
    with pytest.raises(ImproperlyConfigured, match="X must be one of"):
        env_bool("X", False, {"X": "maybe"})


def test_env_int_rejects_words_and_bounds() -> None:
    assert env_int("N", 3, {"N": " 42 "}) == 42
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env_int("N", 3, {"N": "4.5"})
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        env_int("N", 3, {"N": "0"}, minimum=1)
    with pytest.raises(ImproperlyConfigured, match="at most 10"):
        env_int("N", 3, {"N": "11"}, maximum=10)


def test_env_list_splits_and_rejects_empty_items() -> None:
    assert env_list("H", ["a"], {"H": "x.org, y.org"}) == ["x.org", "y.org"]
    assert env_list("H", ["a"], {"H": "  "}) == ["a"]
    with pytest.raises(ImproperlyConfigured, match="empty item"):
        env_list("H", [], {"H": "x.org,,y.org"})


def test_env_url_checks_the_scheme() -> None:
    url = "postgres://u@h/db"
    assert env_url("DATABASE_URL", "sqlite:///x", ("sqlite", "postgres"), {"DATABASE_URL": url})
    with pytest.raises(ImproperlyConfigured, match="must start with one of"):
        env_url(
            "DATABASE_URL", "sqlite:///x", ("sqlite", "postgres"), {"DATABASE_URL": "mysql://h"}
        )
    with pytest.raises(ImproperlyConfigured, match="must start with one of"):
        env_url("DATABASE_URL", "sqlite:///x", ("sqlite",), {"DATABASE_URL": "not a url"})


def test_env_str_falls_back_on_blank() -> None:
    assert env_str("S", "d", {"S": "   "}) == "d"
    assert env_str("S", "d", {"S": "v"}) == "v"
