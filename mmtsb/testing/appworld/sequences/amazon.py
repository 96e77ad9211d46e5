"""Amazon: address names unique per user, order sort fields."""

from mmtsb.testing.appworld.plan import call, card_of, sequence

HOME = {"name": "Home", "street_address": "1 Main St", "city": "Seattle", "state": "WA", "country": "USA",
        "zip_code": 98101}

SEQUENCES = [
    sequence(
        "amazon addresses and orders",
        call("amazon_add_address", label="a1", **HOME),
        call("amazon_add_address", **{**HOME, "street_address": "9 Side St"}),
        call("amazon_add_address", label="a2", **{**HOME, "name": "Work", "street_address": "9 Side St"}),
        call("amazon_update_address", address_id="$a2.address_id", name="Home"),
        call("amazon_update_address", address_id="$a2.address_id", city="Tacoma"),
        call("amazon_show_addresses"),
        call("amazon_delete_address", as_="bob", address_id="$a2.address_id"),
        call("amazon_delete_address", address_id="$a2.address_id"),
        call("amazon_show_orders", sort_by="-paid_amount"),
        call("amazon_show_orders", sort_by="+created_at"),
        call("amazon_show_orders", sort_by="-total"),
    ),
]

CARD = card_of("alice")

SEQUENCES += [
    sequence(
        "amazon payment cards, prime and settings",
        call("amazon_add_payment_card", label="c1", **CARD),
        call("amazon_add_payment_card", **{**CARD, "expiry_year": 2020}),          # not what the bank holds
        call("amazon_add_payment_card", as_="bob", label="c2", **card_of("bob")),
        call("amazon_show_payment_cards"),
        call("amazon_update_payment_card", payment_card_id="$c1.payment_card_id", card_name="Work Visa"),
        call("amazon_update_payment_card", as_="bob", payment_card_id="$c1.payment_card_id", card_name="Mine"),
        call("amazon_show_payment_card", payment_card_id="$c1.payment_card_id"),
        call("amazon_subscribe_prime", payment_card_id="$c1.payment_card_id", duration="monthly"),
        call("amazon_subscribe_prime", payment_card_id="$c1.payment_card_id", duration="monthly"),
        call("amazon_show_prime_subscriptions"),
        call("amazon_delete_payment_card", payment_card_id="$c2.payment_card_id"),
        call("amazon_delete_payment_card", as_="bob", payment_card_id="$c2.payment_card_id"),
        call("amazon_delete_payment_card", as_="bob", payment_card_id="$c2.payment_card_id"),
        call("amazon_clear_cart"),
        call("amazon_clear_wish_list"),
        call("amazon_add_product_to_cart", product_id=999),
        call("amazon_add_product_to_wish_list", product_id=999),
        call("amazon_place_order", payment_card_id="$c1.payment_card_id", address_id=999),
        call("amazon_update_account_name", last_name="Stone-Reed"),
        call("amazon_show_account"),
    ),
    sequence(
        "amazon addresses of several people",
        call("amazon_add_address", label="h", **HOME),
        call("amazon_add_address", as_="bob", label="b", **HOME),
        call("amazon_update_address", as_="bob", address_id="$b.address_id", street_address="2 Elm St", zip_code=98102),
        call("amazon_update_address", address_id="$b.address_id", street_address="3 Oak St"),
        call("amazon_add_address", **{**HOME, "name": "Cabin", "street_address": "7 Lake Rd", "city": "Leavenworth"}),
        call("amazon_delete_address", address_id="$h.address_id"),
        call("amazon_add_address", **HOME),
        call("amazon_show_addresses", as_="bob"),
        call("amazon_delete_account", as_="carol"),
        call("amazon_show_addresses", as_="carol"),
    ),
]
