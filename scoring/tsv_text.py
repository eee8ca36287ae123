"""From the bytes of an uploaded TSV to the lines ``csv`` reads: decoding, refusing non-text, splitting lines.

Knows nothing of submissions: a problem is a ``NotText`` with the line it is on, if any.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

# Files that are not text, named by their first bytes once decoding failed. Nothing is ever
# decompressed: a compressed upload is refused as it is (a gzip bomb costs its own size only).
SIGNATURES = (
    (b"\x1f\x8b", "gzip-compressed"),
    (b"PK\x03\x04", "a ZIP archive (or an .xlsx/.ods workbook)"),
    (b"PK\x05\x06", "an empty ZIP archive"),
    (b"BZh", "bzip2-compressed"),
    (b"\xfd7zXZ\x00", "xz-compressed"),
    (b"(\xb5/\xfd", "zstd-compressed"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Excel (.xls) workbook"),
    (b"PAR1", "a Parquet file"),
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
)
BYTE_ORDER_MARKS = (  # UTF-32 first: its little-endian mark starts with UTF-16's
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)
CHUNK_CHARS = 1 << 20
STAND_INS = tuple(chr(c) for c in range(0xE000, 0xE010))  # private-use characters, absent from real text
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_LONE_CR = re.compile(r"\r(?!\n)")


class NotText(ValueError):
    """The bytes are not UTF-8 text; ``line`` is where that shows, when one line does."""

    def __init__(self, problem: str, line: int | None = None) -> None:
        super().__init__(problem)
        self.line = line


def decode(data: bytes) -> str:
    """``data`` as UTF-8 text (a UTF-8 byte-order mark dropped), or ``NotText`` saying what it is instead."""
    for mark, encoding in BYTE_ORDER_MARKS:
        if data.startswith(mark):
            raise NotText(f"the file is {encoding} (it starts with a {encoding} byte-order mark), expected UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        _refuse_binary(data)
        before = data[: error.start]
        column = error.start - (before.rfind(b"\n") + 1) + 1
        raise NotText(
            f"byte 0x{data[error.start]:02x} at column {column} is not UTF-8; save the file as UTF-8",
            line=before.count(b"\n") + 1,
        ) from None
    header_end = text.find("\n")
    if "\x00" in text[: header_end if header_end >= 0 else None]:
        _refuse_binary(data)
        # UTF-16 without a byte-order mark decodes as UTF-8 with a NUL in every other byte.
        raise NotText(
            "the header holds NUL bytes: the file looks like UTF-16 without a byte-order mark; expected UTF-8", line=1
        )
    return text


def _refuse_binary(data: bytes) -> None:
    """Name the format of a file already found not to be text (asked only then: no false alarm on a TSV)."""
    for signature, kind in SIGNATURES:
        if data.startswith(signature):
            raise NotText(
                f"the file is {kind}, not text: upload the predictions as a plain UTF-8 TSV "
                "(compressed files and workbooks are not accepted)"
            )


def hold_lone_crs(text: str) -> tuple[str, str | None]:
    """``(text, stand_in)``: the text's lone CRs replaced by ``stand_in`` when they are data, not line ends.

    pandas' ``to_csv(sep="\\t")`` quotes a cell holding LF but not one holding a lone CR, which
    csv would take for a line end and so split the row. When lines end in LF, a CR not before a
    LF is therefore data, held by a private-use character while csv reads (put it back in each
    cell); in a file without any LF (classic Mac), CRs stay line ends. ``stand_in`` is ``None``
    when nothing is held.
    """
    if "\n" not in text or not _LONE_CR.search(text):
        return text, None
    stand_in = next((c for c in STAND_INS if c not in text), None)
    return (_LONE_CR.sub(stand_in, text), stand_in) if stand_in else (text, None)


def lines(text: str) -> Iterator[str]:
    """The lines of ``text`` as ``open(newline="")`` gives them (ends kept: CR LF, CR or LF).

    Read through windows of about ``CHUNK_CHARS`` cut after a LF, so no line or CR LF is split:
    one ``io.StringIO`` over the whole text would hold another copy at 4 bytes a character
    (+230 MB at the size limit). A window stretched by one huge line is split by a regex instead,
    which yields slices without that copy; it is slower per line, so only used there.
    """
    start = 0
    while start < len(text):
        end = text.find("\n", start + CHUNK_CHARS)
        end = len(text) if end < 0 else end + 1
        if end - start <= 2 * CHUNK_CHARS:
            yield from io.StringIO(text[start:end], newline="")
        else:
            yield from (match.group() for match in _LINE.finditer(text, start, end))
        start = end
