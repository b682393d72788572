import sys

from datasets.synth.generate import main

if __name__ == "__main__":  # spawned workers import this module again: they must not run it
    sys.exit(main())
