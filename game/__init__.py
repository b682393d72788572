"""A practice game of Hong Kong mahjong (preset hk001): one hand, four players, any of them
computer players. Plain Python on top of `scoring`, shared by the page, the command line and
the tests.

- `tiles`    the 144 physical tiles and the seeded wall
- `state`    frozen data: moves, sets, players, the table, the outcome
- `rules`    the table rules as data (claim priority)
- `engine`   new_game(seed), legal_moves(state), apply(state, move)
- `shanten`  how far a hand is from a win
- `players`  the computer players' choices
- `auto`     computer-only hands and their results as JSON-ready data
"""
