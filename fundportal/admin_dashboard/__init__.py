"""The DynamoDB section of the Django admin, mounted at /admin/dynamodb/."""
