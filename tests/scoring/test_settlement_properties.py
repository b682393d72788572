"""Property tests for Hong Kong and Classical: settlements sum to zero, HK totals stay within
the limit, hands below the minimum are refused with a reason, flower families never double
count, every fan has both names."""
from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.hand import WinContext
from scoring.payments import DISCARD_SPLITS, MULTIPLIERS, classical as settle, hk as hk_pay, hk_false_win
from scoring.rules import classical, classical_table, hk
from scoring.tiles import BONUS, PLAYING, bonus_family, bonus_seat

from .strategies import complete_hands, standard_hands

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
seats = st.integers(0, 3)


@st.composite
def contexts(draw) -> WinContext:
    seat = draw(seats)
    self_drawn = draw(st.booleans())
    discarder = None if self_drawn else draw(st.sampled_from([s for s in range(4) if s != seat] + [None]))
    return WinContext(self_drawn=self_drawn, discarder=discarder, seat=seat, round=draw(seats),
                      dealer=draw(seats), last_tile=draw(st.booleans()), kong=draw(st.booleans()))


hk_options = st.builds(
    hk.Options, limit=st.integers(5, 13), minimum=st.integers(0, 4),
    flowers_count_toward_minimum=st.booleans(), allow_seven_pairs=st.booleans(),
    seven_pairs_adds_concealed=st.booleans(), great_three_dragons_limit=st.booleans(),
    little_four_winds_limit=st.booleans(), four_concealed_pungs_self_drawn_only=st.booleans(),
    mixed_terminals=st.booleans(), last_discard_fan=st.booleans(), all_chows_pair_must_be_suited=st.booleans(),
    flower_hands_limit=st.booleans(), multiplier=st.sampled_from(MULTIPLIERS),
    discard_split=st.sampled_from(list(DISCARD_SPLITS)), self_draw_each=st.sampled_from([1, 2]),
    unit=st.sampled_from([0.5, 1, 2]))


def _zero(amounts) -> bool:
    return abs(sum(amounts.values())) < 1e-9 and set(amounts) == set("ESWN")


@SETTINGS
@given(fan=st.integers(0, 13), ctx=contexts(), split=st.sampled_from(list(DISCARD_SPLITS)),
       multiplier=st.sampled_from(MULTIPLIERS), each=st.sampled_from([1, 2]), unit=st.sampled_from([0.5, 1, 2]),
       guarantor=st.one_of(st.none(), seats))
def test_hk_settlement_sums_to_zero(fan, ctx, split, multiplier, each, unit, guarantor):
    if guarantor == ctx.seat or not ctx.self_drawn:
        guarantor = None
    pay = hk_pay(fan, ctx, multiplier=multiplier, discard_split=split, self_draw_each=each, unit=unit,
                 guarantor=guarantor)
    if pay is None:
        assert not ctx.self_drawn and ctx.discarder is None
        return
    assert _zero(pay)
    assert pay["ESWN"[ctx.seat]] > 0
    assert _zero(hk_false_win(ctx.seat, fan, multiplier=multiplier, unit=unit, self_draw_each=each))


@SETTINGS
@given(scores=st.lists(st.integers(0, 1000), min_size=4, max_size=4), winner=st.one_of(st.none(), seats),
       east=seats, double=st.booleans(), settle_losers=st.booleans(), pays_all=st.booleans(), disc=seats,
       given_seats=st.sets(seats))
def test_classical_settlement_sums_to_zero(scores, winner, east, double, settle_losers, pays_all, disc, given_seats):
    table = {s: scores[s] for s in range(4) if s in given_seats or s == winner}
    discarder = disc if winner is not None and disc != winner else None
    net, transfers = settle(table, winner, east=east, east_double=double, losers_settle=settle_losers,
                            discarder=discarder, discarder_pays_all=pays_all)
    assert _zero(net)
    assert all(amount > 0 and payer != payee for payer, payee, amount in transfers)
    if winner is None:
        assert not transfers
    else:
        assert net["ESWN"[winner]] == sum(a for _, b, a in transfers if b == "ESWN"[winner])


@SETTINGS
@given(hand=complete_hands, ctx=contexts(), options=hk_options)
def test_hk_total_within_limit_and_minimum_enforced(hand, ctx, options):
    result = hk.score(hand, ctx, options)
    assert 0 <= result.total <= options.limit
    assert all(f.name and f.name_zh and f.count >= 1 for f in result.fans)
    if result.valid:
        assert result.total >= options.minimum and result.reason is None
        assert result.payments is None or _zero(result.payments)
    else:
        assert result.reason and result.payments is None
        if result.fans and options.flowers_count_toward_minimum:
            assert result.total < options.minimum and "below the minimum" in result.reason


@SETTINGS
@given(hand=standard_hands(), ctx=contexts(), preset=st.sampled_from(["hk001", "hk002"]))
def test_hk_flower_families_never_double_count(hand, ctx, preset):
    result = hk.score(hand, ctx, hk.PRESETS[preset])
    assume(result.fans and not result.details["limit_hands"])
    fans = {f.name: f for f in result.fans}
    own = set(fans["Own Flower"].sets) if "Own Flower" in fans else set()
    full = set(fans["Flower Set"].sets) if "Flower Set" in fans else set()
    assert not {bonus_family(t) for t in own} & {bonus_family(t) for t in full}
    expected = 0
    for family in ("flower", "season"):
        group = [t for t in hand.bonus if bonus_family(t) == family]
        expected += 2 if len(group) == 4 else int(any(bonus_seat(t) == ctx.seat for t in group))
    expected += 0 if hand.bonus else 1  # No Flowers
    got = sum(fans[n].value for n in ("Own Flower", "Flower Set", "No Flowers") if n in fans)
    assert got == expected


@st.composite
def tables(draw):
    """A winning hand and up to three losers' hands from the tiles left on the table."""
    hand = draw(standard_hands())
    left = Counter({t: 4 for t in PLAYING})
    left.subtract(hand.all_tiles)
    bonus_left = [b for b in BONUS if b not in hand.bonus]
    others = []
    for seat in draw(st.sets(seats, max_size=3)):
        pool = sorted(left.elements())
        idx = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, max_size=min(13, len(pool))))
        tiles = [pool[i] for i in idx]
        left.subtract(tiles)
        mine = draw(st.lists(st.sampled_from(bonus_left), unique=True, max_size=3)) if bonus_left else []
        bonus_left = [b for b in bonus_left if b not in mine]
        others.append((seat, classical_table.PartialHand(tuple(tiles), (), tuple(mine))))
    return hand, others


@SETTINGS
@given(data=tables(), ctx=contexts(), pays_all=st.booleans())
def test_classical_table_is_zero_sum(data, ctx, pays_all):
    hand, others = data
    others = [(s, h) for s, h in others if s != ctx.seat]
    options = classical.Options(discarder_pays_all=pays_all)
    table = classical_table.score_table(hand, ctx, others, options)
    assert table.winner.valid and table.winner.total <= 1000
    assert all(p is None or p.total >= 0 for p in table.players.values())
    if table.net is not None:
        assert _zero(table.net)
    assert all(f.name and f.name_zh for p in table.players.values() if p for f in p.fans)
