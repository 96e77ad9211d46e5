"""Starter scenario 5 (validate / upfront / state_mutation): check two invoices against a purchase order, act on
the result."""

from __future__ import annotations

from mmtsb.authoring.images import document
from mmtsb.authoring.model import Definition, Round, step
from mmtsb.authoring.nominal.common import BRENDA
from mmtsb.authoring.rows import contact, gmail_user, phone_user, project, task
from mmtsb.authoring.specs import create_comment, create_email, delete, update_task


def definition() -> Definition:
    """The definition of mmtsb_nominal_005."""
    uid, first = BRENDA.id, BRENDA.first
    comment = ("Discrepancy with PO-7781: invoice LP-0417 bills 3 packs of tri-fold brochures ($360.00) but the PO "
               "ordered 2 ($240.00), so the invoice total is $540.00 instead of $420.00 ($120.00 over).")
    subject = "Corrected invoice needed for LP-0417"
    body = ("Hi Marco,\n\nInvoice LP-0417 bills 3 packs of tri-fold brochures ($360.00), but our purchase order "
            "PO-7781 ordered 2 packs ($240.00). The invoice total should be $420.00 instead of $540.00, a difference "
            f"of $120.00. Could you send us a corrected invoice?\n\nThanks,\n{first}")
    heads = ["Item", "Qty", "Unit price", "Amount"]
    images = [
        ("purchase_order", lambda: document(
            "Harbor Analytics", "1200 Westlake Ave N, Seattle WA", (38, 50, 56), "Purchase Order PO-7781",
            [("Date", "April 2, 2026"), ("Ordered by", "Brenda Webster"),
             ("Deliver to", "Harbor Analytics, Suite 400")],
            (heads, [["Northwind Office Supply: copy paper (case)", "10", "38.00", "380.00"],
                     ["Northwind Office Supply: blue pens (box)", "20", "6.50", "130.00"],
                     ["Lakeside Printing: business cards (500)", "4", "45.00", "180.00"],
                     ["Lakeside Printing: tri-fold brochures (250)", "2", "120.00", "240.00"]]),
            totals=[("PO total", "$930.00")])),
        ("invoice_northwind", lambda: document(
            "Northwind Office Supply", "Invoice - accounts: dana.whitfield@northwindoffice.com", (21, 101, 192),
            "Invoice INV-2291",
            [("Bill to", "Harbor Analytics"), ("Your PO", "PO-7781"), ("Invoice date", "April 9, 2026"),
             ("Terms", "Net 30")],
            (heads, [["Copy paper, letter (case)", "10", "38.00", "380.00"],
                     ["Ballpoint pens, blue (box of 12)", "20", "6.50", "130.00"]]),
            totals=[("Subtotal", "$510.00"), ("Total due", "$510.00")])),
        ("invoice_lakeside", lambda: document(
            "Lakeside Printing", "Billing contact: Marco Bellini - marco.bellini@lakesideprinting.com",
            (123, 31, 162), "Invoice LP-0417",
            [("Bill to", "Harbor Analytics"), ("Your PO", "PO-7781"), ("Invoice date", "April 10, 2026"),
             ("Terms", "Net 15")],
            (heads, [["Business cards (box of 500)", "4", "45.00", "180.00"],
                     ["Tri-fold brochures (pack of 250)", "3", "120.00", "360.00"]]),
            totals=[("Subtotal", "$540.00"), ("Total due", "$540.00")])),
    ]
    rounds = [
        Round([1, 2, 3],
              "Here's our purchase order and the two invoices we received. Check every invoice line against the PO. "
              "If an invoice matches exactly, mark its payment task in my 'Vendor payments' project as complete. If "
              "it doesn't, leave the task open but add a comment to it describing the discrepancy.",
              "Send the purchase order and both invoices. Ask the assistant to validate each invoice against the PO "
              "and act as described in your query. Do not point out any discrepancy yourself. If it asks what the "
              "comment should say, tell it to name the line, the quantities and the amount difference. Move on once "
              "it reports what it did.",
              [step("todoist_show_projects", "payments", query="Vendor payments"),
               step("todoist_show_tasks", "payment_tasks", project_id="$payments.0.project_id"),
               step("todoist_update_task", task_id="$payment_tasks.no_section_tasks.0.task_id", is_completed=True),
               step("todoist_post_task_comment", task_id="$payment_tasks.no_section_tasks.1.task_id",
                    content=comment)],
              "Northwind's INV-2291 matches the PO ($510.00), so I completed its payment task. Lakeside's LP-0417 "
              "bills 3 brochure packs instead of 2 ($540.00 instead of $420.00); I left that task open and commented "
              "on it."),
        Round([],
              "Email the vendor whose invoice didn't match and ask for a corrected invoice, mentioning the exact "
              "difference. Also delete the 'Order toner for the office printer' task; Glen already ordered it.",
              "Ask the assistant to email the billing contact printed on the mismatching invoice asking for a "
              "corrected invoice with the exact difference, and to delete the toner task. If it asks for the "
              "address, tell it the contact is on the invoice. End the conversation once both are done.",
              [step("gmail_send_email", email_addresses=["marco.bellini@lakesideprinting.com"], subject=subject,
                    body=body),
               step("todoist_delete_task", task_id="$payment_tasks.no_section_tasks.2.task_id")],
              "I emailed Marco Bellini at Lakeside Printing about the $120.00 difference and deleted the toner task."),
    ]
    payments, link = project(400, uid, "Vendor payments", "blue")
    specs = [update_task(6500, is_completed=True), create_comment(6501, uid, comment),
             create_email(uid, [201], subject, body), delete("todoist.tasks", 6502)]
    criteria = ("The 'Pay Northwind Office Supply invoice INV-2291' task must be completed because INV-2291 matches "
                "PO-7781 ($510.00). The 'Pay Lakeside Printing invoice LP-0417' task must stay open with a comment "
                "explaining that the invoice bills 3 packs of tri-fold brochures instead of the 2 ordered ($540.00 vs "
                "$420.00, $120.00 over). An email asking for a corrected invoice and stating the $120.00 difference "
                "must be sent to marco.bellini@lakesideprinting.com, and the 'Order toner for the office printer' "
                "task must be deleted.")
    return Definition(5, BRENDA, "Brenda handles vendor payments for her team. She validates two supplier invoices "
                      "against the purchase order before paying, flags the mismatch and cleans up her task list.",
                      "validate", "upfront", "state_mutation", False, "synthetic_document", images, rounds, specs,
                      criteria,
                      appworld={"phone.contacts": [
                                    contact(200, uid, "Dana", "Whitfield", "dana.whitfield@northwindoffice.com",
                                            "(425) 555-0133", ["vendor"]),
                                    contact(201, uid, "Marco", "Bellini", "marco.bellini@lakesideprinting.com",
                                            "(206) 555-0176", ["vendor"])],
                                "todoist.projects": [payments], "todoist.project_collaborator_links": [link],
                                "todoist.tasks": [
                                    task(6500, 400, uid, "Pay Northwind Office Supply invoice INV-2291", 1,
                                         due="2026-05-09"),
                                    task(6501, 400, uid, "Pay Lakeside Printing invoice LP-0417", 2, due="2026-04-25"),
                                    task(6502, 400, uid, "Order toner for the office printer", 3)],
                                "gmail.users": [
                                    gmail_user(200, "Dana", "Whitfield", "dana.whitfield@northwindoffice.com"),
                                    gmail_user(201, "Marco", "Bellini", "marco.bellini@lakesideprinting.com")],
                                "phone.users": [phone_user(200, "Dana", "Whitfield", "(425) 555-0133"),
                                                phone_user(201, "Marco", "Bellini", "(206) 555-0176")]})
