"""The cart and the wish list as data: entries, stock checks, the promo code and the cost breakdown."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.amazon import core
from mmtsb.apps.amazon.core import CART, CARTS, WISH
from mmtsb.apps.common import api_error
from mmtsb.world.world import World


def entries(world: World, key: str, user_id: int) -> list[dict[str, Any]]:
    """The user's cart or wish-list entries, oldest first."""
    return world.select(key, "user_id = ?", (user_id,))


def entry(world: World, key: str, user_id: int, product_id: int) -> dict[str, Any] | None:
    rows = world.select(key, "user_id = ? AND product_id = ?", (user_id, product_id))
    return rows[0] if rows else None


def where(key: str) -> str:
    return "cart" if key == CART else "wish list"


def require_entry(world: World, key: str, user_id: int, product_id: int) -> dict[str, Any]:
    row = entry(world, key, user_id, product_id)
    if row is None:
        raise api_error(f"Product with product_id={product_id} is not in your {where(key)}.")
    return row


def check_stock(p: dict[str, Any], quantity: int) -> None:
    """A cart (and, as in AppWorld, a wish list) asks at most the units in stock."""
    stock = p.get("inventory_quantity")
    if stock is not None and quantity > stock:
        if stock <= 0:
            raise api_error(f"Product {p['id']} ({p.get('name')}) is out of stock.")
        raise api_error(f"Only {stock} unit(s) of product {p['id']} ({p.get('name')}) are in stock; "
                        f"a quantity of {quantity} is not available.")


def set_quantity(world: World, key: str, user_id: int, product_id: int, quantity: int) -> None:
    """Create, update or (quantity 0) delete an entry; a cart keeps gift wrapping <= quantity."""
    row = entry(world, key, user_id, product_id)
    if quantity <= 0:
        if row is not None:
            world.delete(key, row["id"])
        return
    if key == CART:
        check_stock(core.product(world, product_id), quantity)
    if row is None:
        new: dict[str, Any] = {"id": world.next_id(key), "user_id": user_id, "product_id": product_id,
                               "quantity": quantity}
        if key == CART:
            new["gift_wrap_quantity"] = 0
        world.insert(key, new)
        return
    fields: dict[str, Any] = {"quantity": quantity}
    if key == CART and (row.get("gift_wrap_quantity") or 0) > quantity:
        fields["gift_wrap_quantity"] = quantity
    world.update(key, row["id"], fields)


def clear(world: World, key: str, user_id: int) -> int:
    rows = entries(world, key, user_id)
    for r in rows:
        world.delete(key, r["id"])
    return len(rows)


# ---------------------------------------------------------------------------------------------- promo code
def cart_row(world: World, user_id: int) -> dict[str, Any] | None:
    rows = world.select(CARTS, "user_id = ?", (user_id,))
    return rows[0] if rows else None


def set_promo(world: World, user_id: int, code: str | None) -> None:
    row = cart_row(world, user_id)
    now = world.clock.now_str()
    if row is None:
        if code is None:
            return
        world.insert(CARTS, {"id": world.next_id(CARTS), "user_id": user_id, "promo_code": code, "updated_at": now})
    elif row.get("promo_code") != code:
        world.update(CARTS, row["id"], {"promo_code": code, "updated_at": now})


def promo_of(world: World, user_id: int) -> tuple[str | None, dict[str, Any] | None]:
    """``(code, promo row)`` attached to the cart (the row is None for an unknown code)."""
    row = cart_row(world, user_id)
    code = row.get("promo_code") if row else None
    return code, core.promo_by_code(world, code) if code else None


# ---------------------------------------------------------------------------------------------- costs
def lines(world: World, user_id: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``(entry, product)`` pairs of the cart (entries whose product vanished are skipped)."""
    out = []
    for e in entries(world, CART, user_id):
        p = world.get(core.PRODUCTS, e["product_id"])
        if p is not None:
            out.append((e, p))
    return out


def costs(world: World, user: dict[str, Any]) -> tuple[core.Costs, str | None, dict[str, Any] | None]:
    """The cart's cost breakdown with the attached promo code (and its row)."""
    pairs = lines(world, user["id"])
    code, promo = promo_of(world, user["id"])
    priced = [(p.get("price"), e["quantity"], e.get("gift_wrap_quantity") or 0) for e, p in pairs]
    return core.compute_costs(priced, promo, core.is_prime(world, user), core.now_naive(world)), code, promo


def item_view(e: dict[str, Any], p: dict[str, Any], sellers: dict[int, str]) -> dict[str, Any]:
    price = p.get("price")
    return {"product_id": p["id"], "product_name": p.get("name"), "product_type": p.get("product_type"),
            "seller_id": p.get("seller_id"), "seller_name": sellers.get(p.get("seller_id")), "price": price,
            "quantity": e["quantity"], "gift_wrap_quantity": e.get("gift_wrap_quantity") or 0,
            "subtotal": core.cents(core.dec(price) * e["quantity"]), "color": p.get("color"),
            "relative_size": p.get("relative_size"), "delivery_days": p.get("delivery_days"),
            "inventory_quantity": p.get("inventory_quantity")}


def show(world: World) -> dict[str, Any]:
    """What amazon_show_cart returns."""
    user = core.me(world)
    breakdown, code, promo = costs(world, user)
    problem = None
    if code is not None:
        problem = (f"Promo code {code!r} no longer exists." if promo is None
                   else core.promo_problem(promo, breakdown.base_cost, core.now_naive(world)))
    sellers = core.seller_names(world)
    items = [item_view(e, p, sellers) for e, p in lines(world, user["id"])]
    money = breakdown.as_dict()
    return {"delivery_fee": money["delivery_fee"], "base_cost": money["base_cost"], "tax": money["tax"],
            "gift_wrap_fee": money["gift_wrap_fee"], "discount": money["discount"],
            "total_cost": money["total_cost"], "promo_code": code, "promo_valid": code is not None and problem is None,
            "promo_message": problem, "num_items": sum(i["quantity"] for i in items), "cart_items": items}


def wish_view(e: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
    return {"product_id": p["id"], "product_name": p.get("name"), "product_type": p.get("product_type"),
            "rating": p.get("rating"), "relative_size": p.get("relative_size"), "color": p.get("color"),
            "quantity": e["quantity"], "price": p.get("price"), "seller_id": p.get("seller_id"),
            "inventory_quantity": p.get("inventory_quantity")}


def wish_list(world: World, user_id: int) -> list[dict[str, Any]]:
    out = []
    for e in entries(world, WISH, user_id):
        p = world.get(core.PRODUCTS, e["product_id"])
        if p is not None:
            out.append(wish_view(e, p))
    return out
