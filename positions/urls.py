from django.urls import path

from positions import views
from positions.commitment import CommitmentView
from positions.merge_views import PositionMergeView, PositionRemoveView

app_name = "positions"

urlpatterns = [
    path("<str:position_id>/", views.PositionDetailView.as_view(), name="detail"),
    path("<str:position_id>/commitment/", CommitmentView.as_view(), name="commitment"),
    path("<str:position_id>/remove/", PositionRemoveView.as_view(), name="remove"),
    path("<str:position_id>/merge/", PositionMergeView.as_view(), name="merge"),
]
