"""Amazon: a shop (products, sellers, cart, wish list, orders, returns, reviews, Q&A, Prime)."""

from __future__ import annotations

from mmtsb.apps.amazon.schema import TABLES
from mmtsb.apps.amazon.seed import refresh_expired_cards, seed
from mmtsb.apps.base import App
from mmtsb.apps.gmail.delivery import MAIL_TABLES

TOOL_MODULES = tuple(f"mmtsb.apps.amazon.{m}" for m in (
    "tools_account", "tools_catalogue", "tools_cart", "tools_wishlist", "tools_orders", "tools_returns",
    "tools_wallet", "tools_prime", "tools_reviews", "tools_questions"))

APP = App(
    name="amazon", tables=TABLES, tool_modules=TOOL_MODULES, seed=seed,
    companions={
        # placing an order writes its items, empties the cart (entries and promo code), lowers stock; orders,
        # returns and Prime subscriptions mail a receipt (AppWorld)
        "amazon.orders": ("amazon.order_items", "amazon.cart_entries", "amazon.carts", "amazon.products",
                          "file_system.files", "file_system.directories", *MAIL_TABLES),
        "amazon.order_items": ("amazon.orders", "amazon.cart_entries", "amazon.carts", "amazon.products"),
        # moving a product between cart and wish list writes both
        "amazon.cart_entries": ("amazon.wish_list_entries", "amazon.carts"),
        "amazon.wish_list_entries": ("amazon.cart_entries",),
        # a review or a return updates the product's rating / the item's returned quantity
        "amazon.product_reviews": ("amazon.products", "amazon.sellers"),
        # deleting a question deletes its answers
        "amazon.product_questions": ("amazon.product_question_answers",),
        "amazon.returns": ("amazon.order_items", *MAIL_TABLES),
        "amazon.prime_subscriptions": ("file_system.files", "file_system.directories", *MAIL_TABLES),
        # downloading a receipt writes the file and bumps the order's / subscription's download count
        "file_system.files": ("amazon.orders", "amazon.prime_subscriptions", "file_system.directories"),
    },
    id_offsets={"amazon.addresses": 300, "amazon.orders": 3200, "amazon.product_reviews": 16000},
)

__all__ = ["APP", "refresh_expired_cards"]
