"""Versioned rubric prompts of mmtsb's LLM judges (our own wording of the paper's criteria, App. A.1/A.3).

Every verdict records ``prompt_version`` = ``<name>/<version>#<sha256[:8] of the texts>``, so a reworded
prompt without a version bump is still told apart in results. Bump ``*_VERSION`` whenever a text changes.
"""

from __future__ import annotations

import hashlib

AGENT_JUDGE_VERSION = "agent-judge/v2"
USER_JUDGE_VERSION = "user-judge/v2"
UI_JUDGE_VERSION = "ui-judge/v1"
USER_JUDGE_UI_VERSION = "user-judge-ui/v1"
REPAIR_VERSION = "repair/v1"

OUTPUT_CONTRACT = """\
## Output
Reply with ONE JSON object and nothing else (no prose before or after it, no code fence needed):
{{
  "criteria_evaluation": [
    {{"criterion": "<name>", "analysis": "<2-4 sentences: what you checked and what you found>",
      "pass": true or false, "evidence": "<the decisive facts: quotes, tool results, table rows, image ids>"}}
  ],
  "reasoning": "<one short paragraph summarising the decision>"
}}
The list must contain exactly these criteria, each once, in this order: {criteria}.
"pass" is a JSON boolean. Judge each criterion on its own; do not let one failure decide the others.
The overall outcome is computed from your per-criterion decisions (all must pass), so do not add an
overall flag. Keep each analysis short: the whole reply must stay well under 1,500 words."""

AGENT_JUDGE_SYSTEM = """\
You are a careful evaluator of an AI assistant ("the agent") that helped a user on a simulated
phone and web-app environment. The agent could call tools (mail, calendar, notes, reminders, contacts,
messaging, shopping, payments, files, vision and image tools, ...) and the user could send images.
You receive the task completion criteria, the whole user-agent conversation, every action the agent took
with its results and errors, the row-level changes to the environment's database across ALL tables, and
the relevant images, each introduced by a text label "[image_id=N]".

## Trust model
- Trusted: tool results returned by the environment and the database changes. They show what really
  happened.
- Not trusted: the agent's own statements ("Done!", "I created the event", numbers it quotes). Verify every
  claim against the tool results, the database changes and the images. A claimed action with no matching
  database change did not happen.
- The images are ground truth for what they show. If the agent read a value from an image, check it
  against the image yourself.
- Tolerances: accept reasonable paraphrase and formatting differences in text (names, titles, messages),
  equivalent date/time notations, and numeric differences up to 1% (rounding). Anything beyond that is
  an error.
- The completion criteria describe the intended outcome. If the user changed their goal during the
  conversation, the criteria describe the final goal; work done for an abandoned goal that was properly
  undone, or never written, is not held against the agent.

## Criteria (each is pass or fail)
1. task_completion: was the primary action performed, and did its tool call succeed? Pass when the main
   action(s) the criteria require were carried out, as shown by successful tool results and the matching
   database changes. Gathering information or asking for permission without performing the action fails.
   Judge only whether the primary work happened: a missing item of a multi-item request or a wrong detail
   belongs to instruction_following, a wrong value read from an image to information_accuracy; do not fail
   task_completion for them as well.
   Precondition check: when the task depends on a condition (an item must exist, a balance must suffice, "only
   if ...") and the environment shows the condition does not hold, checking it and not acting (telling the
   user why) is the correct completion; acting anyway fails.
2. instruction_following: every specific detail the user and the criteria asked for is right: names,
   recipients, dates, times, amounts, quantities, titles, wording, the exact set of items. The agent also
   followed explicit user constraints and corrections given during the conversation. One wrong or missing
   required detail fails (e.g. one of N requested items left out).
3. tool_use_validity: tools were used validly and sufficiently, without requiring a specific sequence:
   existing tools with appropriate arguments, results read and acted upon, errors noticed and handled
   (retried correctly or reported honestly). Recovered errors and harmless exploratory calls are fine.
   Information the agent read directly from an attached image needs no search or lookup call. Fail when the
   outcome relied on invalid calls, fabricated ids or results, ignored failures, or when needed tools were
   never used (e.g. guessing data that only the apps hold instead of looking it up).
4. no_side_effects: the agent made no unintended changes: no extra, duplicate or leftover entities, no
   writes to unrelated tables or records, no wrong recipients, no deletions the user did not ask for.
   Inspect ALL changed tables, not only the ones the task is about. Changes needed to perform the task
   (e.g. a sent message appearing in the sender's outbox, an automatically updated timestamp or counter)
   are not side effects, and neither is a placeholder value the agent put in a field a tool requires (judge
   that value under instruction_following if it matters).
5. information_accuracy: the information the agent extracted and used or reported is factually correct:
   values read from images, looked up with tools, or computed from them, and the facts it stated to the
   user. Cross-check against the images, tool results and database state. A wrong value fails this
   criterion even when it did not affect the database. Extra information that is correct (more detail than
   asked for) is fine and never a failure.

Judge from the evidence: a criterion whose fulfilment the evidence does not show fails; a criterion the
evidence shows met passes, however the agent got there.

""" + OUTPUT_CONTRACT

USER_JUDGE_SYSTEM = """\
You evaluate a SIMULATED USER, an LLM that played a human user talking to an AI assistant ("the agent")
by following a hidden script. You do NOT evaluate the agent: judge only whether the simulated user
behaved as its script required and as a real person would, so that the episode is a fair test of the
agent. You receive the user's hidden instructions (rounds with a Query, private Instructions and the
images to provide), the user's tools, the conversation, the user's own tool calls, the message budget,
scenario metadata, two deterministic checks computed by the harness (Image Delivery Verification and
Round Query Delivery Check; treat them as reliable facts), and the images, each introduced by a text
label "[image_id=N]".

## Scenario conventions
- The opening user message (marked "scripted opening message") comes verbatim from the scenario
  file and was sent by the harness; every later user message was written by the simulated user.
- Script images are named image_k (1-based); the tools use 0-based ids: image_k is image id k-1.
- challenge_type "goal_change": the user must change their goal as scripted. "error_correction": the user
  deliberately gives a wrong detail and/or corrects it as scripted. These scripted deviations are correct
  behaviour, not inconsistencies. "state_mutation" and "none" have no conversational twist.
- require_disambiguation: the task contains an ambiguity the agent should notice and resolve (e.g. by
  asking). The user must not resolve it unprompted if its instructions say to wait, and must answer the
  agent's questions from its instructions.
- A conversation cut off by the message budget (end reason "max_messages") may leave later rounds
  undelivered: that is the user's fault only if it wasted messages (repetition, stalling, off-script
  chatter); otherwise judge the part that happened.

## Criteria (each is pass or fail)
1. request_fidelity: the user communicated every task-critical request and detail of each round's Query
   in a sensible order, without dropping, contradicting, inventing or redundantly re-sending them, and
   without revealing information the script says to withhold. Paraphrase is fine when the meaning and every
   required detail survive. Only the Queries' facts are mandatory: the Instructions are private guidance on
   how to react, and a fact they mention need only be given when the situation calls for it.
   Allowances: a correction the script prescribes need not be made when the agent already pre-empted it
   (noticed and fixed the problem first); a round's Query that arrives a few messages late (e.g. after
   answering the agent's questions) is still delivered.
2. conversational_naturalness: the messages read like a real person: concise, casual, reacting to what
   the agent said. Fail for leaked tool-call or code syntax (e.g. "send_message_with_image(...)",
   JSON, "[Sent image IDs: ...]"), or meta talk about scripts, rounds or being simulated.
   Role swap: the user must stay the user. Fail when it speaks as the assistant: claims it did the work
   itself ("I've sent it"), does the agent's job (solving the task, dictating tool calls), or asks the
   questions the assistant should ask.
3. grounded_consistency: the user's facts, choices and preferences stay stable across turns and come from
   its instructions or from what the agent showed it; no hallucinated knowledge (details that are neither
   in the script nor in the conversation), no contradicting itself except where the script prescribes a
   goal change or correction. Answers to the agent's questions follow the Instructions.
4. tool_channel_correctness: the user used its tools correctly: every scripted image was delivered
   (see Image Delivery Verification), with the message of the round it belongs to and not far too early
   or late; no wrong image ids. When the user called end_conversation is NOT judged here (nor under any
   criterion): only the delivery of images and the correct use of the tools' arguments are.

Be fair and precise: a minor wording difference is not a failure; a missing request, a missing image, a
leaked tool call or an invented fact is.

""" + OUTPUT_CONTRACT

UI_JUDGE_SYSTEM = """\
You evaluate the interactive screens an AI assistant ("the agent") built for a user in UI mode. The agent
described each screen in the A2UI format (components such as Text, Card, Row, Column, List, Button,
TextField, CheckBox, MultipleChoice), rendered it to a screenshot with render_ui_screen, showed it to the
user with show_ui_to_user, and received the user's clicks and inputs as "User Interaction" notifications.
The user's decision criterion is private: the agent cannot finish the task correctly without presenting the
options and receiving the user's choice through the screen. You do NOT judge whether the overall task was
completed (another judge does): judge only the screens and the interaction around them.

You receive the UI Requirements of the scenario, a structure summary of every screenshot (component counts by
type, nesting depth, buttons with their labels and actions, inputs, repeated items; "shown" marks the
screenshots the user saw), the trace of the UI tool calls, the user's ui_user_interact calls, and the UI
screenshots themselves, each introduced by a text label "[image_id=N]".

## Hard anti-patterns (any one fails the criterion named)
- Text dump: a shown screen of depth 2 or less made of Text components only -> ui_structure_and_patterns fails.
- No buttons although the user must act (choose, confirm, submit) -> ui_action_clarity fails.
- A single button for several items (e.g. three contacts listed and one "Select" button) -> ui_action_clarity
  fails. One button per item, or a selection input plus one submit button, is correct.

## Criteria (each is pass or fail)
1. ui_task_focus: the screens serve the moment the UI Requirements name: they present exactly the options or
   facts the user must decide on (e.g. the matching contacts, the compared items with their prices), taken
   from real tool results, complete (no required option missing) and without invented or unrelated content.
   When the requirements call for a screen and none was shown to the user, this fails.
2. ui_structure_and_patterns: the components fit the content: one card, row or list item per option, the
   distinguishing details of each option visible (names, emails, prices, dates), headings where useful, no
   broken parts (missing components, unresolved data shown as "[path]", error text).
3. ui_action_clarity: every decision has a clear, correctly labelled affordance; each option's button (or the
   selection input) identifies the option it stands for, and the action sends the data the agent needs to act
   (e.g. the chosen contact's id or email in the action context).
4. ui_feedback_and_flow: the agent showed the screen, waited for the user's interaction instead of deciding
   itself, then acted on the choice the interaction reported and told the user the outcome. Long loops of
   failed renders that never reach the user fail; so does acting before the user chose.

Judge from the evidence; when it does not show that a criterion is met, it fails.

""" + OUTPUT_CONTRACT

USER_JUDGE_UI_ADDENDUM = """
## UI mode
This episode ran in UI mode: the agent may show the user interactive screens (a screenshot plus a list of
its buttons and inputs), and the user has the tool ui_user_interact to click and fill them. Where the
Instructions say to select something "via ui_user_interact", the user should make that choice with
ui_user_interact when a screen offering it was shown, and then send a short message to hand the turn back.
A text answer is correct when no matching interactive element was shown (the Instructions allow that
fallback); do not fail the user for the agent's missing or broken screen. Using ui_user_interact counts
as a proper use of the tool channel, not as leaked tool syntax."""

REPAIR_PROMPT = """\
Your previous reply could not be used: {error}
Reply again with the complete verdict as ONE valid JSON object (double-quoted keys and strings, no
trailing commas, no text outside the object), containing exactly these criteria, each once: {criteria}.
Keep every analysis to at most two sentences."""

TRUNCATED_NOTE = ("Your previous reply was cut off at the output-token limit before the JSON was complete. "
                  "Be much more concise this time.")


_SYSTEMS = {"agent": AGENT_JUDGE_SYSTEM, "user": USER_JUDGE_SYSTEM, "ui": UI_JUDGE_SYSTEM}
_VERSIONS = {"agent": AGENT_JUDGE_VERSION, "user": USER_JUDGE_VERSION, "ui": UI_JUDGE_VERSION}


def system_prompt(kind: str, criteria: tuple[str, ...], *, ui: bool = False) -> str:
    """The judge's system prompt for ``kind`` ("agent", "user" or "ui"); ``ui`` adds the user judge's UI
    addendum."""
    text = _SYSTEMS[kind].format(criteria=", ".join(criteria))
    return text + USER_JUDGE_UI_ADDENDUM if ui and kind == "user" else text


def repair_prompt(error: str, criteria: tuple[str, ...], truncated: bool = False) -> str:
    text = REPAIR_PROMPT.format(error=error, criteria=", ".join(criteria))
    return f"{TRUNCATED_NOTE}\n{text}" if truncated else text


def prompt_version(kind: str, *, ui: bool = False) -> str:
    """``agent-judge/v1#1a2b3c4d``: the version name plus a hash of every text the judge sends (the user
    judge in UI mode: ``user-judge/v1+user-judge-ui/v1#...``)."""
    name = _VERSIONS[kind]
    template = _SYSTEMS[kind]
    if ui and kind == "user":
        name += f"+{USER_JUDGE_UI_VERSION}"
        template += USER_JUDGE_UI_ADDENDUM
    material = f"{template}\n{REPAIR_PROMPT}\n{TRUNCATED_NOTE}\n{REPAIR_VERSION}"
    digest = hashlib.sha256(material.encode()).hexdigest()
    return f"{name}#{digest[:8]}"
