from django.urls import path

from exports import views as export_views
from positions import views
from positions.commitment import CommitmentView

app_name = "positions"

urlpatterns = [
    path("<str:position_id>/", views.PositionDetailView.as_view(), name="detail"),
    path("<str:position_id>/export.csv", views.PositionExportView.as_view(), name="export"),
    path("<str:position_id>/commitment/", CommitmentView.as_view(), name="commitment"),
    path("<str:position_id>/export.xlsx", export_views.PositionXlsxView.as_view(), name="export_xlsx"),
    path("<str:position_id>/statement.pdf", export_views.StatementPdfView.as_view(), name="statement"),
]
