"""Text the players typed (their names), shown as itself wherever Streamlit reads Markdown:
st.markdown, captions, and the labels and options of buttons, pills and inputs.

A name such as `**Bo**`, `a|b|c`, `![](//127.0.0.1:9/x)` or `[c](javascript:...)` would
otherwise turn bold, break a table, make every browser at the table fetch an address, or
become a link. Every ASCII punctuation mark is backslash-escaped (CommonMark shows an escaped
mark as itself), so the name reads exactly as typed and nothing in it is markup.
"""
from __future__ import annotations

import re
import string

_MARK = re.compile("([" + re.escape(string.punctuation) + "])")


# GFM turns `https://...`, `www.x.y` and `a@b.c` into links after the escapes are read (the
# autolink literals are found in the text itself), so an invisible word joiner goes before
# every ':', '.' and '@' of a name: shown the same, never an address.
_JOINED = re.compile(r"(\\[:.@])")


def literal(text: object) -> str:
    """`text` for a Markdown context, shown as typed (on one line), never a link."""
    return _JOINED.sub("\u2060\\1", _MARK.sub(r"\\\1", " ".join(str(text).split())))
