"""One module per `mahjong-lens` sub-command; each exposes `add_parser(subparsers)` and `run(args) -> int`."""
