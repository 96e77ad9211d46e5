"""Splitwise: expenses whose shares must add up, the payer as only debtor, groups with unique names."""

from mmtsb.testing.appworld.plan import call, sequence

A, B, C = "alice@gmail.com", "bob@gmail.com", "carol@gmail.com"

SEQUENCES = [
    sequence(
        "splitwise expenses",
        call("splitwise_record_expense", label="e1", description="Dinner", paid_amount=90, payer_email=A,
             debtor_emails=[A, B, C]),
        call("splitwise_record_expense", description="Taxi", paid_amount=90, payer_email=A, debtor_emails=[B, C],
             debt_amounts=[30, 30]),
        call("splitwise_record_expense", description="Taxi", paid_amount=100, payer_email=A,
             debtor_emails=[A, B, C], debt_amounts=[33.33, 33.33, 33.33]),
        call("splitwise_record_expense", description="Solo", paid_amount=10, payer_email=A, debtor_emails=[A]),
        call("splitwise_record_expense", description="Lists", paid_amount=10, payer_email=A, debtor_emails=[B],
             debt_amounts=[4, 6]),
        call("splitwise_record_expense", description="Outsider", paid_amount=10, payer_email=B, debtor_emails=[C]),
        call("splitwise_record_expense", description="Nobody", paid_amount=10, payer_email=A, debtor_emails=[]),
        call("splitwise_show_expense", expense_id="$e1.expense_id"),
        call("splitwise_show_expense", expense_id=999),
        call("splitwise_update_expense", expense_id="$e1.expense_id", debtor_emails=[B], debt_amounts=[20]),
        call("splitwise_update_expense", expense_id="$e1.expense_id", debt_amounts=[20]),
        call("splitwise_update_expense", expense_id="$e1.expense_id", debtor_emails=[A, B], debt_amounts=[45, 45]),
        call("splitwise_delete_expense", expense_id="$e1.expense_id"),
        call("splitwise_record_expense", description="Nobody", paid_amount=10, payer_email="ghost@gmail.com",
             debtor_emails=[B]),
    ),
    sequence(
        "splitwise groups",
        call("splitwise_create_group", label="g1", name="Trip", member_emails=[B]),
        call("splitwise_create_group", name="Trip", member_emails=[C]),
        call("splitwise_create_group", name="Home", member_emails=[]),
        call("splitwise_record_expense", description="Hotel", paid_amount=300, payer_email=A,
             debtor_emails=[A, B], group_id="$g1.group_id"),
        call("splitwise_record_expense", description="Hotel", paid_amount=300, payer_email=A,
             debtor_emails=[A, C], group_id="$g1.group_id"),
        call("splitwise_show_group", group_id="$g1.group_id"),
        call("splitwise_show_group", as_="carol", group_id="$g1.group_id"),
    ),
]
