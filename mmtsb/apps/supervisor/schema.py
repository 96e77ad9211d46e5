"""Supervisor tables: the device owner's profile, saved addresses, payment cards and app passwords."""

from mmtsb.world.schema import table

TABLES = (
    table("supervisor", "profile", {"id": "int", "first_name": "str", "last_name": "str", "email": "str",
                                    "phone_number": "str", "birthday": "str", "sex": "str"}),
    table("supervisor", "addresses", {"id": "int", "name": "str", "street_address": "str", "city": "str",
                                      "state": "str", "country": "str", "zip_code": "str"}),
    table("supervisor", "payment_cards", {"id": "int", "owner_name": "str", "card_name": "str",
                                          "card_number": "str", "expiry_year": "int", "expiry_month": "int",
                                          "cvv_number": "str"}),
    table("supervisor", "account_passwords", {"id": "int", "account_name": "str", "password": "str"}),
)
