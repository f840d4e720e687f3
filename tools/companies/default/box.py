"""Box's part of the default company: Legal's contracts and templates, Finance's invoices, partner folders.

``build`` returns the JSON-able state of :class:`tools.apps.box.state.BoxState`. Every file is a real
document (.docx, .xlsx, .pdf, .csv, .md) whose bytes are registered with :func:`keep`. Facts shared
with mail, calendar and drive come from :mod:`tools.companies.default.facts`. Distinctive details: the
CT-2291 renewal agreement has three Word versions (Hannah Wood's redline, version 3, replaced the
fixed fee for years 2 and 3 with a CPI adjustment); INV-20463, a March invoice, sits in the February
folder; the Fabrikam certificate of insurance is in the trash; an older "Payment run 2026-03-06.csv"
is in the trash while a newer one with the same name is live.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, time
from typing import Any

from tools.companies.default.facts import (
    CONTOSO_CONTRACT,
    CONTOSO_CURRENT,
    CONTOSO_PO,
    CONTOSO_RENEWAL,
    CONTOSO_SIGN_OFF,
    INVOICE,
    INVOICE_AMOUNT,
    INVOICE_PO,
    INVOICE_VENDOR,
    OFFSITE_BOOKING,
    OFFSITE_DATES,
    OFFSITE_PEOPLE,
    OFFSITE_PLACE,
    OFFSITE_VENUE,
)
from tools.companies.shared import keep
from tools.kernel.documents import make_docx, make_pdf, make_xlsx, mime_type_for

__all__ = ["build"]

MEGAN = "megan.harlow@contoso.example"
DANA_LI = "dana.li@contoso.example"
OMAR = "omar.haddad@fabrikam.example"
FABRIKAM_BILLING = "billing@fabrikam.example"
LAKESIDE = "events@lakesidelodge.example"
CRESTVIEW = "evidence@crestview.example"

# ---- documents ------------------------------------------------------------------------------------

_AGREEMENT_TITLE = f"Contoso Ltd - Renewal Agreement {CONTOSO_CONTRACT}"
_PARTIES = (
    f"Renewal of contract {CONTOSO_CONTRACT} between Northwind Traders, Inc. (\"Northwind\") and Contoso Ltd "
    "(\"Contoso\")."
)
_TERM = "1. Term. Three (3) years from April 1, 2026 to March 31, 2029."
_SCOPE = "2. Scope. Northwind Live inventory view for all 14 Contoso warehouses, with quarterly business reviews."
_LAW = "8. Governing law. New York."


def _agreement_v1() -> bytes:
    return make_docx(
        f"{_AGREEMENT_TITLE} (draft 1)",
        [
            _PARTIES,
            "Draft 1, February 20, 2026. Prepared by Maya Young (Procurement) from the 2024 agreement.",
            _TERM,
            _SCOPE,
            f"3. Fees. Annual fee to be agreed. The current fee is {CONTOSO_CURRENT} a year.",
            "4. Payment terms. Net 30 from the invoice date.",
            "5. Purchase order. Contoso issues a purchase order before the term starts.",
            "6. Data protection. The data processing addendum of April 1, 2024 continues to apply.",
            "7. Liability. Each party's liability is capped at the fees paid in the 12 months before the claim.",
            _LAW,
        ],
    )


def _agreement_v2() -> bytes:
    return make_docx(
        f"{_AGREEMENT_TITLE} (draft 2)",
        [
            _PARTIES,
            "Draft 2, March 4, 2026. Prepared by Maya Young (Procurement); pricing as in the proposal of March 4.",
            _TERM,
            _SCOPE,
            f"3. Fees. Annual fee of {CONTOSO_RENEWAL} (a 3% increase on the current {CONTOSO_CURRENT}), "
            "fixed for years 2 and 3 of the term.",
            "4. Payment terms. Net 30 from the invoice date. Contoso has asked for Net 45; Marcus Reed (CFO) decides.",
            f"5. Purchase order. Contoso issues purchase order {CONTOSO_PO} on signature.",
            "6. Data protection. The data processing addendum of April 1, 2024 continues to apply.",
            "7. Liability. Each party's liability is capped at the fees paid in the 12 months before the claim.",
            _LAW,
        ],
        table=[
            ["Year", "Period", "Annual fee"],
            ["Year 1", "April 2026 - March 2027", CONTOSO_RENEWAL],
            ["Year 2", "April 2027 - March 2028", CONTOSO_RENEWAL],
            ["Year 3", "April 2028 - March 2029", CONTOSO_RENEWAL],
        ],
    )


def _agreement_v3() -> bytes:
    return make_docx(
        f"{_AGREEMENT_TITLE} (draft 3, legal redline)",
        [
            _PARTIES,
            "Draft 3, March 6, 2026. Legal redline by Hannah Wood for Isaac King's review on March 10.",
            _TERM,
            _SCOPE,
            f"3. Fees. Annual fee of {CONTOSO_RENEWAL} in year 1; in years 2 and 3 the fee is adjusted by the "
            "change in the US consumer price index (CPI-U), by at most 5% a year.",
            "4. Payment terms. Net 30 from the invoice date. Contoso has asked for Net 45; Marcus Reed (CFO) decides.",
            f"5. Purchase order. Contoso issues purchase order {CONTOSO_PO} on signature.",
            "6. Data protection. A new data processing addendum (DPA 2026) replaces the addendum of April 1, 2024.",
            "7. Liability. Each party's liability is capped at the fees paid in the 12 months before the claim; "
            "breaches of confidentiality or data protection are capped at twice the annual fee.",
            _LAW,
        ],
        table=[
            ["Year", "Period", "Annual fee"],
            ["Year 1", "April 2026 - March 2027", CONTOSO_RENEWAL],
            ["Year 2", "April 2027 - March 2028", "CPI-adjusted (at most +5%)"],
            ["Year 3", "April 2028 - March 2029", "CPI-adjusted (at most +5%)"],
        ],
    )


def _agreement_markup() -> bytes:
    return make_docx(
        f"{_AGREEMENT_TITLE} (Contoso markup of draft 2)",
        [
            _PARTIES,
            "Contoso markup of draft 2, returned by Megan Harlow (Contoso Procurement) on March 7, 2026.",
            _TERM,
            _SCOPE,
            f"3. Fees. Annual fee of {CONTOSO_RENEWAL}, fixed for years 2 and 3 of the term.",
            "4. Payment terms. [Contoso markup] Net 45 from the invoice date.",
            f"5. Purchase order. Contoso issues purchase order {CONTOSO_PO} on signature.",
            "6. Data protection. The data processing addendum of April 1, 2024 continues to apply.",
            "7. Liability. Each party's liability is capped at the fees paid in the 12 months before the claim.",
            _LAW,
            "9. Termination for convenience. [Contoso markup] After the first year, either party may end this "
            "agreement with 60 days of written notice.",
        ],
    )


def _agreement_early() -> bytes:
    return make_docx(
        f"{_AGREEMENT_TITLE} (early outline)",
        [_PARTIES, "Outline, January 2026: term, fees and payment terms to follow the 2024 agreement."],
    )


def _agreement_pdf(final: bool) -> bytes:
    lines = [
        "Draft for Contoso review, from draft 2 of March 4, 2026.",
        "",
        "1. Term: three years, April 1, 2026 to March 31, 2029.",
        "2. Scope: Northwind Live inventory view for all 14 Contoso warehouses; quarterly business reviews.",
        f"3. Fees: {CONTOSO_RENEWAL} a year (+3% on {CONTOSO_CURRENT}), fixed for years 2 and 3.",
        "4. Payment terms: Net 30 from the invoice date.",
        f"5. Purchase order: {CONTOSO_PO}, issued on signature.",
        "7. Liability: capped at the fees paid in the 12 months before the claim.",
        "8. Governing law: New York.",
    ]
    if final:
        lines += [
            "",
            "Signature page",
            "For Northwind Traders, Inc.: Dana Whitfield, Chief Executive Officer",
            "For Contoso Ltd: Karen Ostrowski, Chief Financial Officer",
            "To be signed by March 31, 2026.",
        ]
    return make_pdf(f"{_AGREEMENT_TITLE} - draft for review", lines)


def _msa_signed() -> bytes:
    return make_pdf(
        f"Master services agreement {CONTOSO_CONTRACT} (signed)",
        [
            "Between Northwind Traders, Inc. and Contoso Ltd.",
            "Term: April 1, 2024 to March 31, 2026.",
            f"Annual fee: {CONTOSO_CURRENT}, invoiced quarterly in advance. Payment terms: Net 30.",
            "Liability: capped at the fees paid in the 12 months before the claim.",
            "Renewal: only by a written agreement signed by both parties before March 31, 2026.",
            "Data processing addendum dated April 1, 2024 attached as Schedule 2.",
            "",
            "Signed March 28, 2024:",
            "Dana Whitfield, Chief Executive Officer, Northwind Traders, Inc.",
            "Karen Ostrowski, Chief Financial Officer, Contoso Ltd",
        ],
    )


LEGAL_CHECKLIST = f"""# {CONTOSO_CONTRACT} renewal - legal review checklist

Owner: Hannah Wood. Review meeting with Isaac King: Tuesday March 10. Comments to Maya Young by
Monday March 16. Signature by March 31, 2026.

- [x] Term and scope match the proposal of March 4
- [ ] Fees: Sales agreed a fixed fee for years 2 and 3; check draft 3 against the proposal
- [ ] Net 45 request: decision by Marcus Reed
- [ ] New DPA 2026 sent to Contoso for countersignature
- [ ] Liability cap stays at 12 months of fees
- [ ] Pricing sign-off (Alex Morgan, James Okafor, Marcus Reed) by {CONTOSO_SIGN_OFF}
"""


def _freight_agreement() -> bytes:
    return make_pdf(
        f"Freight services agreement - {INVOICE_VENDOR}",
        [
            f"Agreement FL-2024-118 between Northwind Traders, Inc. and {INVOICE_VENDOR}, Inc.",
            "Term: October 1, 2024 to September 30, 2026.",
            "Estimated annual value: $148,000.",
            "Rates: pallet freight $700 per shipment; expedited courier run $410 per run;",
            "fuel surcharge per the monthly diesel index, shown as its own line on each invoice.",
            "Invoices: monthly in arrears, Net 30; every invoice must quote a Northwind purchase order number.",
            "Work outside the purchase order needs written approval from Northwind Procurement first.",
            "Termination: either party, with 90 days of written notice.",
            "Insurance: general liability of at least $2,000,000 and cargo cover of at least $250,000.",
            "Internal owner: Maya Young (Procurement). Fabrikam contact: Omar Haddad.",
        ],
    )


def _rate_card() -> bytes:
    return make_xlsx(
        {
            "Rates 2026": [
                ["Service", "Unit", "Rate (USD)", "Notes"],
                ["Pallet freight", "per shipment", 700, "Up to 26 pallets"],
                ["Expedited courier run", "per run", 410, "Same day, needs a PO line"],
                ["Liftgate delivery", "per stop", 85, ""],
                ["Overflow storage", "per pallet per week", 18, "Joliet cross-dock"],
                ["Fuel surcharge", "% of freight", "monthly index", "Diesel index, set on the 1st"],
            ]
        }
    )


def _litware_order() -> bytes:
    return make_pdf(
        "Order form LW-NWT-2025 - Litware Cloud Services",
        [
            "Customer: Northwind Traders, Inc. Supplier: Litware Cloud Services.",
            "Term: February 1, 2025 to January 31, 2027.",
            "Annual commitment: $612,000, invoiced quarterly in advance.",
            "Usage above the commitment: invoiced monthly in arrears, Net 30.",
            "Atlas migration credits: $24,000, applied in February 2026.",
            "Internal owner: Ethan Brooks (Engineering).",
        ],
    )


def _nda_mutual() -> bytes:
    return make_docx(
        "Mutual non-disclosure agreement (template)",
        [
            "Owner: Isaac King, General Counsel. Version 2026-01.",
            "1. Each party keeps the other's confidential information secret for 3 years from disclosure.",
            "2. Confidential information may be shared only with employees and advisers who need it.",
            "3. Governing law: New York.",
            "Use this template unchanged for prospects and partners; send any edits to Hannah Wood.",
        ],
    )


def _nda_one_way() -> bytes:
    return make_docx(
        "One-way non-disclosure agreement for vendors (template)",
        [
            "Owner: Isaac King, General Counsel. Version 2026-01.",
            "1. The vendor keeps Northwind's confidential information secret for 5 years from disclosure.",
            "2. The vendor returns or destroys Northwind's information within 30 days of the work ending.",
            "3. Governing law: New York.",
            "Use for vendors who receive Northwind data (for example auditors and penetration testers).",
        ],
    )


NDA_GUIDANCE = """# NDA templates - which one to use

Owner: Hannah Wood (Legal). Last reviewed January 12, 2026.

- Prospects and partners: Mutual NDA template 2026-01.
- Vendors who receive our data: One-way NDA template (vendor) 2026-01.
- Never change the governing law (New York) or the term without Isaac King's approval.
- Signed copies go to Legal > Signed NDAs, named "NDA - <Company> (signed YYYY-MM-DD).pdf".
"""


def _signed_nda(company: str, signed: str, kind: str, signer: str) -> bytes:
    return make_pdf(
        f"Non-disclosure agreement - {company}",
        [
            f"{kind} non-disclosure agreement between Northwind Traders, Inc. and {company}.",
            "Based on the Northwind template, version 2026-01." if signed >= "2026" else "Based on the 2025 template.",
            f"Signed {signed}.",
            "For Northwind Traders, Inc.: Isaac King, General Counsel",
            f"For {company}: {signer}",
        ],
    )


def _invoice(
    number: str, vendor: str, issued: str, due: str, po: str, lines: list[tuple[str, str]], total: str
) -> bytes:
    body = [
        vendor.upper(),
        f"Invoice: {number}",
        f"Invoice date: {issued}",
        f"Due date: {due}",
        "Bill to: Northwind Traders, Accounts Payable",
        f"PO number: {po}",
        "",
    ]
    body += [f"{what} .... {amount}" for what, amount in lines]
    body += ["", f"Total due: {total}"]
    return make_pdf(f"{vendor} - invoice {number}", body)


#: (id, file name, folder, uploaded (day, clock), uploader, invoice arguments)
INVOICES: list[tuple[str, str, str, tuple[str, str], str, tuple[Any, ...]]] = [
    (
        "file_inv_20388",
        "INV-20388 Proseware Recruiting.pdf",
        "folder_invoices_2026_02",
        ("2026-02-03", "09:12"),
        "tomas.rivera",
        ("INV-20388", "Proseware Recruiting", "2026-02-02", "2026-03-04", "PO-7702",
         [("Placement fee, hire of January 26, 2026", "$19,000.00")], "$19,000.00"),
    ),
    (
        "file_inv_20401",
        "INV-20401 Litware Cloud Services.pdf",
        "folder_invoices_2026_02",
        ("2026-02-05", "14:40"),
        "tomas.rivera",
        ("INV-20401", "Litware Cloud Services", "2026-02-05", "2026-03-07", "PO-7715",
         [("Usage above commitment, January 2026", "$14,210.55")], "$14,210.55"),
    ),
    (
        "file_inv_20417",
        f"{INVOICE} {INVOICE_VENDOR}.pdf",
        "folder_invoices_2026_02",
        ("2026-02-13", "11:05"),
        "tomas.rivera",
        (INVOICE, INVOICE_VENDOR, "2026-02-13", "2026-03-15", INVOICE_PO,
         [("Pallet freight, February 2026 (14 shipments)", "$9,800.00"), ("Fuel surcharge", "$1,040.00"),
          ("Expedited courier runs (4 at $410)", "$1,640.00")], INVOICE_AMOUNT),
    ),
    (
        "file_inv_20422",
        "INV-20422 Northwind Office Supply.pdf",
        "folder_invoices_2026_02",
        ("2026-02-16", "10:20"),
        "tomas.rivera",
        ("INV-20422", "Northwind Office Supply", "2026-02-16", "2026-03-18", "PO-7740",
         [("Office supplies, New York and Chicago", "$1,892.40")], "$1,892.40"),
    ),
    (
        "file_inv_20430",
        "INV-20430 Adatum Security.pdf",
        "folder_invoices_2026_02",
        ("2026-02-19", "16:02"),
        "tomas.rivera",
        ("INV-20430", "Adatum Security", "2026-02-19", "2026-03-21", "PO-7748",
         [("External penetration test, February 2026", "$8,750.00")], "$8,750.00"),
    ),
    (
        "file_inv_20436",
        "INV-20436 Tailspin Travel.pdf",
        "folder_invoices_2026_02",
        ("2026-02-23", "13:15"),
        "tomas.rivera",
        ("INV-20436", "Tailspin Travel", "2026-02-23", "2026-03-25", "PO-7752",
         [("February travel bookings (5 trips, detail sent by email)", "$4,310.75")], "$4,310.75"),
    ),
    (
        "file_inv_20441",
        "INV-20441 Lakeside Lodge.pdf",
        "folder_invoices_2026_02",
        ("2026-02-27", "09:48"),
        "tomas.rivera",
        ("INV-20441", "Lakeside Lodge", "2026-02-27", "2026-03-05", "PO-7760",
         [(f"Deposit, leadership offsite {OFFSITE_DATES} (booking {OFFSITE_BOOKING})", "$4,000.00")], "$4,000.00"),
    ),
    (
        "file_inv_20463",
        "INV-20463 Fabrikam Logistics.pdf",
        "folder_invoices_2026_02",  # filed in the wrong month's folder
        ("2026-03-04", "15:31"),
        "tomas.rivera",
        ("INV-20463", INVOICE_VENDOR, "2026-03-04", "2026-04-03", "PO-7794",
         [("Pallet freight, March 1-3 2026 (11 shipments)", "$7,700.00"), ("Fuel surcharge", "$825.00"),
          ("Liftgate deliveries (7 at $85)", "$595.00"), ("Adjustment", "$5.00")], "$9,125.00"),
    ),
    (
        "file_inv_20455",
        "INV-20455 Litware Cloud Services.pdf",
        "folder_invoices_2026_03",
        ("2026-03-02", "12:10"),
        "tomas.rivera",
        ("INV-20455", "Litware Cloud Services", "2026-03-02", "2026-04-01", "PO-7785",
         [("Usage above commitment, February 2026", "$13,987.20")], "$13,987.20"),
    ),
    (
        "file_inv_20459",
        "INV-20459 Wide World Importers.pdf",
        "folder_invoices_2026_03",
        ("2026-03-03", "10:44"),
        "tomas.rivera",
        ("INV-20459", "Wide World Importers", "2026-03-03", "2026-04-02", "PO-7788",
         [("Event merchandise, spring launch (400 tote bags)", "$2,640.00")], "$2,640.00"),
    ),
    (
        "file_inv_20470",
        "INV-20470 Proseware Recruiting.pdf",
        "folder_invoices_2026_03",
        ("2026-03-05", "17:20"),
        "tomas.rivera",
        ("INV-20470", "Proseware Recruiting", "2026-03-05", "2026-04-04", "PO-7796",
         [("Placement fee, hire of February 23, 2026", "$11,500.00")], "$11,500.00"),
    ),
]


def _payments_book() -> bytes:
    head = ["Invoice", "Vendor", "Amount (USD)", "Due date", "Status", "Approver", "Payment run"]
    return make_xlsx(
        {
            "February": [
                head,
                ["INV-20388", "Proseware Recruiting", 19000.00, "2026-03-04", "Paid", "Priya Shah", "2026-03-03"],
                ["INV-20401", "Litware Cloud Services", 14210.55, "2026-03-07", "Paid", "Owen Bell", "2026-03-06"],
                [INVOICE, INVOICE_VENDOR, 12480.00, "2026-03-15", "Awaiting approval", "Priya Shah", "2026-03-13"],
                ["INV-20422", "Northwind Office Supply", 1892.40, "2026-03-18", "Approved", "Tomas Rivera",
                 "2026-03-17"],
                ["INV-20430", "Adatum Security", 8750.00, "2026-03-21", "Awaiting approval", "Owen Bell", "2026-03-20"],
                ["INV-20436", "Tailspin Travel", 4310.75, "2026-03-25", "Approved", "Tomas Rivera", "2026-03-24"],
                ["INV-20441", "Lakeside Lodge", 4000.00, "2026-03-05", "Paid", "Marcus Reed", "2026-03-03"],
            ],
            "March": [
                head,
                ["INV-20455", "Litware Cloud Services", 13987.20, "2026-04-01", "Received", "Owen Bell", ""],
                ["INV-20459", "Wide World Importers", 2640.00, "2026-04-02", "Received", "Tomas Rivera", ""],
                ["INV-20463", INVOICE_VENDOR, 9125.00, "2026-04-03", "Received", "Priya Shah", ""],
                ["INV-20470", "Proseware Recruiting", 11500.00, "2026-04-04", "Disputed", "Owen Bell", ""],
            ],
        }
    )


PAYMENT_RUN = """payment_id,invoice,vendor,amount_usd,method,status
PAY-30611,INV-20401,Litware Cloud Services,14210.55,ACH,Sent
PAY-30612,INV-20398,Northwind Office Supply,612.80,ACH,Sent
PAY-30613,INV-20405,Tailspin Travel,2284.10,ACH,Sent
"""

PAYMENT_RUN_DRAFT = """payment_id,invoice,vendor,amount_usd,method,status
PAY-30611,INV-20401,Litware Cloud Services,14210.55,ACH,Pending
"""


def _pricing_book() -> bytes:
    return make_xlsx(
        {
            "Pricing": [
                ["Year", "Period", "Annual fee (USD)", "Change"],
                ["Current", "Apr 2024 - Mar 2026", 432000, ""],
                ["Year 1", "Apr 2026 - Mar 2027", 444960, "+3%"],
                ["Year 2", "Apr 2027 - Mar 2028", 444960, "fixed"],
                ["Year 3", "Apr 2028 - Mar 2029", 444960, "fixed"],
                ["Total (3 years)", "", 1334880, ""],
            ],
            "Payment terms": [
                ["Terms", "Days", "Effect"],
                ["Net 30", 30, "Our standard"],
                ["Net 45", 45, "Contoso's request: each quarterly payment arrives about 15 days later"],
            ],
        }
    )


def _proposed_terms() -> bytes:
    return make_pdf(
        "Contoso renewal - proposed terms",
        [
            "Account: Contoso Ltd (Northwind Live customer since 2024)",
            f"Renews contract {CONTOSO_CONTRACT}: {CONTOSO_CURRENT} a year, ends March 31, 2026",
            "Term: 3 years, starting April 1, 2026",
            f"Annual fee: {CONTOSO_RENEWAL} (3% increase), fixed for years 2 and 3",
            "Payment terms: Net 30 (Contoso asked for Net 45)",
            "Scope: live inventory view for all 14 warehouses, quarterly business reviews",
            f"Contoso's purchase order: {CONTOSO_PO}",
            "Signature needed by March 31, 2026",
        ],
    )


_WAREHOUSES = [
    ("Chicago North", "Chicago, IL", "2024-05-06", "-31%"),
    ("Chicago South", "Chicago, IL", "2024-05-06", "-28%"),
    ("Joliet", "Joliet, IL", "Planned April 2026", ""),
    ("Milwaukee", "Milwaukee, WI", "2024-06-10", "-26%"),
    ("Madison", "Madison, WI", "2024-06-10", "-22%"),
    ("Indianapolis", "Indianapolis, IN", "2024-07-15", "-30%"),
    ("Columbus", "Columbus, OH", "2024-07-15", "-27%"),
    ("Detroit", "Detroit, MI", "2024-09-02", "-25%"),
    ("Grand Rapids", "Grand Rapids, MI", "2024-09-02", "-24%"),
    ("Minneapolis", "Minneapolis, MN", "2024-10-14", "-33%"),
    ("Des Moines", "Des Moines, IA", "2024-10-14", "-29%"),
    ("St. Louis", "St. Louis, MO", "2024-11-18", "-28%"),
    ("Kansas City", "Kansas City, MO", "2025-01-13", "-26%"),
    ("Omaha", "Omaha, NE", "2025-01-13", "-30%"),
]


def _golive_book() -> bytes:
    rows: list[list[Any]] = [["Warehouse", "City", "Live since", "Stockout change"]]
    rows += [list(w) for w in _WAREHOUSES]
    return make_xlsx({"Warehouses": rows})


def _shipping_schedule() -> bytes:
    rows: list[list[Any]] = [["Date", "Route", "Pallets", "Service"]]
    rows += [
        ["2026-03-03", "Chicago DC - Milwaukee", 18, "Pallet freight"],
        ["2026-03-05", "Chicago DC - Indianapolis", 22, "Pallet freight"],
        ["2026-03-10", "Chicago DC - Detroit", 16, "Pallet freight"],
        ["2026-03-12", "Chicago DC - Columbus", 20, "Pallet freight"],
        ["2026-03-17", "Chicago DC - Minneapolis", 24, "Pallet freight"],
        ["2026-03-19", "Chicago DC - St. Louis", 14, "Pallet freight"],
        ["2026-03-24", "Chicago DC - Kansas City", 19, "Pallet freight"],
        ["2026-03-26", "New York office", 2, "Expedited courier"],
    ]
    return make_xlsx({"March": rows})


def _insurance_certificate() -> bytes:
    return make_pdf(
        f"Certificate of insurance - {INVOICE_VENDOR}",
        [
            "Insurer: Humongous Insurance. Policy HI-CGL-448120.",
            f"Insured: {INVOICE_VENDOR}, Inc. Certificate holder: Northwind Traders, Inc.",
            "General liability: $2,000,000 per occurrence. Cargo: $250,000 per load.",
            "Valid January 1, 2026 to December 31, 2026.",
        ],
    )


def _event_order() -> bytes:
    return make_pdf(
        f"{OFFSITE_VENUE} - event order {OFFSITE_BOOKING}",
        [
            "Client: Northwind Traders (contact: Amelia Ward, Alex Morgan)",
            f"Event: leadership offsite, Wednesday-Friday {OFFSITE_DATES}, 2026, {OFFSITE_PLACE}",
            f"Guests: {OFFSITE_PEOPLE}, single rooms, two nights",
            "Package: meeting room, meals, evening dinner on April 23, shuttle from Cold Spring station",
            "Total, all in: $38,500. Deposit of $4,000 received (invoice INV-20441).",
            "Balance of $34,500 due April 15, 2026. Final headcount due April 1, 2026.",
        ],
    )


_GUESTS = [
    ("Dana Whitfield", "CEO", ""),
    ("Alex Morgan", "Chief of Staff", ""),
    ("Marcus Reed", "CFO", ""),
    ("Elena Petrova", "VP Engineering", "Vegetarian"),
    ("James Okafor", "VP Sales", ""),
    ("Zoe Adams", "Head of Marketing", "Gluten free"),
    ("Nora Patel", "Head of People", ""),
    ("Victor Alvarez", "Head of Operations", ""),
    ("Isaac King", "General Counsel", ""),
    ("Olivia Baker", "Head of Customer Success", "Vegan"),
    ("Amelia Ward", "Executive Assistant", ""),
]


def _rooming_list() -> bytes:
    rows: list[list[Any]] = [["Guest", "Role", "Room", "Nights", "Dietary needs"]]
    rows += [[name, role, f"Lodge {101 + n}", "Apr 22-24", diet] for n, (name, role, diet) in enumerate(_GUESTS)]
    return make_xlsx({"Rooms": rows})


def _open_decisions() -> bytes:
    return make_docx(
        "Chief of staff - open decisions (March 2026)",
        [
            "Kept by Alex Morgan. Updated March 8, 2026.",
            "1. Contoso renewal: Net 45 request - Marcus Reed decides before pricing sign-off on March 12.",
            "2. Chicago office lease: renew or move - Victor Alvarez and Marcus Reed, answer due March 31.",
            f"3. Leadership offsite: final headcount to {OFFSITE_VENUE} by April 1.",
            f"4. {INVOICE} ({INVOICE_VENDOR}): courier runs outside the PO - confirm with Priya Shah.",
        ],
    )


def _access_review() -> bytes:
    return make_xlsx(
        {
            "Q4 2025": [
                ["System", "Reviewer", "Accounts", "Removed", "Signed off"],
                ["Payments", "Kai Nakamura", 14, 2, "2026-01-09"],
                ["Warehouse portal", "Leo Hall", 58, 5, "2026-01-12"],
            ]
        }
    )


def _comp_bands() -> bytes:
    return make_xlsx(
        {
            "Bands": [
                ["Level", "Minimum", "Midpoint", "Maximum"],
                ["L3", 98000, 112000, 126000],
                ["L4", 121000, 139000, 157000],
            ]
        }
    )


# ---- the tree -------------------------------------------------------------------------------------

#: (id, name, parent id, owner, created day, description)
FOLDERS: list[tuple[str, str, str, str, str, str]] = [
    ("folder_legal", "Legal", "0", "isaac.king", "2024-01-10", "Contracts, templates and signed NDAs"),
    ("folder_contracts", "Contracts", "folder_legal", "isaac.king", "2024-01-10", "Customer and vendor contracts"),
    ("folder_contracts_contoso", "Contoso Ltd", "folder_contracts", "isaac.king", "2024-03-01",
     f"Contract {CONTOSO_CONTRACT} and its renewal"),
    ("folder_contoso_old_drafts", "Old drafts", "folder_contracts_contoso", "isaac.king", "2026-01-14", ""),
    ("folder_contracts_fabrikam", "Fabrikam Logistics", "folder_contracts", "isaac.king", "2024-09-20", ""),
    ("folder_contracts_litware", "Litware Cloud Services", "folder_contracts", "isaac.king", "2025-01-20", ""),
    ("folder_legal_templates", "Templates", "folder_legal", "isaac.king", "2024-01-10", "Approved templates"),
    ("folder_signed_ndas", "Signed NDAs", "folder_legal", "isaac.king", "2024-01-10", ""),
    ("folder_finance", "Finance", "0", "priya.shah", "2024-02-01", "Accounts payable and finance files"),
    ("folder_vendor_invoices", "Vendor invoices", "folder_finance", "priya.shah", "2024-02-01",
     "One folder per month, by invoice date"),
    ("folder_invoices_2026_02", "2026-02", "folder_vendor_invoices", "priya.shah", "2026-02-01", ""),
    ("folder_invoices_2026_03", "2026-03", "folder_vendor_invoices", "priya.shah", "2026-03-01", ""),
    ("folder_payments", "Payments", "folder_finance", "priya.shah", "2024-02-01", "Payment runs and the AP tracker"),
    ("folder_partners", "Partners", "0", "me", "2024-04-02", "Folders shared with customers, vendors and venues"),
    ("folder_partners_contoso", "Contoso", "folder_partners", "me", "2024-04-02", "Shared with Contoso Ltd"),
    ("folder_partners_fabrikam", "Fabrikam Logistics", "folder_partners", "me", "2024-10-01",
     "Shared with Fabrikam Logistics"),
    ("folder_partners_lakeside", "Lakeside Lodge", "folder_partners", "me", "2026-02-20",
     f"Leadership offsite {OFFSITE_DATES}, booking {OFFSITE_BOOKING}"),
    ("folder_soc2_evidence", "SOC 2 evidence - Crestview", "0", "kai.nakamura", "2026-03-02",
     "Evidence for the SOC 2 audit; due March 20"),
    ("folder_compensation", "Compensation", "0", "nora.patel", "2025-11-03", ""),
]

Version = tuple[str, str, str, bytes]  # (day, clock, uploader, bytes)


def _files() -> list[tuple[str, str, str, str, list[Version]]]:
    """(id, name, folder id, description, versions oldest first)."""
    text = str.encode
    files: list[tuple[str, str, str, str, list[Version]]] = [
        ("file_ct2291_agreement_docx", f"{CONTOSO_CONTRACT} Contoso renewal agreement.docx", "folder_contracts_contoso",
         "Renewal agreement, working Word copy",
         [("2026-02-20", "10:14", "maya.young", _agreement_v1()),
          ("2026-03-04", "11:41", "maya.young", _agreement_v2()),
          ("2026-03-06", "15:22", "hannah.wood", _agreement_v3())]),
        ("file_ct2291_agreement_pdf", f"{CONTOSO_CONTRACT} Contoso renewal agreement.pdf", "folder_contracts_contoso",
         "Draft sent to Contoso for review",
         [("2026-03-04", "12:05", "maya.young", _agreement_pdf(False)),
          ("2026-03-05", "09:30", "maya.young", _agreement_pdf(True))]),
        ("file_ct2291_msa_signed", f"{CONTOSO_CONTRACT} Master services agreement (signed 2024-03-28).pdf",
         "folder_contracts_contoso", "The agreement in force until March 31, 2026",
         [("2024-03-29", "10:02", "isaac.king", _msa_signed())]),
        ("file_ct2291_legal_checklist", f"{CONTOSO_CONTRACT} legal review checklist.md", "folder_contracts_contoso", "",
         [("2026-03-06", "16:40", "hannah.wood", text(LEGAL_CHECKLIST))]),
        ("file_ct2291_early_outline", f"{CONTOSO_CONTRACT} renewal agreement - early outline.docx",
         "folder_contoso_old_drafts", "", [("2026-01-14", "09:20", "maya.young", _agreement_early())]),
        ("file_fabrikam_freight_agreement", "Fabrikam Logistics freight services agreement.pdf",
         "folder_contracts_fabrikam", "Agreement FL-2024-118",
         [("2024-09-27", "14:18", "maya.young", _freight_agreement())]),
        ("file_fabrikam_rate_card", "Fabrikam rate card 2026.xlsx", "folder_contracts_fabrikam", "",
         [("2026-01-06", "11:30", "maya.young", _rate_card())]),
        ("file_litware_order_form", "Litware Cloud Services order form 2025.pdf", "folder_contracts_litware", "",
         [("2025-01-24", "15:45", "isaac.king", _litware_order())]),
        ("file_mutual_nda_template", "Mutual NDA template 2026-01.docx", "folder_legal_templates", "",
         [("2026-01-12", "10:00", "isaac.king", _nda_mutual())]),
        ("file_vendor_nda_template", "One-way NDA template (vendor) 2026-01.docx", "folder_legal_templates", "",
         [("2026-01-12", "10:05", "isaac.king", _nda_one_way())]),
        ("file_nda_guidance", "NDA template guidance.md", "folder_legal_templates", "",
         [("2026-01-12", "10:20", "hannah.wood", text(NDA_GUIDANCE))]),
        ("file_nda_woodgrove", "NDA - Woodgrove Bank (signed 2026-01-20).pdf", "folder_signed_ndas", "",
         [("2026-01-21", "09:10", "hannah.wood", _signed_nda("Woodgrove Bank", "2026-01-20", "Mutual",
                                                              "Lena Fischer, VP Procurement"))]),
        ("file_nda_lakeside", "NDA - Lakeside Lodge (signed 2026-02-12).pdf", "folder_signed_ndas", "",
         [("2026-02-13", "11:25", "hannah.wood", _signed_nda("Lakeside Lodge", "2026-02-12", "One-way",
                                                              "Tom Becker, General Manager"))]),
        ("file_nda_adatum", "NDA - Adatum Security (signed 2025-11-04).pdf", "folder_signed_ndas", "",
         [("2025-11-05", "16:00", "hannah.wood", _signed_nda("Adatum Security", "2025-11-04", "One-way",
                                                              "Kim Lau, Engagement Lead"))]),
    ]
    for fid, name, folder, (day, clock), who, args in INVOICES:
        files.append((fid, name, folder, "", [(day, clock, who, _invoice(*args))]))
    files += [
        ("file_vendor_payments_2026", "Vendor payments 2026.xlsx", "folder_payments", "AP tracker: one sheet a month",
         [("2026-03-02", "08:40", "tomas.rivera", _payments_book())]),
        ("file_payment_run_2026_03_06_draft", "Payment run 2026-03-06.csv", "folder_payments", "",
         [("2026-03-06", "15:10", "tomas.rivera", text(PAYMENT_RUN_DRAFT))]),
        ("file_payment_run_2026_03_06", "Payment run 2026-03-06.csv", "folder_payments", "Sent to the bank 16:00",
         [("2026-03-06", "16:05", "owen.bell", text(PAYMENT_RUN))]),
        ("file_contoso_pricing", "CT-2291 renewal pricing model.xlsx", "folder_finance", "Prepared by Grace Kim",
         [("2026-03-04", "10:15", "grace.kim", _pricing_book())]),
        ("file_contoso_proposed_terms", "Contoso renewal - proposed terms.pdf", "folder_partners_contoso", "",
         [("2026-03-04", "14:10", "isabella.rossi", _proposed_terms())]),
        ("file_contoso_markup", f"{CONTOSO_CONTRACT} renewal agreement - Contoso markup.docx",
         "folder_partners_contoso", "Contoso's comments on draft 2",
         [("2026-03-07", "10:32", MEGAN, _agreement_markup())]),
        ("file_contoso_golive_status", "Contoso warehouse go-live status.xlsx", "folder_partners_contoso", "",
         [("2026-02-26", "13:00", DANA_LI, _golive_book())]),
        ("file_fabrikam_shipping_schedule", "Fabrikam shipping schedule March 2026.xlsx", "folder_partners_fabrikam",
         "", [("2026-02-27", "17:05", OMAR, _shipping_schedule())]),
        ("file_fabrikam_coi_2026", "Fabrikam certificate of insurance 2026.pdf", "folder_partners_fabrikam", "",
         [("2026-01-15", "09:40", OMAR, _insurance_certificate())]),
        ("file_lakeside_event_order", f"Lakeside Lodge event order {OFFSITE_BOOKING}.pdf", "folder_partners_lakeside",
         "", [("2026-02-27", "10:30", LAKESIDE, _event_order())]),
        ("file_offsite_rooming_list", "Offsite rooming list.xlsx", "folder_partners_lakeside", "",
         [("2026-03-05", "12:45", "amelia.ward", _rooming_list())]),
        ("file_access_review_q4", "Access review Q4 2025.xlsx", "folder_soc2_evidence", "CR-01",
         [("2026-03-03", "10:00", "kai.nakamura", _access_review())]),
        ("file_comp_bands_2026", "Compensation bands 2026.xlsx", "folder_compensation", "",
         [("2025-11-03", "15:00", "nora.patel", _comp_bands())]),
        ("file_open_decisions", "Chief of staff - open decisions.docx", "0", "",
         [("2026-03-08", "18:20", "me", _open_decisions())]),
    ]
    return files


#: Items in the trash: id -> (day, clock, who trashed it).
TRASHED = {
    "folder_contoso_old_drafts": ("2026-03-04", "12:30", "maya.young"),
    "file_payment_run_2026_03_06_draft": ("2026-03-06", "16:02", "tomas.rivera"),
    "file_fabrikam_coi_2026": ("2026-03-06", "17:45", "me"),
}

#: (id, folder id, person, role, created day)
COLLABORATIONS: list[tuple[str, str, str, str, str]] = [
    ("collab_hannah_legal", "folder_legal", "hannah.wood", "editor", "2024-01-10"),
    ("collab_alex_legal", "folder_legal", "me", "viewer", "2024-06-03"),
    ("collab_maya_legal", "folder_legal", "maya.young", "viewer", "2024-02-12"),
    ("collab_alex_contracts", "folder_contracts", "me", "editor", "2024-06-03"),
    ("collab_maya_contracts", "folder_contracts", "maya.young", "editor", "2024-02-12"),
    ("collab_marcus_contracts", "folder_contracts", "marcus.reed", "viewer", "2024-02-12"),
    ("collab_isabella_contracts_contoso", "folder_contracts_contoso", "isabella.rossi", "viewer", "2025-12-01"),
    ("collab_james_contracts_contoso", "folder_contracts_contoso", "james.okafor", "viewer", "2025-12-01"),
    ("collab_alex_finance", "folder_finance", "me", "editor", "2024-06-03"),
    ("collab_marcus_finance", "folder_finance", "marcus.reed", "co-owner", "2024-02-01"),
    ("collab_owen_finance", "folder_finance", "owen.bell", "editor", "2024-02-01"),
    ("collab_grace_finance", "folder_finance", "grace.kim", "editor", "2024-02-01"),
    ("collab_tomas_finance", "folder_finance", "tomas.rivera", "editor", "2024-02-01"),
    ("collab_megan_contoso", "folder_partners_contoso", MEGAN, "editor", "2025-11-18"),
    ("collab_dana_li_contoso", "folder_partners_contoso", DANA_LI, "viewer", "2024-04-02"),
    ("collab_isabella_partners_contoso", "folder_partners_contoso", "isabella.rossi", "editor", "2024-04-02"),
    ("collab_omar_fabrikam", "folder_partners_fabrikam", OMAR, "editor", "2024-10-01"),
    ("collab_fabrikam_billing", "folder_partners_fabrikam", FABRIKAM_BILLING, "uploader", "2024-10-01"),
    ("collab_maya_partners_fabrikam", "folder_partners_fabrikam", "maya.young", "editor", "2024-10-01"),
    ("collab_lakeside_events", "folder_partners_lakeside", LAKESIDE, "editor", "2026-02-20"),
    ("collab_amelia_lakeside", "folder_partners_lakeside", "amelia.ward", "editor", "2026-02-20"),
    ("collab_alex_soc2", "folder_soc2_evidence", "me", "uploader", "2026-03-02"),
    ("collab_ethan_soc2", "folder_soc2_evidence", "ethan.brooks", "co-owner", "2026-03-02"),
    ("collab_crestview_soc2", "folder_soc2_evidence", CRESTVIEW, "viewer", "2026-03-02"),
]

#: (id, file id, author, (day, clock), message)
COMMENTS: list[tuple[str, str, str, tuple[str, str], str]] = [
    ("comment_agreement_po", "file_ct2291_agreement_docx", "maya.young", ("2026-03-04", "11:50"),
     f"Contoso will issue {CONTOSO_PO} once our pricing sign-off is done ({CONTOSO_SIGN_OFF})."),
    ("comment_agreement_cpi", "file_ct2291_agreement_docx", "isabella.rossi", ("2026-03-06", "16:10"),
     "Hannah's redline (version 3) changes section 3 to a CPI adjustment in years 2 and 3. We agreed a fixed fee "
     "for all three years with Contoso - Megan confirmed by phone. Can we go back to the March 4 wording?"),
    ("comment_agreement_liability", "file_ct2291_agreement_docx", "isaac.king", ("2026-03-06", "17:02"),
     "Section 7: the liability cap stays at 12 months of fees. Not negotiable."),
    ("comment_inv_20417_courier", "file_inv_20417", "tomas.rivera", ("2026-03-05", "13:30"),
     f"Matches {INVOICE_PO} except the four expedited courier runs ($1,640), which were added after the PO."),
    ("comment_inv_20417_priya", "file_inv_20417", "priya.shah", ("2026-03-05", "15:02"),
     "I'll approve once Alex confirms there are no concerns. Tomas: it can go in the Friday March 13 run."),
    ("comment_inv_20470_dispute", "file_inv_20470", "owen.bell", ("2026-03-06", "10:20"),
     "Disputed: the candidate left within the 60-day guarantee. Proseware was told on March 6."),
    ("comment_terms_password_note", "file_contoso_proposed_terms", "me", ("2026-03-04", "14:30"),
     "Megan - Isabella will send you the link password separately."),
    ("comment_terms_megan", "file_contoso_proposed_terms", MEGAN, ("2026-03-05", "08:55"),
     "Received, thank you. Our legal team is reviewing and will mark up the agreement."),
    ("comment_payment_run", "file_payment_run_2026_03_06", "owen.bell", ("2026-03-06", "16:20"),
     "Sent to the bank at 16:00. Next run Friday March 13."),
    ("comment_event_order", "file_lakeside_event_order", "amelia.ward", ("2026-03-02", "11:00"),
     "Final headcount is due to the lodge by April 1."),
]

#: item id -> (access, password protected, expires or "", can download, created by, (day, clock))
SHARED_LINKS: dict[str, tuple[str, bool, str, bool, str, tuple[str, str]]] = {
    "file_contoso_proposed_terms": ("open", True, "2026-03-31", True, "me", ("2026-03-04", "14:25")),
    "file_fabrikam_freight_agreement": ("company", False, "", True, "maya.young", ("2025-10-02", "09:00")),
    "folder_partners_lakeside": ("collaborators", False, "", True, "me", ("2026-02-20", "15:30")),
    "file_mutual_nda_template": ("company", False, "", True, "isaac.king", ("2026-01-12", "10:30")),
    "file_fabrikam_shipping_schedule": ("open", False, "2026-04-01", True, "me", ("2026-03-02", "08:15")),
}


def build(people: dict[str, dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """Return Box's initial state as JSON-able values.

    Args:
        people: The directory's people keyed by id (``tools.companies.default.people.people_records()``).
        now: The frozen current instant; every timestamp lies before it.
        user: Email address of the acting user ("me" in the tables above).
    """
    tz = now.tzinfo

    def email(who: str) -> str:
        if who == "me":
            return user
        return who if "@" in who else str(people[who]["email"])

    def at(day: str, clock: str = "09:00") -> str:
        hour, minute = (int(x) for x in clock.split(":"))
        stamp = datetime.combine(datetime.fromisoformat(day).date(), time(hour, minute), tz)
        if stamp >= now:
            raise ValueError(f"box data: time {day} {clock} is not before now")
        return stamp.isoformat()

    def link(item_id: str) -> dict[str, Any] | None:
        if item_id not in SHARED_LINKS:
            return None
        access, protected, expires, download, by, (day, clock) = SHARED_LINKS[item_id]
        token = hashlib.sha256(f"northwind:{item_id}".encode()).hexdigest()[:32]
        return {
            "url": f"https://northwind.app.box.com/s/{token}",
            "access": access,
            "password_protected": protected,
            "expires": expires or None,
            "can_download": download,
            "created_by": email(by),
            "created": at(day, clock),
        }

    def trash(item_id: str) -> dict[str, Any]:
        if item_id not in TRASHED:
            return {"trashed": False, "trashed_at": None, "trashed_by": ""}
        day, clock, who = TRASHED[item_id]
        return {"trashed": True, "trashed_at": at(day, clock), "trashed_by": email(who)}

    folders: dict[str, dict[str, Any]] = {}
    latest: dict[str, str] = {}
    for fid, name, parent, owner, day, description in FOLDERS:
        folders[fid] = {
            "id": fid,
            "name": name,
            "parent_id": parent,
            "owner": email(owner),
            "created_by": email(owner),
            "created": at(day, "09:00"),
            "modified": at(day, "09:00"),
            "description": description,
            **trash(fid),
            "shared_link": link(fid),
        }
        latest[fid] = day

    files: dict[str, dict[str, Any]] = {}
    versions: dict[str, dict[str, Any]] = {}
    for fid, name, folder, description, history in _files():
        owner = folders[folder]["owner"] if folder != "0" else user
        for n, (day, clock, who, data) in enumerate(history, start=1):
            versions[f"ver_{fid.removeprefix('file_')}_{n}"] = {
                "id": f"ver_{fid.removeprefix('file_')}_{n}",
                "file_id": fid,
                "number": n,
                "blob": keep(data),
                "size": len(data),
                "uploaded_by": email(who),
                "uploaded_at": at(day, clock),
                "promoted_from": None,
            }
        first, last = history[0], history[-1]
        files[fid] = {
            "id": fid,
            "name": name,
            "parent_id": folder,
            "owner": owner,
            "created_by": email(first[2]),
            "created": at(first[0], first[1]),
            "modified": at(last[0], last[1]),
            "modified_by": email(last[2]),
            "description": description,
            "mime_type": mime_type_for(name),
            "size": len(last[3]),
            "blob": keep(last[3]),
            "version_number": len(history),
            **trash(fid),
            "shared_link": link(fid),
        }
        if folder in latest and last[0] > latest[folder]:
            latest[folder] = last[0]
    for fid, day in latest.items():  # a folder's modified time follows its newest upload
        if day != folders[fid]["created"][:10]:
            folders[fid]["modified"] = at(day, "18:00") if day < now.date().isoformat() else folders[fid]["modified"]

    collaborations = {
        cid: {
            "id": cid,
            "folder_id": folder,
            "email": email(who),
            "role": role,
            "status": "accepted",
            "invited_by": folders[folder]["owner"],
            "created": at(day, "10:00"),
            "modified": at(day, "10:00"),
        }
        for cid, folder, who, role, day in COLLABORATIONS
    }
    comments = {
        cid: {"id": cid, "file_id": fid, "author": email(who), "message": text, "created": at(day, clock)}
        for cid, fid, who, (day, clock), text in COMMENTS
    }
    return {
        "folders": folders,
        "files": files,
        "versions": versions,
        "collaborations": collaborations,
        "comments": comments,
    }
