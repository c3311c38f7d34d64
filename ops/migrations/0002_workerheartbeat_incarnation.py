from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ops", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="workerheartbeat",
            name="incarnation",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
    ]
