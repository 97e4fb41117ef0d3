"""The downloads' URLs, mounted by `fundportal.urls` under the page they belong to (same
namespace and path prefix as that page): no app's urls import the exports."""

from django.urls import path

from exports import capital_account_views as statements
from exports import views

document_patterns = [
    path("<str:document_id>/export.xlsx", views.DocumentXlsxView.as_view(), name="export_xlsx"),
    path("<str:document_id>/export.csv", views.DocumentCsvView.as_view(), name="export_csv"),
    path("<str:document_id>/notices/<str:position_id>.pdf", views.NoticePdfView.as_view(), name="notice_pdf"),
    path("<str:document_id>/notices.zip", views.NoticesZipView.as_view(), name="notices_zip"),
]

position_patterns = [
    path("<str:position_id>/export.csv", views.PositionCsvView.as_view(), name="export"),
    path("<str:position_id>/export.xlsx", views.PositionXlsxView.as_view(), name="export_xlsx"),
    path("<str:position_id>/statement.pdf", views.StatementPdfView.as_view(), name="statement"),
    path("<str:position_id>/statement.xlsx", statements.PositionStatementXlsxView.as_view(), name="statement_xlsx"),
]

fund_patterns = [
    path("<str:fund_id>/export.xlsx", views.FundXlsxView.as_view(), name="export_xlsx"),
    path("<str:fund_id>/export.csv", views.FundCsvView.as_view(), name="export_csv"),
    path("<str:fund_id>/statements.zip", statements.FundStatementsZipView.as_view(), name="statements_zip"),
    path("<str:fund_id>/statements/<uuid:job_id>/", statements.StatementJobView.as_view(), name="statements_job"),
    path(
        "<str:fund_id>/statements/<uuid:job_id>.zip",
        statements.StatementJobZipView.as_view(),
        name="statements_job_zip",
    ),
]

investor_patterns = [
    path("<str:investor_id>/export.csv", views.InvestorCsvView.as_view(), name="export_csv"),
    path("<str:investor_id>/export.xlsx", views.InvestorXlsxView.as_view(), name="export_xlsx"),
    path("<str:investor_id>/statement.pdf", statements.InvestorStatementPdfView.as_view(), name="statement_pdf"),
    path("<str:investor_id>/statement.xlsx", statements.InvestorStatementXlsxView.as_view(), name="statement_xlsx"),
]
