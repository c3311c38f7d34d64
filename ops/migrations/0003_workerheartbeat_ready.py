from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ops", "0002_workerheartbeat_incarnation"),
    ]

    operations = [
        migrations.AddField(
            model_name="workerheartbeat",
            name="ready",
            field=models.BooleanField(default=True),
        ),
    ]
