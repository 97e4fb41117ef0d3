"""Ops tooling beside the store: the seed sample, synthetic data and their loading (`seed_demo`),
maintenance Scans, register repair, the admin's item-collection explorer and the access-pattern
explainer.

These modules use the store (`fundportal.store`) through its repositories, gateway, tables,
schema and keys; the store never imports them (tests/unit/test_layers.py keeps it so).
"""
