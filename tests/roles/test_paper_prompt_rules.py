"""Every rule the paper's Appendix E prompts carry is present in our own prompts (issue 13).

One test per rule: the test id names the rule (E.1 agent code-exec prompt, E.2 user simulator, E.3 challenge
guardrails, E.3 agent-judge rubric, E.4 user-judge rubric) and the test finds the rule's wording in the prompt as
it is rendered for a model. The wording is ours; what is pinned is that the rule is there. Divergences the
paper's prompts do not have are pinned as absent.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mmtsb.protocol.judges import AGENT_CRITERIA, USER_CRITERIA
from mmtsb.roles.judges.prompts import system_prompt
from mmtsb.roles.prompts import code_exec_prompt, tool_use_prompt, user_instruction

NOW = datetime(2026, 4, 16, 23, 51, 15, tzinfo=UTC)


def flat(text: str) -> str:
    """Whitespace-normalised, lower-case text (rules are found regardless of line wrapping)."""
    return " ".join(text.split()).lower()


def rendered(prompt: str) -> str:
    return flat({
        "agent": code_exec_prompt(NOW),
        "user": user_instruction(None),
        "goal_change": user_instruction("goal_change"),
        "error_correction": user_instruction("error_correction"),
        "agent_judge": system_prompt("agent", AGENT_CRITERIA),
        "user_judge": system_prompt("user", USER_CRITERIA),
    }[prompt])


# (rule, prompt it belongs to, phrases that must all be found in that prompt)
RULES = [
    # ---- E.1: the agent's code-execution prompt
    ("E.1 one fenced python block per action turn", "agent", ["exactly one ```python code block"]),
    ("E.1 nothing before or after the code block", "agent", ["nothing before or after it"]),
    ("E.1 a final answer is plain text without a code block", "agent", ["plain text with no code block at all"]),
    ("E.1 never print() an answer", "agent", ["never print() an answer meant for the user"]),
    ("E.1 never fabricate execution results", "agent", ["never write <execution_results> yourself"]),
    ("E.1 do not re-fetch attached images with view_image", "agent",
     ["already in front of you", "do not fetch it again with `view_image`"]),
    ("E.1 never claim inability before searching the tool docs", "agent",
     ["never tell the user a task is impossible", "before you have searched"]),
    ("E.1 try two or three phrasings", "agent", ["try two or three other phrasings"]),
    ("E.1 web-search hint", "agent", ["search the web", "web_search_serper"]),
    ("E.1 importable libraries", "agent",
     ["you may import: json, math, datetime, re, collections, itertools, numpy, matplotlib, pil, random, base64, "
      "copy"]),
    ("E.1 blocked operations", "agent",
     ["blocked, and refused before your code runs", "files", "network", "subprocess", "time.sleep",
      "exec/eval/compile"]),
    ("E.1 already logged in everywhere", "agent",
     ["already logged in to every app", "never call a login tool", "never ask the user for credentials"]),
    ("E.1 search tools by app name, never guess names", "agent",
     ["api_docs_search_api_docs", "never guess a function name"]),
    ("E.1 act without asking for confirmation", "agent", ["without asking for confirmation"]),
    ("E.1 look at attached images, never ask for descriptions", "agent",
     ["never ask the user to describe or transcribe an image"]),
    # ---- E.2: the user simulator
    ("E.2 follow the rounds in order, query then instructions", "user", ["round", "query", "instructions",
                                                                          "keep the script's order"]),
    ("E.2 never invent facts the script does not give", "user", ["never make facts up"]),
    ("E.2 deliver images with send_message_with_image in their round", "user",
     ["send_message_with_image", "only in their round and only once"]),
    ("E.2 never describe images", "user", ["never describe, summarise or guess what they show"]),
    ("E.2 allow device setting changes", "user",
     ["change a device setting", "low battery mode", "cellular", "wifi", "location", "let it"]),
    ("E.2 role boundary: never say I did X", "user", ["never say you did something yourself"]),
    ("E.2 role boundary: no tool calls doing the assistant's job", "user",
     ["never use your tools to do the assistant's job"]),
    ("E.2 role boundary: never ask the assistant's questions", "user",
     ["never ask the assistant the questions it should be asking you"]),
    ("E.2 acknowledge briefly and move on", "user", ["acknowledge it in a few words and move on"]),
    ("E.2 unreadable image after a few attempts: next round", "user",
     ["still cannot read or open an image after a few attempts", "move on to the next round"]),
    ("E.2 end with end_conversation when done", "user", ["call the `end_conversation` tool"]),
    ("E.2 no tool syntax in messages", "user", ["never write code, function names, json or any tool syntax"]),
    # ---- E.3: challenge guardrails
    ("E.3 goal change: state the new request plainly", "goal_change", ["state the new request plainly"]),
    ("E.3 goal change: delete what was created for the old goal before pivoting", "goal_change",
     ["before pivoting to the new goal, have the assistant delete"]),
    ("E.3 error correction: give the wrong detail as scripted", "error_correction",
     ["say it exactly as scripted"]),
    ("E.3 error correction: undo the wrong action before moving on", "error_correction",
     ["have it undo that wrong action", "before moving on"]),
    ("E.3 error correction: challenge only values the script marks as wrong", "error_correction",
     ["challenge only the values your script marks as wrong"]),
    # ---- E.3: the agent judge's rubric
    ("E.3 judge: the five criteria", "agent_judge",
     ["task_completion", "instruction_following", "tool_use_validity", "no_side_effects", "information_accuracy"]),
    ("E.3 judge: trust tool results and database, not the agent's claims", "agent_judge",
     ["trusted: tool results", "not trusted: the agent's own statements"]),
    ("E.3 judge: tolerance for paraphrase and 1% numbers", "agent_judge", ["reasonable paraphrase", "1%"]),
    ("E.3 judge: task completion is the primary action and its successful call", "agent_judge",
     ["was the primary action performed, and did its tool call succeed"]),
    ("E.3 judge: partial completion belongs to instruction following", "agent_judge",
     ["a missing item of a multi-item request", "belongs to instruction_following",
      "do not fail task_completion for them as well"]),
    ("E.3 judge: tool use without requiring a specific sequence", "agent_judge",
     ["without requiring a specific sequence"]),
    ("E.3 judge: extra correct information is fine", "agent_judge", ["extra information that is correct",
                                                                      "is fine and never a failure"]),
    ("E.3 judge: information read from an image needs no search call", "agent_judge",
     ["read directly from an attached image needs no search or lookup call"]),
    ("E.3 judge: a placeholder in a required field is not a side effect", "agent_judge",
     ["neither is a placeholder value the agent put in a field a tool requires"]),
    ("E.3 judge: the precondition check", "agent_judge",
     ["precondition check", "the condition does not hold", "acting anyway fails"]),
    # ---- E.4: the user judge's rubric
    ("E.4 judge: the four criteria", "user_judge",
     ["request_fidelity", "conversational_naturalness", "grounded_consistency", "tool_channel_correctness"]),
    ("E.4 judge: only the Query's facts are mandatory", "user_judge",
     ["only the queries' facts are mandatory", "instructions are private guidance"]),
    ("E.4 judge: allowance for a correction the agent pre-empted", "user_judge",
     ["when the agent already pre-empted it"]),
    ("E.4 judge: allowance for a query arriving a few messages late", "user_judge",
     ["arrives a few messages late", "is still delivered"]),
    ("E.4 judge: role-swap rule", "user_judge", ["role swap", "speaks as the assistant"]),
    ("E.4 judge: end_conversation timing is not judged", "user_judge",
     ["when the user called end_conversation is not judged here"]),
    ("E.4 judge: leaked tool syntax fails naturalness", "user_judge", ["leaked tool-call or code syntax"]),
    ("E.4 judge: every scripted image delivered", "user_judge", ["every scripted image was delivered"]),
]


@pytest.mark.parametrize("rule, prompt, phrases", RULES, ids=[r[0] for r in RULES])
def test_paper_rule_is_in_the_rendered_prompt(rule, prompt, phrases):
    text = rendered(prompt)
    missing = [p for p in phrases if flat(p) not in text]
    assert not missing, f"{rule}: not found in the {prompt} prompt: {missing}"


# divergences from the paper's prompts that were removed (each must stay out)
ABSENT = [
    ("E.1 no sentence before the code block", "agent", "a short sentence on what you are doing"),
    ("E.1 no login after a 'not logged in' error", "agent", "take the password from the supervisor app and log in"),
    ("E.3 judge: no 'be conservative'", "agent_judge", "be conservative"),
    ("E.3 judge: partial completion does not fail task completion", "agent_judge", "partial completion (e.g. 2 of 3"),
    ("E.4 judge: end_conversation timing is not part of tool channel correctness", "user_judge",
     "ended with end_conversation at a sensible moment"),
    ("E.4 judge: the Instructions' facts are not mandatory", "user_judge", "with the facts its instructions give it"),
]


@pytest.mark.parametrize("rule, prompt, phrase", ABSENT, ids=[r[0] for r in ABSENT])
def test_divergence_from_the_paper_is_gone(rule, prompt, phrase):
    assert flat(phrase) not in rendered(prompt), rule


def test_the_guardrails_reach_only_their_challenge_type():
    plain = rendered("user")
    assert "before pivoting" not in plain and "challenge only the values" not in plain
    assert "challenge only the values" not in rendered("goal_change")
    assert "before pivoting" not in rendered("error_correction")


def test_the_tool_use_prompt_shares_the_discovery_and_login_rules():
    text = flat(tool_use_prompt(NOW))
    for phrase in ("try two or three other phrasings", "web_search_serper", "already logged in to every app",
                   "do not fetch it again with `view_image`"):
        assert flat(phrase) in text, phrase
