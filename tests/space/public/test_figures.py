from space.pages import board, entry, compare
from pathlib import Path

def test_dump(seeded):
    rows = seeded.services.board.snapshot().rows
    view = board.BoardView("test", groups=frozenset(board.GROUPS), best_only=False)
    Path("/tmp/board.html").write_text(board.render(rows, view))
    Path("/tmp/site_board.html").write_text(seeded.client.get("/?all=1&cols=emb,cat,details").text)
    from space.public.entry_page import intervals_of
    iv = intervals_of(seeded.services)
    r = entry.find(rows, seeded.ids["Noisy"]); r2 = entry.find(rows, seeded.ids["Perfect"])
    Path("/tmp/entry.html").write_text(entry.entry_html(r, iv.groups(r)))
    Path("/tmp/compare.html").write_text(compare.compare_html(r, r2, iv.compare(r, r2)))
    Path("/tmp/site_entry.html").write_text(seeded.client.get(f"/entry/{seeded.ids['Noisy']}").text)
