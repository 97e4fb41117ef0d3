from django.urls import path

from documents import views

app_name = "documents"

urlpatterns = [
    path("", views.DocumentListView.as_view(), name="list"),
    path("search/", views.SearchView.as_view(), name="search"),
]
