from gateway.surfaces.hints import reword


def test_hints_name_the_callers_own_way_in():
    text = "no file with id 'x'; use drive search-files to find ids (or drive list-folder)"
    assert reword(text, "cli") == text
    assert reword(text, "mcp") == (
        "no file with id 'x'; use company_drive_search_files to find ids (or company_drive_list_folder)"
    )
    assert reword(text, "http") == (
        "no file with id 'x'; use POST /api/drive/search_files to find ids (or POST /api/drive/list_folder)"
    )


def test_words_that_are_not_commands_stay():
    text = "the drive folder-colour is blue; gmail rocks"
    assert reword(text, "mcp") == text
