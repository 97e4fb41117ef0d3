"""URLs of the DynamoDB admin section, mounted at /admin/dynamodb/ in fundportal/urls.py.

Each view goes through `admin.site.admin_view` (active staff only, CSRF, never cached). It is
exempt from LoginRequiredMiddleware because admin_view makes the same check and sends
anonymous users to the admin's own login page, like every other admin URL should.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.decorators import login_not_required
from django.urls import path

from . import views

app_name = "dynamodb_admin"


def staff_only(view_class: type[views.DashboardView]):
    return login_not_required(admin.site.admin_view(view_class.as_view()))


urlpatterns = [
    path("", staff_only(views.IndexView), name="index"),
    path("table/", staff_only(views.TableView), name="table"),
    path("patterns/", staff_only(views.PatternsView), name="patterns"),
    path("explorer/", staff_only(views.ExplorerView), name="explorer"),
    path("requests/", staff_only(views.RequestLogView), name="requests"),
]
