"""Fan names and one-line definitions in the player's language, for every rule set.

A fan's English name (the scorer's `FanHit.name`) is the message id; the rule family is the
message context, so that one English name can be said differently in MCR, Hong Kong and
Classical ("Seat Wind" is a Polish MCR "Wiatr Miejsca" but the German Hong Kong table's
"Pung des Platzwinds"). Definitions are written here in English, one short line each, and
translated in the catalogues under the context '<family> definition'.
"""
from __future__ import annotations

from . import pgettext as _in_context  # not `pgettext`: the extractor would read these calls

FAMILIES = {"mcr": "mcr", "hk001": "hk", "hk002": "hk", "hk": "hk", "classical": "classical"}

MCR: dict[str, str] = {
    "Big Four Winds": "Pungs or kongs of all four winds.",
    "Big Three Dragons": "Pungs or kongs of all three dragons.",
    "All Green": "Only green tiles: 2, 3, 4, 6 and 8 of bamboo and the green dragon.",
    "Nine Gates": "1112345678999 of one suit held concealed, won on any tile of that suit.",
    "Four Kongs": "Four kongs, melded or concealed.",
    "Seven Shifted Pairs": "Seven pairs of one suit in an unbroken run of numbers.",
    "Thirteen Orphans": "One of each terminal and honour, and a second of one of them.",
    "All Terminals": "Only ones and nines, no honours.",
    "Little Four Winds": "Pungs of three winds and a pair of the fourth.",
    "Little Three Dragons": "Pungs of two dragons and a pair of the third.",
    "All Honors": "Only winds and dragons.",
    "Four Concealed Pungs": "Four pungs or kongs, all of them concealed.",
    "Pure Terminal Chows": "123, 123, 789, 789 of one suit and a pair of fives of it.",
    "Quadruple Chow": "The same chow four times in one suit.",
    "Four Pure Shifted Pungs": "Four pungs of one suit, each one number higher.",
    "Four Pure Shifted Chows": "Four chows of one suit, each one or each two numbers higher.",
    "Three Kongs": "Three kongs.",
    "All Terminals and Honors": "Only ones, nines and honours.",
    "Seven Pairs": "Seven pairs.",
    "Greater Honors and Knitted Tiles": "All seven honours and seven tiles of a knitted 147-258-369, all single.",
    "All Even Pungs": "Pungs of 2, 4, 6 or 8 only, and a pair of them.",
    "Full Flush": "Only tiles of one suit.",
    "Pure Triple Chow": "The same chow three times in one suit.",
    "Pure Shifted Pungs": "Three pungs of one suit, each one number higher.",
    "Upper Tiles": "Only 7, 8 and 9 of the suits.",
    "Middle Tiles": "Only 4, 5 and 6 of the suits.",
    "Lower Tiles": "Only 1, 2 and 3 of the suits.",
    "Pure Straight": "123, 456 and 789 of one suit.",
    "Three-Suited Terminal Chows": "123 and 789 of two suits and a pair of fives of the third.",
    "Pure Shifted Chows": "Three chows of one suit, each one or each two numbers higher.",
    "All Fives": "A five in every set and in the pair.",
    "Triple Pung": "Pungs of the same number in all three suits.",
    "Three Concealed Pungs": "Three concealed pungs or kongs.",
    "Lesser Honors and Knitted Tiles": "Fourteen single tiles: honours and tiles of a knitted 147-258-369.",
    "Knitted Straight": "1-4-7, 2-5-8 and 3-6-9, each in a different suit.",
    "Upper Four": "Only 6, 7, 8 and 9 of the suits.",
    "Lower Four": "Only 1, 2, 3 and 4 of the suits.",
    "Big Three Winds": "Pungs of three winds.",
    "Mixed Straight": "123, 456 and 789, each in a different suit.",
    "Reversible Tiles": "Only tiles that look the same upside down.",
    "Mixed Triple Chow": "The same chow in all three suits.",
    "Mixed Shifted Pungs": "Pungs of three suits, each one number higher.",
    "Chicken Hand": "A winning hand that scores no other fan (flowers aside).",
    "Last Tile Draw": "Won on the last tile drawn from the wall.",
    "Last Tile Claim": "Won on the discard after the last tile of the wall.",
    "Out with Replacement Tile": "Won on the tile drawn after declaring a kong.",
    "Robbing the Kong": "Won on the tile another player adds to a melded pung.",
    "Two Concealed Kongs": "Two concealed kongs.",
    "All Pungs": "Four pungs or kongs and a pair.",
    "Half Flush": "Tiles of one suit and honours.",
    "Mixed Shifted Chows": "Chows of three suits, each one number higher.",
    "All Types": "Every suit, a wind and a dragon among the sets and the pair.",
    "Melded Hand": "Every set melded and the pair won on a discard.",
    "Two Dragon Pungs": "Pungs of two dragons.",
    "Outside Hand": "A terminal or an honour in every set and in the pair.",
    "Fully Concealed Hand": "Nothing melded, and the winning tile self-drawn.",
    "Two Melded Kongs": "Two melded kongs.",
    "Last Tile": "Won on the last copy of a tile: the other three are in sight.",
    "Dragon Pung": "A pung of a dragon.",
    "Prevalent Wind": "A pung of the round's wind.",
    "Seat Wind": "A pung of the player's own wind.",
    "Concealed Hand": "Nothing melded, won on a discard.",
    "All Chows": "Four chows and a pair of suit tiles.",
    "Tile Hog": "All four copies of a tile used without a kong.",
    "Double Pung": "Pungs of the same number in two suits.",
    "Two Concealed Pungs": "Two concealed pungs or kongs.",
    "Concealed Kong": "A concealed kong.",
    "All Simples": "No ones, nines or honours.",
    "Pure Double Chow": "The same chow twice in one suit.",
    "Mixed Double Chow": "The same chow in two suits.",
    "Short Straight": "Two chows of one suit that run on, such as 123 and 456.",
    "Two Terminal Chows": "123 and 789 of one suit.",
    "Pung of Terminals or Honors": "A pung of ones or nines, or of a wind that is neither the seat's nor the round's.",
    "Melded Kong": "A melded kong.",
    "One Voided Suit": "One of the three suits is missing.",
    "No Honors": "No winds and no dragons.",
    "Edge Wait": "Waited only on the 3 of 12 or the 7 of 89.",
    "Closed Wait": "Waited only on the middle tile of a chow.",
    "Single Wait": "Waited only on the tile that makes the pair.",
    "Self-Drawn": "The winning tile was drawn from the wall.",
    "Flower Tiles": "One point for each flower or season.",
    "Concealed Kong and Melded Kong": "One concealed and one melded kong.",
}

HK: dict[str, str] = {
    "Thirteen Orphans": "One of each terminal and honour, and a second of one of them.",
    "Nine Gates": "1112345678999 of one suit held concealed, won on any tile of that suit.",
    "Great Four Winds": "Pungs of all four winds.",
    "Little Four Winds": "Pungs of three winds and a pair of the fourth.",
    "Great Three Dragons": "Pungs of all three dragons.",
    "All Honours": "Only winds and dragons.",
    "All Terminals": "Only ones and nines.",
    "Four Kongs": "Four kongs.",
    "Four Concealed Pungs": "Four concealed pungs, the hand self-drawn.",
    "Heavenly Hand": "The dealer wins with the tiles first dealt.",
    "Earthly Hand": "A player wins on the dealer's first discard.",
    "Human Hand": "A player wins before their own first turn.",
    "All Eight Flowers": "All eight flowers and seasons: a win on its own.",
    "Seven Flowers Rob One": "Seven flowers and seasons, taking the eighth from its holder.",
    "Full Flush": "Only tiles of one suit.",
    "Little Three Dragons": "Pungs of two dragons and a pair of the third.",
    "Seven Pairs": "Seven pairs.",
    "All Pungs": "Four pungs or kongs and a pair.",
    "Half Flush": "Tiles of one suit and honours.",
    "Dragon Pung": "A pung of a dragon, one fan each.",
    "Seat Wind": "A pung of the player's own wind.",
    "Prevalent Wind": "A pung of the round's wind.",
    "Mixed Terminals": "Only ones, nines and honours.",
    "All Chows": "Four chows and a pair.",
    "Concealed Hand": "Nothing melded, won on a discard.",
    "Self-Drawn": "The winning tile was drawn from the wall.",
    "Win on Last Wall Tile": "Won on the last tile of the wall.",
    "Win on Last Discard": "Won on the very last discard.",
    "Win on Kong Replacement": "Won on the tile drawn after a kong.",
    "Robbing the Kong": "Won on the tile another player adds to a melded pung.",
    "Flower Set": "All four flowers or all four seasons.",
    "Own Flower": "A flower or season of the player's own seat.",
    "No Flowers": "No flower and no season in the whole hand.",
}

CLASSICAL: dict[str, str] = {
    "Mahjong": "Points for going out.",
    "Exposed Pung of Simples": "An exposed pung of 2 to 8.",
    "Concealed Pung of Simples": "A concealed pung of 2 to 8.",
    "Exposed Pung of Majors": "An exposed pung of ones, nines, winds or dragons.",
    "Concealed Pung of Majors": "A concealed pung of ones, nines, winds or dragons.",
    "Exposed Kong of Simples": "An exposed kong of 2 to 8.",
    "Concealed Kong of Simples": "A concealed kong of 2 to 8.",
    "Exposed Kong of Majors": "An exposed kong of ones, nines, winds or dragons.",
    "Concealed Kong of Majors": "A concealed kong of ones, nines, winds or dragons.",
    "Pair of Dragons": "A pair of dragons.",
    "Pair of Own Wind": "A pair of the player's own wind.",
    "Pair of Round Wind": "A pair of the round's wind.",
    "Flower": "Each flower tile.",
    "Season": "Each season tile.",
    "Only Possible Tile": "Went out on the only tile that could complete the hand.",
    "Winning Tile from the Wall": "The winning tile was drawn from the wall.",
    "Pung of Dragons": "A pung or kong of dragons.",
    "Pung of Round Wind": "A pung or kong of the round's wind.",
    "Pung of Own Wind": "A pung or kong of the player's own wind.",
    "All Four Flowers": "All four flower tiles.",
    "All Four Seasons": "All four season tiles.",
    "Own Flower and Own Season": "The flower and the season of the player's own seat.",
    "Three Concealed Pungs": "Three or more concealed pungs or kongs.",
    "Little Three Dragons": "Pungs of two dragons and a pair of the third.",
    "Little Four Winds": "Pungs of three winds and a pair of the fourth.",
    "Big Three Dragons": "Pungs of all three dragons.",
    "Big Four Winds": "Pungs of all four winds.",
    "Last Tile of the Wall": "Went out on the last tile of the wall.",
    "Last Discard": "Went out on the last discard.",
    "Win with a Loose Tile": "Went out on the loose tile drawn after a kong or a bonus tile.",
    "Loose Tile after the Last Wall Tile": "Went out on a loose tile taken after the last wall tile.",
    "Robbing the Kong": "Went out on the tile another player adds to a pung.",
    "All Chows and a Non-scoring Pair": "Four chows and a pair that scores nothing.",
    "No Chows": "Pungs and kongs only.",
    "Half Flush": "Tiles of one suit and honours.",
    "Full Flush": "Only tiles of one suit.",
    "Majors in Every Set": "A one, a nine or an honour in every set and in the pair.",
    "Only Major Tiles": "Only ones, nines, winds and dragons.",
    "Pure Straight": "123, 456 and 789 of one suit.",
    "Concealed Hand": "Nothing exposed before going out.",
    "Thirteen Orphans": "One of each terminal and honour, and a second of one of them.",
    "Nine Gates": "1112345678999 of one suit held concealed, won on any tile of that suit.",
    "All Honours": "Only winds and dragons.",
    "All Terminals": "Only ones and nines.",
    "Four Kongs": "Four kongs.",
    "Heavenly Hand": "The dealer goes out with the tiles first dealt.",
    "Earthly Hand": "A player goes out on the dealer's first discard.",
    "Human Hand": "A player goes out before their own first turn.",
}

DEFINITIONS: dict[str, dict[str, str]] = {"mcr": MCR, "hk": HK, "classical": CLASSICAL}


def family(rules: str) -> str:
    """'mcr', 'hk' or 'classical' for a rule set's name or preset ('hk001' → 'hk')."""
    try:
        return FAMILIES[rules]
    except KeyError:
        raise ValueError(f"unknown rule set {rules!r}") from None


def fan_name(rules: str, name: str) -> str:
    """A fan's name in the current language (the English name where none is known)."""
    return _in_context(family(rules), name)


def fan_definition(rules: str, name: str) -> str:
    """A fan's one-line definition in the current language; '' for an unknown fan."""
    fam = family(rules)
    text = DEFINITIONS[fam].get(name, "")
    return _in_context(f"{fam} definition", text) if text else ""


def fan_label(rules: str, name: str, name_zh: str) -> str:
    """A fan as a line of the score names it: the name in the current language and the Chinese
    name players know it by ('Bezwartościowa Ręka 无番和'); the Chinese name alone in Chinese."""
    local = fan_name(rules, name)
    return name_zh if local == name_zh else f"{local} {name_zh}".strip()
