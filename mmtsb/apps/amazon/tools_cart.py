"""Amazon cart tools: contents and costs, quantities, promo codes and gift wrapping."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.amazon import cart, core
from mmtsb.apps.amazon.core import APP, CART, CARTS, PROMOS
from mmtsb.apps.common import api_error
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

AUTHED = Requirements(network=True, auth=APP)


@tool(domain=APP, requires=AUTHED, tables=(CARTS, CART))
def amazon_show_cart(world: World) -> dict[str, Any]:
    """Shows the cart contents and cost breakdown.

    total_cost = base_cost + gift_wrap_fee - discount + tax + delivery_fee, where gift wrapping costs $2.99 per
    wrapped unit, tax is 10% of (base_cost + gift_wrap_fee - discount), and delivery is $4.99 per order
    (free for Prime members). The promo code's discount counts only while promo_valid is true.

    Returns:
        {delivery_fee, base_cost, tax, gift_wrap_fee, discount, total_cost, promo_code, promo_valid, promo_message,
        num_items, cart_items: list[{product_id, product_name, product_type, seller_id, seller_name, price,
        quantity, gift_wrap_quantity, subtotal, color, relative_size, delivery_days, inventory_quantity}]}
    """
    return cart.show(world)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CART,))
def amazon_clear_cart(world: World) -> dict[str, str]:
    """Empties the cart (an attached promo code stays attached).

    Returns:
        {message}
    """
    n = cart.clear(world, CART, core.my_id(world))
    return {"message": f"Cart cleared ({n} product(s) removed)."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CART,))
def amazon_add_product_to_cart(world: World, product_id: int, quantity: int = 1,
                               clear_cart_first: bool | None = False) -> dict[str, str]:
    """Adds a quantity of a product to the cart, optionally emptying the cart first.

    If the product is already in the cart, the quantity is added to it. The cart cannot hold more units than
    the product has in stock.

    Args:
        product_id: the product's id.
        quantity: how many units to add, at least 1.
        clear_cart_first: empty the cart before adding.

    Returns:
        {message}
    """
    uid = core.my_id(world)
    core.check_quantity(quantity, "quantity")
    p = core.product(world, product_id)
    if clear_cart_first:
        cart.clear(world, CART, uid)
    current = cart.entry(world, CART, uid, product_id)
    total = quantity + (current["quantity"] if current else 0)
    cart.check_stock(p, total)
    cart.set_quantity(world, CART, uid, product_id, total)
    return {"message": f"Added {quantity} x {p.get('name')} to the cart (now {total} in the cart)."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CART,))
def amazon_update_product_quantity_in_cart(world: World, product_id: int, quantity: int) -> dict[str, str]:
    """Sets the quantity of a product already in the cart; 0 removes it.

    Gift wrapping is reduced with the quantity if needed.

    Args:
        product_id: the product's id.
        quantity: the new quantity, >= 0.

    Returns:
        {message}
    """
    uid = core.my_id(world)
    core.check_quantity(quantity, "quantity", minimum=0)
    cart.require_entry(world, CART, uid, product_id)
    cart.set_quantity(world, CART, uid, product_id, quantity)
    if quantity == 0:
        return {"message": "Product removed from the cart."}
    return {"message": f"Cart quantity of product {product_id} set to {quantity}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CART,))
def amazon_delete_product_from_cart(world: World, product_id: int) -> dict[str, str]:
    """Removes a product from the cart.

    Args:
        product_id: the product's id.

    Returns:
        {message}
    """
    row = cart.require_entry(world, CART, core.my_id(world), product_id)
    world.delete(CART, row["id"])
    return {"message": "Product removed from the cart."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARTS, PROMOS))
def amazon_apply_promo_code_to_cart(world: World, promo_code: str) -> dict[str, str]:
    """Attaches a promo code to the cart (replacing any other one).

    Codes are case-insensitive. An expired or unknown code is refused; a code whose minimum order amount the
    cart does not reach yet is attached but gives no discount until it does (see amazon_show_cart).

    Args:
        promo_code: the promo code, e.g. 'SAVE10'.

    Returns:
        {message}
    """
    user = core.me(world)
    promo = core.promo_by_code(world, promo_code)
    if promo is None:
        raise api_error(f"Promo code {promo_code!r} does not exist.")
    now = core.now_naive(world)
    expired = core.promo_expired(promo, now)
    if expired:
        raise api_error(expired)
    cart.set_promo(world, user["id"], promo["code"])
    breakdown, _, _ = cart.costs(world, user)
    pending = core.promo_problem(promo, breakdown.base_cost, now)
    if pending:
        return {"message": f"Promo code {promo['code']} attached, but it gives no discount yet: {pending}"}
    return {"message": f"Promo code {promo['code']} applied: {promo.get('description') or 'discount applied'}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CARTS,))
def amazon_remove_promo_code_from_cart(world: World) -> dict[str, str]:
    """Detaches the promo code from the cart.

    Returns:
        {message}
    """
    uid = core.my_id(world)
    code, _ = cart.promo_of(world, uid)
    if code is None:
        raise api_error("No promo code is attached to your cart.")
    cart.set_promo(world, uid, None)
    return {"message": f"Promo code {code} removed from the cart."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CART,))
def amazon_add_gift_wrapping_to_product(world: World, product_id: int, quantity: int | None = 1) -> dict[str, str]:
    """Gift-wraps some units of a product in the cart ($2.99 per unit).

    If the product is already gift-wrapped, its wrapped quantity is set to the new value.

    Args:
        product_id: the product's id (it must be in the cart).
        quantity: how many of its units to wrap, at least 1 and at most its cart quantity.

    Returns:
        {message}
    """
    quantity = 1 if quantity is None else quantity
    core.check_quantity(quantity, "quantity")
    row = cart.require_entry(world, CART, core.my_id(world), product_id)
    if quantity > row["quantity"]:
        raise api_error(f"quantity ({quantity}) exceeds the {row['quantity']} unit(s) of product {product_id} "
                        "in the cart.")
    world.update(CART, row["id"], {"gift_wrap_quantity": quantity})
    return {"message": f"Gift wrapping set for {quantity} unit(s) of product {product_id}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CART,))
def amazon_remove_gift_wrapping_from_product(world: World, product_id: int) -> dict[str, str]:
    """Removes gift wrapping from a product in the cart.

    Args:
        product_id: the product's id.

    Returns:
        {message}
    """
    row = cart.require_entry(world, CART, core.my_id(world), product_id)
    if not row.get("gift_wrap_quantity"):
        raise api_error(f"Product with product_id={product_id} is not gift-wrapped.")
    world.update(CART, row["id"], {"gift_wrap_quantity": 0})
    return {"message": f"Gift wrapping removed from product {product_id}."}
