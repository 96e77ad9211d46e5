"""Column similarity functions usable from scenario JSON, and how a column gets one (SPEC.md §6.2-6.3).

Every function takes ``(expected, actual)`` and returns a score in [0, 1]. The names are the contract
with the released scenario files, so their semantics follow the reference exactly, with one deliberate
difference outside strict mode:

- ROUGE-L tokenisation: the reference tokenizer (lowercase, every non-word run -> one space, split on
  whitespace, no stemming) keeps the empty tokens that leading/trailing punctuation leaves behind, so
  ``"Hello!"`` vs ``"Hello"`` scores 0.67 instead of 1 (SPEC.md §9 item 8). Our default drops empty
  tokens (two empty texts score 1, one empty text scores 0); ``strict_reference=True`` keeps them.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

EXACT = "column_exact_match_similarity"
ROUGE_L = "column_rouge_l_similarity"
DATETIME_NAIVE_EQUAL = "column_datetime_naive_equal_similarity"
DATETIME_AFTER = "column_datetime_similarity"
AFTER_ALIAS = "column_after_similarity"
IGNORE = "column_ignore_similarity"
ONE = "column_one_similarity"
CONTAINS = "column_contains_similarity"

#: names registered in the reference but unusable from JSON, with the reason given in errors
NOT_USABLE_FROM_JSON: dict[str, str] = {
    "column_close_similarity": "it needs a per-column numeric tolerance table that a scenario file cannot "
                               "supply (the reference asserts when it is used from JSON)",
    "column_tool_trace_exact_match_similarity": "it is a legacy ToolSandbox tool-trace comparison, not a "
                                                "column comparison",
}

# ----------------------------------------------------------------------------- column-name rules (§6.2)
#: ids generated at run time on the device side; never comparable to the ids a spec author wrote
RUNTIME_ID_COLUMNS = frozenset({"reminder_id", "calendar_event_id", "calendar_id", "person_id", "note_id",
                                "message_id"})
#: bookkeeping timestamps (also the columns the update "strictly after" rule applies to)
BOOKKEEPING_TIMESTAMPS = frozenset({
    "created_at", "updated_at", "modified_at", "deleted_at", "last_logged_in", "last_updated_at",
    "last_modified_at", "added_at", "liked_at", "joined_at", "expected_delivery_at", "delivered_at",
    "initiated_at", "downloaded_at", "approved_at", "denied_at", "creation_datetime"})
#: columns whose value the app generates (timestamps, codes, derived lists)
AUTO_GENERATED_COLUMNS = BOOKKEEPING_TIMESTAMPS | frozenset({
    "relationships", "compressed_data", "file_compressed_data", "invitation_code", "debtor_ids",
    "participant_ids", "invite_code", "queue_song_ids", "label", "deleted"})
#: free-text columns compared with ROUGE-L by default
TEXT_COLUMNS = frozenset({"content", "title", "description", "name", "body", "text", "subject"})
#: columns ignored by default whatever their value
IGNORED_BY_NAME = frozenset({"tags", "data"})
#: tables where the update "strictly after" rule is not applied
AFTER_RULE_EXEMPT_TABLES = frozenset({"gmail.global_email_threads", "gmail.user_email_threads", "gmail.drafts"})


class SimilarityError(ValueError):
    """An unknown similarity function name, or one that cannot be used from a scenario file."""


@dataclass(frozen=True)
class Similarity:
    """A named column similarity. ``counted`` is False only for ignore: it is left out of the pair mean."""

    name: str
    fn: Callable[[Any, Any], float]
    counted: bool = True

    def __call__(self, expected: Any, actual: Any) -> float:
        return float(self.fn(expected, actual))


# ----------------------------------------------------------------------------- value helpers
def _json_list(value: Any) -> Any:
    """A string holding a JSON list -> the list; anything else unchanged."""
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        return parsed if isinstance(parsed, list) else value
    return value


def _sorted(items: list[Any]) -> list[Any]:
    try:
        return sorted(items)
    except TypeError:  # mixed or unorderable items: order by a canonical text form
        return sorted(items, key=lambda x: json.dumps(x, sort_keys=True, default=str))


def parse_datetime(value: Any) -> datetime | None:
    """An ISO-8601 datetime (``Z`` allowed) or a datetime object; None when it does not parse."""
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def epoch_seconds(dt: datetime) -> float:
    """Seconds since the epoch; a naive datetime is taken as UTC (as the reference does)."""
    return (dt if dt.tzinfo else dt.replace(tzinfo=UTC)).timestamp()


def _blank(value: Any) -> bool:
    return value is None or value == ""


# ----------------------------------------------------------------------------- the functions (§6.3)
def exact_match(expected: Any, actual: Any) -> float:
    """Equality with the reference's normalisations.

    Expected None -> actual must be null; lists (or strings holding a JSON list) compare as sorted lists;
    an expected string that parses as an ISO datetime compares both sides as integer epoch seconds (naive =
    UTC); otherwise ``==``, falling back to comparing ``str()`` forms when ``==`` fails.
    """
    if expected is None:
        return float(actual is None)
    exp, act = _json_list(expected), _json_list(actual)
    if isinstance(exp, list) and isinstance(act, list):
        return float(_sorted(exp) == _sorted(act))
    if isinstance(expected, str):
        exp_dt, act_dt = parse_datetime(expected), parse_datetime(actual)
        if exp_dt is not None and act_dt is not None:
            return float(int(epoch_seconds(exp_dt)) == int(epoch_seconds(act_dt)))
    try:
        equal = expected == actual
        if not isinstance(equal, bool):
            raise TypeError("non-boolean comparison")
        return float(equal)
    except (TypeError, ValueError):
        return float(str(expected) == str(actual))


_NON_WORD = re.compile(r"\W+")


def reference_tokens(text: str) -> list[str]:
    """The reference tokenizer: lowercase, non-word runs -> space, split (empty tokens kept)."""
    return re.split(r"\s", _NON_WORD.sub(" ", text.lower()))


class _Tokenizer:
    """rouge-score tokenizer adapter (duck-typed ``tokenize``)."""

    def __init__(self, keep_empty: bool) -> None:
        self.keep_empty = keep_empty

    def tokenize(self, text: str) -> list[str]:
        tokens = reference_tokens(text)
        return tokens if self.keep_empty else [t for t in tokens if t]


@functools.cache
def _rouge_scorer(keep_empty: bool) -> Any:
    from rouge_score import rouge_scorer  # imported lazily: it pulls in nltk

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False, tokenizer=_Tokenizer(keep_empty))


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def rouge_l_reference(expected: Any, actual: Any) -> float:
    """ROUGE-L F-measure, target = expected, prediction = actual, reference tokenizer (empty tokens kept)."""
    return _rouge_scorer(True).score(_text(expected), _text(actual))["rougeL"].fmeasure


def rouge_l(expected: Any, actual: Any) -> float:
    """ROUGE-L F-measure without empty tokens; two empty texts score 1, one empty text scores 0."""
    exp, act = _text(expected), _text(actual)
    exp_empty, act_empty = not _Tokenizer(False).tokenize(exp), not _Tokenizer(False).tokenize(act)
    if exp_empty or act_empty:
        return float(exp_empty and act_empty)
    return _rouge_scorer(False).score(exp, act)["rougeL"].fmeasure


def datetime_naive_equal(expected: Any, actual: Any) -> float:
    """Same wall-clock time once the timezone and microseconds are dropped (the agent cannot know the
    offset). Values that do not parse score 1 only when both are empty (null or "")."""
    exp_dt, act_dt = parse_datetime(expected), parse_datetime(actual)
    if exp_dt is None or act_dt is None:
        return float(exp_dt is None and act_dt is None and _blank(expected) and _blank(actual))
    strip = {"tzinfo": None, "microsecond": 0}
    return float(exp_dt.replace(**strip) == act_dt.replace(**strip))


def datetime_after(expected: Any, actual: Any) -> float:
    """1 when the actual instant is strictly after the expected one (naive = UTC); 0 if either fails to parse."""
    exp_dt, act_dt = parse_datetime(expected), parse_datetime(actual)
    if exp_dt is None or act_dt is None:
        return 0.0
    return float(epoch_seconds(act_dt) > epoch_seconds(exp_dt))


def contains(expected: Any, actual: Any) -> float:
    """Case-sensitive substring check: the expected text occurs in the actual text."""
    if expected is None:
        return float(actual is None)
    if actual is None:
        return 0.0
    return float(str(expected) in str(actual))


def _one(expected: Any, actual: Any) -> float:
    return 1.0


_COMMON: dict[str, Similarity] = {
    EXACT: Similarity(EXACT, exact_match),
    DATETIME_NAIVE_EQUAL: Similarity(DATETIME_NAIVE_EQUAL, datetime_naive_equal),
    DATETIME_AFTER: Similarity(DATETIME_AFTER, datetime_after),
    AFTER_ALIAS: Similarity(AFTER_ALIAS, datetime_after),
    IGNORE: Similarity(IGNORE, _one, counted=False),
    ONE: Similarity(ONE, _one),
    CONTAINS: Similarity(CONTAINS, contains),
}
_REGISTRY: dict[bool, dict[str, Similarity]] = {
    True: {**_COMMON, ROUGE_L: Similarity(ROUGE_L, rouge_l_reference)},
    False: {**_COMMON, ROUGE_L: Similarity(ROUGE_L, rouge_l)},
}

#: every similarity name a scenario file may use
JSON_SIMILARITY_NAMES: tuple[str, ...] = tuple(sorted(_REGISTRY[True]))


def check_similarity_name(name: str) -> None:
    """Raise :class:`SimilarityError` with a precise message unless ``name`` is usable from JSON."""
    if name in _REGISTRY[True]:
        return
    valid = ", ".join(JSON_SIMILARITY_NAMES)
    if name in NOT_USABLE_FROM_JSON:
        raise SimilarityError(f"similarity function {name!r} cannot be used in a scenario file: "
                              f"{NOT_USABLE_FROM_JSON[name]}; use one of: {valid}")
    raise SimilarityError(f"unknown similarity function {name!r}; valid names: {valid}")


def get_similarity(name: str, *, strict_reference: bool = True) -> Similarity:
    """The similarity for a JSON name (strict: the reference's exact ROUGE tokenisation)."""
    check_similarity_name(name)
    return _REGISTRY[strict_reference][name]


# ----------------------------------------------------------------------------- choosing functions (§6.2)
def default_similarity_name(column: str, expected_value: Any) -> str:
    """The function for a column the spec's map does not name: ignore for empty expected values,
    runtime ids, app-generated and tags/data columns; ROUGE-L for free-text columns; else exact."""
    if expected_value is None or expected_value == "" or expected_value == []:
        return IGNORE
    if column in RUNTIME_ID_COLUMNS or column in AUTO_GENERATED_COLUMNS or column in IGNORED_BY_NAME:
        return IGNORE
    if column in TEXT_COLUMNS:
        return ROUGE_L
    return EXACT


def create_similarity_names(spec_map: Mapping[str, str], expected_row: Mapping[str, Any]) -> dict[str, str]:
    """Functions for a create spec's expected row: the spec's map with runtime-id and app-generated columns
    forced to ignore, and defaults for the columns the map does not name."""
    out = {}
    for column, value in expected_row.items():
        if column in spec_map:
            forced = column in RUNTIME_ID_COLUMNS or column in AUTO_GENERATED_COLUMNS
            out[column] = IGNORE if forced else spec_map[column]
        else:
            out[column] = default_similarity_name(column, value)
    return out


def update_similarity_names(spec_map: Mapping[str, str], expected_row: Mapping[str, Any],
                            final_columns: set[str] | frozenset[str], table_key: str) -> dict[str, str]:
    """Functions for an update spec's expected row: the spec's own map (no forced overrides); a bookkeeping
    timestamp the map does not name uses "strictly after" (the spec gives the entity's initial timestamp,
    so a later value proves the row was touched), except in the gmail thread/draft tables; other columns
    get the defaults."""
    out = {}
    for column, value in expected_row.items():
        if column in spec_map:
            out[column] = spec_map[column]
        elif (column in BOOKKEEPING_TIMESTAMPS and column in final_columns
              and table_key not in AFTER_RULE_EXEMPT_TABLES):
            out[column] = DATETIME_AFTER
        else:
            out[column] = default_similarity_name(column, value)
    return out
