"""Amazon order tools: checkout, past orders and purchases, receipts."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.amazon import cart, core, orders
from mmtsb.apps.file_system import api as fs
from mmtsb.apps.amazon.core import ADDRESSES, APP, CARDS, CART, ORDER_ITEMS, ORDERS, PRODUCTS
from mmtsb.apps.common import api_error, paginate, sort_rows
from mmtsb.apps.gmail.delivery import mail_receipt
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

AUTHED = Requirements(network=True, auth=APP)


#: what show_orders sorts by (AppWorld's fields; paid_amount is the order's total cost)
ORDER_SORTS = ("created_at", "paid_amount")

@tool(domain=APP, requires=AUTHED, tables=(ORDERS,))
def amazon_show_orders(world: World, query: str | None = "", page_index: int | None = 0,
                       page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the user's past orders.

    With a query, orders whose product names (or shipping address) match are ranked by relevance, paginated,
    then each page is sorted by sort_by if given. Without a query, orders are sorted by sort_by (default
    '-created_at', newest first) and paginated.

    Args:
        query: words of a product name in the order, or of the shipping address.
        page_index: the page to return, from 0.
        page_limit: orders per page, 1 to 20.
        sort_by: +/- created_at or paid_amount (the order's total cost).

    Returns:
        list[{order_id, address_id, payment_card_id, tax, delivery_fee, gift_wrap_fee, discount, created_at,
        address_text, payment_card_digits, base_cost, total_cost, receipt_download_count, order_items:
        list[{product_id, product_name, price, ordered_quantity, returned_quantity, gift_wrap_quantity,
        expected_delivery_at, delivered_at, status}]}]
    """
    rows = [{**o, "paid_amount": float(orders.total_cost(o, orders.items_of(world, o["id"])))}
            for o in world.select(ORDERS, "user_id = ?", (core.my_id(world),), order_by="id DESC")]
    sort_rows([], sort_by, ORDER_SORTS)
    if query and query.strip():
        names: dict[int, str] = {}
        for r in world.query('SELECT i.order_id, p.name FROM "amazon"."order_items" i JOIN "amazon"."products" p '
                             "ON p.id = i.product_id"):
            names[r["order_id"]] = names.get(r["order_id"], "") + " " + (r["name"] or "")
        ranked = core.rank(rows, query, lambda o: [(names.get(o["id"]), 2.0), (o.get("address_text"), 1.0)])
        page = paginate(ranked, page_index, page_limit)
        page = sort_rows(page, sort_by, ORDER_SORTS) if sort_by else page
    else:
        page = paginate(sort_rows(rows, sort_by or "-created_at", ORDER_SORTS), page_index, page_limit)
    return [orders.order_view(world, o) for o in page]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ORDERS, ORDER_ITEMS, CART))
def amazon_place_order(world: World, payment_card_id: int, address_id: int) -> dict[str, Any]:
    """Checks out the whole cart, paying with a saved card and shipping to a saved address.

    The charge is the cart's total_cost (see amazon_show_cart): items + gift wrapping - promo discount + 10% tax
    + $4.99 delivery (free for Prime). Stock is reduced, and the cart and its promo code are emptied. Get the
    ids from amazon_show_payment_cards and amazon_show_addresses (add the supervisor's card or address with
    amazon_add_payment_card / amazon_add_address if it is not saved yet).

    Args:
        payment_card_id: the id of one of your saved, unexpired payment cards.
        address_id: the id of one of your saved addresses.

    Returns:
        {message, order_id}
    """
    user = core.me(world)
    card = core.own_row(world, CARDS, payment_card_id, "Payment card", "payment_card_id")
    address = core.own_row(world, ADDRESSES, address_id, "Address", "address_id")
    problem = core.card_problem(world, card)
    if problem:
        raise api_error(problem)
    pairs = cart.lines(world, user["id"])
    if not pairs:
        raise api_error("Your cart is empty; add products with amazon_add_product_to_cart first.")
    for e, p in pairs:
        cart.check_stock(p, e["quantity"])
    breakdown, _, _ = cart.costs(world, user)
    money = breakdown.as_dict()
    order_id = world.next_id(ORDERS)
    world.insert(ORDERS, {"id": order_id, "user_id": user["id"], "address_id": address["id"], "tax": money["tax"],
                          "delivery_fee": money["delivery_fee"], "gift_wrap_fee": money["gift_wrap_fee"],
                          "discount": money["discount"], "payment_card_id": card["id"],
                          "created_at": world.clock.now_str(), "address_text": core.address_text(address),
                          "payment_card_digits": core.card_digits(card), "receipt_download_count": 0})
    for e, p in pairs:
        world.insert(ORDER_ITEMS, {"id": world.next_id(ORDER_ITEMS), "order_id": order_id, "product_id": p["id"],
                                   "ordered_quantity": e["quantity"], "returned_quantity": 0,
                                   "gift_wrap_quantity": e.get("gift_wrap_quantity") or 0, "price": p.get("price"),
                                   "expected_delivery_at": core.end_of_day_after(world, p.get("delivery_days") or 0),
                                   "delivered_at": None})
        if p.get("inventory_quantity") is not None:
            world.update(PRODUCTS, p["id"], {"inventory_quantity": p["inventory_quantity"] - e["quantity"]})
        world.delete(CART, e["id"])
    cart.set_promo(world, user["id"], None)
    items = "\n".join(f"- {e['quantity']} x {p.get('name')}" for e, p in pairs)
    mail_receipt(world, app="Amazon", recipient_email=user["email"], subject="Amazon Order Confirmation",
                 body=f"Hello {user['first_name']},\n\nYour order #{order_id} is placed:\n{items}",
                 file_name=f"order_{order_id}.txt", receipt=orders.receipt_text(world, world.get(ORDERS, order_id)))
    return {"message": f"Order {order_id} placed successfully: ${money['total_cost']:.2f} charged to the card ending "
                       f"in {core.card_digits(card)} (items ${money['base_cost']:.2f}, gift wrapping "
                       f"${money['gift_wrap_fee']:.2f}, discount ${money['discount']:.2f}, tax ${money['tax']:.2f}, "
                       f"delivery ${money['delivery_fee']:.2f}).", "order_id": order_id}


@tool(domain=APP, requires=AUTHED, tables=(ORDER_ITEMS, PRODUCTS))
def amazon_show_product_purchases(world: World, page_index: int | None = 0,
                                  page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists the products the user bought before, most recently ordered first (each product once).

    Args:
        page_index: the page to return, from 0.
        page_limit: products per page, 1 to 20.

    Returns:
        list[product] (each with last_order_id, last_ordered_at and total_ordered_quantity)
    """
    latest: dict[int, dict[str, Any]] = {}
    totals: dict[int, int] = {}
    for item in orders.user_order_items(world, core.my_id(world)):
        latest.setdefault(item["product_id"], item)
        totals[item["product_id"]] = totals.get(item["product_id"], 0) + (item.get("ordered_quantity") or 0)
    sellers, counts = core.seller_names(world), core.review_counts(world)
    out = []
    for pid, item in paginate(list(latest.items()), page_index, page_limit):
        p = world.get(PRODUCTS, pid)
        if p is None:
            continue
        out.append({**core.product_view(p, sellers, counts), "last_order_id": item["order_id"],
                    "last_ordered_at": item["ordered_at"], "total_ordered_quantity": totals[pid]})
    return out


@tool(domain=APP, requires=AUTHED, tables=(ORDERS,))
def amazon_show_last_product_purchase(world: World, product_id: int) -> dict[str, Any]:
    """Finds the user's most recent purchase of a product or of any of its size/color variations.

    Args:
        product_id: the id of the product (or of one of its variations).

    Returns:
        {order_id, ordered_at, product_id, product_name, product_relative_size, product_color}
    """
    p = core.product(world, product_id)
    ids = {v["id"] for v in core.variants_of(world, p)}
    for item in orders.user_order_items(world, core.my_id(world)):
        if item["product_id"] in ids:
            bought = world.get(PRODUCTS, item["product_id"]) or p
            return {"order_id": item["order_id"], "ordered_at": item["ordered_at"], "product_id": bought["id"],
                    "product_name": bought.get("name"), "product_relative_size": bought.get("relative_size"),
                    "product_color": bought.get("color")}
    raise api_error(f"You have not purchased product {product_id} or any of its variations.")


@tool(domain=APP, requires=AUTHED, tables=(ORDERS,))
def amazon_show_order(world: World, order_id: int) -> dict[str, Any]:
    """Returns one of the user's past orders in detail.

    total_cost = base_cost + gift_wrap_fee - discount + tax + delivery_fee.

    Args:
        order_id: the order's id.

    Returns:
        {order_id, address_id, payment_card_id, tax, delivery_fee, gift_wrap_fee, discount, created_at, address_text,
        payment_card_digits, base_cost, total_cost, receipt_download_count, order_items: list[{product_id,
        product_name, price, ordered_quantity, returned_quantity, gift_wrap_quantity, expected_delivery_at,
        delivered_at, status}]}
    """
    return orders.order_view(world, orders.own_order(world, order_id))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(ORDERS, "file_system.files"))
def amazon_download_order_receipt(world: World, order_id: int, file_system_access_token: str,
                                  download_to_file_path: str | None = None,
                                  overwrite: bool | None = False) -> dict[str, str]:
    """Saves an order's receipt (a text file) into the file-system app.

    Args:
        order_id: the order's id.
        file_system_access_token: the access_token returned by file_system_login.
        download_to_file_path: a file path, or a directory ending with '/' (the receipt keeps its name
            amazon_order_<order_id>_receipt.txt); absolute '/...' or '~/...'; default ~/downloads/.
        overwrite: replace an existing file at that path; otherwise an existing file is an error.

    Returns:
        {message, file_path}
    """
    order = orders.own_order(world, order_id)
    path = fs.save_file(world, file_system_access_token, download_to_file_path,
                        f"amazon_order_{order_id}_receipt.txt", orders.receipt_text(world, order),
                        bool(overwrite))
    world.update(ORDERS, order_id, {"receipt_download_count": (order.get("receipt_download_count") or 0) + 1})
    return {"message": "Order receipt downloaded.", "file_path": path}
