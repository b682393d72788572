"""Scoring of Chinese mahjong hands: tiles and notation, hands, decompositions, rule sets, payments.

Standard library only (design.md): the vision side depends on `scoring.tiles`, never the reverse.
"""
