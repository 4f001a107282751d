#!/usr/bin/env python3
"""corpus/gen_jeopardy.py: writes a jeopardy-like JSON file: one array of small flat objects (category, air_date,
question, value, answer, round, show_number), on one line with ", " separators and non-ASCII as \\uXXXX escapes,
as Python's json.dump wrote the original 55 MB jeopardy.json (which is not in the corpus). Deterministic: the same
arguments give the same bytes on any Python 3. Output goes where it is asked (the build directory), never into git.

usage: gen_jeopardy.py OUT [--size-mb 50] [--seed 1]
"""
import argparse
import json
import random

SYLLABLES = ["ka", "lo", "ri", "men", "tor", "vi", "sa", "bel", "no", "qua", "dre", "pha", "gus", "tin", "ol",
             "mar", "es", "che", "lun", "da", "zo", "ber", "ish", "wen", "yo", "ter", "ca", "mi", "rus", "ven"]
ACCENTED = ["café", "naïve", "Zürich", "señor", "Dvořák", "Ångström", "façade", "Brontë", "Tōkyō", "São Paulo"]
ROUNDS = ["Jeopardy!", "Double Jeopardy!", "Final Jeopardy!", "Tiebreaker"]
VALUES = [200, 400, 600, 800, 1000, 1200, 1600, 2000]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--size-mb", type=float, default=50.0, help="approximate size in MB (10^6 bytes)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rnd = random.Random(args.seed).random

    def pick(seq):
        return seq[int(rnd() * len(seq))]

    words = []
    for _ in range(600):
        words.append("".join(pick(SYLLABLES) for _ in range(1 + int(rnd() * 3))))
    words += ACCENTED
    categories = [" ".join(pick(words).upper() for _ in range(1 + int(rnd() * 3))) for _ in range(3000)]

    def sentence(n):
        return " ".join(pick(words) for _ in range(n))

    target = int(args.size_mb * 1e6)
    written = 0
    show = 4680
    with open(args.out, "w", encoding="ascii", newline="\n") as f:
        f.write("[")
        written = 1
        first = True
        while written < target:
            rnd_round = rnd()
            rnd_value = rnd()
            r = ROUNDS[0] if rnd_round < 0.48 else ROUNDS[1] if rnd_round < 0.96 else ROUNDS[2] if rnd_round < 0.995 \
                else ROUNDS[3]
            q = sentence(6 + int(rnd() * 14))
            kind = rnd()
            if kind < 0.12:  # a media link, as many real clues have (escaped quotes inside)
                q = '<a href="http://www.j-archive.com/media/%04d-%02d-%02d_J_%02d.jpg" target="_blank">%s</a> %s' % (
                    1984 + int(rnd() * 28), 1 + int(rnd() * 12), 1 + int(rnd() * 28), int(rnd() * 30),
                    pick(words), sentence(4))
            elif kind < 0.3:
                q = "'%s \"%s\" %s'" % (sentence(3), pick(words), sentence(5))
            else:
                q = "'%s'" % q
            record = {
                "category": pick(categories),
                "air_date": "%04d-%02d-%02d" % (1984 + int(rnd() * 28), 1 + int(rnd() * 12), 1 + int(rnd() * 28)),
                "question": q,
                "value": None if r in ROUNDS[2:] else "$%d" % (VALUES[int(rnd_value * len(VALUES))] *
                                                               (2 if r == ROUNDS[1] else 1)),
                "answer": sentence(1 + int(rnd() * 3)).title(),
                "round": r,
                "show_number": str(show),
            }
            if rnd() < 0.016:
                show += 1
            text = ("" if first else ", ") + json.dumps(record)
            first = False
            f.write(text)
            written += len(text)
        f.write("]")


if __name__ == "__main__":
    main()
