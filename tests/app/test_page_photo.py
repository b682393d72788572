"""Photo in (upload and camera, a real JPEG through the real reader on a stub ONNX model),
the overlay, and bad uploads: each a plain message, never a traceback."""
from __future__ import annotations

import io

from PIL import Image

from app_fixtures import HAND, click, keys, table_photo, texts, tile_key
from vision.image import register_heif


def _drafted(at) -> list[str]:
    draft = at.session_state["drafts"]["win"]
    return draft.codes()


def test_upload_reads_the_photo_into_the_hand_and_marks_the_doubtful_tile(page, stub_model):
    page.file_uploader[0].set_value(("hand.jpg", table_photo(), "image/jpeg")).run()
    assert not page.exception and not page.error
    assert len(page.image) >= 1  # the overlay
    said = texts(page)
    assert "14 tiles read" in said and "1 is doubtful" in said
    codes = _drafted(page)
    assert sorted(codes) == sorted(HAND[:5] + ["9p"] + HAND[6:])
    doubtful = [k for k in keys(page, "tile__win__") if "__dbt__" in k]
    assert len(doubtful) == 1 and "__9p__" in doubtful[0]


def test_camera_photo_is_read_the_same_way(page, stub_model):
    page.segmented_control(key="mode__win").set_value("Camera").run()
    page.camera_input[0].set_value(("shot.jpg", table_photo(), "image/jpeg")).run()
    assert not page.exception and not page.error
    assert "14 tiles read" in texts(page)


def test_fix_the_misread_tile_then_the_hand_scores(page, stub_model):
    page.file_uploader[0].set_value(("hand.jpg", table_photo(), "image/jpeg")).run()
    draft = page.session_state["drafts"]["win"]
    where = "hand", [s.code for s in draft.hand].index("9p")
    click(page, tile_key(page, "win", *where))
    click(page, "pal__6p__win")
    draft = page.session_state["drafts"]["win"]
    assert "9p" not in draft.codes() and draft.codes().count("6p") == 1
    if draft.winning is None:  # the layout left the winning tile open: choose it
        index = [s.code for s in draft.hand].index("2z")
        click(page, tile_key(page, "win", "hand", index))
        click(page, "act__win__winning")
    assert page.session_state["drafts"]["win"].winning is not None
    assert page.success and "a valid hand" in page.success[0].value


def _upload(at, name, data, mime="image/jpeg"):
    at.file_uploader[0].set_value((name, data, mime)).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_bad_uploads_each_give_a_plain_message(page, stub_model):
    jpeg = table_photo()
    cases = {
        "not-an-image.jpg": (b"this is a text file, not a photo\n" * 20, "not an image"),
        "truncated.jpg": (jpeg[: len(jpeg) // 3], "truncated or corrupt"),
        "empty.png": (b"", "empty file"),
    }
    huge = io.BytesIO()
    Image.new("1", (9000, 8000)).save(huge, format="PNG")  # 72 MP claimed, a small file
    cases["huge.png"] = (huge.getvalue(), "megapixel")
    for name, (data, expected) in cases.items():
        _upload(page, name, data)
        said = "\n".join(w.value for w in page.warning)
        assert expected in said, (name, said)
        assert "Traceback" not in texts(page)
    # the page goes on: a good photo after the bad ones is read
    _upload(page, "hand.jpg", jpeg)
    assert "14 tiles read" in texts(page)


def _resaved(data: bytes, fmt: str, scale: float = 1.0) -> bytes:
    image = Image.open(io.BytesIO(data))
    if scale != 1.0:
        image = image.resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
    out = io.BytesIO()
    register_heif()  # a HEIC is written by pillow-heif
    image.save(out, format=fmt, quality=90)
    return out.getvalue()


def test_an_iphone_heic_photo_is_read(page, stub_model):
    _upload(page, "IMG_0001.heic", _resaved(table_photo(), "HEIF"), "image/heic")
    assert "14 tiles read" in texts(page)
    assert not any("Could not use this photo" in w.value for w in page.warning)


def test_small_tiles_ask_for_a_closer_photo(page, stub_model):
    """The same photo at half size: its tiles are 35 pixels across, under the hint's 36."""
    _upload(page, "hand.jpg", table_photo())
    assert "closer" not in texts(page)
    _upload(page, "small.jpg", _resaved(table_photo(), "JPEG", scale=0.5))
    said = "\n".join(w.value for w in page.info)
    assert "14 tiles read" in texts(page) and "tiles are small" in said and "closer" in said


def test_a_photo_with_no_tiles_says_so(page, tmp_path, monkeypatch):
    from app_fixtures import write_model
    monkeypatch.setenv("MAHJONG_LENS_MODEL", str(write_model(tmp_path / "empty.onnx", [], [])))
    _upload(page, "cloth.jpg", table_photo(codes=[]))
    assert "No tiles found" in texts(page)
    assert page.session_state["drafts"]["win"].codes() == []


def test_missing_model_leaves_manual_entry_working(page, no_model):
    page.run()
    assert "No tile model" in texts(page)
    _upload(page, "hand.jpg", table_photo())
    assert "No tile model" in texts(page)
    page.segmented_control(key="mode__win").set_value("Manual").run()
    click(page, "pal__5p__win")
    assert page.session_state["drafts"]["win"].codes() == ["5p"]


def test_another_reading_of_the_photo_is_one_tap(page, stub_model, monkeypatch):
    """The layout's rejected complete readings are offered; a tap takes one, bonus kept."""
    import dataclasses

    import vision.layout
    real = vision.layout.read_layout
    other = "[111z1]123m456p789s2z2z"

    def with_alternative(detections):
        return dataclasses.replace(real(detections), alternatives=(other,))
    monkeypatch.setattr(vision.layout, "read_layout", with_alternative)
    _upload(page, "hand.jpg", table_photo())
    button = next(b for b in page.button if b.key == "reading__win__0")
    assert button.label == other
    button.click().run()
    assert not page.exception
    draft = page.session_state["drafts"]["win"]
    assert [m.kind for m in draft.melds] == ["pung"] and draft.winning.code == "2z"
    assert sorted(draft.codes()) == sorted(HAND[:5] + ["6p"] + HAND[6:])
    assert "Now reading the hand as" in texts(page)


def test_a_hand_the_readers_next_guess_completes_is_offered_open(page, stub_model, monkeypatch):
    """Tiles that make no hand: the complete hands of the reader's next guesses are shown
    open, each saying what it reads differently; a tap takes one."""
    import dataclasses

    import vision.layout
    real = vision.layout.read_layout
    fixed = "[111z1]123m456p789s2z2z"

    def incomplete(detections):
        return dataclasses.replace(real(detections), hand=None, alternatives=(fixed,),
                                   rereads=((fixed, "9p as 6p"),))
    monkeypatch.setattr(vision.layout, "read_layout", incomplete)
    _upload(page, "hand.jpg", table_photo())
    assert [e.label for e in page.expander if "Complete hands" in e.label] == \
        ["Complete hands close to what was read"]
    button = next(b for b in page.button if b.key == "reading__win__0")
    assert button.label == f"{fixed}  (9p as 6p)"
    button.click().run()
    assert not page.exception
    assert page.session_state["drafts"]["win"].winning.code == "2z"
