"""Amazon return tools: starting returns with a courier, and following them."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.amazon import core, orders
from mmtsb.apps.amazon.core import APP, DELIVERERS, ORDER_ITEMS, RETURNS
from mmtsb.apps.common import api_error, paginate, sort_rows
from mmtsb.apps.gmail.delivery import mail_receipt
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)
RETURN_SORTS = ("quantity", "initiated_at", "returned_at")


def _view(world: World, r: dict[str, Any]) -> dict[str, Any]:
    p = world.get(core.PRODUCTS, r["product_id"]) or {}
    d = world.get(DELIVERERS, r.get("deliverer_id")) or {}
    status = "refunded" if r.get("refunded_at") else "picked up" if r.get("picked_up_at") else "awaiting pickup"
    return {"return_id": r["id"], "order_id": r["order_id"], "product_id": r["product_id"],
            "product_name": p.get("name"), "quantity": r.get("quantity"), "deliverer_id": r.get("deliverer_id"),
            "deliverer_name": d.get("name"), "refund_amount": r.get("refund_amount"),
            "initiated_at": r.get("created_at"), "returned_at": r.get("picked_up_at"),
            "refunded_at": r.get("refunded_at"), "status": status}


@tool(domain=APP, requires=AUTHED, tables=(RETURNS,))
def amazon_show_returns(world: World, order_id: int | None = None, page_index: int | None = 0,
                        page_limit: int | None = 5, sort_by: str | None = "-initiated_at") -> list[dict[str, Any]]:
    """Lists the user's product returns, optionally those of one order.

    Args:
        order_id: only the returns of this order.
        page_index: the page to return, from 0.
        page_limit: returns per page, 1 to 20.
        sort_by: '+' or '-' followed by quantity, initiated_at or returned_at; default '-initiated_at'.

    Returns:
        list[{return_id, order_id, product_id, product_name, quantity, deliverer_id, deliverer_name, refund_amount,
        initiated_at, returned_at, refunded_at, status}]
    """
    uid = core.my_id(world)
    if order_id is not None:
        orders.own_order(world, order_id)
        rows = world.select(RETURNS, "user_id = ? AND order_id = ?", (uid, order_id), order_by="id DESC")
    else:
        rows = world.select(RETURNS, "user_id = ?", (uid,), order_by="id DESC")
    views = [_view(world, r) for r in rows]
    return paginate(sort_rows(views, sort_by or "-initiated_at", RETURN_SORTS), page_index, page_limit)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(RETURNS,))
def amazon_initiate_return(world: World, order_id: int, product_id: int, deliverer_id: int,
                           quantity: int) -> dict[str, Any]:
    """Starts a return of some units of an ordered product, picked up by the chosen courier.

    The refund is the units' share of what the order charged for its items: price x quantity, less the same
    share of the order's discount, plus the same share of its tax (delivery and gift wrapping are not refunded).

    Args:
        order_id: the order's id.
        product_id: the product's id within that order.
        deliverer_id: the courier's id (see amazon_show_return_deliverers).
        quantity: how many units to return, at least 1 and at most those not yet returned.

    Returns:
        {message, return_id}
    """
    core.check_quantity(quantity, "quantity")
    order = orders.own_order(world, order_id)
    if world.get(DELIVERERS, deliverer_id) is None:
        raise api_error(f"Deliverer with deliverer_id={deliverer_id} does not exist; see "
                        "amazon_show_return_deliverers.")
    items = orders.items_of(world, order_id)
    item = next((i for i in items if i["product_id"] == product_id), None)
    if item is None:
        raise api_error(f"Product with product_id={product_id} is not part of order {order_id}.")
    left = (item.get("ordered_quantity") or 0) - (item.get("returned_quantity") or 0)
    if quantity > left:
        raise api_error(f"Only {left} unit(s) of product {product_id} in order {order_id} can still be returned.")
    refund = _refund(order, items, item, quantity)
    return_id = world.next_id(RETURNS)
    world.insert(RETURNS, {"id": return_id, "user_id": order["user_id"], "order_id": order_id,
                           "product_id": product_id, "deliverer_id": deliverer_id, "quantity": quantity,
                           "refund_amount": refund, "created_at": world.clock.now_str(), "picked_up_at": None,
                           "refunded_at": None})
    world.update(ORDER_ITEMS, item["id"], {"returned_quantity": (item.get("returned_quantity") or 0) + quantity})
    deliverer = world.get(DELIVERERS, deliverer_id)
    user = core.me(world)
    label = "\n".join(["Amazon return label", f"Return ID: {return_id}", f"Order: #{order_id}",
                       f"Product: {product_id}, quantity {quantity}", f"Courier: {deliverer.get('name')}"]) + "\n"
    mail_receipt(world, app="Amazon", recipient_email=user["email"], subject="Amazon Return Initiated",
                 body=f"Hello {user['first_name']},\n\nYour return #{return_id} of {quantity} unit(s) from order "
                      f"#{order_id} is started; print the attached label and drop the package off with "
                      f"{deliverer.get('name')}.",
                 file_name=f"return_{order_id}_{product_id}_{quantity}.txt", receipt=label)
    return {"message": f"Return {return_id} started: {quantity} unit(s) of product {product_id}; a refund of "
                       f"${refund:.2f} will follow the pickup.", "return_id": return_id}


def _refund(order: dict[str, Any], items: list[dict[str, Any]], item: dict[str, Any], quantity: int) -> float:
    base = orders.base_cost(items)
    value = core.dec(item.get("price")) * quantity
    if base <= 0:
        return core.cents(value)
    share = value / base
    paid_for_items = base - core.dec(order.get("discount")) + core.dec(order.get("tax"))
    return core.cents(paid_for_items * share)


@tool(domain=APP, requires=AUTHED, tables=(RETURNS,))
def amazon_show_return(world: World, return_id: int) -> dict[str, Any]:
    """Shows the status of one of the user's returns.

    Args:
        return_id: the return's id.

    Returns:
        {return_id, order_id, product_id, product_name, quantity, deliverer_id, deliverer_name, refund_amount,
        initiated_at, returned_at, refunded_at, status}
    """
    return _view(world, core.own_row(world, RETURNS, return_id, "Return", "return_id"))


@tool(domain=APP, requires=ONLINE, tables=(DELIVERERS,))
def amazon_show_return_deliverers(world: World) -> list[dict[str, Any]]:
    """Lists the couriers that can pick up returns.

    Returns:
        list[{deliverer_id, name}]
    """
    return [{"deliverer_id": d["id"], "name": d["name"]} for d in world.rows(DELIVERERS)]
