"""Amazon product review tools (a product's rating is the average of its reviews, its seller's the average of
their rated products, as in AppWorld)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.amazon import core
from mmtsb.apps.amazon.core import APP, PRODUCTS, REVIEWS, SELLERS
from mmtsb.apps.common import api_error, paged_search, sort_rows
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)
REVIEW_SORTS = ("rating", "created_at")


def bought(world: World, user_id: int, product_id: int) -> bool:
    """Whether the user ordered the product (what makes a review or answer 'verified')."""
    return bool(world.query('SELECT 1 FROM "amazon"."order_items" i JOIN "amazon"."orders" o ON o.id = i.order_id '
                            "WHERE o.user_id = ? AND i.product_id = ? LIMIT 1", (user_id, product_id)))


def refresh_rating(world: World, product_id: int) -> None:
    """As AppWorld after a review changes: the product's rating becomes the average of its reviews (0 with none),
    and its seller's rating the average of the seller's rated products, copied to each of their products."""
    row = world.query('SELECT AVG(rating) AS avg FROM "amazon"."product_reviews" WHERE product_id = ? AND rating > 0',
                      (product_id,))
    rating = round(float(row[0]["avg"]), 1) if row and row[0]["avg"] is not None else 0.0
    product = world.get(PRODUCTS, product_id)
    world.update(PRODUCTS, product_id, {"rating": rating})
    seller = world.get(SELLERS, product.get("seller_id")) if product else None
    if seller is None:
        return
    rated = [rating if p["id"] == product_id else float(p.get("rating") or 0)
             for p in world.select(PRODUCTS, "seller_id = ?", (seller["id"],))]
    rated = [r for r in rated if r > 0]
    seller_rating = round(sum(rated) / len(rated), 1) if rated else 0.0
    if seller_rating != float(seller.get("rating") or 0):
        world.update(SELLERS, seller["id"], {"rating": seller_rating})
        for p in world.select(PRODUCTS, "seller_id = ?", (seller["id"],)):
            world.update(PRODUCTS, p["id"], {"seller_rating": seller_rating})
    world.update(PRODUCTS, product_id, {"seller_rating": seller_rating})


def _view(world: World, r: dict[str, Any], users: dict[int, dict[str, Any]]) -> dict[str, Any]:
    return {"review_id": r["id"], "product_id": r["product_id"], "is_verified": bool(r.get("is_verified")),
            "rating": r.get("rating"), "title": r.get("title") or "", "text": r.get("text") or "",
            "created_at": r.get("created_at"), "user": core.user_brief(world, r.get("user_id"), users)}


def _check_rating(value: int | None, field: str) -> int:
    if value is None or not 1 <= value <= 5:
        raise api_error(f"{field} must be between 1 and 5; got {value}.")
    return value


@tool(domain=APP, requires=ONLINE, tables=(REVIEWS,))
def amazon_show_product_reviews(world: World, product_id: int, query: str | None = "", user_email: str | None = None,
                                min_rating: int | None = 1, max_rating: int | None = 5,
                                is_verified: bool | None = None, page_index: int | None = 0,
                                page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches a product's reviews, with rating, author and verified-purchase filters.

    With a query, matching reviews are ranked by relevance, paginated, then each page is sorted by sort_by if
    given; without one, reviews are sorted by sort_by (default '-created_at', newest first) and paginated.

    Args:
        product_id: the product's id.
        query: words of the review title or text.
        user_email: only reviews written by the user with this email.
        min_rating: lowest star rating, 1..5.
        max_rating: highest star rating, 1..5.
        is_verified: only verified-purchase reviews (true) or only unverified ones (false).
        page_index: the page to return, from 0.
        page_limit: reviews per page, 1 to 20.
        sort_by: '+' or '-' followed by rating or created_at.

    Returns:
        list[{review_id, product_id, is_verified, rating, title, text, created_at, user: {name, email}}]
    """
    core.product(world, product_id)
    low = _check_rating(1 if min_rating is None else min_rating, "min_rating")
    high = _check_rating(5 if max_rating is None else max_rating, "max_rating")
    sort_rows([], sort_by, REVIEW_SORTS)
    rows = world.select(REVIEWS, "product_id = ? AND rating BETWEEN ? AND ?", (product_id, low, high),
                        order_by="id DESC")
    if user_email is not None:
        accounts.check_email(user_email)
        author = core.user_id_by_email(world, user_email)
        rows = [r for r in rows if r.get("user_id") == author]
    if is_verified is not None:
        rows = [r for r in rows if bool(r.get("is_verified")) == is_verified]
    page = paged_search(rows, query, lambda r: (r.get("title"), r.get("text")), page_index, page_limit, sort_by,
                        REVIEW_SORTS, default_sort="-created_at")
    users: dict[int, dict[str, Any]] = {}
    return [_view(world, r, users) for r in page]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(REVIEWS,))
def amazon_write_product_review(world: World, product_id: int, rating: int, title: str | None = "",
                                text: str | None = "") -> dict[str, Any]:
    """Posts a star-rated review of a product (one review per product; edit it with amazon_update_product_review).

    The review is marked verified when you have ordered the product. The product's rating becomes the average
    of its reviews.

    Args:
        product_id: the product's id.
        rating: stars, 1..5.
        title: a short title.
        text: the review text.

    Returns:
        {message, product_review_id}
    """
    uid = core.my_id(world)
    core.product(world, product_id)
    _check_rating(rating, "rating")
    mine = world.select(REVIEWS, "product_id = ? AND user_id = ?", (product_id, uid))
    if mine:
        raise api_error(f"You already reviewed product {product_id} (review_id={mine[0]['id']}); update that review "
                        "instead.")
    review_id = world.next_id(REVIEWS)
    world.insert(REVIEWS, {"id": review_id, "product_id": product_id, "user_id": uid,
                           "is_verified": bought(world, uid, product_id), "rating": rating, "title": title or "",
                           "text": text or "", "created_at": world.clock.now_str()})
    refresh_rating(world, product_id)
    return {"message": "Review posted.", "product_review_id": review_id}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(REVIEWS,))
def amazon_update_product_review(world: World, review_id: int, rating: int | None = None, title: str | None = None,
                                 text: str | None = None) -> dict[str, str]:
    """Edits one of the user's product reviews; omitted fields stay as they are.

    Args:
        review_id: the review's id.
        rating: new stars, 1..5.
        title: a new title.
        text: a new text.

    Returns:
        {message}
    """
    review = core.own_row(world, REVIEWS, review_id, "Review", "review_id")
    fields: dict[str, Any] = {k: v for k, v in (("title", title), ("text", text)) if v is not None}
    if rating is not None:
        fields["rating"] = _check_rating(rating, "rating")
    if not fields:
        raise api_error("Nothing to update: give rating, title and/or text.")
    world.update(REVIEWS, review_id, fields)
    refresh_rating(world, review["product_id"])
    return {"message": "Review updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(REVIEWS,))
def amazon_delete_product_review(world: World, review_id: int) -> dict[str, str]:
    """Deletes one of the user's product reviews.

    Args:
        review_id: the review's id.

    Returns:
        {message}
    """
    review = core.own_row(world, REVIEWS, review_id, "Review", "review_id")
    world.delete(REVIEWS, review_id)
    refresh_rating(world, review["product_id"])
    return {"message": "Review deleted."}
