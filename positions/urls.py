from django.urls import path

from positions import views
from positions.commitment import CommitmentView

app_name = "positions"

urlpatterns = [
    path("<str:position_id>/", views.PositionDetailView.as_view(), name="detail"),
    path("<str:position_id>/commitment/", CommitmentView.as_view(), name="commitment"),
]
