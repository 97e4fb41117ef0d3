from django.urls import path

from documents import views

app_name = "documents"

urlpatterns = [
    path("", views.DocumentListView.as_view(), name="list"),
    path("search/", views.SearchView.as_view(), name="search"),
    path("<str:document_id>/", views.DocumentDetailView.as_view(), name="detail"),
    path("<str:document_id>/history/", views.DocumentHistoryView.as_view(), name="history"),
    path("<str:document_id>/positions/<str:position_id>/", views.PositionInDocumentView.as_view(), name="position"),
]
