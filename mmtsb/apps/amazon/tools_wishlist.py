"""Amazon wish-list tools, and moving products between the wish list and the cart."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.amazon import cart, core
from mmtsb.apps.amazon.core import APP, CART, WISH
from mmtsb.apps.common import api_error
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

AUTHED = Requirements(network=True, auth=APP)
#: the catalog's name for the wish-list table (ours is amazon.wish_list_entries, as the scenario files name it)
WISH_TABLES = (WISH,)


@tool(domain=APP, requires=AUTHED, tables=WISH_TABLES)
def amazon_show_wish_list(world: World) -> list[dict[str, Any]]:
    """Lists the products in the user's wish list, oldest addition first.

    Returns:
        list[{product_id, product_name, product_type, rating, relative_size, color, quantity, price, seller_id,
        inventory_quantity}]
    """
    return cart.wish_list(world, core.my_id(world))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=WISH_TABLES)
def amazon_clear_wish_list(world: World) -> dict[str, str]:
    """Empties the wish list.

    Returns:
        {message}
    """
    n = cart.clear(world, WISH, core.my_id(world))
    return {"message": f"Wish list cleared ({n} product(s) removed)."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=WISH_TABLES)
def amazon_add_product_to_wish_list(world: World, product_id: int, quantity: int = 1,
                                    clear_wish_list_first: bool | None = False) -> dict[str, str]:
    """Adds a quantity of a product to the wish list, optionally clearing the list first.

    If the product is already in the wish list, the quantity is added to it.

    Args:
        product_id: the product's id.
        quantity: how many units, at least 1 and at most the units in stock.
        clear_wish_list_first: empty the wish list before adding.

    Returns:
        {message}
    """
    uid = core.my_id(world)
    core.check_quantity(quantity, "quantity")
    p = core.product(world, product_id)
    cart.check_stock(p, quantity)       # as in AppWorld, a wish list asks no more units than are in stock
    if clear_wish_list_first:
        cart.clear(world, WISH, uid)
    current = cart.entry(world, WISH, uid, product_id)
    total = quantity + (current["quantity"] if current else 0)
    cart.set_quantity(world, WISH, uid, product_id, total)
    return {"message": f"Added {quantity} x {p.get('name')} to the wish list (now {total} in the wish list)."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=WISH_TABLES)
def amazon_delete_product_from_wish_list(world: World, product_id: int) -> dict[str, str]:
    """Removes a product from the wish list.

    Args:
        product_id: the product's id.

    Returns:
        {message}
    """
    row = cart.require_entry(world, WISH, core.my_id(world), product_id)
    world.delete(WISH, row["id"])
    return {"message": "Product removed from the wish list."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=WISH_TABLES)
def amazon_update_product_quantity_in_wish_list(world: World, product_id: int, quantity: int) -> dict[str, str]:
    """Sets a wish-list product's quantity; 0 removes it.

    Args:
        product_id: the product's id (it must be in the wish list).
        quantity: the new quantity, >= 0 and at most the units in stock.

    Returns:
        {message}
    """
    uid = core.my_id(world)
    core.check_quantity(quantity, "quantity", minimum=0)
    cart.require_entry(world, WISH, uid, product_id)
    cart.check_stock(core.product(world, product_id), quantity)
    cart.set_quantity(world, WISH, uid, product_id, quantity)
    if quantity == 0:
        return {"message": "Product removed from the wish list."}
    return {"message": f"Wish-list quantity of product {product_id} set to {quantity}."}


def _move(world: World, source: str, target: str, product_id: int, quantity: int | None) -> dict[str, str]:
    """Move units of a product from one list to the other (the source entry goes away at 0)."""
    quantity = 1 if quantity is None else quantity
    core.check_quantity(quantity, "quantity")
    uid = core.my_id(world)
    row = cart.require_entry(world, source, uid, product_id)
    if quantity > row["quantity"]:
        raise api_error(f"Only {row['quantity']} unit(s) of product {product_id} are in your {cart.where(source)}; "
                        f"cannot move {quantity}.")
    existing = cart.entry(world, target, uid, product_id)
    cart.set_quantity(world, target, uid, product_id, quantity + (existing["quantity"] if existing else 0))
    cart.set_quantity(world, source, uid, product_id, row["quantity"] - quantity)
    return {"message": f"Moved {quantity} unit(s) of product {product_id} from the {cart.where(source)} to the "
                       f"{cart.where(target)}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CART, WISH))
def amazon_move_product_from_cart_to_wish_list(world: World, product_id: int,
                                               quantity: int | None = 1) -> dict[str, str]:
    """Moves some units of a product from the cart to the wish list.

    Args:
        product_id: the product's id (it must be in the cart).
        quantity: how many units to move, at least 1 and at most the cart quantity.

    Returns:
        {message}
    """
    return _move(world, CART, WISH, product_id, quantity)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(CART, WISH))
def amazon_move_product_from_wish_list_to_cart(world: World, product_id: int,
                                               quantity: int | None = 1) -> dict[str, str]:
    """Moves some units of a product from the wish list to the cart (within the stock available).

    Args:
        product_id: the product's id (it must be in the wish list).
        quantity: how many units to move, at least 1 and at most the wish-list quantity.

    Returns:
        {message}
    """
    return _move(world, WISH, CART, product_id, quantity)
