"""The expense kind (vendor, date, items, subtotal, tax, total: the receipt family's content) drawn four more
ways: a till receipt photographed or scanned, a business invoice, a handwritten expense slip and an
order-confirmation phone screen."""

from __future__ import annotations

from datetime import date

from pipelines.procedural.families import receipts
from pipelines.procedural.families.base import Content, knob_family, long_date, money, style_rng
from pipelines.procedural.families.drawing import ACCENTS, done, paper
from pipelines.procedural.render.canvas import GREY, INK, Canvas
from pipelines.procedural.render.hand import HAND_FACES, PENS, hand_line, lined_paper
from pipelines.procedural.render.knobs import Knobs
from pipelines.procedural.render.screens import phone, phone_rows

__all__ = ["EXPENSE_FAMILIES"]

DOMAINS = ("simple_note", "gmail", "splitwise", "venmo", "file_system")


def _till(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "till_receipt")
    face = st.choice(["mono", "sans", "cm_mono"])
    size, width = st.randint(14, 16), st.randint(400, 470)
    cv = Canvas(width, 1200, paper(st), knobs)
    lh = cv.line_height(size, 1.6)
    m = st.randint(22, 34)
    y = 24.0
    cv.center(y, c["vendor"].upper() if st.random() < 0.5 else c["vendor"], size + 5, INK, face + "_bold"
              if face in ("mono", "sans") else face)
    y += lh * 1.4
    cv.center(y, c["address"], size - 2, GREY, face)
    y += lh * 1.2
    d = date.fromisoformat(c["date"])
    cv.text(m, y, f"{d:%m/%d/%Y}  {c['time']}", size - 1, GREY, face)
    cv.text(width - m, y, f"#{c['order']}", size - 1, GREY, face, anchor="ra")
    y += lh
    cv.hline(y, m - 6, width - m + 6, GREY, 1, dashed=True)
    y += lh * 0.5
    for it in c["items"]:
        cv.pair(m, width - m, y, f"{it['qty']} {it['name']}", f"{it['amount']:.2f}", size, INK, face)
        y += lh * 0.85
        cv.text(m + 14, y, f"@ {it['price']:.2f}", size - 3, GREY, face)
        y += lh * 0.9
    cv.hline(y, m - 6, width - m + 6, GREY, 1, dashed=True)
    y += lh * 0.5
    cv.pair(m, width - m, y, "SUBTOTAL", f"{c['subtotal']:.2f}", size, INK, face)
    y += lh
    cv.pair(m, width - m, y, f"TAX {c['tax_rate']:g}%", f"{c['tax']:.2f}", size, INK, face)
    y += lh * 1.1
    cv.pair(m, width - m, y, "TOTAL", money(c["total"]), size + 3, INK, face + "_bold" if face in ("mono", "sans")
            else face)
    y += lh * 1.8
    cv.center(y, st.choice(["THANK YOU", "Thanks for visiting", "Have a nice day"]), size - 3, GREY, face)
    photo = st.random() < 0.5
    return done(cv, knobs, st, photo=photo, tilt=6 if photo else 0, perspective=0.04 if photo else 0,
                lighting=0.3 if photo else 0, noise=1.05 if photo else 0, crop_to=y + lh * 2, max_side=800,
                keep=[(0, 0, width, y + lh * 2)] if not photo else None)


def _invoice(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "invoice")
    accent = st.choice(ACCENTS)
    serif = st.random() < 0.5
    face, bold = ("serif", "serif_bold") if serif else ("sans", "sans_bold")
    w = 800
    cv = Canvas(w, 1100, paper(st), knobs)
    cv.rect((0, 0, w, 8), fill=accent)
    cv.text(40, 34, c["vendor"], 26, accent, bold)
    cv.text(40, 72, c["address"], 13, GREY, face)
    cv.text(w - 40, 34, "INVOICE", 28, INK, bold, anchor="ra")
    d = date.fromisoformat(c["date"])
    y = 130.0
    for label, value in (("Invoice no.", f"INV-{c['order']}"), ("Date", f"{d:%B} {d.day}, {d.year}"),
                         ("Terms", st.choice(["Due on receipt", "Paid in full", "Card payment"]))):
        cv.text(w - 300, y, label, 13, GREY, face)
        cv.text(w - 40, y, value, 13, INK, face, anchor="ra")
        y += cv.line_height(13, 1.6)
    cv.text(40, 130, "Bill to", 13, GREY, face)
    cv.text(40, 150, st.choice(["Accounts Payable", "Office Manager", "Team Operations"]), 14, INK, face)
    y = max(y, 200) + 20
    cols = [(40, "Description", "la"), (470, "Qty", "ra"), (600, "Unit price", "ra"), (w - 40, "Amount", "ra")]
    cv.rect((30, y - 6, w - 30, y + cv.px(14) + 10), fill=(236, 238, 244))
    for x, head, anchor in cols:
        cv.text(x, y, head, 14, GREY, bold, anchor=anchor)
    y += cv.line_height(14, 2.0)
    for it in c["items"]:
        for (x, _, anchor), v in zip(cols, (it["name"], str(it["qty"]), f"{it['price']:.2f}", f"{it['amount']:.2f}")):
            cv.text(x, y, v, 14, INK, face, anchor=anchor)
        y += cv.line_height(14, 1.9)
        cv.hline(y - 8, 30, w - 30)
    y += 10
    for label, value, big in (("Subtotal", f"{c['subtotal']:.2f}", False),
                              (f"Sales tax ({c['tax_rate']:g}%)", f"{c['tax']:.2f}", False),
                              ("Total", money(c["total"]), True)):
        cv.text(600, y, label, 16 if big else 14, INK if big else GREY, bold if big else face, anchor="ra")
        cv.text(w - 40, y, value, 16 if big else 14, INK, bold if big else face, anchor="ra")
        y += cv.line_height(16 if big else 14, 1.7)
    y += 20
    y = cv.wrapped(40, y, st.choice(["Thank you for your business.", "Questions about this invoice? Reply to the "
                                     "email it came with.", "Please keep this invoice for your records."]),
                   w - 80, 12, GREY, face)
    return done(cv, knobs, st, max_side=720, crop_to=y + 30, keep=[(0, 0, w, y + 30)])


def _slip(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "expense_slip")
    ink, face = st.choice(PENS), st.choice(HAND_FACES)
    size = st.randint(21, 25)
    step = round(size * 1.75 * knobs.text_scale)
    n_lines = len(c["items"]) + 6
    cv = Canvas(620, 60 + step * (n_lines + 1), paper(st), knobs)
    lined_paper(cv, 50 + step, step, margin_x=54)
    y = 50 + step - cv.px(size) * 1.05
    x = 66.0
    d = date.fromisoformat(c["date"])
    hand_line(cv, x, y, f"{c['vendor']} - {d.month}/{d.day}", size + 2, ink, st, face)
    y += step
    for it in c["items"]:
        end = hand_line(cv, x + 10, y, f"{it['qty']} x {it['name']}", size, ink, st, face)
        hand_line(cv, max(end + 20, 440), y, f"{it['amount']:.2f}", size, ink, st, face)
        y += step
    hand_line(cv, x + 10, y, f"tax {c['tax']:.2f}", size, ink, st, face)
    y += step
    end = hand_line(cv, x, y, "Total", size + 2, ink, st, face)
    hand_line(cv, max(end + 20, 440), y, money(c["total"]), size + 2, ink, st, face)
    y += step
    photo = st.random() < 0.6
    return done(cv, knobs, st, photo=photo, tilt=5 if photo else 0, perspective=0.03 if photo else 0,
                lighting=0.25 if photo else 0, noise=0.88 if photo else 0, max_side=720,
                keep=[(0, 0, cv.width, y + step)])


def _order_screen(c: Content, style_seed: int, knobs: Knobs) -> bytes:
    st = style_rng(style_seed, "order_screen")
    accent = st.choice(ACCENTS)
    cv, y = phone(knobs, st, "Orders", accent, "Order details", subtitle=f"Order #{c['order']}")
    d = date.fromisoformat(c["date"])
    y = phone_rows(cv, y + 6, [(c["vendor"], f"{long_date(c['date'])}, {d.year} at {c['time']}", "Paid")])
    y = phone_rows(cv, y, [(it["name"], f"Qty {it['qty']} x {it['price']:.2f}", f"{it['amount']:.2f}")
                           for it in c["items"]], size=12)
    phone_rows(cv, y, [("Subtotal", f"Tax {c['tax_rate']:g}%: {c['tax']:.2f}", f"{c['subtotal']:.2f}"),
                       ("Total charged", c["address"], money(c["total"]))], size=13)
    return done(cv, knobs, st, max_side=800)


_family = knob_family("expense", DOMAINS, receipts.sample, receipts.values, receipts.facts)


EXPENSE_FAMILIES = (
    _family("till_receipt", "document", "synthetic_receipt", "receipt", _till),
    _family("invoice", "document", "synthetic_document", "invoice", _invoice),
    _family("expense_slip", "document", "synthetic_handwriting", "expense slip", _slip),
    _family("order_screen", "screenshot", "synthetic_screenshot", "order screenshot", _order_screen),
)
