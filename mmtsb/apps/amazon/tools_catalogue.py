"""Amazon catalogue tools: products, product types, feature choices, sellers, ratings, recommendations."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.amazon import core
from mmtsb.apps.amazon.core import APP, PRODUCTS, REVIEWS, SELLERS, SIZES
from mmtsb.apps.common import api_error, existing_row, paginate, sort_rows
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)
PRODUCT_SORTS = ("rating", "price", "delivery_days")


@tool(domain=APP, requires=ONLINE, tables=(PRODUCTS,))
def amazon_show_product(world: World, product_id: int) -> dict[str, Any]:
    """Returns details of a single product, including its size/color variations.

    Args:
        product_id: the product's id (from amazon_search_products).

    Returns:
        {product_id, seller_id, product_type, name, description, price, delivery_days, inventory_quantity,
        seller_name, seller_rating, rating, num_product_reviews, num_product_questions, color, relative_size,
        weight, length, width, height, has_variations, variations: list[{product_id, color, relative_size, price,
        inventory_quantity}]}
    """
    p = core.product(world, product_id)
    out = core.product_views(world, [p])[0]
    out["num_product_questions"] = len(world.select(core.QUESTIONS, "product_id = ?", (product_id,)))
    out["variations"] = [{"product_id": v["id"], "color": v.get("color"), "relative_size": v.get("relative_size"),
                          "price": v.get("price"), "inventory_quantity": v.get("inventory_quantity")}
                         for v in core.variants_of(world, p) if v["id"] != p["id"]]
    return out


@tool(domain=APP, requires=AUTHED, tables=(PRODUCTS,))
def amazon_show_recommended_products(world: World, page_index: int | None = 0,
                                     page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists products recommended for the user.

    Products of the types the user recently viewed, wished for or put in the cart come first; within that,
    the newest listings first. Products the user already bought are left out.

    Args:
        page_index: the page to return, from 0.
        page_limit: products per page, 1 to 20.

    Returns:
        list[product]
    """
    uid = core.my_id(world)
    interest: dict[str, int] = {}
    signals = world.query(
        'SELECT p.product_type AS t FROM "amazon"."browsing_history" h JOIN "amazon"."products" p '
        'ON p.id = h.product_id WHERE h.user_id = ? UNION ALL SELECT p.product_type FROM "amazon"."wish_list_entries" '
        'w JOIN "amazon"."products" p ON p.id = w.product_id WHERE w.user_id = ? UNION ALL SELECT p.product_type '
        'FROM "amazon"."cart_entries" c JOIN "amazon"."products" p ON p.id = c.product_id WHERE c.user_id = ?',
        (uid, uid, uid))
    for s in signals:
        interest[s["t"]] = interest.get(s["t"], 0) + 1
    bought = {r["product_id"] for r in world.query(
        'SELECT i.product_id FROM "amazon"."order_items" i JOIN "amazon"."orders" o ON o.id = i.order_id '
        "WHERE o.user_id = ?", (uid,))}
    rows = [p for p in world.rows(PRODUCTS) if p["id"] not in bought and (p.get("inventory_quantity") or 0) > 0]
    rows.sort(key=lambda p: (-interest.get(p.get("product_type"), 0), -p["id"]))
    return core.product_views(world, paginate(rows, page_index, page_limit))


@tool(domain=APP, requires=ONLINE, tables=(REVIEWS,))
def amazon_show_product_rating_distribution(world: World, product_id: int) -> dict[str, Any]:
    """Returns the star-rating breakdown of a product's reviews.

    Args:
        product_id: the product's id.

    Returns:
        {rating (the product's average rating), num_product_reviews, breakdown: list[{rating, num_product_reviews,
        percentage}] from 5 stars down to 1}
    """
    p = core.product(world, product_id)
    counts = {r["rating"]: r["n"] for r in world.query(
        'SELECT rating, COUNT(*) AS n FROM "amazon"."product_reviews" WHERE product_id = ? GROUP BY rating',
        (product_id,))}
    total = sum(counts.values())
    breakdown = [{"rating": star, "num_product_reviews": counts.get(star, 0),
                  "percentage": round(100.0 * counts.get(star, 0) / total, 1) if total else 0.0}
                 for star in (5, 4, 3, 2, 1)]
    return {"rating": p.get("rating"), "num_product_reviews": total, "breakdown": breakdown}


@tool(domain=APP, requires=ONLINE, tables=(SELLERS,))
def amazon_search_sellers(world: World, query: str | None = "", page_index: int | None = 0,
                          page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Searches sellers by name, most relevant first (all sellers, by id, for an empty query).

    Args:
        query: words of the seller's name.
        page_index: the page to return, from 0.
        page_limit: sellers per page, 1 to 20.

    Returns:
        list[{seller_id, name, rating}]
    """
    rows = core.rank(world.rows(SELLERS), query, lambda s: [(s.get("name"), 1.0)])
    return [{"seller_id": s["id"], "name": s["name"], "rating": s.get("rating")}
            for s in paginate(rows, page_index, page_limit)]


@tool(domain=APP, requires=ONLINE, tables=(SELLERS,))
def amazon_show_seller(world: World, seller_id: int) -> dict[str, Any]:
    """Returns a seller's details.

    Args:
        seller_id: the seller's id.

    Returns:
        {seller_id, name, rating, num_products}
    """
    seller = existing_row(world, SELLERS, seller_id, "Seller", "seller_id")
    num = len(world.select(PRODUCTS, "seller_id = ?", (seller_id,)))
    return {"seller_id": seller["id"], "name": seller["name"], "rating": seller.get("rating"), "num_products": num}


@tool(domain=APP, requires=ONLINE, tables=(PRODUCTS,))
def amazon_search_product_types(world: World, query: str | None = "", page_index: int | None = 0,
                                page_limit: int | None = 5) -> list[str]:
    """Searches the catalogue's product type names (e.g. 'toys', 'office products').

    Args:
        query: words of the type name; empty lists every type alphabetically.
        page_index: the page to return, from 0.
        page_limit: types per page, at least 1.

    Returns:
        list[str]
    """
    if page_limit is not None and page_limit < 1:
        raise api_error(f"page_limit must be at least 1; got {page_limit}.")
    types = sorted({r["product_type"] for r in world.query('SELECT DISTINCT product_type FROM "amazon"."products"')
                    if r["product_type"]})
    ranked = core.rank([{"t": t} for t in types], query, lambda r: [(r["t"], 1.0)])
    return [r["t"] for r in paginate(ranked, page_index, page_limit, max_limit=10**9)]


@tool(domain=APP, requires=ONLINE, tables=(PRODUCTS,))
def amazon_show_product_feature_choices(world: World, product_type: str | None = None) -> dict[str, Any]:
    """Aggregates the colors, relative sizes and sellers available for a product type (or all products).

    Use the values as the color / relative_size / seller_id filters of amazon_search_products.

    Args:
        product_type: a product type name (see amazon_search_product_types); all products when omitted.

    Returns:
        {colors: list[str], relative_sizes: list[str], sellers: list[{seller_id, name}]}
    """
    rows = world.rows(PRODUCTS)
    if product_type is not None:
        rows = [p for p in rows if (p.get("product_type") or "").lower() == product_type.strip().lower()]
        if not rows:
            raise api_error(f"Unknown product_type {product_type!r}; find valid types with "
                            "amazon_search_product_types.")
    names = core.seller_names(world)
    sizes = {p["relative_size"] for p in rows if p.get("relative_size")}
    seller_ids = sorted({p["seller_id"] for p in rows if p.get("seller_id") is not None})
    return {"colors": sorted({p["color"] for p in rows if p.get("color")}),
            "relative_sizes": [s for s in SIZES if s in sizes] + sorted(sizes - set(SIZES)),
            "sellers": [{"seller_id": s, "name": names.get(s)} for s in seller_ids]}


def _check_range(low: float | None, high: float | None, name: str, top: float | None) -> None:
    for value, which in ((low, f"min_{name}"), (high, f"max_{name}")):
        if value is not None and (value < 0 or (top is not None and value > top)):
            limit = f"between 0 and {top:g}" if top is not None else ">= 0"
            raise api_error(f"{which} must be {limit}; got {value}.")
    if low is not None and high is not None and low > high:
        raise api_error(f"min_{name} ({low}) must not exceed max_{name} ({high}).")


@tool(domain=APP, requires=ONLINE, tables=(PRODUCTS,))
def amazon_search_products(world: World, query: str | None = "", product_type: str | None = None,
                           color: str | None = None, relative_size: str | None = None,
                           min_price: float | None = 0.0, max_price: float | None = 9.223372036854776e18,
                           min_product_rating: float | None = 0.0, max_product_rating: float | None = 5.0,
                           min_seller_rating: float | None = 0.0, max_seller_rating: float | None = 5.0,
                           seller_id: int | None = None, page_index: int | None = 0, page_limit: int | None = 5,
                           sort_by: str | None = None) -> list[dict[str, Any]]:
    """Searches products by text, with type, color, size, price, rating and seller filters.

    With a query, the matching products are ranked by relevance (name words count most), paginated, and then
    each page is sorted by sort_by if given. Without a query, every product passing the filters is listed
    (sorted by sort_by, else by id).

    Args:
        query: words of the product's name, type, description, seller or color.
        product_type: keep only this product type (exact name, case-insensitive).
        color: keep only this color (case-insensitive), e.g. 'Black'.
        relative_size: keep only this size: extra-small, small, medium, large or extra-large.
        min_price: lowest price, >= 0.
        max_price: highest price, >= 0.
        min_product_rating: lowest product rating, 0..5.
        max_product_rating: highest product rating, 0..5.
        min_seller_rating: lowest seller rating, 0..5.
        max_seller_rating: highest seller rating, 0..5.
        seller_id: keep only this seller's products.
        page_index: the page to return, from 0.
        page_limit: products per page, 1 to 20.
        sort_by: '+' or '-' followed by rating, price or delivery_days (e.g. '-rating', '+price').

    Returns:
        list[product] with product_id, name, product_type, description, price, seller_id, seller_name,
        seller_rating, rating, num_product_reviews, delivery_days, inventory_quantity, color, relative_size,
        weight, length, width, height, has_variations
    """
    if relative_size is not None and relative_size not in SIZES:
        raise api_error(f"Invalid relative_size {relative_size!r}; use one of: {', '.join(SIZES)}.")
    _check_range(min_price, max_price, "price", None)
    _check_range(min_product_rating, max_product_rating, "product_rating", 5.0)
    _check_range(min_seller_rating, max_seller_rating, "seller_rating", 5.0)
    sort_rows([], sort_by, PRODUCT_SORTS)  # validates sort_by early

    def keep(p: dict[str, Any]) -> bool:
        checks = (
            product_type is None or (p.get("product_type") or "").lower() == product_type.strip().lower(),
            color is None or (p.get("color") or "").lower() == color.strip().lower(),
            relative_size is None or p.get("relative_size") == relative_size,
            seller_id is None or p.get("seller_id") == seller_id,
            _within(p.get("price"), min_price, max_price),
            _within(p.get("rating"), min_product_rating, max_product_rating),
            _within(p.get("seller_rating"), min_seller_rating, max_seller_rating),
        )
        return all(checks)

    sellers = core.seller_names(world)
    rows = [p for p in world.rows(PRODUCTS) if keep(p)]
    if query and query.strip():
        page = paginate(core.rank(rows, query, lambda p: core.product_fields(p, sellers)), page_index, page_limit)
        page = sort_rows(page, sort_by, PRODUCT_SORTS) if sort_by else page
    else:
        page = paginate(sort_rows(rows, sort_by, PRODUCT_SORTS), page_index, page_limit)
    counts = core.review_counts(world)
    return [core.product_view(p, sellers, counts) for p in page]


def _within(value: Any, low: float | None, high: float | None) -> bool:
    """A filter bound check; an unset value passes only the default (open) bounds."""
    if value is None:
        return not low
    return (low is None or value >= low) and (high is None or value <= high)
