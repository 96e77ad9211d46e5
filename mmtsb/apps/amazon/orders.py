"""Orders as data: the user's orders, their items, the cost breakdown of a stored order, and receipts."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.amazon import core
from mmtsb.apps.amazon.core import ORDER_ITEMS, ORDERS, PRODUCTS
from mmtsb.world.world import World


def own_order(world: World, order_id: int) -> dict[str, Any]:
    return core.own_row(world, ORDERS, order_id, "Order", "order_id")


def items_of(world: World, order_id: int) -> list[dict[str, Any]]:
    return world.select(ORDER_ITEMS, "order_id = ?", (order_id,))


def base_cost(items: list[dict[str, Any]]) -> core.Decimal:
    return sum((core.dec(i.get("price")) * (i.get("ordered_quantity") or 0) for i in items), core.Decimal(0))


def total_cost(order: dict[str, Any], items: list[dict[str, Any]]) -> core.Decimal:
    """What the order charged: items + gift wrapping - discount + tax + delivery (as stored)."""
    return (base_cost(items) + core.dec(order.get("gift_wrap_fee")) - core.dec(order.get("discount"))
            + core.dec(order.get("tax")) + core.dec(order.get("delivery_fee")))


def item_view(world: World, item: dict[str, Any]) -> dict[str, Any]:
    p = world.get(PRODUCTS, item["product_id"]) or {}
    delivered = item.get("delivered_at")
    status = "delivered" if delivered else "on the way"
    if (item.get("returned_quantity") or 0) >= (item.get("ordered_quantity") or 0) > 0:
        status = "returned"
    return {"product_id": item["product_id"], "product_name": p.get("name"), "price": item.get("price"),
            "ordered_quantity": item.get("ordered_quantity"), "returned_quantity": item.get("returned_quantity") or 0,
            "gift_wrap_quantity": item.get("gift_wrap_quantity") or 0,
            "expected_delivery_at": item.get("expected_delivery_at"), "delivered_at": delivered, "status": status}


def order_view(world: World, order: dict[str, Any]) -> dict[str, Any]:
    items = items_of(world, order["id"])
    return {"order_id": order["id"], "address_id": order.get("address_id"),
            "payment_card_id": order.get("payment_card_id"), "tax": order.get("tax"),
            "delivery_fee": order.get("delivery_fee"), "gift_wrap_fee": order.get("gift_wrap_fee"),
            "discount": order.get("discount"), "created_at": order.get("created_at"),
            "address_text": order.get("address_text"), "payment_card_digits": order.get("payment_card_digits"),
            "base_cost": core.cents(base_cost(items)), "total_cost": core.cents(total_cost(order, items)),
            "receipt_download_count": order.get("receipt_download_count") or 0,
            "order_items": [item_view(world, i) for i in items]}


def user_order_items(world: World, user_id: int) -> list[dict[str, Any]]:
    """Every order item of the user with its order's ``created_at`` as ``ordered_at``, newest first."""
    return world.query(
        'SELECT i.*, o.created_at AS ordered_at FROM "amazon"."order_items" i JOIN "amazon"."orders" o '
        "ON o.id = i.order_id WHERE o.user_id = ? ORDER BY o.created_at DESC, o.id DESC, i.id", (user_id,))


def _usd(value: Any) -> str:
    return f"${core.cents(core.dec(value)):.2f}"


def receipt_text(world: World, order: dict[str, Any]) -> str:
    """A plain-text receipt that adds up to the order's total."""
    view = order_view(world, order)
    lines = ["Amazon order receipt", f"Order ID: {view['order_id']}", f"Placed on: {view['created_at']}",
             f"Ship to: {view['address_text'] or ''}", f"Paid with card ending in {view['payment_card_digits'] or ''}",
             "", "Items:"]
    for i in view["order_items"]:
        qty = i["ordered_quantity"] or 0
        wrap = f" ({i['gift_wrap_quantity']} gift-wrapped)" if i["gift_wrap_quantity"] else ""
        lines.append(f"  {qty} x {i['product_name']} (product {i['product_id']}) @ {_usd(i['price'])} = "
                     f"{_usd(core.dec(i['price']) * qty)}{wrap}")
    lines += ["", f"Items subtotal: {_usd(view['base_cost'])}", f"Gift wrapping: {_usd(view['gift_wrap_fee'])}",
              f"Discount: -{_usd(view['discount'])}", f"Tax: {_usd(view['tax'])}",
              f"Delivery fee: {_usd(view['delivery_fee'])}", f"Order total: {_usd(view['total_cost'])}"]
    return "\n".join(lines) + "\n"
