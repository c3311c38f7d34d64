"""The single solver version becomes two (``solver.core.version``): the engine's, in every
key as the single one was, and the search's, kept on plan-book entries and clock priors.

An existing row stored by single version *v* gets engine version *v* and search version *v*.
Rows of version 26, the last single one, keep answering: their keys hashed 26 under the name
"solver", the name the engine version keeps in every key, and ENGINE_VERSION starts at 26.
Rows of older versions were already unreachable (their keys hashed an older number) and stay
so. Their search version, 26 or lower, is never newer than SEARCH_VERSION, so a later bump
of the search alone marks them for refreshing like any other entry.
"""

from django.db import migrations, models


def search_version_from_solver_version(apps, schema_editor):
    for name in ("PlanBookEntry", "ClockPrior"):
        model = apps.get_model("solver", name)
        model.objects.update(search_version=models.F("engine_version"))


class Migration(migrations.Migration):
    dependencies = [
        ("solver", "0008_clock_prior"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="planbookentry", name="plan_book_clock_idx"),
        migrations.RenameField(
            model_name="planbookentry", old_name="solver_version", new_name="engine_version"
        ),
        migrations.RenameField(
            model_name="clockprior", old_name="solver_version", new_name="engine_version"
        ),
        migrations.AddField(
            model_name="planbookentry",
            name="search_version",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="clockprior",
            name="search_version",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="planbookentry",
            name="asked",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(search_version_from_solver_version, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="planbookentry",
            index=models.Index(fields=["search_version", "-asked"], name="plan_book_stale_idx"),
        ),
    ]
