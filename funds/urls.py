from django.urls import path

from funds import views

app_name = "funds"

urlpatterns = [
    path("", views.FundListView.as_view(), name="list"),
    path("<str:fund_id>/", views.FundDetailView.as_view(), name="detail"),
]
