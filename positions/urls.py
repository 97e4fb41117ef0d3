from django.urls import path

from positions import views

app_name = "positions"

urlpatterns = [
    path("<str:position_id>/", views.PositionDetailView.as_view(), name="detail"),
    path("<str:position_id>/export.csv", views.PositionExportView.as_view(), name="export"),
]
