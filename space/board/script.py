"""The board's page script: header clicks sort, arrow keys move between tabs, the address keeps the view.

Run once by the table component (``gr.HTML(js_on_load=...)``); it listens on ``document``, so the
table can be redrawn under it. A header click writes the new sort into the hidden ``#board-sort``
box (the server sorts and redraws); ``URL_JS`` runs before each table request with the controls'
values and writes them into the address with ``history.replaceState`` (no reload, no new history
entry). The server reads the address back in ``board_url.from_query``.
"""

from __future__ import annotations

from space.board.controls import GROUP_CODES

_CODES = ", ".join(f'"{label}": "{code}"' for code, label in GROUP_CODES.items())

BOARD_SCRIPT = (
    """
if (!window.ntBoard) {
  window.ntBoard = true;
  const codes = {"""
    + _CODES
    + """};
  const sortBox = () => document.querySelector('#board-sort textarea, #board-sort input');
  document.addEventListener('click', (event) => {
    const button = event.target.closest && event.target.closest('#leaderboard-table button.nt-sort');
    const box = sortBox();
    if (!button || !box) return;
    const table = button.closest('table');
    const key = button.dataset.sort;
    // The same column again reverses it; another column starts in its natural order (the server knows it).
    box.value = table.dataset.sort === key ? key + (table.dataset.desc === '1' ? ':asc' : ':desc') : key;
    refocus = event.detail === 0 ? key : null;  // Enter or Space (no pointer): keep the focus on that header
    box.dispatchEvent(new Event('input', {bubbles: true}));
  });
  let refocus = null;
  if (typeof watch === 'function') {
    watch('value', () => {
      const again = refocus && element.querySelector(`button.nt-sort[data-sort="${CSS.escape(refocus)}"]`);
      refocus = null;
      if (again) again.focus();
    });
  }
  // The ARIA tabs pattern: left/right move to the neighbouring tab (wrapping), Home/End to the first/last.
  document.addEventListener('keydown', (event) => {
    const tab = event.target.closest && event.target.closest('[role="tab"]');
    const list = tab && tab.closest('[role="tablist"]');
    if (!list || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    const tabs = [...list.querySelectorAll('[role="tab"]')].filter((t) => !t.disabled && t.offsetParent !== null);
    const here = tabs.indexOf(tab);
    const next = {ArrowRight: here + 1, ArrowLeft: here - 1, Home: 0, End: tabs.length - 1}[event.key];
    const target = tabs[(next + tabs.length) % tabs.length];
    event.preventDefault();
    target.focus();
    target.click();
  });
  window.ntBoardUrl = (values) => {
    const [split, query, sort, groups, by, best, open, pmin, pmax, org, hideFlagged, hub, notTrained, single] = values;
    const params = new URLSearchParams(window.location.search);
    const put = (name, value, fallback) => {
      if (value === null || value === undefined || value === '' || value === fallback) params.delete(name);
      else params.set(name, String(value));
    };
    const text = String(sort || 'score');
    const direction = /:(asc|desc)$/.exec(text);
    put('split', split, 'test');
    put('q', String(query || '').trim(), '');
    put('sort', direction ? text.slice(0, direction.index) : text, 'score');
    put('dir', direction ? direction[1] : '', '');
    const cols = (groups || []).map((g) => codes[g]).filter(Boolean).join(',');
    if (cols === 'emb') params.delete('cols'); else params.set('cols', cols);
    put('by', by, '');
    put('all', best ? '' : '1', '');
    put('open', open ? '1' : '', '');
    put('pmin', pmin, '');
    put('pmax', pmax, '');
    put('org', String(org || '').trim(), '');
    put('flagged', hideFlagged === false ? '1' : '', '');
    put('hub', hub ? '1' : '', '');
    put('notrained', notTrained ? '1' : '', '');
    put('single', single ? '1' : '', '');
    const search = params.toString();
    const here = window.location.pathname + (search ? '?' + search : '') + window.location.hash;
    window.history.replaceState(window.history.state, '', here);
  };
}
"""
)

# Before each table request: write the controls into the address, and pass the values on unchanged.
URL_JS = "(...values) => { if (window.ntBoardUrl) window.ntBoardUrl(values); return values.slice(0, 14); }"
