from django.urls import path

from exports import views as export_views
from funds import views

app_name = "funds"

urlpatterns = [
    path("", views.FundListView.as_view(), name="list"),
    path("<str:fund_id>/", views.FundDetailView.as_view(), name="detail"),
    path("<str:fund_id>/export.xlsx", export_views.FundXlsxView.as_view(), name="export_xlsx"),
]
