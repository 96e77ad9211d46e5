"""Amazon behaviour shared by the tools: the acting user, product views, relevance ranking, variations and
the money rules.

Money rules (one place, so carts, orders, refunds and receipts always agree):

* ``base_cost`` = sum of unit price x quantity; ``gift_wrap_fee`` = GIFT_WRAP_FEE per wrapped unit;
* ``discount`` = the promo code's percentage of ``base_cost``, capped at its ``max_discount_amount``, when
  the code is still valid and ``base_cost`` reaches its ``min_order_amount`` (else 0);
* ``tax`` = TAX_RATE x (``base_cost`` + ``gift_wrap_fee`` - ``discount``);
* ``delivery_fee`` = DELIVERY_FEE per order, waived for Prime members;
* ``total_cost`` = ``base_cost`` + ``gift_wrap_fee`` - ``discount`` + ``tax`` + ``delivery_fee``.

Amounts are computed with decimals and rounded half-up to cents, so they add up exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from mmtsb.apps.common import api_error, current_user, existing_row, tokens
from mmtsb.world.world import World

APP = "amazon"
USERS = "amazon.users"
SELLERS = "amazon.sellers"
PRODUCTS = "amazon.products"
REVIEWS = "amazon.product_reviews"
QUESTIONS = "amazon.product_questions"
ANSWERS = "amazon.product_question_answers"
CARTS = "amazon.carts"
CART = "amazon.cart_entries"
WISH = "amazon.wish_list_entries"
PROMOS = "amazon.promo_codes"
ADDRESSES = "amazon.addresses"
CARDS = "amazon.payment_cards"
ORDERS = "amazon.orders"
ORDER_ITEMS = "amazon.order_items"
DELIVERERS = "amazon.deliverers"
RETURNS = "amazon.returns"
PRIME = "amazon.prime_subscriptions"
HISTORY = "amazon.browsing_history"

TAX_RATE = Decimal("0.10")
DELIVERY_FEE = Decimal("4.99")
GIFT_WRAP_FEE = Decimal("2.99")
PRIME_PLANS: dict[str, int] = {"monthly": 15, "yearly": 139}
SIZES = ("extra-small", "small", "medium", "large", "extra-large")
CENT = Decimal("0.01")


# ---------------------------------------------------------------------------------------------- money
def dec(value: Any) -> Decimal:
    return Decimal(str(value or 0))


def cents(value: Decimal) -> float:
    """A decimal amount rounded half-up to cents, as a float for results and rows."""
    return float(value.quantize(CENT, rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Costs:
    """The cost breakdown of a cart or an order (see the module docstring)."""

    base_cost: Decimal
    gift_wrap_fee: Decimal
    discount: Decimal
    delivery_fee: Decimal
    tax: Decimal

    @property
    def total_cost(self) -> Decimal:
        return self.base_cost + self.gift_wrap_fee - self.discount + self.tax + self.delivery_fee

    def as_dict(self) -> dict[str, float]:
        return {"base_cost": cents(self.base_cost), "gift_wrap_fee": cents(self.gift_wrap_fee),
                "discount": cents(self.discount), "delivery_fee": cents(self.delivery_fee), "tax": cents(self.tax),
                "total_cost": cents(self.total_cost)}


def compute_costs(lines: Iterable[tuple[Any, int, int]], promo: dict[str, Any] | None, prime: bool,
                  now: datetime) -> Costs:
    """Costs of ``(unit price, quantity, gift-wrapped units)`` lines with an optional promo code row."""
    lines = list(lines)
    base = sum((dec(price) * qty for price, qty, _ in lines), Decimal(0)).quantize(CENT, ROUND_HALF_UP)
    wrap = (GIFT_WRAP_FEE * sum(w for _, _, w in lines)).quantize(CENT, ROUND_HALF_UP)
    discount = Decimal(0)
    if promo is not None and promo_problem(promo, base, now) is None:
        discount = (base * dec(promo.get("discount_percentage")) / 100).quantize(CENT, ROUND_HALF_UP)
        cap = promo.get("max_discount_amount")
        if cap is not None:
            discount = min(discount, dec(cap))
    delivery = Decimal(0) if prime or not lines else DELIVERY_FEE
    tax = ((base + wrap - discount) * TAX_RATE).quantize(CENT, ROUND_HALF_UP)
    return Costs(base, wrap, discount, delivery, tax)


def promo_expired(promo: dict[str, Any], now: datetime) -> str | None:
    """The reason a promo code can no longer be used (None while it is valid)."""
    until = promo.get("valid_until")
    if until and parse_stamp(until) < now.replace(tzinfo=None):
        return f"Promo code {promo['code']!r} expired on {str(until)[:10]}."
    return None


def promo_problem(promo: dict[str, Any], base_cost: Decimal, now: datetime) -> str | None:
    """Why a promo code does not apply to an order of ``base_cost`` right now (None when it does)."""
    expired = promo_expired(promo, now)
    if expired:
        return expired
    minimum = promo.get("min_order_amount")
    if minimum and base_cost < dec(minimum):
        return f"Promo code {promo['code']!r} needs an order of at least ${cents(dec(minimum)):.2f} before fees."
    return None


def promo_by_code(world: World, code: str) -> dict[str, Any] | None:
    rows = world.select(PROMOS, "upper(code) = upper(?)", ((code or "").strip(),))
    return rows[0] if rows else None


# ---------------------------------------------------------------------------------------------- time
def parse_stamp(value: Any) -> datetime:
    """A stored timestamp (ISO, possibly with a timezone) as a naive datetime."""
    text = str(value).replace("Z", "+00:00").replace("|", "T")
    parsed = datetime.fromisoformat(text)
    return parsed.replace(tzinfo=None)


def now_naive(world: World) -> datetime:
    return world.clock.now().replace(tzinfo=None, microsecond=0)


def stamp(moment: datetime) -> str:
    return moment.replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%S")


def end_of_day_after(world: World, days: int) -> str:
    """``YYYY-MM-DDT23:59:59`` ``days`` days from today (expected delivery dates)."""
    return (now_naive(world) + timedelta(days=int(days or 0))).strftime("%Y-%m-%dT23:59:59")


# ---------------------------------------------------------------------------------------------- users
def me(world: World) -> dict[str, Any]:
    """The logged-in Amazon user's row (PermissionError when logged out)."""
    return current_user(world, APP)


def my_id(world: World) -> int:
    return int(me(world)["id"])


def user_brief(world: World, user_id: int | None, cache: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """``{name, email}`` of a user, for the authors of reviews, questions and answers."""
    if cache is not None and user_id in cache:
        return cache[user_id]
    user = world.get(USERS, user_id) if user_id is not None else None
    out = {"name": f"{user['first_name']} {user['last_name']}" if user else "Former customer",
           "email": user.get("email") if user else None}
    if cache is not None and user_id is not None:
        cache[user_id] = out
    return out


def user_id_by_email(world: World, email: str) -> int:
    rows = world.select(USERS, "lower(email) = lower(?)", ((email or "").strip(),))
    if not rows:
        raise api_error(f"No Amazon user with email {email!r}.")
    return int(rows[0]["id"])


def is_prime(world: World, user: dict[str, Any]) -> bool:
    """Prime membership: the account flag, or a subscription that has not ended."""
    if user.get("is_prime"):
        return True
    now = stamp(now_naive(world))
    return bool(world.select(PRIME, "user_id = ? AND end_date > ?", (user["id"], now)))


def check_quantity(value: int | None, field: str, minimum: int = 1) -> int:
    if value is None or value < minimum:
        raise api_error(f"{field} must be at least {minimum}; got {value}.")
    return int(value)


# ---------------------------------------------------------------------------------------------- products
def product(world: World, product_id: int) -> dict[str, Any]:
    return existing_row(world, PRODUCTS, product_id, "Product", "product_id")


def seller_names(world: World) -> dict[int, str]:
    return {r["id"]: r["name"] for r in world.query('SELECT id, name FROM "amazon"."sellers"')}


def review_counts(world: World) -> dict[int, int]:
    return {r["product_id"]: r["n"] for r in world.query(
        'SELECT product_id, COUNT(*) AS n FROM "amazon"."product_reviews" GROUP BY product_id')}


def product_view(p: dict[str, Any], sellers: dict[int, str], counts: dict[int, int]) -> dict[str, Any]:
    """What the tools show of a product."""
    return {"product_id": p["id"], "name": p.get("name"), "product_type": p.get("product_type"),
            "description": p.get("description"), "price": p.get("price"), "seller_id": p.get("seller_id"),
            "seller_name": sellers.get(p.get("seller_id")), "seller_rating": p.get("seller_rating"),
            "rating": p.get("rating"), "num_product_reviews": counts.get(p["id"], 0),
            "delivery_days": p.get("delivery_days"), "inventory_quantity": p.get("inventory_quantity"),
            "color": p.get("color"), "relative_size": p.get("relative_size"), "weight": p.get("weight"),
            "length": p.get("length"), "width": p.get("width"), "height": p.get("height"),
            "has_variations": bool(p.get("has_variations"))}


def product_views(world: World, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    sellers, counts = seller_names(world), review_counts(world)
    return [product_view(p, sellers, counts) for p in rows]


def variants_of(world: World, p: dict[str, Any]) -> list[dict[str, Any]]:
    """The size/colour variations of a product, itself included (same seller, type and name)."""
    if not p.get("has_variations"):
        return [p]
    rows = world.select(PRODUCTS, "seller_id IS ? AND product_type IS ? AND lower(name) = lower(?) "
                        "AND has_variations = 1", (p.get("seller_id"), p.get("product_type"), p.get("name")))
    return rows or [p]


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def relevance(query: str, fields: Iterable[tuple[str | None, float]]) -> float:
    """How well weighted text fields match a query: each query word scores the weight of the best field
    containing it (a word prefix counts 80%); the sum is normalised, plus a bonus for the whole phrase."""
    words = [_stem(w) for w in tokens(query)]
    if not words:
        return 0.0
    fields = [([_stem(t) for t in tokens(text)], weight, (text or "").lower()) for text, weight in fields]
    top = max((w for _, w, _ in fields), default=1.0) or 1.0
    score = 0.0
    for word in words:
        best = 0.0
        for toks, weight, _ in fields:
            if word in toks:
                best = max(best, weight)
            elif any(t.startswith(word) for t in toks):
                best = max(best, 0.8 * weight)
        score += best
    if score == 0:
        return 0.0
    phrase = " ".join(tokens(query))
    bonus = 0.5 if any(phrase and phrase in " ".join(tokens(raw)) for _, _, raw in fields) else 0.0
    return score / (top * len(words)) + bonus


def rank(rows: list[dict[str, Any]], query: str | None, fields_of: Any) -> list[dict[str, Any]]:
    """Rows matching the query, most relevant first (stable for ties); all rows for an empty query."""
    if not query or not query.strip():
        return rows
    scored = [(relevance(query, fields_of(r)), i, r) for i, r in enumerate(rows)]
    return [r for s, _, r in sorted((x for x in scored if x[0] > 0), key=lambda x: (-x[0], x[1]))]


def product_fields(p: dict[str, Any], sellers: dict[int, str]) -> list[tuple[str | None, float]]:
    return [(p.get("name"), 3.0), (p.get("product_type"), 2.0), (p.get("description"), 1.0),
            (sellers.get(p.get("seller_id")), 1.0), (p.get("color"), 1.0)]


# ---------------------------------------------------------------------------------------------- owned rows
def own_row(world: World, key: str, row_id: int, what: str, id_name: str) -> dict[str, Any]:
    """A row of ``key`` that belongs to the logged-in user (the same error whether absent or foreign)."""
    row = world.get(key, row_id)
    if row is None or row.get("user_id") != my_id(world):
        raise api_error(f"{what} with {id_name}={row_id} does not exist in your account.")
    return row


def card_view(card: dict[str, Any]) -> dict[str, Any]:
    return {"payment_card_id": card["id"], "card_name": card.get("card_name"), "owner_name": card.get("owner_name"),
            "card_number": _int_or_text(card.get("card_number")), "expiry_year": card.get("expiry_year"),
            "expiry_month": card.get("expiry_month"), "cvv_number": _int_or_text(card.get("cvv_number"))}


def _int_or_text(value: Any) -> Any:
    text = str(value) if value is not None else None
    return int(text) if text is not None and text.isdigit() else value


def card_problem(world: World, card: dict[str, Any]) -> str | None:
    """Why a saved card cannot be charged now (None when it can)."""
    now = now_naive(world)
    year, month = card.get("expiry_year"), card.get("expiry_month")
    if year is not None and month is not None and (int(year), int(month)) < (now.year, now.month):
        return f"Payment card {card['id']} expired in {int(month):02d}/{int(year)}; use another card."
    return None


def card_digits(card: dict[str, Any]) -> str:
    return str(card.get("card_number") or "")[-4:]


def address_text(address: dict[str, Any]) -> str:
    """``street, city, state zip`` as orders record it."""
    return f"{address.get('street_address')}, {address.get('city')}, {address.get('state')} {address.get('zip_code')}"
