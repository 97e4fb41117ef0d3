from django.urls import path

from documents import approval_views, edit_views, list_views, views

app_name = "documents"

urlpatterns = [
    path("", list_views.DocumentListView.as_view(), name="list"),
    path("search/", list_views.SearchView.as_view(), name="search"),
    # Analyst writes; "new/" must stay above "<document_id>/".
    path("new/", edit_views.DocumentCreateView.as_view(), name="create"),
    path("<str:document_id>/entries/new/", edit_views.EntryEditView.as_view(), name="entry_add"),
    path(
        "<str:document_id>/entries/<str:kind>/<str:position_id>/edit/",
        edit_views.EntryEditView.as_view(),
        name="entry_edit",
    ),
    path(
        "<str:document_id>/entries/<str:kind>/<str:position_id>/delete/",
        edit_views.EntryDeleteView.as_view(),
        name="entry_delete",
    ),
    path("<str:document_id>/restate/", edit_views.RestateView.as_view(), name="restate"),
    path("<str:document_id>/submit/", approval_views.SubmitView.as_view(), name="submit"),
    path("<str:document_id>/approve/", approval_views.ApproveView.as_view(), name="approve"),
    path("<str:document_id>/audit/", edit_views.AuditTrailView.as_view(), name="audit"),
    path("<str:document_id>/", views.DocumentDetailView.as_view(), name="detail"),
    path("<str:document_id>/history/", views.DocumentHistoryView.as_view(), name="history"),
    path("<str:document_id>/positions/<str:position_id>/", views.PositionInDocumentView.as_view(), name="position"),
]
