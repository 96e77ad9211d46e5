"""A differential harness: the same call sequences on AppWorld's real apps (in their own environment) and on
ours, with agreement per app (``benchmarks/appworld_agreement.py``)."""
