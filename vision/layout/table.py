"""From `Detections` to a `TableLayout`: which tiles are the concealed hand, which form
exposed melds, concealed kongs, bonus tiles set aside, and the winning-tile candidate.

The types here are the boundary between recognition and the page (docs/architecture.md). `read_layout`
is the entry point. Tiles are clustered (vision.layout.geometry); each cluster big enough for a
hand is read in the row frame of both axes its neighbour vectors allow (rows, segments,
turned and stacked tiles); every complete reading of the hand is scored on geometry
(vision.layout.grouping, with vision.layout.sets reading the declared sets and scoring.decompose telling
complete from not) and the best one wins; the runners-up are named in `notes` and
`alternatives`. Bonus tiles are chosen photo-wide (vision.layout.bonus). Which end of a row is the
player's left, which sets the order of tiles, the offer digit of a pung or kong and the
guessed winning tile, is voted by plain clues (`_direction`). With no complete reading the
layout is still filled (the longest row concealed, readable sets near it as melds) so that
the page can be corrected, and `hand` is None. The scorer takes `hand` as it is (a typed
`scoring.hand.Hand`); `notation` is only its text, for people and JSON.
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from scoring.decompose import tiles_complete
from scoring.hand import Hand, format_hand
from scoring.tiles import BACK, BONUS, PLAYING, format_tiles, sort_key

from . import geometry, grouping, sets
from .bonus import bonus_tiles

GROUP_KINDS = ("chow", "pung", "kong", "concealed_kong")
PLAYING_SET = frozenset(PLAYING)


@dataclass(frozen=True)
class LaidTile:
    """One tile as found in the photo. `box` is x1, y1, x2, y2 in photo pixels."""
    code: str
    box: tuple[float, float, float, float]
    confidence: float
    sideways: bool = False  # turned 90°: a claimed tile in a meld
    looked_again: bool = False  # found by looking again at a gap in a row: check it first

    def __post_init__(self) -> None:
        if len(self.box) != 4:
            raise ValueError(f"a tile box has 4 numbers (x1, y1, x2, y2), got {self.box!r}")
        if not 0.0 <= float(self.confidence) <= 1.0:
            raise ValueError(f"confidence must be within 0..1, got {self.confidence!r}")


@dataclass(frozen=True)
class LaidMeld:
    """An exposed meld or a concealed kong (face-down tiles are code 'back'). `tiles` are in
    reading order (the player's left to right). `offer` is the notation digit: chow → which
    tile (1-3, low to high) was claimed, pung/kong → who offered (1 left, 2 opposite, 3
    right), None for a concealed kong; `promoted`: a kong made by adding to a melded pung."""
    kind: str
    tiles: tuple[LaidTile, ...]
    confidence: float
    offer: int | None = None
    promoted: bool = False

    def __post_init__(self) -> None:
        if self.kind not in GROUP_KINDS:
            raise ValueError(f"meld kind must be one of {', '.join(GROUP_KINDS)}, got {self.kind!r}")


@dataclass(frozen=True)
class TableLayout:
    concealed: tuple[LaidTile, ...]
    melds: tuple[LaidMeld, ...] = ()
    bonus: tuple[LaidTile, ...] = ()
    winning: LaidTile | None = None
    ignored: tuple[LaidTile, ...] = ()          # tiles read as not part of the hand
    hand: Hand | None = None                    # when the reading is a legal hand (bonus: `bonus`)
    confidence: float = 0.0                     # of the grouping as a whole
    notes: tuple[str, ...] = field(default_factory=tuple)  # rejected alternatives, doubts
    winning_guessed: bool = False               # nothing was set apart: the winning tile is a guess
    alternatives: tuple[str, ...] = ()          # notations of rejected complete readings, best first
    # complete hands with a tile or two read as the reader's next guess: (notation, what
    # was read as what), likeliest first; their notations lead `alternatives`
    rereads: tuple[tuple[str, str], ...] = ()

    @property
    def notation(self) -> str | None:
        """The hand with its bonus tiles in notation (what `read` prints, and parses back to
        the same hand), None with no complete hand."""
        if self.hand is None:
            return None
        return format_hand(replace(self.hand, bonus=tuple(dict.fromkeys(t.code for t in self.bonus))))

    def won_on(self, code: str) -> TableLayout:
        """This reading with `code`, one of its concealed tiles or its winning tile, as the
        winning tile (the player knows which was the last); the note of a guess goes."""
        closed = list(self.concealed) + ([self.winning] if self.winning is not None else [])
        picked = next((t for t in reversed(closed) if t.code == code), None)
        if picked is None:
            shown = format_tiles(sorted((t.code for t in closed), key=sort_key))
            raise ValueError(f"{format_tiles([code])} is not among the hand's concealed tiles "
                             f"({shown}): the winning tile is one of them")
        concealed = tuple(t for t in closed if t is not picked)
        hand = None if self.hand is None else Hand(
            tuple(t.code for t in concealed), self.hand.melds, code, self.hand.bonus)
        return replace(self, concealed=concealed, winning=picked, hand=hand, winning_guessed=False,
                       notes=tuple(n for n in self.notes if not n.startswith(GUESSED_NOTE)))

    def to_dict(self) -> dict:
        """JSON-ready, as `read --json` prints it: the hand as its notation."""
        return dict(("notation", self.notation) if k == "hand" else (k, v)
                    for k, v in asdict(self).items())


# --- reading a layout from detections ------------------------------------------------------

MAX_CLUSTERS = 6          # clusters tried, biggest first (the rest are ignored)
MIN_HAND_TILES = 12       # 14 tiles, less kongs shown as three with the fourth on top
GUESSED_NOTE = "winning tile not set apart:"  # how the note of a guessed winning tile starts
DOUBTFUL = 0.5            # detections under this confidence may be left out to complete a hand
DOUBTFUL_TILE = 0.6       # ... or first, those whose finder is this unsure a tile is there
WIDE_LINK = 4.5           # cluster link of the second look when the first finds no hand
SIDE_SURE = 1.0           # side votes (`_side_vote`) that tell where the player sits
PERSPECTIVE = 0.04        # relative tile-size change across the hand that tells near from far


@dataclass(frozen=True)
class _Candidate:
    reading: grouping.Reading
    frame: geometry.RowFrame


def read_layout(detections) -> TableLayout:
    """The hand in a photo's detections (vision.recognition.detector.Detections). When they make no
    complete hand, it tries again without the doubtful ones (a stray box in a row breaks
    the count; `_doubtful`), then with the reader's next guess for a tile or two (`_reread`)."""
    layout = _read(detections)
    if layout.hand is not None:
        return layout
    for doubtful in _doubtful(detections):
        second = _read(detections.select(~doubtful))
        if second.hand is not None:
            left = _Found.of(detections).tiles(np.flatnonzero(doubtful))
            return replace(second, ignored=second.ignored + tuple(left), notes=second.notes + (
                f"{len(left)} doubtful tiles left out to make a complete hand",))
    suggestions = _reread(detections, layout)
    if not suggestions:
        return layout
    return replace(layout, alternatives=tuple(n for n, _ in suggestions) + layout.alternatives,
                   rereads=tuple(suggestions), notes=layout.notes + tuple(
                       f"reading {said} (the reader's next guess) makes a complete hand: {n}"
                       for n, said in suggestions))


def _doubtful(detections) -> list[np.ndarray]:
    """Masks of tiles to leave out, tried in turn. First the boxes the tile finder doubts
    (a box between two tiles, a tile of the wall half hidden): its confidence times the
    reader's class probability would also drop real tiles that are merely hard to read,
    flowers most of all. On development scenes (seeds 4244-4245, the committed reader) this
    order made 138 of 693 hands right against 127 with `confidence` alone."""
    masks = [np.asarray(detections.confidence) < DOUBTFUL]
    if detections.tile_score is not None:
        masks.insert(0, np.asarray(detections.tile_score) < DOUBTFUL_TILE)
    return [m for m in masks if m.any() and not m.all()]


# A misread tile leaves the hand incomplete, and the reader's next guess is often right: the
# hand's own structure is the check (as a spelling checker uses words). Tried only when the
# tiles as read make no complete hand, likeliest first. They are offered (one tap on the
# page), not taken: on development scenes (seeds 4245 and 9, the committed reader) the
# first complete reading found this way was the right hand in 10 of 24 photos.
REREAD_MIN_RATIO = 0.02   # a next guess this much less likely than the reading is not tried
REREAD_TILES = 8          # tiles of the hand considered, closest runner-up first
REREAD_TRIES = 3          # full layout reads at most (each a few ms)


def _reread(detections, layout: TableLayout) -> list[tuple[str, str]]:
    """Complete hands made by reading one or two tiles of the hand as the reader's next
    guess, likeliest first: (notation, which tiles were read as what)."""
    if detections.alt_class_id is None or not layout.concealed:
        return []
    hand, kongs = _reread_tiles(detections, layout)
    codes, names = list(detections.codes), detections.names
    alt_id, alt_conf = detections.alt_class_id, detections.alt_confidence
    closed = [codes[i] for i in hand]
    position = {i: k for k, i in enumerate(hand)}
    tries, found_hands = 0, []
    for change in _reread_changes(detections, hand):
        trial = list(closed)
        for i, k in change:
            trial[position[i]] = names[alt_id[i, k]]
        if not _complete_tiles(trial, kongs):
            continue
        reread = detections
        for i, k in change:
            reread = reread.with_class(i, int(alt_id[i, k]), float(alt_conf[i, k]))
        found = _read(reread)
        tries += 1
        if found.hand is not None and found.notation not in (n for n, _ in found_hands):
            found_hands.append((found.notation,
                                ", ".join(f"{codes[i]} as {names[alt_id[i, k]]}" for i, k in change)))
        if tries >= REREAD_TRIES:
            break
    return found_hands


def _reread_tiles(detections, layout: TableLayout) -> tuple[list[int], tuple[str, ...]]:
    """The hand's tiles that a next guess may change, and the codes of its kongs: the tiles
    the incomplete reading used and those of their cluster it left out (a misread tile
    breaks a meld, whose tiles are then left out), less bonus tiles and the tiles of kongs
    (four of a kind counts as one set)."""
    xyxy = np.asarray(detections.xyxy, np.float64)
    where = {tuple(float(x) for x in box): i for i, box in enumerate(xyxy)}

    def index(tiles) -> set[int]:
        return {where[t.box] for t in tiles if t.box in where}

    used = index(hand_tiles(layout))
    cluster = max(geometry.clusters(xyxy), key=lambda ix: len(used & set(ix.tolist())))
    kong_melds = [m for m in layout.melds if len(m.tiles) == 4]
    kongs = tuple(next((t.code for t in m.tiles if t.code in PLAYING_SET), "back")
                  for m in kong_melds)
    in_kong = index(t for m in kong_melds for t in m.tiles)
    return sorted((used | set(cluster.tolist())) - index(layout.bonus) - in_kong), kongs


def _reread_changes(detections, hand: list[int]) -> list[tuple[tuple[int, int], ...]]:
    """One or two (tile, which next guess) changes to try, likeliest first: by how likely
    the next guesses are against the readings, among the REREAD_TILES closest tiles."""
    conf = np.asarray(detections.confidence, np.float64).clip(1e-6)
    names, alt_id, alt_conf = detections.names, detections.alt_class_id, detections.alt_confidence
    swaps = sorted(((float(alt_conf[i, k] / conf[i]), i, k)
                    for i in hand for k in range(alt_id.shape[1])), reverse=True)
    swaps = [s for s in swaps if s[0] >= REREAD_MIN_RATIO and names[alt_id[s[1], s[2]]] in PLAYING_SET]
    tiles = list(dict.fromkeys(i for _, i, _ in swaps))[:REREAD_TILES]
    swaps = [s for s in swaps if s[1] in tiles]
    options = [(r, ((i, k),)) for r, i, k in swaps]
    options += [(a[0] * b[0], ((a[1], a[2]), (b[1], b[2])))
                for a, b in itertools.combinations(swaps, 2)
                if a[1] != b[1] and a[0] * b[0] >= REREAD_MIN_RATIO]
    options.sort(key=lambda o: -o[0])
    return [change for _, change in options]


def hand_tiles(layout: TableLayout) -> list[LaidTile]:
    """The tiles of the hand as laid out: concealed, in melds, the winning tile (no bonus)."""
    return list(layout.concealed) + [t for m in layout.melds for t in m.tiles] + \
        ([layout.winning] if layout.winning is not None else [])


def _complete_tiles(closed: list[str], kongs: tuple[str, ...]) -> bool:
    """Could these tiles, beside kongs of `kongs` ("back": all face down), be a complete
    hand (any split), with no fifth copy of a tile?"""
    held = Counter(closed) + Counter({c: 4 for c in kongs if c != "back"})
    if not closed or max(held.values()) > 4 or not PLAYING_SET.issuperset(closed):
        return False
    return tiles_complete(closed, len(kongs))  # it checks the count


def _read(detections) -> TableLayout:
    codes = list(detections.codes)
    if not codes:
        return TableLayout(concealed=(), notes=("no tiles found",))
    xyxy = np.asarray(detections.xyxy, np.float64)
    found: list[_Candidate] = []
    frames: list[geometry.RowFrame] = []
    for link in (geometry.CLUSTER_LINK, WIDE_LINK):  # sets laid far from the rest: look wider
        seen = {tuple(f.index) for f in frames}
        for index in geometry.clusters(xyxy, link)[:MAX_CLUSTERS]:
            playing = sum(codes[t][1] != "f" for t in index)
            if tuple(index) in seen or (frames and playing < MIN_HAND_TILES):
                continue  # too few tiles for a hand (a kong on top hides one; bonus tiles don't count)
            base = geometry.row_angle(xyxy, index)
            for angle in (base, base + np.pi / 2):
                frame = replace(geometry.frame(xyxy, index, angle, codes=codes),
                                on_top=detections.on_top)
                frames.append(frame)
                if playing >= MIN_HAND_TILES:
                    found.extend(_Candidate(r, frame) for r in grouping.search(frame, codes))
        if found:
            break
    fallbacks = [] if found else [
        _Candidate(plain, frame) for frame in frames
        if (plain := grouping.fallback(frame, codes)) is not None]
    if found:
        found = _knowing_the_player(sorted(found, key=lambda c: -c.reading.score), codes, xyxy)
        return _layout(found[0], found[1:], detections)
    if not fallbacks:
        return _layout(None, [], detections)
    best = max(fallbacks, key=lambda c: (len(c.reading.concealed) + 3 * len(c.reading.melds),
                                         -len(c.reading.ignored)))
    return _layout(best, [], detections)


def _knowing_the_player(found: list[_Candidate], codes: list[str], xyxy: np.ndarray
                        ) -> list[_Candidate]:
    """Search the best reading's frame again once its tiles say which side the player sits
    on: a turned tile is laid at the near edge of its set, so a fourth tile put on top of
    it shows there (`sets._lifted`), which its centre alone hides when seen from across."""
    best = found[0]
    if not any(m.kind == "pung" or m.stacked for c in found if c.frame is best.frame
               for m in c.reading.melds):
        return found
    vote = _side_vote(best.reading, best.frame, codes, xyxy)
    if abs(vote) < SIDE_SURE:
        return found
    frame = replace(best.frame, owner=int(np.sign(vote)))
    again = [_Candidate(r, frame) for r in grouping.search(frame, codes)]
    return sorted(again + [c for c in found if c.frame is not best.frame],
                  key=lambda c: -c.reading.score)


def _direction(r: grouping.Reading, frame, codes: list[str], xyxy: np.ndarray) -> int:
    """+1 when +u runs from the player's left to right (the player sits on the +v side),
    else -1. A hand in one row is listed in the photo's reading order, as `detect` lists
    it: one row says too little of where the player sits to turn it round."""
    if len(_rows_of(r, frame)) == 1:
        return _reading_direction(frame.angle)
    return -1 if _side_vote(r, frame, codes, xyxy) < 0 else 1


def _rows_of(r: grouping.Reading, frame) -> set[int]:
    """The rows of the frame that the reading's hand tiles lie in."""
    tiles = set(r.concealed) | {t for m in r.melds for t in m.tiles} | (
        {r.winning} if r.winning is not None else set())
    return {seg.row for seg in frame.segments if tiles.intersection(seg.tiles)}


def _reading_direction(angle: float) -> int:
    """+1 when +u at `angle` runs the way a photo is read: left to right for a row across
    the photo, top to bottom for one down it."""
    c, s = np.cos(angle), np.sin(angle)
    return 1 if (c if abs(c) >= abs(s) else s) > 0 else -1


def _side_vote(r: grouping.Reading, frame, codes: list[str], xyxy: np.ndarray) -> float:
    """The evidence for `_direction` (>0: +1), votes strongest first: concealed tiles are
    mostly sorted low to high from left to right, and a chow is laid so; a winning tile set
    apart lies right of the concealed row; exposed sets in a row of their own lie beyond the
    concealed row, away from the player; near tiles look bigger (the photographer is most
    often the winner)."""
    vote = 0.0
    conc = sorted(r.concealed, key=lambda t: frame.u[t])
    if r.winning is not None and not r.guessed and conc:
        mid = (frame.u[conc[0]] + frame.u[conc[-1]]) / 2
        vote += 1.5 * np.sign(frame.u[r.winning] - mid)
    keys = [sort_key(codes[t]) for t in conc]
    if len(keys) >= 3:
        up = sum(a < b for a, b in itertools.pairwise(keys))
        down = sum(a > b for a, b in itertools.pairwise(keys))
        vote += 2.0 * (up - down) / (len(keys) - 1)
    for m in r.melds:  # a chow is laid low to high from the player's left
        if m.kind == "chow":
            nums = [int(codes[t][0]) for t in sorted(m.tiles, key=lambda t: frame.u[t])]
            vote += 1.5 * np.sign(nums[-1] - nums[0])
    meld_tiles = [t for m in r.melds for t in m.tiles]
    if meld_tiles and conc:
        dv = (np.median(frame.v[meld_tiles]) - np.median(frame.v[conc])) / np.median(frame.along[conc])
        if abs(dv) > 0.6:
            vote += -1.0 * np.sign(dv)
    tiles = conc + meld_tiles
    if len(tiles) >= 4 and np.ptp(frame.v[tiles]) > 1e-6:
        size = np.sqrt(np.prod(xyxy[tiles, 2:] - xyxy[tiles, :2], axis=1))
        slope = np.polyfit(frame.v[tiles], size, 1)[0] * np.ptp(frame.v[tiles]) / size.mean()
        if abs(slope) > PERSPECTIVE:
            vote += 0.3 * np.sign(slope)
    return float(vote)


def _offer(m: sets.MeldChoice, codes: list[str], order: list[int]) -> int | None:
    if m.claimed is None:
        return None
    claimed = m.tiles[m.claimed]
    if m.kind == "chow":
        ranked = sorted(m.tiles, key=lambda t: int(codes[t][0]))
        return ranked.index(claimed) + 1
    pos, last = order.index(claimed), len(order) - 1
    return 1 if pos == 0 else 3 if pos == last else 2


def _nothing_to_read(codes: list[str]) -> str:
    """Why a photo with tiles has no hand in it: which tiles it does have."""
    bonus, back = sum(c in BONUS for c in codes), sum(c == BACK for c in codes)
    found = [f"{n} {what}" + ("s" if n > 1 else "")
             for n, what in ((bonus, "flower or season tile"), (back, "face-down tile")) if n]
    return ("no face-up playing tiles found" + (f" (only {' and '.join(found)})" if found else "")
            + ": photograph the hand's suit and honour tiles")


# A tile found by looking again at a row (vision/recognition/look.py) is shown doubtful
# (under the page's LOW_CONFIDENCE), so that the player checks it first.
LOOKED_CONFIDENCE = 0.45


@dataclass(frozen=True)
class _Found:
    """The photo's detections as plain arrays, and any of them as a `LaidTile`."""
    codes: list[str]
    xyxy: np.ndarray
    conf: np.ndarray
    looked: np.ndarray

    @classmethod
    def of(cls, detections) -> _Found:
        n = len(detections)
        looked = np.zeros(n, bool) if detections.looked is None else np.asarray(detections.looked)
        return cls(list(detections.codes), np.asarray(detections.xyxy, np.float64),
                   np.asarray(detections.confidence, np.float64), looked)

    def tile(self, t: int, sideways: bool = False, doubt: float = 1.0) -> LaidTile:
        conf = float(np.clip(self.conf[t] * doubt, 0, 1))
        if self.looked[t]:
            conf = min(conf, LOOKED_CONFIDENCE)
        return LaidTile(self.codes[t], tuple(float(x) for x in self.xyxy[t]), conf, sideways,
                        bool(self.looked[t]))

    def tiles(self, index) -> tuple[LaidTile, ...]:
        return tuple(self.tile(t) for t in index)


def _layout(best: _Candidate | None, others: list[_Candidate], detections) -> TableLayout:
    found = _Found.of(detections)
    if best is None:
        return TableLayout(concealed=(), ignored=found.tiles(range(len(found.codes))),
                           notes=(_nothing_to_read(found.codes),))
    r, frame = best.reading, best.frame
    in_hand = list(r.concealed) + [t for m in r.melds for t in m.tiles] + \
        ([r.winning] if r.winning is not None else [])
    # each tile's place from the player's left along the rows
    place = _direction(r, frame, found.codes, found.xyxy) * (
        geometry.centres(found.xyxy) @ np.array([np.cos(frame.angle), np.sin(frame.angle)]))
    concealed, winning = sorted(r.concealed, key=place.__getitem__), r.winning
    if r.guessed:  # the drawn tile usually sits at the player's right end
        concealed = sorted(list(r.concealed) + [r.winning], key=place.__getitem__)
        winning = concealed.pop()
    melds, hand_melds = _laid_melds(r, frame, found, place)
    hand, notes = _hand_or_why_not(r, concealed, winning, hand_melds, in_hand, found)
    alternatives, scores = _alternatives(r, others, hand, found.codes)
    notes += [f"rejected {alt} (geometry {s - r.score:+.1f})"
              for alt, s in list(zip(alternatives, scores[1:]))[:3]]
    bonus, bonus_score = bonus_tiles(found.xyxy, found.codes, in_hand, frame.angle)
    notes += _left_out(found.codes, in_hand, bonus, bonus_score)
    looked = int(found.looked[in_hand].sum()) if in_hand else 0
    if looked:
        notes.append(f"{looked} tiles found by looking again at a gap in a row: check them first")
    confidence = float(1 / np.exp(np.array(scores) - r.score).sum()) if hand is not None else 0.0
    hand_conf = float(found.conf[in_hand].mean()) if in_hand else 0.0
    used = set(in_hand) | set(bonus)
    return TableLayout(
        concealed=found.tiles(concealed), melds=tuple(melds),
        bonus=found.tiles(sorted(bonus, key=place.__getitem__)),
        winning=found.tile(winning) if winning is not None else None,
        ignored=found.tiles(t for t in range(len(found.codes)) if t not in used),
        hand=hand, confidence=round(confidence * hand_conf, 4), notes=tuple(notes),
        winning_guessed=r.guessed, alternatives=tuple(alternatives))


def _laid_melds(r: grouping.Reading, frame, found: _Found, place: np.ndarray
                ) -> tuple[list[LaidMeld], list]:
    """The reading's sets as laid, concealed kongs included, from the player's left; and the
    exposed ones as the scorer's melds."""
    melds, hand_melds = [], []
    for m in sorted(r.melds, key=lambda m: np.mean(place[list(m.tiles)])):
        order = sorted(m.tiles, key=place.__getitem__)
        offer = _offer(m, found.codes, order)
        if not m.hidden:
            hand_melds.append(sets.to_meld(m, found.codes, offer, promoted=m.stacked))
        turned = {m.tiles[m.claimed]} if m.claimed is not None and \
            sets.soft_sideways(frame.sideways[m.tiles[m.claimed]]) >= 0.5 else set()
        meld_conf = float(min(found.conf[list(m.tiles)].min(), 1 / (1 + np.exp(-2 * m.score - 1))))
        laid = [found.tile(t, t in turned) for t in order]
        if m.stacked:  # the tile underneath is hidden: shown as a copy of the one on top
            top = m.tiles[m.claimed]
            laid.insert(order.index(top), found.tile(top, top in turned, doubt=0.5))
        melds.append(LaidMeld(m.kind, tuple(laid), meld_conf, offer, promoted=m.stacked))
    return melds, hand_melds


def _hand_or_why_not(r: grouping.Reading, concealed: list[int], winning: int | None,
                     hand_melds: list, in_hand: list[int], found: _Found
                     ) -> tuple[Hand | None, list[str]]:
    """The scorer's hand when the reading is complete with every face shown, else None and
    what stops it; and a note when the winning tile is a guess."""
    codes, notes, hand = found.codes, [], None
    if r.complete and any(m.hidden for m in r.melds):
        notes.append("a concealed kong shows no face (all four tiles face down): tap it and "
                     "choose its tile")
    elif r.complete:
        hand = Hand(tuple(codes[t] for t in concealed), tuple(hand_melds), codes[winning])
    else:
        n = len(concealed) + (winning is not None) + 3 * len(r.melds)
        unsure = sum(found.conf[t] < DOUBTFUL for t in in_hand)
        notes.append(f"no complete hand in the tiles read: {n} tiles, counting a kong as 3, in "
                     f"{len(r.melds)} declared sets" + (
                         f"; check the {unsure} marked doubtful" if unsure else ""))
    if r.guessed:
        notes.append(f"{GUESSED_NOTE} {format_tiles([codes[winning]])} chosen (any concealed "
                     f"tile completes the hand; change it if another was the last)")
    return hand, notes


def _alternatives(r: grouping.Reading, others: list[_Candidate], hand: Hand | None,
                  codes: list[str]) -> tuple[list[str], list[float]]:
    """The rejected readings, one per hand a scorer tells apart (the page offers three), and
    the geometry scores: the chosen reading's first."""
    alternatives, scores = [], [r.score]
    seen = {_scored_as(hand)} if hand is not None else set()
    for other in others:
        alt = _other_hand(other, codes)
        if alt is not None and _scored_as(alt) not in seen:
            seen.add(_scored_as(alt))
            alternatives.append(format_hand(alt))
            scores.append(other.reading.score)
    return alternatives, scores


def _left_out(codes: list[str], in_hand: list[int], bonus: list[int], bonus_score) -> list[str]:
    """Notes on the tiles the hand does not use: bonus tiles taken as another player's, and
    how many tiles were read as not part of the hand."""
    notes = []
    others = [t for t in bonus_score if t not in bonus]
    if others:
        notes.append(f"{len(others)} flower/season tiles read as another player's "
                     f"({' '.join(codes[t] for t in others)})")
    left_out = len(codes) - len(in_hand) - len(bonus)
    if left_out:
        notes.append(f"{left_out} tiles read as not part of the hand")
    return notes


def _scored_as(hand: Hand) -> tuple:
    """What a scorer sees of a reading: the sets in any order and without offer digits."""
    return hand.concealed, hand.winning, tuple(sorted((m.kind.value, m.tiles) for m in hand.melds))


def _other_hand(c: _Candidate, codes: list[str]) -> Hand | None:
    """A rejected complete reading (offer digits left out: they depend on orientation)."""
    r = c.reading
    if not r.complete or any(m.hidden for m in r.melds):
        return None
    melds = tuple(sets.to_meld(m, codes, None if m.kind != "kong" else 1) for m in r.melds)
    concealed = list(r.concealed) + ([r.winning] if r.guessed else [])
    winning = r.winning if not r.guessed else concealed.pop()
    return Hand(tuple(codes[t] for t in concealed), melds, codes[winning])
