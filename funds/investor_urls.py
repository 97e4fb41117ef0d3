from django.urls import path

from funds import views

app_name = "investors"

urlpatterns = [
    path("<str:investor_id>/", views.InvestorDetailView.as_view(), name="detail"),
]
