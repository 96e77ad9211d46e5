"""Amazon: product reviews (ratings follow them), questions and answers."""

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok


def _buy(session, product_id: int) -> None:
    call_ok(session, "amazon_add_product_to_cart", product_id=product_id)
    call_ok(session, "amazon_place_order", payment_card_id=MAIN_ID, address_id=MAIN_ID)


def _reviewed_product(world) -> dict:
    return world.query('SELECT product_id, COUNT(*) AS n FROM "amazon"."product_reviews" GROUP BY product_id '
                       "HAVING n >= 3 ORDER BY product_id LIMIT 1")[0]


def test_show_reviews_filters_sorts_and_searches(session, world):
    pid = _reviewed_product(world)["product_id"]
    reviews = call_ok(session, "amazon_show_product_reviews", product_id=pid, page_limit=20)
    stamps = [r["created_at"] for r in reviews]
    assert stamps == sorted(stamps, reverse=True) and {"name", "email"} == set(reviews[0]["user"])
    by_rating = call_ok(session, "amazon_show_product_reviews", product_id=pid, sort_by="+rating", page_limit=20)
    assert [r["rating"] for r in by_rating] == sorted(r["rating"] for r in reviews)
    top = max(r["rating"] for r in reviews)
    assert all(r["rating"] == top for r in call_ok(session, "amazon_show_product_reviews", product_id=pid,
                                                   min_rating=top))
    author = reviews[0]["user"]["email"]
    assert all(r["user"]["email"] == author for r in call_ok(session, "amazon_show_product_reviews", product_id=pid,
                                                              user_email=author))
    verified = call_ok(session, "amazon_show_product_reviews", product_id=pid, is_verified=True, page_limit=20)
    assert all(r["is_verified"] for r in verified)
    word = reviews[0]["title"].split()[0].lower()
    found = call_ok(session, "amazon_show_product_reviews", product_id=pid, query=word, page_limit=20)
    assert reviews[0] in found and all(word in (r["title"] + " " + r["text"]).lower() for r in found)
    assert "min_rating" in call_err(session, "amazon_show_product_reviews", product_id=pid, min_rating=0).message
    assert "sort_by" in call_err(session, "amazon_show_product_reviews", product_id=pid, sort_by="-title").message
    assert "No Amazon user" in call_err(session, "amazon_show_product_reviews", product_id=pid,
                                        user_email="ghost@nowhere.com").message
    assert "does not exist" in call_err(session, "amazon_show_product_reviews", product_id=5000).message


def test_write_update_delete_review_moves_the_rating(session, world):
    pid = 6
    before = [r["rating"] for r in world.select("amazon.product_reviews", "product_id = ?", (pid,))]
    _buy(session, pid)
    review_id = call_ok(session, "amazon_write_product_review", product_id=pid, rating=1, title="Meh",
                        text="Too tight")["product_review_id"]
    row = world.get("amazon.product_reviews", review_id)
    assert (row["user_id"], row["is_verified"], row["rating"]) == (MAIN_ID, True, 1)
    assert world.get("amazon.products", pid)["rating"] == round((sum(before) + 1) / (len(before) + 1), 1)
    assert "already reviewed" in call_err(session, "amazon_write_product_review", product_id=pid, rating=5).message
    assert "rating must be between 1 and 5" in call_err(session, "amazon_write_product_review", product_id=7,
                                                        rating=6).message
    mine = call_ok(session, "amazon_show_product_reviews", product_id=pid, user_email=MAIN_EMAIL)
    assert [r["review_id"] for r in mine] == [review_id]
    call_ok(session, "amazon_update_product_review", review_id=review_id, rating=5)
    assert world.get("amazon.product_reviews", review_id)["title"] == "Meh"
    assert world.get("amazon.products", pid)["rating"] == round((sum(before) + 5) / (len(before) + 1), 1)
    assert "Nothing to update" in call_err(session, "amazon_update_product_review", review_id=review_id).message
    someone_elses = world.select("amazon.product_reviews", "user_id != ?", (MAIN_ID,))[0]["id"]
    assert "does not exist in your account" in call_err(session, "amazon_update_product_review",
                                                        review_id=someone_elses, rating=2).message
    assert "does not exist in your account" in call_err(session, "amazon_delete_product_review",
                                                        review_id=someone_elses).message
    call_ok(session, "amazon_delete_product_review", review_id=review_id)
    assert world.get("amazon.products", pid)["rating"] == round(sum(before) / len(before), 1)
    unverified = call_ok(session, "amazon_write_product_review", product_id=7, rating=4)["product_review_id"]
    assert world.get("amazon.product_reviews", unverified)["is_verified"] is False


def test_questions_and_answers(session, world):
    pid = 9
    qid = call_ok(session, "amazon_write_product_question", product_id=pid,
                  question="Does it fit the newest phone model?")["question_id"]
    assert "question must be" in call_err(session, "amazon_write_product_question", product_id=pid,
                                          question="  ").message
    assert "does not exist" in call_err(session, "amazon_write_product_question", product_id=4040,
                                        question="Hi?").message
    listed = call_ok(session, "amazon_show_product_questions", product_id=pid, query="phone model")
    assert listed[0]["question_id"] == qid and listed[0]["num_answers"] == 0
    assert listed[0]["user"]["email"] == MAIN_EMAIL
    assert "sort_by" in call_err(session, "amazon_show_product_questions", product_id=pid, sort_by="+votes").message
    call_ok(session, "amazon_update_product_question", question_id=qid, question="Does it fit a small phone?")
    assert world.get("amazon.product_questions", qid)["question"] == "Does it fit a small phone?"
    assert "Nothing to update" in call_err(session, "amazon_update_product_question", question_id=qid).message
    answer_id = call_ok(session, "amazon_write_product_question_answer", question_id=qid,
                        answer="Yes, it fits well.")["question_answer_id"]
    assert "answer must be" in call_err(session, "amazon_write_product_question_answer", question_id=qid,
                                        answer="").message
    assert "does not exist" in call_err(session, "amazon_write_product_question_answer", question_id=99999,
                                        answer="ok").message
    answers = call_ok(session, "amazon_show_product_question_answers", question_id=qid)
    assert [(a["question_answer_id"], a["is_verified"]) for a in answers] == [(answer_id, False)]
    assert call_ok(session, "amazon_show_product_question_answers", question_id=qid, is_verified=True) == []
    assert "does not exist" in call_err(session, "amazon_show_product_question_answers", question_id=99999).message
    assert call_ok(session, "amazon_show_product_questions", product_id=pid, query="small phone")[0]["num_answers"] == 1
    call_ok(session, "amazon_update_product_question_answer", question_answer_id=answer_id, answer="Yes.")
    assert world.get("amazon.product_question_answers", answer_id)["answer"] == "Yes."
    assert "Nothing to update" in call_err(session, "amazon_update_product_question_answer",
                                           question_answer_id=answer_id).message
    call_ok(session, "amazon_delete_product_question_answer", question_answer_id=answer_id)
    assert "does not exist in your account" in call_err(session, "amazon_delete_product_question_answer",
                                                        question_answer_id=answer_id).message
    call_ok(session, "amazon_write_product_question_answer", question_id=qid, answer="Another answer")
    call_ok(session, "amazon_delete_product_question", question_id=qid)
    assert world.select("amazon.product_question_answers", "question_id = ?", (qid,)) == []
    assert "does not exist in your account" in call_err(session, "amazon_delete_product_question",
                                                        question_id=qid).message


def test_existing_questions_from_the_catalogue(session, world):
    question = world.query('SELECT q.id, q.product_id FROM "amazon"."product_questions" q WHERE EXISTS '
                           '(SELECT 1 FROM "amazon"."product_question_answers" a WHERE a.question_id = q.id) '
                           "ORDER BY q.id LIMIT 1")[0]
    listed = call_ok(session, "amazon_show_product_questions", product_id=question["product_id"], page_limit=20)
    assert question["id"] in [q["question_id"] for q in listed]
    answers = call_ok(session, "amazon_show_product_question_answers", question_id=question["id"])
    assert answers and all(a["question_id"] == question["id"] for a in answers)
    author = answers[0]["user"]["email"]
    assert call_ok(session, "amazon_show_product_question_answers", question_id=question["id"],
                   user_email=author)[0]["user"]["email"] == author
    assert "does not exist in your account" in call_err(session, "amazon_update_product_question",
                                                        question_id=question["id"], question="Mine now?").message
    assert "does not exist in your account" in call_err(session, "amazon_update_product_question_answer",
                                                        question_answer_id=answers[0]["question_answer_id"],
                                                        answer="hijack").message


def test_ratings_follow_reviews_up_to_the_seller_as_in_appworld(session, world):
    """A product's rating is the average of its reviews (0 once none is left) and its seller's rating the average
    of the seller's rated products, copied to each of them."""
    pid = world.rows("amazon.products")[0]["id"]
    for review in world.select("amazon.product_reviews", "product_id = ?", (pid,)):  # a product nobody reviewed yet
        world.delete("amazon.product_reviews", review["id"])
    seller = world.get("amazon.products", pid)["seller_id"]
    rid = call_ok(session, "amazon_write_product_review", product_id=pid, rating=2)["product_review_id"]
    assert world.get("amazon.products", pid)["rating"] == 2.0
    rated = [p["rating"] for p in world.select("amazon.products", "seller_id = ?", (seller,)) if p["rating"] > 0]
    expected = round(sum(rated) / len(rated), 1)
    assert world.get("amazon.sellers", seller)["rating"] == expected
    assert {p["seller_rating"] for p in world.select("amazon.products", "seller_id = ?", (seller,))} == {expected}
    call_ok(session, "amazon_delete_product_review", review_id=rid)
    assert world.get("amazon.products", pid)["rating"] == 0.0


def test_a_wish_list_asks_no_more_than_the_stock(session, world):
    """AppWorld refuses wish-list quantities above the units in stock."""
    product = world.select("amazon.products", "inventory_quantity BETWEEN 1 AND 5")[0]
    stock = product["inventory_quantity"]
    assert "in stock" in call_err(session, "amazon_add_product_to_wish_list", product_id=product["id"],
                                  quantity=stock + 1).message
    call_ok(session, "amazon_add_product_to_wish_list", product_id=product["id"], quantity=1)
    assert "in stock" in call_err(session, "amazon_update_product_quantity_in_wish_list", product_id=product["id"],
                                  quantity=stock + 1).message
