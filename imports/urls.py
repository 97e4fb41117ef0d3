from django.urls import path

from imports import fund_call_views, views

app_name = "imports"

urlpatterns = [
    path("", views.ImportView.as_view(), name="upload"),
    path("confirm/", views.ConfirmView.as_view(), name="confirm"),
    path("fund-call/", fund_call_views.FundCallView.as_view(), name="fund_call"),
    path("jobs/<uuid:job_id>/", views.JobView.as_view(), name="job"),
    path("jobs/<uuid:job_id>/status.json", views.JobStatusView.as_view(), name="job_status"),
    path("template.csv", views.TemplateDownloadView.as_view(fmt="csv"), name="template_csv"),
    path("template.xlsx", views.TemplateDownloadView.as_view(fmt="xlsx"), name="template_xlsx"),
]
