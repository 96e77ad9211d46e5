"""Amazon tables (AppWorld layout).

Column sets of the tables the released scenario files fill (products, sellers, orders, order_items,
addresses, product_reviews, wish_list_entries, cart_entries) follow those files exactly; the others are
shaped after what the catalog's tools return.
"""

from mmtsb.apps.accounts import users_table
from mmtsb.world.schema import Table, table

APP = "amazon"


def payment_cards_table(app: str) -> Table:
    """``<app>.payment_cards``: the same card layout in amazon, spotify and venmo."""
    return table(app, "payment_cards", {"id": "int", "user_id": "int", "card_name": "str", "owner_name": "str",
                                        "card_number": "str", "expiry_year": "int", "expiry_month": "int",
                                        "cvv_number": "str", "created_at": "datetime"})


def subscriptions_table(app: str, name: str) -> Table:
    """A paid plan (amazon prime, spotify premium): ``duration`` is ``monthly`` or ``yearly``."""
    return table(app, name, {"id": "int", "user_id": "int", "duration": "str", "start_date": "datetime",
                             "end_date": "datetime", "payment_card_id": "int", "payment_card_digits": "str",
                             "paid_amount": "float", "receipt_download_count": "int", "created_at": "datetime"})


#: table names the reference catalog uses for a table the scenario files name differently
CATALOG_ALIASES: dict[str, str] = {"amazon.wish_list_items": "amazon.wish_list_entries"}

TABLES = (
    users_table(APP, {"track_browsing_history": "bool", "is_prime": "bool"}),
    table(APP, "sellers", {"id": "int", "name": "str", "rating": "float"}),
    table(APP, "products", {"id": "int", "product_type": "str", "name": "str", "description": "str",
                            "seller_id": "int", "price": "float", "delivery_days": "int",
                            "inventory_quantity": "int", "weight": "float", "length": "float", "width": "float",
                            "height": "float", "color": "str", "relative_size": "str", "rating": "float",
                            "seller_rating": "float", "has_variations": "bool"}),
    table(APP, "product_reviews", {"id": "int", "product_id": "int", "user_id": "int", "is_verified": "bool",
                                   "rating": "int", "title": "str", "text": "str", "created_at": "datetime"}),
    table(APP, "product_questions", {"id": "int", "product_id": "int", "user_id": "int", "question": "str",
                                     "created_at": "datetime"}),
    table(APP, "product_question_answers", {"id": "int", "question_id": "int", "user_id": "int",
                                            "is_verified": "bool", "answer": "str", "created_at": "datetime"}),
    # one row per user: the promo code applied to the cart (the entries live in cart_entries)
    table(APP, "carts", {"id": "int", "user_id": "int", "promo_code": "str", "updated_at": "datetime"}),
    table(APP, "cart_entries", {"id": "int", "user_id": "int", "product_id": "int", "quantity": "int",
                                "gift_wrap_quantity": "int"}),
    table(APP, "wish_list_entries", {"id": "int", "user_id": "int", "product_id": "int", "quantity": "int"}),
    table(APP, "promo_codes", {"id": "int", "code": "str", "description": "str", "discount_percentage": "float",
                               "max_discount_amount": "float", "min_order_amount": "float",
                               "valid_until": "datetime"}),
    table(APP, "addresses", {"id": "int", "user_id": "int", "name": "str", "street_address": "str", "city": "str",
                             "state": "str", "country": "str", "zip_code": "str"}),
    payment_cards_table(APP),
    table(APP, "orders", {"id": "int", "user_id": "int", "address_id": "int", "tax": "float",
                          "delivery_fee": "float", "gift_wrap_fee": "float", "discount": "float",
                          "payment_card_id": "int", "created_at": "datetime", "address_text": "str",
                          "payment_card_digits": "str", "receipt_download_count": "int"}),
    table(APP, "order_items", {"id": "int", "order_id": "int", "product_id": "int", "ordered_quantity": "int",
                               "returned_quantity": "int", "gift_wrap_quantity": "int", "price": "float",
                               "expected_delivery_at": "datetime", "delivered_at": "datetime"}),
    table(APP, "deliverers", {"id": "int", "name": "str"}),
    table(APP, "returns", {"id": "int", "user_id": "int", "order_id": "int", "product_id": "int",
                           "deliverer_id": "int", "quantity": "int", "refund_amount": "float",
                           "created_at": "datetime", "picked_up_at": "datetime", "refunded_at": "datetime"}),
    subscriptions_table(APP, "prime_subscriptions"),
    table(APP, "browsing_history", {"id": "int", "user_id": "int", "product_id": "int", "created_at": "datetime"}),
)
