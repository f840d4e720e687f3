import base64

import pytest

from tools.kits.files import looks_encoded

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


def test_refuse_encoded_names_the_parameter_and_what_to_pass_instead():
    from tools.kernel.exceptions import InvalidArgument
    from tools.kits.files import refuse_encoded

    with pytest.raises(InvalidArgument) as err:
        refuse_encoded(PDF, "content", instead="path=<its workspace path>")
    assert err.value.parameter == "content"
    assert "save the file in your workspace and pass path=<its workspace path> instead" in err.value.message
    refuse_encoded("Hi Priya, the numbers are in.", "content")  # ordinary text passes
