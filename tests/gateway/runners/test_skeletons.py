from gateway.runners.skeletons import skeleton_counts


def test_names_dates_numbers_and_codes_do_not_make_a_new_skeleton():
    rows = [
        ("f", "Please move the Delta sync on Monday January 19 the way Marco asked, then reply to Marco."),
        ("f", "Please move the Juno sync on Tuesday October 20 the way Anders asked, then reply to Anders."),
        ("f", "Please forward INV-2041 ($1,200) to mei.chen@northwind.example and post it in #finance-ops."),
        ("f", "Please forward INV-77 ($90) to ola@contoso.example and post it in #ap."),
    ]
    assert skeleton_counts(rows) == {"f": 2}


def test_other_words_or_another_order_is_another_skeleton_and_families_count_apart():
    rows = [
        ("a", "Please move the Delta sync, then reply to Marco."),
        ("a", "Reply to Marco, then move the Delta sync."),
        ("a", "Marco wants the Delta sync moved: please do it and tell him."),
        ("b", "Please move the Delta sync, then reply to Marco."),
    ]
    assert skeleton_counts(rows) == {"a": 3, "b": 1}


def test_a_sentence_start_word_is_a_name_only_when_never_written_in_lower_case():
    a = [("a", "Marco needs it. Please share it."), ("a", "Ines needs it. Kindly share it.")]
    # Neither "Please" nor "Kindly" is ever written in lower case: masked like the names, one skeleton.
    assert skeleton_counts(a) == {"a": 1}
    # Once another row writes "please" in lower case, "Please" is wording and the two differ.
    assert skeleton_counts([*a, ("b", "Wait, then please share it.")]) == {"a": 2, "b": 1}
