app_name = "positions"

urlpatterns: list = []
