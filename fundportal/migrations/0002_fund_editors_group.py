"""Data migration: the "Fund editors" group holding `fundportal.edit_fund_data`.

The permission is created here (get_or_create) rather than left to the post_migrate signal,
which runs only after every migration, so the group gets it on a fresh database too.
"""

from django.db import migrations

GROUP = "Fund editors"
CODENAME = "edit_fund_data"


def create_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    content_type, _ = ContentType.objects.get_or_create(app_label="fundportal", model="funddata")
    permission, _ = Permission.objects.get_or_create(
        codename=CODENAME, content_type=content_type, defaults={"name": "Can edit fund data"}
    )
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("fundportal", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
