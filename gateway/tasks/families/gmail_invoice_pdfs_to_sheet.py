"""Read a purchase order's invoice PDFs from the mailbox into a workbook and reply to the colleague with it.

Document work in the shell: the agent saves the invoice PDFs into the workspace, reads each one's number, vendor
and total (Python with pypdf in the sandbox), writes a workbook with a row per invoice and replies in the
colleague's thread with it attached. Graded on the attached workbook's rows (every invoice of the PO once, its
total to the cent, no other row) and on the reply being in that thread to that colleague.

Scenario shapes (picked by the seed):

- ``one_mail``: the colleague's own mail carries the PDFs.
- ``vendor_mails``: each invoice came in its own vendor mail naming the PO; one more vendor mail is another PO's.
- ``with_duplicate``: vendor mails, and one vendor sent the same invoice twice (a reminder); it is listed once.

Varies: the colleague, the PO, the vendors, invoice numbers and amounts (cents), the phrasing (composed).
"""

from __future__ import annotations

from typing import Any

from gateway.tasks.kit.base import Family, Instance
from gateway.tasks.kit.docwork import cents, exposure, money, python_step, table_check
from gateway.tasks.kit.phrasing import compose
from gateway.tasks.kit.records import attachment, message

__all__ = ["FAMILY"]

VENDORS = (
    ("Fabrikam Logistics", "fabrikam.example"), ("Contoso Supplies", "contoso.example"),
    ("Tailspin Print", "tailspin.example"), ("Litware Cloud", "litware.example"),
    ("Adatum Facilities", "adatum.example"), ("Proseware Legal", "proseware.example"),
)  # fmt: skip
SHAPES = ("one_mail", "vendor_mails", "with_duplicate")


def _script(target: str, mistake: str = "") -> str:
    """Python that reads every ``in/*.pdf`` invoice into ``target`` (Invoice, Vendor, Total; each invoice once).

    Mistakes: ``drop_last`` (the last PDF, by name, left out), ``keep_duplicates`` (a resent invoice listed twice).
    """
    files = "sorted(glob.glob('in/*.pdf'))" + ("[:-1]" if mistake == "drop_last" else "")
    seen = "False" if mistake == "keep_duplicates" else "number in seen"
    return f"""
        import glob
        import os
        import re

        import openpyxl
        from pypdf import PdfReader

        out = openpyxl.Workbook()
        sheet = out.active
        sheet.title = 'Invoices'
        sheet.append(['Invoice', 'Vendor', 'Total'])
        seen = set()
        for name in {files}:
            text = ' '.join(page.extract_text() for page in PdfReader(name).pages)
            number = re.search(r'Invoice (INV-[0-9]+)', text).group(1)
            vendor = re.search(r'Vendor: (.+?) *(?:PO:|Total|$)', text, re.M).group(1).strip()
            total = float(re.search(r'Total due: \\$([0-9,]+[.][0-9]+)', text).group(1).replace(',', ''))
            if {seen}:
                continue
            seen.add(number)
            sheet.append([number, vendor, total])
        os.makedirs('out', exist_ok=True)
        out.save({target!r})
    """


def _invoice_pdf(number: str, vendor: str, po: str, amount: int) -> dict[str, Any]:
    lines = [f"Invoice {number}", f"Vendor: {vendor}", f"PO: {po}", f"Total due: ${money(amount):,.2f}"]
    return {"kind": "pdf", "title": f"{vendor} invoice {number}", "lines": lines}


def _build(inst: Instance) -> dict[str, Any]:
    shape = SHAPES[inst.seed % len(SHAPES)] if inst.rng.random() < 0.7 else inst.pick(SHAPES)
    asker = inst.person()
    po, other_po = inst.code("PO"), inst.code("PO")
    vendors = inst.rng.sample(VENDORS, 4)
    count = inst.rng.randint(2, 3)
    invoices = [(inst.code("INV", 5), vendors[i], cents(inst, 180, 9400)) for i in range(count)]
    rows = [{"Invoice": n, "Vendor": v[0], "Total": money(a)} for n, v, a in invoices]
    sign = inst.first(asker)
    asked = inst.workday(-1, 9, 40)
    atts = [attachment(inst, f"{n}.pdf", _invoice_pdf(n, v[0], po, a)) for n, v, a in invoices]
    fetch: list[tuple[dict[str, Any], dict[str, Any]]] = []  # (mail, attachment) the reference saves
    extra: list[tuple[dict[str, Any], dict[str, Any]]] = []  # what a careless reading also saves
    if shape == "one_mail":
        request = message(inst, sender=asker["email"], subject=f"{po} invoices",
                          body=f"Hi,\n\nAttached are the {count} invoices we got for {po}. Could you put them in a "
                          f"workbook for me?\n\n{sign}", when=asked, attachments=atts)  # fmt: skip
        fetch = [(request, a) for a in atts]
    else:
        request = message(inst, sender=asker["email"], subject=f"{po} invoices",
                          body=f"Hi,\n\nThe vendors have mailed their invoices for {po}. Could you put them in a "
                          f"workbook for me?\n\n{sign}", when=asked)  # fmt: skip
        for n, ((number, vendor, _amount), att) in enumerate(zip(invoices, atts, strict=True)):
            mail = message(inst, sender=f"billing@{vendor[1]}", subject=f"Invoice {number} ({po})",
                           body=f"Hello,\n\nPlease find attached invoice {number} for {po}.\n\n{vendor[0]}",
                           when=inst.day(-6 + n, 8 + n), attachments=[att])  # fmt: skip
            fetch.append((mail, att))
        stranger = vendors[3]
        other_number, other_amount = inst.code("INV", 5), cents(inst, 180, 9400)
        other_pdf = _invoice_pdf(other_number, stranger[0], other_po, other_amount)
        other_att = attachment(inst, f"{other_number}.pdf", other_pdf)
        other = message(inst, sender=f"billing@{stranger[1]}", subject=f"Invoice {other_number} ({other_po})",
                        body=f"Hello,\n\nPlease find attached invoice {other_number} for {other_po}.\n\n{stranger[0]}",
                        when=inst.day(-3, 11), attachments=[other_att])  # fmt: skip
        extra.append((other, other_att))
        if shape == "with_duplicate":
            number, vendor, amount = invoices[0]
            again = attachment(inst, f"{number}.pdf", _invoice_pdf(number, vendor[0], po, amount))
            resent = message(inst, sender=f"billing@{vendor[1]}", subject=f"Reminder: invoice {number} ({po})",
                             body=f"Hello,\n\nA friendly reminder: invoice {number} for {po} is attached again."
                             f"\n\n{vendor[0]}", when=inst.day(-2, 9), attachments=[again])  # fmt: skip
            fetch.append((resent, again))

    target = f"{po} invoices.xlsx"
    where = "in the mail" if shape == "one_mail" else "the vendors sent"
    instruction = compose(
        inst,
        [
            (f"go through the {po} invoice PDFs {where} and put each one's number, vendor and total in a workbook",
             f"make a workbook of the {po} invoices (the PDFs {where}): Invoice, Vendor and Total columns, one row "
             "per invoice",
             f"pull the invoice number, vendor and total out of every {po} invoice PDF {where} into a spreadsheet"),
            (f"reply to {sign}'s mail about it with the workbook attached as '{target}'",
             f"send it back to {sign} as '{target}', in reply to their mail",
             f"answer {sign}'s {po} mail with '{target}' attached"),
        ],
        (f"{sign} is reconciling {po}", f"{sign} asked for the {po} invoices in one place",
         f"accounts payable wants the {po} invoices checked"),
        by=asker["name"],
        tail=("each invoice once, even if it was sent twice", "columns Invoice, Vendor, Total", ""),
    )  # fmt: skip

    path = f"out/{target}"

    def saves(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[dict[str, Any]]:
        return [
            {"tool": "gmail.get_attachment",
             "args": {"message_id": m["id"], "attachment_id": a["id"], "save_as": f"in/{a['id']}.pdf"}}
            for m, a in pairs
        ]  # fmt: skip

    body = f"Here are the {po} invoices in one workbook ({count} invoices)."
    reply = {"tool": "gmail.reply_to_message",
             "args": {"message_id": request["id"], "body": body, "attachments": [path]}}  # fmt: skip
    done = {"tool": "complete_task", "args": {"summary": f"Replied to {sign} with {target}."}}
    compute = python_step(_script(path))
    if shape == "one_mail":
        mistake = ("misses-an-invoice", "reads all but the last PDF",
                   saves(fetch) + [python_step(_script(path, "drop_last"))])  # fmt: skip
    elif shape == "vendor_mails":
        mistake = ("other-po-invoice", "includes another PO's invoice", saves(fetch + extra) + [compute])
    else:
        mistake = ("lists-reminder-twice", "lists the resent invoice twice",
                   saves(fetch) + [python_step(_script(path, "keep_duplicates"))])
    typed = body + "\n\n" + "\n".join(f"{r['Invoice']} - {r['Vendor']} - ${r['Total']:,.2f}" for r in rows)
    user = inst.company.user
    return {
        "instruction": instruction,
        "exposure": exposure(inst),
        "sandbox": True,
        "checks": [
            {
                "name": "workbook_in_reply",
                "kind": "record",
                "app": "gmail",
                "collection": "messages",
                "new": True,
                "count": 1,
                "where": {
                    "thread_id": request["thread_id"],
                    "to": {"includes": [asker["email"]]},
                    "attachments": {"any": {"filename": {"regex": r"\.xlsx$"}, "blob": table_check("", rows)}},
                },
            },
        ],
        "allowed_changes": [
            {"app": "gmail", "collection": "messages", "kinds": ["add"],
             "where": {"sender": user, "thread_id": request["thread_id"], "to": {"includes": [asker["email"]]}}},
        ],  # fmt: skip
        "solution": [
            {"tool": "gmail.search_messages", "args": {"query": po}},
            *saves(fetch),
            compute,
            reply,
            done,
        ],
        "negative_controls": [
            {"name": mistake[0], "why": mistake[1], "steps": [*mistake[2], reply, done]},
            {"name": "typed-in-body", "why": "types the invoices into the reply instead of attaching a workbook",
             "steps": [{"tool": "gmail.reply_to_message", "args": {"message_id": request["id"], "body": typed}},
                       done]},
            {"name": "new-mail", "why": "mails the workbook to the colleague outside their thread",
             "steps": [*saves(fetch), compute,
                       {"tool": "gmail.send_message", "args": {"to": [asker["email"]], "subject": f"{po} invoices",
                                                               "body": body, "attachments": [path]}}, done]},
            {"name": "stops-halfway", "why": "makes the workbook but never replies",
             "steps": [*saves(fetch), compute, done]},
        ],  # fmt: skip
    }


FAMILY = Family(
    name="gmail-invoice-pdfs-to-sheet",
    apps=("gmail",),
    summary="read a PO's invoice PDFs from the mailbox into a workbook in the shell and reply with it attached",
    build=_build,
    decision=True,
    kind="document",
)
