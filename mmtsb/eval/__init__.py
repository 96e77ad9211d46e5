"""Evaluation: the entity diff (expected state changes vs the final world) and its similarity functions.

``evaluate_world`` / ``evaluate_tables`` score ``entity_diff_specs`` (SPEC.md §6.2-6.3). With
``EvalOptions(strict_reference=True)`` the numbers are the reference's; the default mode fixes its known
weaknesses (SPEC.md §9 items 7-8) as documented in :mod:`mmtsb.eval.entity_diff`.
"""

from mmtsb.eval.entity_diff import EvalOptions, evaluate_tables, evaluate_world, parse_specs
from mmtsb.eval.guardrails import UnexpectedWrite
from mmtsb.eval.matching import ColumnScore
from mmtsb.eval.result import EntityDiffResult, EntityResult, GroupResult
from mmtsb.eval.similarity import JSON_SIMILARITY_NAMES, SimilarityError, get_similarity
from mmtsb.eval.specs import EntityDiffSpec

__all__ = [
           "JSON_SIMILARITY_NAMES",
           "ColumnScore",
           "EntityDiffResult",
           "EntityDiffSpec",
           "EntityResult",
           "EvalOptions",
           "GroupResult",
           "SimilarityError",
           "UnexpectedWrite",
           "evaluate_tables",
           "evaluate_world",
           "get_similarity",
           "parse_specs",
]
