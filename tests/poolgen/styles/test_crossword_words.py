"""The crossword word list (poolgen/styles/crossword/words.txt) leaves out what its header says: no listed
word is a word of the hand lists (left out exactly), nor is, or begins with an entry of 4 or more letters
of, the LDNOOBW entries that removed words (held here); PAPIST, which a held-out game's specimen ticket
printed, and GOY, GOYS, GOYIM, GOYISH are gone; the header names the words held here and its counts are
the list's."""

from __future__ import annotations

import re

from poolgen.styles.crossword.words import LIST, listed_words

# the single-word entries of LDNOOBW's English list (file en, SHA-256 af851ece... in the header) that
# removed a word from the list: every other entry of 4 or more letters begins no ENABLE word of 3 to 6
LDNOOBW = ("butt", "escort", "eunuch", "fecal", "grope", "mong", "nudity", "poof", "scat", "sexy", "skeet")
# the slurs better-profanity 0.7.0's list lacks (step 1 of the header), left out exactly
HAND_1 = (
    "boche boches bohunk coolie dago dagoes dagos darkey darkie darky gimp gimped gimps gimpy gyp "
    "gypped gypper gyps gypsy honkey honkie hunky mick micks shiksa shikse spaz squaw squaws wog wogs "
    "wops yid yids")
# the words the hand review of every word left removed (step 3), left out exactly, by why
HAND_3 = {
    "ethnic and racial slurs": (
        "abo abos buckra cholo cholos cooly fagin fagins gaijin giaour gip gipped gipper gips gipsy "
        "goy goyim goyish goys haole haoles jew jewed jewing jews kafir kafirs kaffir limey limeys "
        "mestee mustee ofay ofays pom pommie pommy poms sambo sambos sheeny welch welsh"),
    "religious slurs": (
        "papist popery popish"),
    "sexual, and slurs on sexuality": (
        "bubby cissy coital coitus condom cooch cundum dikey dyking floosy harlot lezzes letch nance "
        "nances nancy nellie nelly nudie nudies nympha penes pizzle ponce ponced ponces poove pooves "
        "priapi sexier sexily sexpot swive swived swives trull trulls"),
    "vulgar words and insults": (
        "badass bint bints bollox bugger faecal faeces feces frig frigs heinie merde merdes momser "
        "momzer shat shmuck"),
    "disability and body insults": (
        "cretin fatso fatsos midget schizy"),
    "drug names and drug slang": (
        "bhang bhangs charas cocain dagga daggas keef keefs kef kefs kief kiefs kif kifs lude ludes "
        "peyotl spliff"),
    "violence and Nazism": (
        "fuhrer heil heiled heils lynch"),
}


def _header() -> str:
    lines = LIST.read_text(encoding="utf-8").splitlines()
    return " ".join(x[1:].strip() for x in lines if x.startswith("#"))


def test_no_listed_word_is_a_hand_listed_word_or_begins_with_an_ldnoobw_entry():
    hand = {w.upper() for w in HAND_1.split()} | {w.upper() for v in HAND_3.values() for w in v.split()}
    entries = tuple(e.upper() for e in LDNOOBW)
    prefixes = tuple(e for e in entries if len(e) >= 4)
    listed = listed_words()
    assert sorted(w for w in listed if w in hand) == []
    assert sorted(w for w in listed if w in entries or w.startswith(prefixes)) == []


def test_the_words_a_specimen_ticket_printed_and_goy_are_gone():
    assert {"PAPIST", "GOY", "GOYS", "GOYIM", "GOYISH"} & set(listed_words()) == set()


def test_the_header_names_exactly_the_words_held_here():
    header = _header()
    step_1 = re.search(r"list lacks, exactly: ([a-z ]+)\.", header)
    step_2 = re.search(r"the entries that removed a word: ([a-z ]+)\.", header)
    step_3 = dict(re.findall(r" - ([A-Za-z ,]+): ([a-z ]+)\.", header))
    assert step_1 is not None and step_1.group(1).split() == HAND_1.split()
    assert step_2 is not None and tuple(step_2.group(1).split()) == LDNOOBW
    assert step_3 == HAND_3
    assert "SHA-256 af851ecef1d5f212caba17339b12ac39cc2fef7d78c74876f67237644fcee8bd" in header


def test_the_headers_counts_are_the_lists():
    header = _header()
    listed = listed_words()
    removed_3 = sum(len(v.split()) for v in HAND_3.values())
    assert (len(HAND_1.split()), removed_3, len(listed)) == (34, 128, 27_977)
    assert header.startswith(f"poolgen crossword word list (docs/styles/crossword.md, section 2): "
                             f"{len(listed):,} words, one a line, A-Z.")
    assert "the words of 3 to 6 letters a-z (28,743)" in header
    assert "Offensive words removed (766), in three steps: 1 (604 words)" in header
    assert "2 (34 words)" in header and f"3 ({removed_3} words)" in header
    assert 28_743 - 604 - 34 - removed_3 == len(listed)
    assert len(set(listed)) == len(listed) and list(listed) == sorted(listed)
    assert all(re.fullmatch(r"[A-Z]{3,6}", w) for w in listed)
