from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from django.views.generic import RedirectView

from documents import urls as document_urls
from exports import urls as export_urls
from fundportal import views
from funds import urls as fund_urls
from positions import urls as position_urls

# Each app's urls name only its own views; the pages that mount another app's views (the notice
# import under /documents/, the downloads beside their pages) are composed here, in the same
# namespaces as before, so the apps never import each other for URLs.
document_patterns: list[URLPattern | URLResolver] = [
    path("import/", include("imports.urls")),  # above "<document_id>/": "import" is a reserved id
    *document_urls.urlpatterns,
    *export_urls.document_patterns,
]
position_patterns: list[URLPattern | URLResolver] = [*position_urls.urlpatterns, *export_urls.position_patterns]
fund_patterns: list[URLPattern | URLResolver] = [*fund_urls.urlpatterns, *export_urls.fund_patterns]

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="documents:list", permanent=False)),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/dynamodb/", include("fundportal.admin_dashboard.urls")),
    path("admin/", admin.site.urls),
    path("documents/", include((document_patterns, document_urls.app_name))),
    path("positions/", include((position_patterns, position_urls.app_name))),
    path("funds/", include((fund_patterns, fund_urls.app_name))),
    path("investors/", include("funds.investor_urls")),
    path("api/v1/", include("api.urls")),  # the read API (token auth, problem-details errors)
    path("account/api-tokens/", include("api.token_urls")),
]

handler400 = "fundportal.views.bad_request"
handler403 = "fundportal.views.permission_denied"
handler404 = "fundportal.views.page_not_found"
handler500 = "fundportal.views.server_error"
