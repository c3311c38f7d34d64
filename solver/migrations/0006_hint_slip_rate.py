from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("solver", "0005_hint_names_and_seating"),
    ]

    operations = [
        migrations.AddField(
            model_name="hintrequest",
            name="slip_rate",
            field=models.FloatField(default=0.05),
        ),
    ]
