from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name="FundData",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
            ],
            options={
                "verbose_name": "fund data",
                "verbose_name_plural": "fund data",
                "permissions": [("edit_fund_data", "Can edit fund data")],
                "managed": False,
                "default_permissions": (),
            },
        ),
    ]
