"""Photo in: camera or upload, read once per photo, shown with each tile's box and reading.

The reader (the ONNX model) is loaded once per process; a missing model is a message and
the manual mode keeps working. A photo is read once: later taps reuse the result.
"""
from __future__ import annotations

import hashlib

import streamlit as st

from app import edit, recognise
from app.i18n import N_, _
from app.i18n.messages import translate
from app.ui.language import said

from . import state, tileset

MODES = (N_("Camera"), N_("Upload"), N_("Manual"))  # values stay English; shown translated
PHOTO_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif", "avif", "bmp", "tif", "tiff"]
MAX_UPLOAD_MB = 50


@st.cache_resource(show_spinner=False)
def _reader(path: str, mtime: float, settings: tuple[str | None, ...]):
    return recognise.load_reader(path)


def reader():
    """The tile reader, or the line that says why there is none (cached per model file and
    per reader settings in the environment)."""
    return _reader(*recognise.reader_key())


def _read(who: str, upload) -> None:
    data = upload.getvalue()
    # read again when the chosen tile set changes (chosen, taught, learnt a hand)
    photo_id = hashlib.sha1(data).hexdigest() + "|" + tileset.version(tileset.folder())
    ss = st.session_state
    previous = ss["photo_ids"].get(who, "")
    if previous == photo_id:
        return
    # the same photo read again for another set, after the player fixed its tiles: the fixes stay
    fixed = (previous.split("|")[0] == photo_id.split("|")[0]
             and state.draft(who) != ss.get("read_drafts", {}).get(who))
    ss["photo_ids"] = {**ss["photo_ids"], who: photo_id}
    found = reader()
    if isinstance(found, str):
        ss["recog"] = {**ss["recog"], who: found}
        return
    found, note = tileset.reader_for_photo(found, tileset.folder())
    ss["set_notes"] = {**ss.get("set_notes", {}), who: note}
    waiting = st.empty()  # said only while this photo waits its turn behind others
    with st.spinner(_("Reading the tiles…")):
        result = recognise.recognise(data, found, keep_photo=tileset.chosen() is not None,
                                     on_wait=lambda ahead: waiting.info(_(
                                         "Waiting: {ahead} photos from other phones are read "
                                         "first, two at a time.").format(ahead=ahead),
                                         icon=":material/hourglass_top:"))
    waiting.empty()
    ss["recog"] = {**ss["recog"], who: result}
    if isinstance(result, recognise.Recognition) and not fixed:
        state.set_draft(who, edit.from_layout(result.layout))
        ss["read_drafts"] = {**ss.get("read_drafts", {}), who: state.draft(who)}
        ss["sel"] = None
        ss["target"] = {**ss["target"], who: edit.HAND}


def render(who: str, *, need_winning: bool = True, header=None, below=None) -> None:
    """The photo area; `header`: drawn beside the Camera/Upload/Manual choice, `below`
    under it (the page's tile set menu and its name box)."""
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="photorow"):
        mode = st.segmented_control(_("Hand from"), MODES, key=f"mode__{who}", default="Upload",
                                    required=True, format_func=said(MODES, _),
                                    label_visibility="collapsed")
        if header is not None:
            header()
    if below is not None:
        below()
    gen = st.session_state["generation"]
    upload = None
    if mode == "Camera":
        upload = st.camera_input(_("Photo of the hand"), key=f"camera__{who}__{gen}",
                                 label_visibility="collapsed",
                                 help=_("Phones allow the camera only over https or on this "
                                        "machine; otherwise use Upload, which offers the camera."))
    elif mode == "Upload":
        # the label and help in the page's language stand in for Streamlit's English line of
        # sizes and formats under its button (hidden by the page's CSS)
        upload = st.file_uploader(
            _("Photo of the hand, up to {mb} MB").format(mb=MAX_UPLOAD_MB), type=PHOTO_TYPES,
            key=f"upload__{who}__{gen}", max_upload_size=MAX_UPLOAD_MB,
            help=_("JPEG, an iPhone's HEIC, PNG, WebP, AVIF or TIFF. On a phone this also offers "
                   "the camera: take the photo, or choose one."))
    else:
        key = f"notation__{who}__{gen}"
        st.text_input(_("Type the hand"), key=key, placeholder="[123m][EEE1]456p789sNN",
                      max_chars=state.MAX_NOTATION, on_change=state.on_notation,
                      args=(who, key, need_winning),
                      help=_("Bracketed sets are exposed; the last tile is the winning tile; "
                             "flowers and seasons are 1f to 8f."))
    st.session_state["read_facts"] = {}
    if upload is not None:
        _read(who, upload)
        _show(who, st.session_state["recog"].get(who))
    elif mode != "Manual":
        if who in st.session_state["photo_ids"]:  # removed: the same photo may come again
            st.session_state["photo_ids"] = {k: v for k, v in st.session_state["photo_ids"].items()
                                             if k != who}
        found = reader()
        if isinstance(found, str):
            st.info(translate(found))


def _show(who: str, found) -> None:
    """The photo as read (the hand's tiles framed), one line of counts, hints, other readings."""
    if isinstance(found, str):
        st.warning(translate(found))
        return
    if found is None:
        return
    note = st.session_state.get("set_notes", {}).get(who)
    if note:
        st.warning(note)
    with st.container(key=f"overlay__{who}"):
        st.image(found.overlay_jpeg, caption=None, width="stretch")
    # said over the hand, with its doubtful tiles as they stand after each tap (app.ui.hand)
    st.session_state["read_facts"] = {**st.session_state.get("read_facts", {}),
                                      who: (found.tiles, found.seconds)}
    if found.message:
        st.info(translate(found.message))
    _other_readings(who, found.layout)


def reread_words(said: str) -> str:
    """The layout's '9p as 6p, 1m as 7m' (what a reading changes) in the player's language."""
    pairs = [part.split(" as ") for part in said.split(", ")]
    if not all(len(p) == 2 for p in pairs):
        return said
    return ", ".join(_("{tile} as {other}").format(tile=a, other=b) for a, b in pairs)


def _other_readings(who: str, layout) -> None:
    """The complete hands the layout rejected (a pung or a kong with its fourth tile on top,
    a set of the row or of the concealed tiles), and, when the tiles as read make no hand,
    the complete hands one or two of the reader's next guesses make: one tap takes one."""
    if not layout.alternatives:
        return
    changed = dict(layout.rereads)
    incomplete = layout.notation is None
    title = _("Complete hands close to what was read") if incomplete else _("Other ways to read these tiles")
    with st.expander(title, expanded=incomplete):
        for i, notation in enumerate(layout.alternatives[:3]):
            label = f"{notation}  ({reread_words(changed[notation])})" if notation in changed else notation
            st.button(label, key=f"reading__{who}__{i}", on_click=state.on_reading,
                      args=(who, notation), icon=":material/swap_horiz:")
