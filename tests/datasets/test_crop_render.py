"""The procedural bonus sets of the crop classifier: where each set writes number and character."""
import pytest

from datasets.synth.crop_render import (
    BONUS_DEV_SEED0,
    BONUS_SEED0,
    PAIRED_SHARE,
    bonus_arrangement,
)

SEEDS = range(BONUS_SEED0, BONUS_SEED0 + 400)


def _paired_seeds(mirrored: bool):
    """Seeds whose sets take the real-set arrangement, with the seasons mirrored or not."""
    for seed in SEEDS:
        flower, season = bonus_arrangement(seed, True), bonus_arrangement(seed, False)
        if flower.paired and (season.number_at[0] < season.char_at[0]) == mirrored:
            yield seed, flower, season


@pytest.mark.parametrize("mirrored, season_number_side", [(True, "left"), (False, "right")])
def test_paired_sets_write_number_and_character_side_by_side_on_top(mirrored,
                                                                    season_number_side):
    found = list(_paired_seeds(mirrored))
    assert found, "no set of this kind among 400 seeds"
    for _seed, flower, season in found:
        for a in (flower, season):
            assert a.number_at[1] == a.char_at[1] < 0.2  # one line along the top
            assert a.picture[1] > a.number_at[1]          # the picture below it
        assert flower.number_at[0] > flower.char_at[0]    # flowers: number on the right
        side = "left" if season.number_at[0] < season.char_at[0] else "right"
        assert side == season_number_side


def test_a_set_writes_its_flowers_and_seasons_in_one_style():
    for seed in SEEDS:
        flower, season = bonus_arrangement(seed, True), bonus_arrangement(seed, False)
        assert flower.paired == season.paired
        assert (flower.numeral, flower.char_size, flower.number_ink, flower.char_ink) == (
            season.numeral, season.char_size, season.number_ink, season.char_ink)
        if not flower.paired:
            assert flower == season  # the other arrangements do not mirror


def test_share_of_paired_sets_and_sets_without_numbers():
    paired = [bonus_arrangement(seed, True).paired for seed in SEEDS]
    without_number = [bonus_arrangement(seed, True).numeral == "none" for seed in SEEDS]
    assert not any(p and n for p, n in zip(paired, without_number))  # a pair needs a number
    expected = PAIRED_SHARE * (1 - 0.25)  # a quarter of the sets write no number
    assert abs(sum(paired) / len(SEEDS) - expected) < 0.08


def test_development_bonus_sets_lie_beyond_the_training_seeds():
    assert BONUS_DEV_SEED0 - BONUS_SEED0 >= 10_000  # room for any --bonus-sets a run uses


def test_the_extra_sets_hold_only_their_tiles():
    from datasets.art.faces import available_fonts
    if not available_fonts():
        pytest.skip("no CJK font installed")
    from datasets.classes import TILE_CODES
    from datasets.synth.crop_render import FaceBank
    bank = FaceBank([], bonus_sets=2, white_sets=3, bonus_seed0=BONUS_DEV_SEED0)
    held = [[TILE_CODES[i] for i in range(42) if present[i]] for present in bank.present]
    assert held == [["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"]] * 2 + [["5z"]] * 3
    assert bank.designs[2:] == [f"white_{BONUS_DEV_SEED0 + s}" for s in range(3)]


def test_unseen_whole_sets_hold_every_face_and_lie_beyond_the_procedural_designs():
    from datasets.art.faces import available_fonts
    if not available_fonts():
        pytest.skip("no CJK font installed")
    import numpy as np

    from datasets.art.build import DEFAULT_PROCEDURAL
    from datasets.synth.crop_render import UNSEEN_SET_SEED0, FaceBank, rendered_crop
    assert DEFAULT_PROCEDURAL <= UNSEEN_SET_SEED0 < BONUS_SEED0
    bank = FaceBank([], white_sets=1)
    bank.add_procedural_sets([UNSEEN_SET_SEED0])
    assert bank.designs == [f"white_{BONUS_SEED0}", f"proc_s{UNSEEN_SET_SEED0}"]
    assert bank.present.shape == (2, 42) and bank.present[1].all()
    crop = rendered_crop(np.random.default_rng(0), bank, 0, 96, 0.08)  # 1m: only the new set has it
    assert crop.shape == (96, 96, 3)


def test_free_pictures_change_the_picture_and_nothing_else():
    from datasets.art.faces import available_fonts
    if not available_fonts():
        pytest.skip("no CJK font installed")
    from datasets.synth.crop_render import bonus_face
    seed = next(s for s in SEEDS if bonus_arrangement(s, True).paired)
    changed = 0
    for code in ("1f", "2f", "3f", "4f"):
        own, free = bonus_face(code, seed), bonus_face(code, seed, free_pictures=1.0)
        band = int(own.shape[0] * 0.22)  # number and character along the top
        assert (own[:band] == free[:band]).all()
        changed += int((own != free).any())
    assert changed >= 2  # a random picture is now and then the tile's own plant


@pytest.mark.parametrize("flower", [True, False])
def test_a_flipped_set_swaps_left_and_right_and_nothing_else(flower):
    for seed in range(BONUS_DEV_SEED0, BONUS_DEV_SEED0 + 40):
        own, flipped = bonus_arrangement(seed, flower), bonus_arrangement(seed, flower, flip=True)
        assert flipped.number_at == pytest.approx((1 - own.number_at[0], own.number_at[1]))
        assert flipped.char_at == pytest.approx((1 - own.char_at[0], own.char_at[1]))
        x0, y0, x1, y1 = own.picture
        assert flipped.picture == pytest.approx((1 - x1, y0, 1 - x0, y1))
        assert (flipped.numeral, flipped.char_size, flipped.paired) == (
            own.numeral, own.char_size, own.paired)
