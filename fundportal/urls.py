from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from fundportal import views

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="documents:list", permanent=False)),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/dynamodb/", include("fundportal.admin_dashboard.urls")),
    path("admin/", admin.site.urls),
    path("documents/", include("documents.urls")),
    path("positions/", include("positions.urls")),
    path("funds/", include("funds.urls")),
    path("investors/", include("funds.investor_urls")),
]

handler400 = "fundportal.views.bad_request"
handler403 = "fundportal.views.permission_denied"
handler404 = "fundportal.views.page_not_found"
handler500 = "fundportal.views.server_error"
