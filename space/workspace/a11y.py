"""What keyboard and screen-reader users need on the signed-in page's tabs (Submit, My submissions, Explorer).

- A skip link, first in the tab order, to the open tab's content (past the shared header and the tab bar).
- Gradio's status announcer reads the translation key ``common.complete`` aloud after each event (its
  English strings lack it): the page gets the words.
- ``FOCUS_ANSWER``: after a click or an upload, focus goes to the answer (never left on ``<body>``),
  brought into view when its top is off the screen.
"""

from __future__ import annotations

import gradio as gr

# The words Gradio's announcer says after an event; missing from its own English strings.
ANNOUNCED = {"common.complete": "Done.", "common.error": "Error."}
SKIP_ID = "nt-skip-work"
# Installed once per page by whichever tab is drawn first; the link focuses the open tab's panel.
SKIP_LINK = r"""
if (!document.getElementById('nt-skip-work')) {
  const style = document.createElement('style');
  style.textContent = '#nt-skip-work{position:absolute;left:8px;top:-80px;z-index:1000;padding:8px 12px;'
    + 'background:#fff;color:#0b3d2e;border:2px solid #0b3d2e;border-radius:4px;font-weight:600}'
    + '#nt-skip-work:focus{top:8px}'
    + '.nt-invalid{box-shadow:inset 0 0 0 3px #b42318 !important;border-radius:6px}'
    + '.nt-field-error{color:#b42318;font-weight:600;margin:4px 12px 8px}';
  document.head.appendChild(style);
  const link = document.createElement('a');
  link.id = 'nt-skip-work';
  link.href = '#tabs';
  link.textContent = 'Skip to the content';
  link.addEventListener('click', (event) => {
    event.preventDefault();
    const open = ['tab-submit', 'tab-mine', 'tab-explorer']
      .map((id) => document.getElementById(id))
      .find((el) => el && el.offsetParent !== null);
    if (!open) return;
    open.setAttribute('tabindex', '-1');
    open.focus({preventScroll: true});
    open.scrollIntoView({block: 'start'});
  });
  document.body.prepend(link);
  // Gradio's dropdowns open when focus reaches them and stay open after it leaves: a keyboard user tabbing
  // through gets lists over the page. Opened by a click or the arrow keys only, closed when focus leaves.
  let pointer = false;
  const pressed = () => { pointer = true; setTimeout(() => { pointer = false; }, 600); };
  document.addEventListener('pointerdown', pressed, true);
  const ours = (el) => el && el.matches && el.matches('input[role=combobox]')
    && el.closest('#tab-submit, #tab-mine, #tab-explorer');
  const close = (input) => input.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
  document.addEventListener('focusin', (event) => {
    if (ours(event.target) && !pointer) setTimeout(() => close(event.target), 0);
  });
  // Gradio names its upload box "Click to upload or drop files" while it shows "Drop File Here - or - Click to
  // Upload": speech users say what they see, so the name starts with the visible words.
  const nameUploads = () => document.querySelectorAll('#tab-submit .upload-container').forEach((box) => {
    const shown = box.textContent.replace(/\s+/g, ' ').trim();
    const name = shown + ' (the predictions TSV)';
    if (shown && box.getAttribute('aria-label') !== name) box.setAttribute('aria-label', name);
  });
  // Its empty file box and picture are a <div aria-label="Empty value">, a name no plain div may carry.
  const empties = ['submit', 'mine', 'explorer'].map((t) => `#tab-${t} .empty[aria-label]:not([role])`).join(', ');
  const nameEmpty = () => document.querySelectorAll(empties).forEach((box) => {
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', box.closest('#tab-submit') ? 'No file' : 'Nothing drawn yet');
  });
  const named = () => { nameUploads(); nameEmpty(); };
  new MutationObserver(named).observe(document.body, {subtree: true, childList: true});
  named();
  document.addEventListener('focusout', (event) => {
    const input = event.target;
    if (ours(input) && !pointer) setTimeout(() => { if (document.activeElement !== input) close(input); }, 0);
  });
}
"""

# After an event: the answer's element (its id) gets the focus, and is scrolled to when its top is off the
# screen. Fields a refusal is about (``data-field``: their elem_ids) are marked, each with the refusal's words
# (``data-said``) inside it, and the first gets the focus instead.
FOCUS_ANSWER = """() => { requestAnimationFrame(() => {
  const el = document.getElementById('%s');
  if (!el || !el.textContent.trim()) return;
  document.querySelectorAll('.nt-invalid').forEach((old) => {
    old.classList.remove('nt-invalid');
    old.querySelectorAll('[aria-invalid]').forEach((i) => i.removeAttribute('aria-invalid'));
  });
  document.querySelectorAll('.nt-field-error').forEach((old) => old.remove());
  const named = el.querySelector('[data-field]');
  const fields = named ? named.dataset.field.split(' ').map((id) => document.getElementById(id)).filter(Boolean) : [];
  fields.forEach((field, i) => {
    field.classList.add('nt-invalid');
    const said = document.createElement('p');
    said.className = 'nt-field-error';
    said.id = 'nt-field-error-' + i;
    said.textContent = named.dataset.said || named.textContent;
    field.appendChild(said);
    field.querySelectorAll('input, textarea').forEach((input) => {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', said.id);
    });
  });
  const field = fields[0];
  const target = field || el;
  const top = target.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight - 160) target.scrollIntoView({block: field ? 'center' : 'start'});
  const input = field && field.querySelector('input, textarea');
  if (input) { input.focus({preventScroll: true}); return; }
  el.setAttribute('tabindex', '-1');
  el.focus({preventScroll: true});
}); }"""


def install(demo: gr.Blocks) -> None:
    """The skip link (drawn by the first tab that loads); the announcer's words are ``ANNOUNCED``, given to
    ``mount_gradio_app(i18n=...)`` by the site (``space/web/server.py``)."""
    gr.HTML("", js_on_load=SKIP_LINK, elem_classes="nt-skip-installer", padding=False)
