"""Benchmarks (`make bench`): the seed's design comparison at scale, the data layer
against raw boto3 / the Table resource / PynamoDB, pages through gunicorn and bulk loading.

Run `python -m bench --help`. Benchmarks are not tests: nothing here asserts a timing.
"""
