"""The scorer's and the photo reader's one-line messages in the player's language.

`scoring/` and `vision/` speak English only (standard library, no catalogue): their
`ValueError`s and a result's `reason` are English sentences built from a few templates.
`translate` recognises those templates where a message is shown (the command line's error
line, the page) and says them again in the current language; a message it does not know
is shown as it came. The English wording below must match the code's word for word: a test
raises each message and checks that it is recognised.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import N_, SOURCE, _, current

TEMPLATES: tuple[str, ...] = (
    # hand notation
    N_("empty hand notation"),
    N_("unexpected character {char} in {text}"),
    N_("unbalanced or misplaced bracket in {text}"),
    N_("numbers {digits} have no suit letter (m, p, s) in {text}"),
    N_("suit letter {char} without numbers in {text}"),
    N_("'0' is not a tile number in {text} (numbers are 1..9)"),
    N_("declared sets [..] must come before the concealed tiles in {text}"),
    N_("a hand has 14 tiles (13 + the winning tile), counting a kong as 3; got {size}"),
    N_("a hand has at most 4 declared sets, got {count}"),
    N_("{count} copies of {tile} on the table (there are only 4 of each tile)"),
    N_("{count} copies of {tile} (there are only 4 of each tile)"),
    N_("{set} is not a chow (three consecutive tiles of one suit)"),
    N_("{set} is not a set: a bracket holds 3 or 4 tiles, got {count}"),
    N_("the hand already has a winning tile"),
    N_("the winner cannot win on their own discard"),
    N_("a self-drawn win has no discarder"),
    N_("wind must be one of E, S, W, N, got {text}"),
    N_("{code} is not a bonus tile (flowers 1f..4f, seasons 5f..8f)"),
    N_("{code} is not a tile or bonus tile (1f..8f)"),
    N_("a bonus tile appears twice in {text} (there is one of each)"),
    N_("a loser's hand has at most 14 tiles, counting a kong as 3; got {size}"),
    # rules and options
    N_("unknown rule set {value}; choose one of {choices}"),
    N_("unknown preset {preset} for {rules}; choose one of {choices}"),
    N_("unknown option {key} for {rules}; options: {options}"),
    N_("option {key} takes a whole number, got {text}"),
    N_("option {key} takes a number, got {text}"),
    N_("option {key} takes true or false, got {text}"),
    N_("option {key} must be from {low} to {high}, got {value}"),
    # why a hand does not score
    N_("not a complete hand; waits on {tiles}"),
    N_("not a complete hand; no tile completes it"),
    N_("{points} points without flowers, below the {minimum}-point minimum"),
    N_("{fan} fan not counting bonus-tile fans is below the minimum of {minimum}"),
    N_("{fan} fan is below the minimum of {minimum}"),
    N_("seven pairs is not a winning hand under these rules (allow_seven_pairs is off)"),
    # photos
    N_("{file}: cannot read file (No such file or directory)"),
    N_("{file}: cannot read file ({reason})"),
    N_("{file}: not an image (unknown format)"),
    N_("{file}: empty file, not an image"),
    N_("{file}: is a directory, not an image"),
    N_("{file}: the tiles read do not form a complete hand ({notes})"),
    N_("no tiles found in this photo"),
    # the page's hand editor and scoring (app.edit, app.evaluate, app.recognise)
    N_("No hand yet: take or upload a photo, or choose Manual to type the hand or tap its tiles."),
    N_("No hand yet: type the hand, or tap its tiles in the palette."),
    N_("only a valid winning hand goes in the ledger"),
    N_("tap who discarded, or self-drawn, to settle the payments"),
    N_("choose the winning tile: tap it, then 'Winning tile'"),
    N_("13 tiles: add the winning tile"),
    N_("add 1 tile: a hand has {target}, counting a kong as 3, and this one has {size}"),
    N_("add {n} tiles: a hand has {target}, counting a kong as 3, and this one has {size}"),
    N_("remove 1 tile: a hand has {target}, counting a kong as 3, and this one has {size}"),
    N_("remove {n} tiles: a hand has {target}, counting a kong as 3, and this one has {size}"),
    N_("set {n} ({kind}) has face-down tiles: tap one and choose what it is"),
    N_("set {n} ({kind}) needs {size} tiles but holds {count} ({tiles})"),
    N_("there is one winning tile"),
    N_("{code} is not a flower or season; bonus tiles are 1f..8f"),
    N_("{code} is a bonus tile: it goes with the bonus tiles"),
    N_("{code} is already among the bonus tiles (there is one of each)"),
    N_("a set holds at most 4 tiles"),
    N_("no tile {n} in that group"),
    N_("a hand has at most {n} declared sets"),
    N_("that tile is no longer set aside"),
    N_("No tile model at {name}: photo reading is off. Enter the hand with the tile buttons (Manual)."),
    N_("The tile model could not be loaded ({reason}). Enter the hand by hand."),
    N_("No tiles found in this photo. Take it again from above, closer, with the tiles filling the "
       "frame, or enter the hand with the tile buttons."),
    N_("The tiles are small in this photo (about {size} pixels across; {best} or more read best): "
       "check every tile, or take the photo closer."),
    N_("The photo looks blurred, so some tiles may be missing or misread: check every tile, or take "
       "it again holding the phone still (more light helps)."),
    # the photo's layout (vision.layout notes)
    N_("a concealed kong shows no face (all four tiles face down): tap it and choose its tile"),
    N_("no complete hand in the tiles read: {n} tiles, counting a kong as 3, in {sets} declared "
       "sets; check the {unsure} marked doubtful"),
    N_("no complete hand in the tiles read: {n} tiles, counting a kong as 3, in {sets} declared sets"),
    N_("winning tile not set apart: {tile} chosen (any concealed tile completes the hand; change it "
       "if another was the last)"),
    N_("{tile} is not among the hand's concealed tiles ({tiles}): the winning tile is one of them"),
    N_("rejected {hand} (geometry {score})"),
    N_("{n} flower/season tiles read as another player's ({tiles})"),
    N_("{n} tiles read as not part of the hand"),
    N_("reading {said} (the reader's next guess) makes a complete hand: {hand}"),
    N_("{n} doubtful tiles left out to make a complete hand"),
    N_("{n} tiles found by looking again at a gap in a row: check them first"),
    # a win condition the tiles rule out (scoring.rules.flags)
    N_("kong: no kong was declared, so no replacement tile"),
    N_("kong: the winner holds a copy of the tile, so it cannot be a robbed kong"),
    N_("fourth_tile: a copy of the winning tile is in the concealed hand"),
    N_("blessing: these rules score no {kind} hand"),
    # the ledger
    N_("this hand is already in the ledger"),
    N_("the ledger changed (another tab?): nothing was undone"),
    N_("the four players need four different names"),
    N_("a table has four players"),
    # a table's tile set (vision.tileset)
    N_("photo {photo}: the codes do not fit this photo either way round (found {found} tiles "
       "in rows ({lengths}), CODES has {want})"),
    N_("the codes do not fit this photo either way round (found {found} tiles in rows "
       "({lengths}), CODES has {want})"),
    N_("photo {photo}: the codes fit this photo two ways round almost equally well: photograph "
       "the sheet with its first row at the top"),
    N_("no tile of these photos is sure of its code: nothing was taught"),
    N_("CODES is empty: list the tiles of the photo in reading order"),
    N_("a tile set needs a name"),
    N_("a tile set name has at most {most} characters, got {count}"),
    N_("a tile set name is at most {most} bytes as UTF-8, got {count}: a shorter name, please"),
    N_("{name} is not a tile set name: use letters, digits, spaces and - _ . ' (starting with a "
       "letter or digit)"),
    N_("this data folder already holds {count} tile sets, the most it keeps: delete one first"),
    N_("no tile set named {name} (teach one with mahjong-lens teach)"),
    N_("no tile set named {name}"),
    N_("tile set {name} was taught with another reader model; teach it again"),
    # the command line's own
    N_("--option takes KEY=VALUE, got {pair}"),
    N_("give either --hand or '-' (stdin), not both"),
    N_("give the hand as --hand NOTATION, a PHOTO, or '-' for stdin"),
)

_FIELD = re.compile(r"\{([a-z_]+)\}")


@lru_cache(maxsize=None)
def _patterns() -> tuple[tuple[re.Pattern, str], ...]:
    out = []
    for template in TEMPLATES:
        parts = _FIELD.split(template)
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        out.append((re.compile(regex, re.DOTALL), template))
    return tuple(out)


def match(text: str) -> tuple[str, dict[str, str]] | None:
    """The template an English message was built from, and its values; None when unknown."""
    for pattern, template in _patterns():
        found = pattern.fullmatch(text)
        if found:
            return template, found.groupdict()
    return None


def translate(text: str | None) -> str | None:
    """An English message from the scorer or the reader in the current language."""
    if not text or current() == SOURCE:
        return text
    found = match(text)
    if found is None:
        return text
    template, values = found
    return _(template).format(**values)
