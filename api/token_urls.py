from django.urls import path

from api.token_views import TokenListView, TokenRevokeView

app_name = "api_tokens"

urlpatterns = [
    path("", TokenListView.as_view(), name="list"),
    path("<int:pk>/revoke/", TokenRevokeView.as_view(), name="revoke"),
]
