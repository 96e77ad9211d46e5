"""Error headlines: what a report, a log line or a summary says went wrong."""

from mmtsb.text import error_headline


def test_a_plain_error_is_its_first_line():
    assert error_headline("LLMServerError: boom\n  File x, line 1\n") == "LLMServerError: boom"
    assert error_headline("") == "" and error_headline(None) == ""


def test_a_traceback_headline_carries_the_exception_it_ends_with():
    text = ("SolutionError: reference solution, round 1, step 2: Traceback (most recent call last):\n"
            '  File "<agent>", line 3, in <module>\n'
            "    splitwise_record_expense(...)\n"
            "ValueError: API error: The sum of debt amounts (11.41) must be equal to the total (22.82)\n"
            "Traceback (most recent call last):\n  File \"mmtsb/episode/loop.py\", line 9\n")
    assert error_headline(text) == ("SolutionError: reference solution, round 1, step 2: ValueError: API error: "
                                    "The sum of debt amounts (11.41) must be equal to the total (22.82)")
    assert error_headline("Traceback (most recent call last):\n  File x\nKeyError: 'a'") == "KeyError: 'a'"
