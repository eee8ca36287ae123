// The board without reloads (progressive enhancement: every link and the form work without this file), and an
// entry's citation copied with a button.
// A header link, a split link, the search box and the filter panel fetch the same address the browser
// would open, and swap in the parts of the page that change; the address bar follows (the server's
// short address, after its redirect of a form's query).
(() => {
  'use strict';
  // An entry page's citation: each copy button shows only here, where it can work (without this file the text
  // stays selectable in its <pre>); it copies the text, or else selects it, and says which beside itself.
  for (const button of document.querySelectorAll('button.nt-copy[data-copy]')) {
    const source = document.getElementById(button.dataset.copy);
    const status = document.getElementById(`${button.dataset.copy}-status`);
    if (!source) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      let copied = false;
      try {
        await navigator.clipboard.writeText(source.textContent);
        copied = true;
      } catch (error) {
        const range = document.createRange();
        range.selectNodeContents(source);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
        copied = document.execCommand && document.execCommand('copy');
      }
      if (status) status.textContent = copied ? 'Copied.' : 'Selected: press Ctrl+C (or ⌘C) to copy.';
    });
  }
})();

(() => {
  'use strict';
  const form = document.getElementById('board-form');
  if (!form || !window.fetch || !window.DOMParser || !window.history.pushState) return;
  const PARTS = ['board-splits', 'board-state', 'board-csv', 'board-results'];
  let pending = null;
  let typing = null;

  async function show(url, push, focusKey, parts = PARTS) {
    if (pending) pending.abort();
    const control = new AbortController();
    pending = control;
    let response;
    try {
      response = await fetch(url, {signal: control.signal, credentials: 'same-origin'});
    } catch (error) {
      if (error.name !== 'AbortError') window.location.href = url;
      return;
    }
    if (!response.ok) {
      window.location.href = url;
      return;
    }
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    if (control !== pending) return;
    for (const id of parts) {
      const here = document.getElementById(id);
      const there = page.getElementById(id);
      if (here && there) here.replaceWith(document.adoptNode(there));
    }
    const count = page.querySelector('#board-filters > summary');
    const summary = document.querySelector('#board-filters > summary');
    if (count && summary) summary.innerHTML = count.innerHTML;
    document.title = page.title;
    const address = response.url || url;
    if (push) window.history.pushState(null, '', address);
    else window.history.replaceState(null, '', address);
    if (focusKey) {
      const link = document.querySelector(`#leaderboard-table a.nt-sort[data-sort="${CSS.escape(focusKey)}"]`);
      if (link) link.focus();
    }
  }

  function formAddress() {
    const query = new URLSearchParams(new FormData(form)).toString();
    return `${form.action.split('?')[0]}?${query}`;
  }

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    const link = event.target.closest && event.target.closest('#leaderboard-table a.nt-sort, #board-splits a');
    if (!link || link.origin !== window.location.origin) return;
    event.preventDefault();
    show(link.href, true, link.dataset.sort || null);
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(typing);
    show(formAddress(), true, null);
  });

  form.addEventListener('input', (event) => {
    if (event.target.id !== 'board-search') return;
    clearTimeout(typing);
    typing = setTimeout(() => show(formAddress(), false, null), 250);
  });

  form.addEventListener('change', (event) => {
    if (event.target.id === 'board-search') return;
    show(formAddress(), true, null);
  });

  window.addEventListener('popstate', () => show(window.location.href, false, null, [...PARTS, 'board-form']));
})();
