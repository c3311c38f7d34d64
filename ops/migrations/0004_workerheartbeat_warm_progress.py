from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ops", "0003_workerheartbeat_ready"),
    ]

    operations = [
        migrations.AddField(
            model_name="workerheartbeat",
            name="warm_done",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="workerheartbeat",
            name="warm_total",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="workerheartbeat",
            name="ready_by",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
