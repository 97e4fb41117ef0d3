from django.urls import path

from funds import record_views, views

app_name = "funds"

urlpatterns = [
    path("", views.FundListView.as_view(), name="list"),
    path("<str:fund_id>/", views.FundDetailView.as_view(), name="detail"),
    path("<str:fund_id>/record/", record_views.FundRecordView.as_view(), name="record"),
]
