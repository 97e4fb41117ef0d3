from django.urls import path

from funds import record_views, views

app_name = "investors"

urlpatterns = [
    path("<str:investor_id>/", views.InvestorDetailView.as_view(), name="detail"),
    path("<str:investor_id>/record/", record_views.InvestorRecordView.as_view(), name="record"),
]
