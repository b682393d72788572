"""Developer tools: the MCR scorer against PyMahjongGB (diff_pymahjonggb.py, bench_mcr.py) and
the oracle they share with the differential test (mcr_oracle.py).

    python -m scripts.diff_pymahjonggb --count 20000
    python -m scripts.bench_mcr --count 5000 --seed 7
"""
