"""The domain core: money with its currency (`money`) and the one computation of every figure (`figures`).

Pure Python, no DynamoDB and no Django: pages, CSV exports and management commands all call in here.
"""
