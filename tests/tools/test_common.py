import base64

import pytest

from tools.common import looks_encoded

PDF = base64.b64encode(b"%PDF-1.4 " + bytes(range(256))).decode()


@pytest.mark.parametrize(
    ("text", "encoded"),
    [
        (PDF, True),
        (PDF.replace("+", "-").replace("/", "_"), True),  # URL-safe alphabet
        ("\n".join(PDF[i : i + 76] for i in range(0, len(PDF), 76)), True),  # wrapped like MIME
        ("data:application/pdf;base64,JVBERi0xLjQK", True),
        ("data:text/plain,hello", True),
        ("Hi Priya, the Q1 numbers are attached. " * 5, False),
        ("Vendor,Owner\nContoso Ltd,Maya Young\n", False),
        ("a" * 200, False),  # one letter repeated is not file bytes
        ("0123456789abcdef" * 8, False),  # a hex digest
        ("sha256:" + "ab" * 32, False),
        ("", False),
    ],
)
def test_looks_encoded(text, encoded):
    assert looks_encoded(text) is encoded
