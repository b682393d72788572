import sys

from datasets.synth.generate import main

sys.exit(main())
