"""Amazon customer questions and answers about products."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.amazon import core
from mmtsb.apps.amazon.core import ANSWERS, APP, QUESTIONS
from mmtsb.apps.amazon.tools_reviews import bought
from mmtsb.apps.common import api_error, existing_row, paged_search, sort_rows
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)
SORTS = ("created_at",)


def _text(value: str | None, field: str) -> str:
    if value is None or not value.strip():
        raise api_error(f"{field} must be at least 1 character long.")
    return value.strip()


def _question(world: World, question_id: int) -> dict[str, Any]:
    return existing_row(world, QUESTIONS, question_id, "Question", "question_id")


def _author_filter(world: World, rows: list[dict[str, Any]], user_email: str | None) -> list[dict[str, Any]]:
    if user_email is None:
        return rows
    accounts.check_email(user_email)
    author = core.user_id_by_email(world, user_email)
    return [r for r in rows if r.get("user_id") == author]


@tool(domain=APP, requires=ONLINE, tables=(QUESTIONS,))
def amazon_show_product_questions(world: World, product_id: int, query: str | None = "",
                                  user_email: str | None = None, page_index: int | None = 0,
                                  page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches customer questions about a product (newest first without a query).

    Args:
        product_id: the product's id.
        query: words of the question.
        user_email: only questions asked by the user with this email.
        page_index: the page to return, from 0.
        page_limit: questions per page, 1 to 20.
        sort_by: '+created_at' or '-created_at'.

    Returns:
        list[{product_id, question_id, question, num_answers, created_at, user: {name, email}}]
    """
    core.product(world, product_id)
    sort_rows([], sort_by, SORTS)
    rows = _author_filter(world, world.select(QUESTIONS, "product_id = ?", (product_id,), order_by="id DESC"),
                          user_email)
    page = paged_search(rows, query, lambda r: (r.get("question"),), page_index, page_limit, sort_by, SORTS,
                        default_sort="-created_at")
    counts = {r["question_id"]: r["n"] for r in world.query(
        'SELECT question_id, COUNT(*) AS n FROM "amazon"."product_question_answers" GROUP BY question_id')}
    users: dict[int, dict[str, Any]] = {}
    return [{"product_id": q["product_id"], "question_id": q["id"], "question": q.get("question"),
             "num_answers": counts.get(q["id"], 0), "created_at": q.get("created_at"),
             "user": core.user_brief(world, q.get("user_id"), users)} for q in page]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUESTIONS,))
def amazon_write_product_question(world: World, product_id: int, question: str) -> dict[str, Any]:
    """Posts a question about a product for other customers to answer.

    Args:
        product_id: the product's id.
        question: the question (at least 1 character).

    Returns:
        {message, question_id}
    """
    uid = core.my_id(world)
    core.product(world, product_id)
    question_id = world.next_id(QUESTIONS)
    world.insert(QUESTIONS, {"id": question_id, "product_id": product_id, "user_id": uid,
                             "question": _text(question, "question"), "created_at": world.clock.now_str()})
    return {"message": "Question posted.", "question_id": question_id}


@tool(domain=APP, requires=ONLINE, tables=(ANSWERS,))
def amazon_show_product_question_answers(world: World, question_id: int, query: str | None = "",
                                         user_email: str | None = None, is_verified: bool | None = None,
                                         page_index: int | None = 0, page_limit: int | None = 5,
                                         sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the answers to a product question (newest first without a query).

    Args:
        question_id: the question's id.
        query: words of the answer.
        user_email: only answers written by the user with this email.
        is_verified: only answers by verified buyers (true) or only others (false).
        page_index: the page to return, from 0.
        page_limit: answers per page, 1 to 20.
        sort_by: '+created_at' or '-created_at'.

    Returns:
        list[{question_answer_id, question_id, is_verified, answer, created_at, user: {name, email}}]
    """
    _question(world, question_id)
    sort_rows([], sort_by, SORTS)
    rows = _author_filter(world, world.select(ANSWERS, "question_id = ?", (question_id,), order_by="id DESC"),
                          user_email)
    if is_verified is not None:
        rows = [r for r in rows if bool(r.get("is_verified")) == is_verified]
    page = paged_search(rows, query, lambda r: (r.get("answer"),), page_index, page_limit, sort_by, SORTS,
                        default_sort="-created_at")
    users: dict[int, dict[str, Any]] = {}
    return [{"question_answer_id": a["id"], "question_id": a["question_id"], "is_verified": bool(a.get("is_verified")),
             "answer": a.get("answer"), "created_at": a.get("created_at"),
             "user": core.user_brief(world, a.get("user_id"), users)} for a in page]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ANSWERS,))
def amazon_write_product_question_answer(world: World, question_id: int, answer: str) -> dict[str, Any]:
    """Posts an answer to a product question (marked verified when you have ordered the product).

    Args:
        question_id: the question's id.
        answer: the answer (at least 1 character).

    Returns:
        {message, question_answer_id}
    """
    uid = core.my_id(world)
    q = _question(world, question_id)
    answer_id = world.next_id(ANSWERS)
    world.insert(ANSWERS, {"id": answer_id, "question_id": question_id, "user_id": uid,
                           "is_verified": bought(world, uid, q["product_id"]), "answer": _text(answer, "answer"),
                           "created_at": world.clock.now_str()})
    return {"message": "Answer posted.", "question_answer_id": answer_id}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUESTIONS,))
def amazon_update_product_question(world: World, question_id: int, question: str | None = None) -> dict[str, str]:
    """Edits one of the user's product questions.

    Args:
        question_id: the question's id.
        question: the new question text (at least 1 character).

    Returns:
        {message}
    """
    row = core.own_row(world, QUESTIONS, question_id, "Question", "question_id")
    if question is None:
        raise api_error("Nothing to update: give the new question text.")
    world.update(QUESTIONS, row["id"], {"question": _text(question, "question")})
    return {"message": "Question updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(QUESTIONS,))
def amazon_delete_product_question(world: World, question_id: int) -> dict[str, str]:
    """Deletes one of the user's product questions together with its answers.

    Args:
        question_id: the question's id.

    Returns:
        {message}
    """
    row = core.own_row(world, QUESTIONS, question_id, "Question", "question_id")
    for a in world.select(ANSWERS, "question_id = ?", (row["id"],)):
        world.delete(ANSWERS, a["id"])
    world.delete(QUESTIONS, row["id"])
    return {"message": "Question deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ANSWERS,))
def amazon_update_product_question_answer(world: World, question_answer_id: int,
                                          answer: str | None = None) -> dict[str, str]:
    """Edits one of the user's answers to a product question.

    Args:
        question_answer_id: the answer's id.
        answer: the new answer text (at least 1 character).

    Returns:
        {message}
    """
    row = core.own_row(world, ANSWERS, question_answer_id, "Answer", "question_answer_id")
    if answer is None:
        raise api_error("Nothing to update: give the new answer text.")
    world.update(ANSWERS, row["id"], {"answer": _text(answer, "answer")})
    return {"message": "Answer updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ANSWERS,))
def amazon_delete_product_question_answer(world: World, question_answer_id: int) -> dict[str, str]:
    """Deletes one of the user's answers to a product question.

    Args:
        question_answer_id: the answer's id.

    Returns:
        {message}
    """
    row = core.own_row(world, ANSWERS, question_answer_id, "Answer", "question_answer_id")
    world.delete(ANSWERS, row["id"])
    return {"message": "Answer deleted."}
