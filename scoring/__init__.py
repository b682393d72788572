"""Scoring of Chinese mahjong hands: tiles and notation, hands, decompositions, rule sets, payments.

Standard library only (docs/architecture.md, "Style"): the vision side depends on `scoring.tiles`, never the reverse.
"""
