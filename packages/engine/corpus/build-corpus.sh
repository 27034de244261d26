#!/usr/bin/env bash
# Rebuilds the public-domain training texts shipped with the engine, deterministically, from
# Debian's packages:
#   kjv.txt      books of the King James Version (bible-kjv, bible-kjv-text), one paragraph
#                per five verses
#   jargon.txt   the Jargon File's entries (dict-jargon, public domain), as plain paragraphs
# Two clearly different authors: the tiny house model is pretrained on both, and tests train
# one Voice on each and check that each sounds like its own author.
set -euo pipefail
cd "$(dirname "$0")"

for cmd in bible dictzip; do
  command -v "$cmd" >/dev/null || { echo "needs: apt-get install bible-kjv bible-kjv-text dict-jargon dictzip" >&2; exit 1; }
done

books=(Genesis Exodus Ruth 1Samuel Proverbs Ecclesiastes Matthew Luke John Acts Romans)
: > kjv.txt
for book in "${books[@]}"; do
  # "  12 verse text" lines; chapter headings and blank lines dropped; 5 verses a paragraph.
  bible -l0 "$book 1:1-199:999" | awk '
    /^  *[0-9]+ / { sub(/^  *[0-9]+ /, ""); para = para (n ? " " : "") $0; n++;
                    if (n == 5) { print para; print ""; para = ""; n = 0 } }
    END { if (n) { print para; print "" } }' >> kjv.txt
done

# Entries: a headword at column 0, a pronunciation line, then indented paragraphs. Keep the
# paragraphs, unwrap them, and drop the {cross-reference} braces but keep their words.
dictzip -d -c /usr/share/dictd/jargon.dict.dz | awk '
  /^    / { line = $0; sub(/^ +/, "", line); para = para (para ? " " : "") line; next }
  { if (para != "") { print para; print ""; para = "" } }
  END { if (para != "") print para }' |
  sed -e 's/[{}]//g' |
  awk 'length($0) == 0 || (length($0) > 80 && !/00-database|dictd/)' |
  cat -s > jargon.txt

wc -c kjv.txt jargon.txt
