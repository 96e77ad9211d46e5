"""Column similarity functions (SPEC.md §6.3) and how columns get them (§6.2), with hand-computed scores."""

import pytest

from mmtsb.eval.matching import Expected, score_pair
from mmtsb.eval.similarity import (
    AFTER_ALIAS,
    CONTAINS,
    DATETIME_AFTER,
    DATETIME_NAIVE_EQUAL,
    EXACT,
    IGNORE,
    JSON_SIMILARITY_NAMES,
    ONE,
    ROUGE_L,
    SimilarityError,
    check_similarity_name,
    contains,
    create_similarity_names,
    datetime_after,
    datetime_naive_equal,
    default_similarity_name,
    exact_match,
    get_similarity,
    reference_tokens,
    rouge_l,
    rouge_l_reference,
    update_similarity_names,
)


def test_exact_match_nulls_lists_and_plain_values():
    assert exact_match(None, None) == 1.0
    assert exact_match(None, 0) == 0.0 and exact_match(None, "") == 0.0
    assert exact_match([203, 202], [202, 203]) == 1.0          # order does not matter
    assert exact_match([203], "[203]") == 1.0                   # a JSON-list string is parsed
    assert exact_match("[1, 2]", [2, 1]) == 1.0
    assert exact_match([1, "a"], ["a", 1]) == 1.0               # unorderable mix still compared sorted
    assert exact_match([1, 2], [1, 2, 2]) == 0.0
    assert exact_match([1], 1) == 0.0
    assert exact_match(5, 5) == 1.0 and exact_match("5", 5) == 0.0
    assert exact_match(False, 0) == 1.0 and exact_match(19.99, 19.99) == 1.0
    assert exact_match("Rhonda", "rhonda") == 0.0


def test_exact_match_datetimes_compare_as_epoch_seconds_naive_utc():
    assert exact_match("2026-04-20T10:00:00Z", "2026-04-20T10:00:00") == 1.0
    assert exact_match("2026-04-20T10:00:00Z", "2026-04-20T03:00:00-07:00") == 1.0
    assert exact_match("2026-04-20T10:00:00Z", "2026-04-20T10:00:00-07:00") == 0.0
    assert exact_match("2026-04-20T10:00:00", "2026-04-20T10:00:00.900") == 1.0   # integer seconds
    assert exact_match("2026-04-20T10:00:00", "not a date") == 0.0


def test_rouge_l_reference_tokenizer_and_scores():
    assert reference_tokens("Hello, World!") == ["hello", "world", ""]
    # target "the cat sat" (3 tokens), prediction "the cat sat down" (4): LCS 3, P 3/4, R 1 -> F 6/7
    assert rouge_l_reference("the cat sat", "The cat sat down") == pytest.approx(6 / 7)
    # trailing punctuation leaves an empty token in the reference: target 3 tokens, prediction 2, LCS 2
    # -> P 1, R 2/3, F 0.8; our tokenisation drops it -> 1.0
    assert rouge_l_reference("Buy milk.", "buy milk") == pytest.approx(0.8)
    assert rouge_l("Buy milk.", "buy milk") == 1.0
    assert rouge_l_reference("", "") == 1.0 and rouge_l("", "") == 1.0
    assert rouge_l_reference(None, "") == 1.0 and rouge_l(None, "") == 1.0
    assert rouge_l_reference("", "text") == 0.0 and rouge_l("", "text") == 0.0
    assert rouge_l("...", "text") == 0.0                        # only punctuation: empty after tokenising
    # "call mom" vs "call dad": LCS 1 of 2 and 2 -> 0.5; no stemming: "running" != "run"
    assert rouge_l_reference("call mom", "call dad") == pytest.approx(0.5)
    assert rouge_l_reference("running", "run") == 0.0


def test_datetime_naive_equal_drops_timezone_and_microseconds():
    assert datetime_naive_equal("2026-04-20T10:00:00Z", "2026-04-20T10:00:00-07:00") == 1.0
    assert datetime_naive_equal("2026-04-20T10:00:00", "2026-04-20T10:00:00.500000") == 1.0
    assert datetime_naive_equal("2026-04-20T10:00:00Z", "2026-04-20T11:00:00Z") == 0.0
    assert datetime_naive_equal(None, None) == 1.0 and datetime_naive_equal(None, "") == 1.0
    assert datetime_naive_equal("2026-04-20T10:00:00", None) == 0.0
    assert datetime_naive_equal("soon", "soon") == 0.0


def test_datetime_after_is_strict_and_naive_is_utc():
    assert datetime_after("2026-04-15T10:00:00", "2026-04-16T23:51:15") == 1.0
    assert datetime_after("2026-04-15T10:00:00", "2026-04-15T10:00:00") == 0.0   # equal is not after
    assert datetime_after("2026-04-16T10:00:00Z", "2026-04-16T05:00:00-07:00") == 1.0  # 12:00Z > 10:00Z
    assert datetime_after("2026-04-16T10:00:00", "2026-04-16T09:00:00") == 0.0
    assert datetime_after(None, "2026-04-16T10:00:00") == 0.0
    assert get_similarity(AFTER_ALIAS).fn is get_similarity(DATETIME_AFTER).fn


def test_contains_is_a_case_sensitive_substring_check():
    assert contains("Final_Exports/cut.mp4", "/home/brenda/Final_Exports/cut.mp4") == 1.0
    assert contains("final_exports", "/home/brenda/Final_Exports/cut.mp4") == 0.0
    assert contains(None, None) == 1.0 and contains("a", None) == 0.0


def test_ignore_is_left_out_of_the_mean_but_one_is_counted():
    row = {"a": 1, "b": 2}
    # a mismatches (0); b ignored -> mean over {a} = 0; b "one" -> mean(0, 1) = 0.5
    assert score_pair(Expected({"a": 9, "b": 2}, {"a": EXACT, "b": IGNORE}), row, {"a", "b"},
                      strict=True).score == 0.0
    assert score_pair(Expected({"a": 9, "b": 2}, {"a": EXACT, "b": ONE}), row, {"a", "b"},
                      strict=True).score == 0.5
    # every compared column ignored: an existence check scoring 1
    assert score_pair(Expected({"a": 9, "b": 7}, {"a": IGNORE, "b": IGNORE}), row, {"a", "b"},
                      strict=True).score == 1.0
    # no expected column exists in the table: nothing compared, 0
    empty = score_pair(Expected({"z": 1}, {"z": EXACT}), row, {"a", "b"}, strict=True)
    assert empty.score == 0.0 and not empty.compared


def test_names_usable_from_json_and_clear_errors():
    assert set(JSON_SIMILARITY_NAMES) == {EXACT, ROUGE_L, DATETIME_NAIVE_EQUAL, DATETIME_AFTER, AFTER_ALIAS,
                                          IGNORE, ONE, CONTAINS}
    with pytest.raises(SimilarityError, match="cannot be used in a scenario file.*tolerance.*"
                                              "column_exact_match_similarity"):
        check_similarity_name("column_close_similarity")
    with pytest.raises(SimilarityError, match="unknown similarity function 'column_fuzzy'.*valid names: "):
        get_similarity("column_fuzzy")
    assert get_similarity(ROUGE_L, strict_reference=True).fn is rouge_l_reference
    assert get_similarity(ROUGE_L, strict_reference=False).fn is rouge_l


def test_defaults_by_value_and_column_name():
    assert default_similarity_name("content", "x") == ROUGE_L
    assert default_similarity_name("subject", "x") == ROUGE_L
    assert default_similarity_name("first_name", "x") == EXACT       # names match whole column names
    assert default_similarity_name("title", "") == IGNORE            # empty expected values are ignored
    assert default_similarity_name("user_id", None) == IGNORE
    assert default_similarity_name("recipient_ids", []) == IGNORE
    assert default_similarity_name("tags", ["home"]) == IGNORE
    assert default_similarity_name("data", {"k": 1}) == IGNORE
    assert default_similarity_name("created_at", "2026-04-16T23:51:15") == IGNORE
    assert default_similarity_name("note_id", "n1") == IGNORE
    assert default_similarity_name("debtor_ids", [200]) == IGNORE
    assert default_similarity_name("priority", "high") == EXACT


def test_create_forces_runtime_ids_and_generated_columns_to_ignore():
    names = create_similarity_names(
        {"calendar_event_id": EXACT, "title": ROUGE_L, "deleted": EXACT, "priority": EXACT, "unused": EXACT},
        {"calendar_event_id": "e1", "title": "Gym", "deleted": False, "priority": "high", "body": "hi"})
    assert names == {"calendar_event_id": IGNORE, "title": ROUGE_L, "deleted": IGNORE, "priority": EXACT,
                     "body": ROUGE_L}


def test_update_uses_strictly_after_for_unnamed_bookkeeping_timestamps():
    expected = {"updated_at": "2026-04-15T10:00:00", "content": "x", "tags": [], "id": 1}
    cols = {"id", "content", "tags", "updated_at"}
    assert update_similarity_names({"content": ROUGE_L, "id": EXACT}, expected, cols, "simple_note.notes") == {
        "updated_at": DATETIME_AFTER, "content": ROUGE_L, "tags": IGNORE, "id": EXACT}
    # named in the spec's map: kept as written (no forced override on updates)
    assert update_similarity_names({"updated_at": IGNORE, "id": EXACT}, expected, cols,
                                   "simple_note.notes")["updated_at"] == IGNORE
    # the gmail thread/draft tables are exempt; a column the final table lacks too
    assert update_similarity_names({}, expected, cols, "gmail.drafts")["updated_at"] == IGNORE
    assert update_similarity_names({}, expected, {"id"}, "simple_note.notes")["updated_at"] == IGNORE
