"""The DynamoDB section of the Django admin (issue 7), mounted at /admin/dynamodb/."""
